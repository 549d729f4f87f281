#!/usr/bin/python3
"""fronts.py EXE PRM --levels L1 L2 ... [--final-time T] [--np N]
       [--min-order Q] [--max-unmatched F] [--records R] [--set S]...
       [--workdir DIR] [--keep]

Convergence of rupture fronts under mesh refinement (doc/theory.md §8.7,
doc/verification.md): the body example PRM (Model = body, 2D) is run with
its Body/Subdivisions and Time/Time step scaled by 1/L for every level L
(the same CFL number), contact.pvd written only at t0 and at the final
time. The rupture time of every node (the first time its slip rate
exceeded the friction law's Rupture slip rate in contact; -1 if never) is
read from the last record with VTK; the nodes of the coarsest mesh are nodes
of every finer one (refinement by integer factors), and there the fields of
successive levels are compared:
  d_max   the largest |t_L - t_L'| over the nodes ruptured on both,
  d_mean  the mean of it,
  unmatched  the fraction of nodes ruptured on one level only.
The observed order of d_mean between successive differences (levels
doubling) is asserted >= --min-order, and unmatched <= --max-unmatched.
The front speed along the interface from the finest field is printed
(centred differences of x against the rupture time, averaged over 10 mm).
Also prints, for each level, the number of stick<->slip switches per node
and per unit time (from the records, only if --records > 2).
"""
import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def read_prm_value(prm, name):
    with open(prm) as f:
        for line in f:
            text = line.split("#")[0].strip()
            if text.startswith("set ") and "=" in text:
                key, value = text[4:].split("=", 1)
                if key.strip() == name:
                    return value.strip()
    sys.exit("FAIL: %s has no entry %s" % (prm, name))


def launcher(np_):
    if np_ <= 1:
        return []
    command = ["mpirun", "-np", str(np_), "--oversubscribe"]
    if os.geteuid() == 0:
        command.append("--allow-run-as-root")
    return command


def run_level(a, level, workdir):
    cells = [int(c) * level for c in read_prm_value(a.prm, "Subdivisions").split(",")]
    dt = float(read_prm_value(a.prm, "Time step")) / level
    final_time = a.final_time or float(read_prm_value(a.prm, "Final time"))
    n_steps = int(round(final_time / dt))
    out = os.path.join(workdir, "level_%d" % level)
    records = max(a.records - 1, 1)
    command = launcher(a.np) + [
        a.exe, a.prm, "--quiet", "--set", "Output/Directory=" + out,
        "--set", "Output/Overwrite=true", "--set", "Output/Field output=true",
        "--set", "Time/Time step=%r" % dt,
        "--set", "Time/Final time=%r" % (n_steps * dt),
        "--set", "Output/Interval=%r" % (n_steps * dt / records),
        "--set", "Body/Subdivisions=%s" % ", ".join(str(c) for c in cells),
        "--set", "Output/Field output every=1000000",
        "--set", "Output/Contact output every=1"]
    for s in a.set:
        command += ["--set", s]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    if done.returncode != 0:
        sys.exit("FAIL: level %d exited with %d:\n%s" % (level, done.returncode, done.stdout))
    return out


def read_records(out):
    """[(t, {x: (rupture_time, slip_rate, state)})] of contact.pvd."""
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    root = ET.parse(os.path.join(out, "contact.pvd")).getroot()
    records = []
    for dataset in root.iter("DataSet"):
        reader = vtk.vtkXMLPUnstructuredGridReader()
        reader.SetFileName(os.path.join(out, dataset.get("file")))
        reader.Update()
        grid = reader.GetOutput()
        points = vtk_to_numpy(grid.GetPoints().GetData())
        data = grid.GetPointData()
        fields = [vtk_to_numpy(data.GetArray(n)) for n in ("rupture_time", "slip_rate", "state")]
        nodes = {}
        for j in range(len(points)):
            nodes[round(float(points[j][0]), 9)] = tuple(float(f[j]) for f in fields)
        records.append((float(dataset.get("timestep")), nodes))
    return records


