#!/usr/bin/python3
"""check_vtk_python.py RUN_DIR SCRATCH_DIR: the reading of a run's field files
by postprocess/vtk_python.py, the module every script of postprocess/ reads
.pvd and .pvtu files with.

RUN_DIR is a run of prm/membrane.prm on 2 ranks with fields (two .vtu pieces
per record). Checked:
  - read_pvd() lists every record of solution.pvd with its time, in
    increasing t, one per row of history.csv at the field-output times, each
    file in RUN_DIR/solution/;
  - select_record() picks the last record by default, the nearest one to a
    time, one by number, and refuses a number out of range;
  - in_window() keeps the records of a time window;
  - read_pvtu() joins the pieces of the ranks: every cell of the mesh, with
    its 4 vertices, and the fields of the record;
    point_values() gives a field and names the fields there are when asked
    for one that is missing;
and in copies in SCRATCH_DIR, every broken input is an Error naming the file:
no folder, no .pvd, a .pvd that is not XML, no data set, a data set without
a numeric time, a listed record that is missing, a record with a missing
piece. Exit 0 when all hold (prints PASS), 1 otherwise."""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "postprocess"))
import vtk_python  # noqa: E402
from vtk_python import Error  # noqa: E402

failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def refused(call, *words):
    """call() raises an Error whose text holds every word."""
    try:
        call()
    except Error as e:
        text = str(e)
        return all(w in text for w in words), text
    return False, "no Error"


def expect_refusal(what, call, *words):
    ok, text = refused(call, *words)
    check(ok, f"{what}: {text}")


def history_times(run_dir):
    with open(os.path.join(run_dir, "history.csv")) as f:
        next(f)
        return [float(line.split(",")[0]) for line in f if line.strip()]


def check_real_run(run_dir):
    records = vtk_python.read_pvd(run_dir, "solution")
    times = [r.t for r in records]
    check(len(records) >= 3, f"solution.pvd lists {len(records)} records (>= 3)")
    check(times == sorted(times), "the records are in increasing t")
    rows = history_times(run_dir)
    check(all(any(abs(t - s) <= 1e-12 * max(1.0, abs(s)) for s in rows) for t in times),
          "every record's time is a row of history.csv")
    check(all(os.path.dirname(r.path) == os.path.join(run_dir, "solution") for r in records),
          "every record is in RUN_DIR/solution/")
    check(vtk_python.select_record(records) == records[-1], "default: the last record")
    middle = records[len(records) // 2]
    check(vtk_python.select_record(records, time=middle.t + 1e-9) == middle,
          f"the record nearest to t = {middle.t + 1e-9:g} is the one at {middle.t:g}")
    check(vtk_python.select_record(records, index=0) == records[0], "record number 0")
    expect_refusal("number out of range", lambda: vtk_python.select_record(
        records, index=len(records)), "out of range", str(len(records)))
    window = vtk_python.in_window(records, times[1], times[-2])
    check([r.t for r in window] == times[1:-1], "in_window keeps the records inside")

    grid = vtk_python.read_pvtu(records[-1].path)
    with open(records[-1].path) as f:
        pieces = f.read().count("<Piece ")
    check(pieces == 2, f"the record has {pieces} pieces (2 ranks)")
    # meshes/membrane.msh refined as in the run: 3072 quads; deal.II's DataOut
    # writes the 4 vertices of every cell (12288 points for 3201 vertices)
    check(grid.GetNumberOfCells() == 3072, f"{grid.GetNumberOfCells()} cells (3072)")
    check(grid.GetNumberOfPoints() == 4 * 3072, f"{grid.GetNumberOfPoints()} points (4 x 3072)")
    stick = vtk_python.point_values(grid, "stick", records[-1].path)
    check(stick.shape == (grid.GetNumberOfPoints(),) and set(stick.tolist()) <= {0.0, 1.0},
          "stick: one 0/1 value per point")
    expect_refusal("a missing field", lambda: vtk_python.point_values(
        grid, "no_such_field", records[-1].path), "no_such_field", "stick", "displacement")


def check_broken_copies(run_dir, scratch):
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    expect_refusal("no folder", lambda: vtk_python.read_pvd(
        os.path.join(scratch, "none")), "is not a directory")
    expect_refusal("no .pvd", lambda: vtk_python.read_pvd(scratch, "contact", "a body run"),
                   "has no contact.pvd", "a body run")

    def write_pvd(name, text):
        folder = os.path.join(scratch, name)
        os.makedirs(folder)
        with open(os.path.join(folder, "solution.pvd"), "w") as f:
            f.write(text)
        return folder

    head = '<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n<Collection>\n'
    tail = "</Collection>\n</VTKFile>\n"
    expect_refusal("not XML", lambda: vtk_python.read_pvd(write_pvd("bad_xml", head)),
                   "cannot read", "solution.pvd")
    expect_refusal("no data set", lambda: vtk_python.read_pvd(write_pvd("empty", head + tail)),
                   "lists no data sets")
    expect_refusal("no numeric time", lambda: vtk_python.read_pvd(write_pvd(
        "no_time", head + '<DataSet timestep="soon" file="solution/a.pvtu"/>\n' + tail)),
        "no numeric timestep", "soon")
    missing = vtk_python.read_pvd(write_pvd(
        "missing", head + '<DataSet timestep="0.5" file="solution/a.pvtu"/>\n' + tail))
    expect_refusal("a missing record", lambda: vtk_python.select_record(missing),
                   "a.pvtu", "does not exist")

    copy = os.path.join(scratch, "copy")
    shutil.copytree(run_dir, copy, ignore=shutil.ignore_patterns(os.path.basename(scratch)))
    last = vtk_python.read_pvd(copy)[-1]
    piece = sorted(p for p in os.listdir(os.path.dirname(last.path))
                   if p.endswith(".vtu") and os.path.basename(last.path)[:-5] in p)[-1]
    os.remove(os.path.join(os.path.dirname(last.path), piece))
    expect_refusal("a record with a missing piece", lambda: vtk_python.read_pvtu(last.path),
                   "VTK could not read", os.path.basename(last.path))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    vtk_python.require_vtk("check_vtk_python")
    check_real_run(sys.argv[1])
    check_broken_copies(sys.argv[1], sys.argv[2])
    print("FAIL: " + "; ".join(failures) if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
