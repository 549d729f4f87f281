#!/usr/bin/env python3
"""kill_anywhere.py STICKSLIP PRM OUTDIR [--np N] [--resume-np M[,M2...]]
                   [--kills K] [--seed S] [--set S]... [--tolerance T]

Output-integrity test: runs PRM uninterrupted (the reference), then again
with snapshots, killing every process of the run with SIGKILL K times and
resuming it with --resume (on M ranks, or M, M2, ... in turn) until it
completes. The kills aim at the moments when output is written: in turn
while a field file is being written (a temporary *.tmp.PID file exists in
OUTDIR/solution), while a snapshot is being written (a snapshot_*.tmp
folder exists), and at a random moment; a kill whose target does not show
up within a few seconds falls back to a random moment (the report says
which moment each kill hit).

After every kill the directory must hold only complete files under final
names: every .vtu and .pvtu is well-formed XML that ends with </VTKFile>,
every .xdmf record well-formed XML that ends with </Xdmf> and every .h5
file starts with HDF5's signature, solution.pvd or solution.xdmf (Output/
Field format = hdf5) (and every other .pvd series, such as the body's
contact.pvd) parses and every record it lists exists with all its pieces
(the HDF5 files of an XDMF record),
and history.csv holds whole rows that are the reference's first rows (to T
relative, by column), including every row the field outputs of solution.pvd
refer to. At the end, history.csv equals the reference (to T), solution.pvd
lists the same outputs, and OUTDIR/solution holds exactly the files those
outputs consist of: no temporary file, and no stale piece of a killed run
or of another number of ranks. A record's table beside it (the implicit
body's solution/contact_NNNNN.csv) belongs to its output: it must exist
where the uninterrupted run has it, hold whole rows, and equal the
uninterrupted run's (to T). Exit 0/1.
"""
import argparse
import csv
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from kill_resume import launcher, signal_job  # noqa: E402


class Failure(Exception):
    pass