def switches(records, threshold):
    """Switches per node and unit time of the slip state (slip rate above the
    rupture slip rate) and of the stuck state (state 1), over the nodes that
    ruptured, between successive records."""
    nodes = [x for x, v in records[-1][1].items() if v[0] >= 0]
    if not nodes or len(records) < 3:
        return float("nan"), float("nan")
    span = records[-1][0] - records[0][0]
    slipping = sticking = 0
    for (_, before), (_, after) in zip(records, records[1:]):
        for x in nodes:
            slipping += (before[x][1] > threshold) != (after[x][1] > threshold)
            sticking += (before[x][2] == 1) != (after[x][2] == 1)
    return slipping / len(nodes) / span, sticking / len(nodes) / span


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("--levels", type=int, nargs="+", required=True)
    p.add_argument("--final-time", type=float)
    p.add_argument("--np", type=int, default=1)
    p.add_argument("--min-order", type=float, default=0.5)
    p.add_argument("--max-unmatched", type=float, default=0.02)
    p.add_argument("--records", type=int, default=2)
    p.add_argument("--threshold", type=float, default=1e-3)
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--workdir")
    a = p.parse_args()
    workdir = a.workdir or tempfile.mkdtemp(prefix="fronts_")
    os.makedirs(workdir, exist_ok=True)
    fields = []
    for level in a.levels:
        records = read_records(run_level(a, level, workdir))
        fields.append(records[-1][1])
        rate, stick = switches(records, a.threshold)
        ruptured = sum(1 for v in records[-1][1].values() if v[0] >= 0)
        print("level %d: %d nodes, %d ruptured, rupture times %.4g..%.4g s; switches "
              "per node and second: slipping %.4g, stuck %.4g"
              % (level, len(records[-1][1]), ruptured,
                 min((v[0] for v in records[-1][1].values() if v[0] >= 0), default=-1),
                 max(v[0] for v in records[-1][1].values()), rate, stick))
    coarse = sorted(fields[0])
    differences = []
    failures = []
    for k in range(len(fields) - 1):
        both = [abs(fields[k][x][0] - fields[k + 1][x][0]) for x in coarse
                if fields[k][x][0] >= 0 and fields[k + 1][x][0] >= 0]
        unmatched = sum(1 for x in coarse
                        if (fields[k][x][0] >= 0) != (fields[k + 1][x][0] >= 0))
        if not both:
            sys.exit("FAIL: no node ruptured on levels %d and %d" % (a.levels[k], a.levels[k + 1]))
        d_max, d_mean = max(both), sum(both) / len(both)
        differences.append(d_mean)
        print("levels %d-%d: %d nodes ruptured on both, d_max %.4e s, d_mean %.4e s, "
              "unmatched %d" % (a.levels[k], a.levels[k + 1], len(both), d_max, d_mean,
                                unmatched))
        if unmatched > a.max_unmatched * len(coarse):
            failures.append("%d nodes ruptured on one of levels %d, %d only"
                            % (unmatched, a.levels[k], a.levels[k + 1]))
    orders = [math.log(differences[k] / differences[k + 1])
              / math.log(a.levels[k + 2] / a.levels[k + 1])
              for k in range(len(differences) - 1)]
    print("observed orders of d_mean: " + ", ".join("%.3f" % q for q in orders))
    finest = sorted((x, v[0]) for x, v in fields[-1].items() if v[0] >= 0)
    print("front speed on the finest level (x, rupture time, speed over 10 mm):")
    for j in range(0, len(finest), max(len(finest) // 12, 1)):
        x, t = finest[j]
        near = [(y, s) for y, s in finest if abs(y - x) <= 0.005]
        (x0, t0), (x1, t1) = near[0], near[-1]
        speed = abs(x1 - x0) / abs(t1 - t0) if t1 != t0 else float("inf")
        print("  x = %.4f m  t = %.4e s  %.0f m/s" % (x, t, speed))
    if not orders:
        failures.append("fewer than three levels: no order")
    elif min(orders) < a.min_order:
        failures.append("observed order %.3f below %g" % (min(orders), a.min_order))
    if not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        sys.exit("FAIL: " + "; ".join(failures))
    print("OK")


if __name__ == "__main__":
    main()