def listing(folder):
    """The names in folder, [] if it does not exist (it may come and go)."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def temporaries(folder):
    return [n for n in listing(folder) if re.search(r"\.tmp\.\d+$", n)]


def snapshot_in_progress(out):
    return any(n.endswith(".tmp") for n in listing(os.path.join(out, "checkpoints")))


def snapshots(out):
    return sorted(n for n in listing(os.path.join(out, "checkpoints"))
                  if n.startswith("snapshot_") and not n.endswith(".tmp"))


def read_rows(path):
    with open(path, newline="") as f:
        text = f.read()
    if text and not text.endswith("\n"):
        raise Failure("%s ends inside a row" % path)
    rows = list(csv.reader(text.splitlines()))
    if not rows:
        raise Failure("%s has no header" % path)
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != len(rows[0]):
            raise Failure("%s, line %d: %d fields, the header has %d"
                          % (path, i, len(row), len(rows[0])))
    return rows


def check_prefix(reference, rows, tolerance, path):
    """rows[1:] are reference[1:len(rows)] to tolerance (per column scale)."""
    if rows[0] != reference[0]:
        raise Failure("%s: header differs from the reference" % path)
    if len(rows) > len(reference):
        raise Failure("%s: %d rows, the reference has %d"
                      % (path, len(rows) - 1, len(reference) - 1))
    scales = []
    for c in range(len(reference[0])):
        values = [abs(float(r[c])) for r in reference[1:] if r[c] != ""]
        scales.append(max(values) if values else 0.0)
    for i in range(1, len(rows)):
        for c, name in enumerate(rows[0]):
            a, b = reference[i][c], rows[i][c]
            if name == "iterations" or (a == "" and b == ""):
                continue
            if (a == "") != (b == ""):
                raise Failure("%s, row %d, %s: '%s' against the reference's '%s'"
                              % (path, i, name, b, a))
            if abs(float(a) - float(b)) > tolerance * max(scales[c], 1e-300):
                raise Failure("%s, row %d, %s: %s against the reference's %s"
                              % (path, i, name, b, a))


def check_xml(path, end=b"</VTKFile>"):
    with open(path, "rb") as f:
        data = f.read()
    if not data.rstrip().endswith(end):
        raise Failure("%s is incomplete (no closing %s)" % (path, end.decode()))
    try:
        ET.fromstring(data)
    except ET.ParseError as e:
        raise Failure("%s is not well-formed XML: %s" % (path, e))


def pvd_outputs(out, name="solution.pvd"):
    """(time, record, stem) of each output of the series NAME (solution.pvd,
    or another series a model writes at the same outputs, such as the body's
    contact.pvd); [] if there is none. The record is the file that lists the
    output's pieces: a .pvtu, an XDMF record, or an HDF5 series file that
    holds many outputs (Output/Field format = hdf5: the contact surface,
    solution/contact_from_KKKKK.h5); the stem names the output
    (SERIES_KKKKK), and its table beside it (SERIES_KKKKK.csv)."""
    path = os.path.join(out, name)
    if name == "solution.pvd" and not os.path.exists(path):
        path = os.path.join(out, "solution.xdmf")
        name = "solution.xdmf"
    if not os.path.exists(path):
        return []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise Failure("%s is not well-formed: %s" % (name, e))
    if name.endswith(".xdmf"):
        # A temporal collection of the outputs' grids, named by the output.
        outputs = []
        for grid in root.find("Domain/Grid").findall("Grid"):
            sources = [d.text.strip() for d in grid.iter("DataItem")]
            folder = os.path.dirname(sources[0].split(":")[0])
            in_series = [s.split(":")[0] for s in sources if "|" in s]
            record = in_series[0] if in_series else \
                os.path.join(folder, grid.get("Name") + ".xdmf")
            outputs.append((float(grid.find("Time").get("Value")), record,
                            os.path.join(folder, grid.get("Name"))))
        return outputs
    return [(float(d.get("timestep")), d.get("file"),
             os.path.splitext(d.get("file"))[0]) for d in root.iter("DataSet")]


def series(out):
    """The .pvd and .xdmf series of OUTDIR."""
    return sorted(n for n in os.listdir(out) if n.endswith(".pvd") or n.endswith(".xdmf")) \
        if os.path.isdir(out) else []


def series_template(record_path):
    """The XDMF template beside an HDF5 series file."""
    return record_path[:-3] + ".xdmf.in"


def pieces(record_path):
    """The files of a record, relative to its folder: a .pvtu's pieces, an
    .xdmf record's HDF5 files; a series file, its template and the files
    the template names."""
    if record_path.endswith(".h5"):
        template = series_template(record_path)
        root = ET.parse(template).getroot()
        return sorted({os.path.basename(record_path), os.path.basename(template)}
                      | {d.text.split(":")[0] for d in root.iter("DataItem")})
    root = ET.parse(record_path).getroot()
    if record_path.endswith(".xdmf"):
        return sorted({d.text.split(":")[0] for d in root.iter("DataItem")})
    return [p.get("Source") for p in root.iter("Piece")]


def check_series_times(out, name):
    """Every output of the series NAME that lives in an HDF5 series file has
    its time there (written last, after its values: a listed output is
    complete)."""
    rows = {}
    for t, record, stem in pvd_outputs(out, name):
        if record.endswith(".h5"):
            first = int(re.search(r"_from_(\d+)\.h5$", record).group(1))
            index = int(re.search(r"_(\d+)$", stem).group(1))
            rows.setdefault(record, []).append((index - first, t))
    if rows:
        # Debian's python3-h5py, a test package (scripts/ensure_dependencies.sh)
        import h5py
    for record, listed in rows.items():
        with h5py.File(os.path.join(out, record), "r") as f:
            times = f["time"][:]
            for row, t in listed:
                if row >= len(times) or not times[row] == t:
                    raise Failure("%s lists the output at t = %r in row %d of %s, "
                                  "which holds t = %r" % (name, t, row, record,
                                                          times[row] if row < len(times) else None))
    return sum(len(listed) for listed in rows.values())


def check_directory(out, reference_rows, tolerance):
    """Every file under a final name is complete and consistent."""
    solution = os.path.join(out, "solution")
    if os.path.isdir(solution):
        for name in os.listdir(solution):
            if name.endswith(".vtu") or name.endswith(".pvtu"):
                check_xml(os.path.join(solution, name))
            if name.endswith(".xdmf") or name.endswith(".xdmf.in"):
                check_xml(os.path.join(solution, name), b"</Xdmf>")
            if name.endswith(".h5"):
                with open(os.path.join(solution, name), "rb") as f:
                    if f.read(8) != b"\x89HDF\r\n\x1a\n":
                        raise Failure("%s is not an HDF5 file" % name)
    outputs = pvd_outputs(out)
    for name in series(out):
        for _, record, _ in pvd_outputs(out, name):
            path = os.path.join(out, record)
            if not os.path.exists(path):
                raise Failure("%s lists %s, which does not exist" % (name, record))
            for piece in pieces(path):
                if not os.path.exists(os.path.join(os.path.dirname(path), piece)):
                    raise Failure("%s lists the missing piece %s" % (record, piece))
        check_series_times(out, name)
    history = os.path.join(out, "history.csv")
    rows = read_rows(history) if os.path.exists(history) else None
    if rows is not None:
        check_prefix(reference_rows, rows, tolerance, history)
        times = [float(r[0]) for r in rows[1:]]
        if outputs and (not times or outputs[-1][0] > times[-1] + 1e-12):
            raise Failure("solution.pvd/.xdmf has an output at t = %g after the "
                          "last row of history.csv" % outputs[-1][0])
    return 0 if rows is None else len(rows) - 1


def field_files(out, reference=None):
    """The files the outputs of every series consist of (relative to OUTDIR),
    with a record's table (its name with .csv) where REFERENCE has one."""
    files = set()
    for name in series(out):
        for _, record, stem in pvd_outputs(out, name):
            files.add(os.path.normpath(record))
            folder = os.path.dirname(record)
            for piece in pieces(os.path.join(out, record)):
                files.add(os.path.normpath(os.path.join(folder, piece)))
            table = os.path.normpath(stem) + ".csv"
            if reference is not None and os.path.exists(os.path.join(reference, table)):
                files.add(table)
    return files


def check_tables(run, reference, tolerance):
    """Each record's table equals the uninterrupted run's (to TOLERANCE)."""
    tables = sorted(f for f in field_files(reference, reference) if f.endswith(".csv"))
    for table in tables:
        check_prefix(read_rows(os.path.join(reference, table)),
                     read_rows(os.path.join(run, table)), tolerance, table)
    return len(tables)


def wait_and_kill(process, out, target, rng, executable, timeout):
    """Kill the run when the target moment comes (or at random); returns
    what was hit, or None if the run ended first."""
    solution = os.path.join(out, "solution")
    # Progress first: a new snapshot of this attempt (so that the run moves
    # on from kill to kill), then the moment aimed at.
    seen = snapshots(out)
    waited = time.time() + timeout
    while process.poll() is None and snapshots(out) == seen and time.time() < waited:
        time.sleep(0.005)
    start = time.time()
    deadline = start + (rng.uniform(0, 0.3) if target == "random" else timeout)
    hit = "random moment"
    while process.poll() is None:
        now = time.time()
        if target == "field output" and temporaries(solution):
            hit = "during field output"
            break
        if target == "snapshot" and snapshot_in_progress(out):
            hit = "during a snapshot"
            break
        if now > deadline:
            hit = "random moment" if target == "random" else \
                  "random moment (no %s seen)" % target
            break
    if process.poll() is not None:
        return None
    signal_job(process, signal.SIGKILL, executable)
    process.wait()
    return hit


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("prm")
    parser.add_argument("out")
    parser.add_argument("--np", type=int, default=1)
    parser.add_argument("--resume-np", default="")
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--tolerance", type=float, default=1e-12)
    parser.add_argument("--target-timeout", type=float, default=4.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sets = []
    for s in args.set:
        sets += ["--set", s]
    resume_nps = [int(n) for n in args.resume_np.split(",") if n] or [args.np]

    reference = os.path.join(args.out, "reference")
    run = os.path.join(args.out, "interrupted")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    base = [args.exe, args.prm, "--quiet", "--set", "Output/Overwrite=true"] + sets
    subprocess.run(launcher(args.np) + base + ["--set", "Output/Directory=" + reference],
                   check=True, stdout=subprocess.DEVNULL)
    reference_rows = read_rows(os.path.join(reference, "history.csv"))

    targets = ["field output", "snapshot", "random"]
    kills, resumes, hits = 0, 0, []
    command = launcher(args.np) + base + ["--set", "Output/Directory=" + run]
    try:
        for attempt in range(1, 4 * args.kills + 10):
            process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT,
                                       start_new_session=True)
            hit = None
            if kills < args.kills:
                hit = wait_and_kill(process, run, targets[kills % 3], rng,
                                    args.exe, args.target_timeout)
            output = process.communicate()[0].decode()
            # A run killed after its last write (the snapshot at its end) is
            # complete: a resume says so (exit 1) and changes nothing.
            if hit is None and process.returncode == 1 and \
                    "the run is complete" in output:
                print("attempt %d: the run was complete" % attempt)
                break
            if hit is None:
                if process.returncode != 0:
                    print(output)
                    raise Failure("attempt %d ended with exit status %d"
                                  % (attempt, process.returncode))
                print("attempt %d: completed" % attempt)
                break
            kills += 1
            rows = check_directory(run, reference_rows, args.tolerance)
            hits.append(hit)
            print("attempt %d: killed %s; %d whole rows in history.csv, all "
                  "files complete" % (attempt, hit, rows))
            if snapshots(run):
                np_ = resume_nps[resumes % len(resume_nps)]
                resumes += 1
                command = launcher(np_) + base + ["--resume", run]
            else:
                command = launcher(args.np) + base + ["--set", "Output/Directory=" + run]
        else:
            raise Failure("the run does not complete")

        check_directory(run, reference_rows, args.tolerance)
        rows = read_rows(os.path.join(run, "history.csv"))
        if len(rows) != len(reference_rows):
            raise Failure("history.csv has %d rows, the uninterrupted run %d"
                          % (len(rows) - 1, len(reference_rows) - 1))
        if series(run) != series(reference):
            raise Failure("the run wrote the series %s, the uninterrupted run %s"
                          % (series(run), series(reference)))
        for name in series(reference):
            if pvd_outputs(run, name) != pvd_outputs(reference, name):
                raise Failure("%s differs from the uninterrupted run's" % name)
        expected = field_files(run, reference)
        solution = os.path.join(run, "solution")
        present = set()
        if os.path.isdir(solution):
            present = {os.path.join("solution", n) for n in os.listdir(solution)}
        if present != expected:
            raise Failure("OUTDIR/solution holds files no output refers to: %s; "
                          "or misses %s" % (sorted(present - expected)[:5],
                                            sorted(expected - present)[:5]))
        leftovers = temporaries(run) + temporaries(solution)
        if leftovers:
            raise Failure("temporary files left: %s" % leftovers[:5])
        tables = check_tables(run, reference, args.tolerance)
        if tables:
            print("%d tables of the outputs equal to the uninterrupted run's" % tables)
    except Failure as failure:
        print("FAIL: %s" % failure)
        return 1
    print("%d kills (%s), %d resumes: every file complete after each kill, "
          "history equal to the uninterrupted run, no stale or temporary "
          "file: PASS" % (kills, ", ".join("%d %s" % (hits.count(h), h)
                                          for h in sorted(set(hits))), resumes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
