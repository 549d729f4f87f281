#!/usr/bin/env python3
"""resume_across_ranks.py STICKSLIP PRM OUT --np N --resume-np 1,2,3
       --stop T1 --final T --checkpoint C --tolerance TOL
       [--mesh PARAMETER=FILE [--mismatch]] [stickslip options...]

A snapshot written on N ranks resumed on other numbers of ranks, without a
kill (nothing is timed):
  1. the uninterrupted run to T on N ranks (the reference);
  2. the same run to T1 on N ranks with Output/Checkpoint interval = C: its
     newest snapshot is the last multiple of C before T1;
  3. for each R of --resume-np: a copy of 2. resumed on R ranks to T
     (a resumed run may go further than the run it continues).
Every resumed history.csv must equal the reference within TOL times each
column's largest magnitude (tests/compare_histories.py); the rows before
the snapshot are the written ones, those after it are computed again on R
ranks. The largest difference of the recomputed rows is printed per R.

--mesh PARAMETER=FILE: every run reads a copy of the gmsh file FILE,
OUT/mesh.msh, as its PARAMETER (e.g. Body/Mesh file). --mismatch: then also
the case where a snapshot truly cannot be matched: the copy is changed
between the write and the resume by moving one interior node: the resume
must be refused (exit 1) saying that the snapshot cannot be matched to this
run, not that it is corrupt.
--series: also every .pvd series: a resumed run lists the reference's
outputs at the same times, and each output's table (solution/
contact_NNNNN.csv, the implicit body's contact nodes, gathered rank by
rank: compared row by row in the order of their coordinates x, y, z)
equals the reference's within TOL times each column's largest magnitude.
--columns C: compare only these history.csv columns
(compare_histories.py --columns; e.g. without energy_balance, round-off
alone in a quasi-static run).
Exit 0 if all hold, 1 otherwise.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def launcher(np):
    if np == 1:
        return []
    command = ["mpirun", "-np", str(np), "--oversubscribe"]
    if os.geteuid() == 0:
        command.append("--allow-run-as-root")
    return command


def run(command):
    print("running:", " ".join(command), flush=True)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True)
    return result.returncode, result.stdout


def table(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    return rows[0], [[float(v) if v else float("nan") for v in r] for r in rows[1:]]


def largest_difference(reference, resumed, after):
    """max over the rows with t > after of |a - b| / (column scale of a)."""
    header, a = table(reference)
    _, b = table(resumed)
    scale = [max(abs(r[c]) for r in a if r[c] == r[c]) or 1. for c in range(len(header))]
    worst, where = 0., ""
    for ra, rb in zip(a, b):
        if ra[0] <= after:
            continue
        for c, name in enumerate(header):
            if name == "iterations" or ra[c] != ra[c]:
                continue
            d = abs(ra[c] - rb[c]) / scale[c]
            if d > worst:
                worst, where = d, "%s at t = %g" % (name, ra[0])
    return worst, where, sum(1 for r in a if r[0] > after)


def pvd_times(path):
    """(time, record) of each output of the .pvd series PATH."""
    with open(path) as f:
        return re.findall(r'timestep="([^"]*)"[^>]*file="([^"]*)"', f.read())


def compare_series(reference, resumed, tolerance):
    """The failures of the resumed run's .pvd series and output tables
    against the reference's; prints what was compared."""
    failures = []
    for name in sorted(n for n in os.listdir(reference) if n.endswith(".pvd")):
        outputs = pvd_times(os.path.join(reference, name))
        if pvd_times(os.path.join(resumed, name)) != outputs:
            failures.append("%s lists other outputs than the reference's" % name)
            continue
        worst, tables = 0., 0
        for _, record in outputs:
            table_name = os.path.splitext(record)[0] + ".csv"
            if not os.path.exists(os.path.join(reference, table_name)):
                continue
            tables += 1
            if not os.path.exists(os.path.join(resumed, table_name)):
                failures.append("%s is missing" % table_name)
                continue
            header, a = table(os.path.join(reference, table_name))
            header_b, b = table(os.path.join(resumed, table_name))
            place = [c for c, n in enumerate(header) if n in ("x", "y", "z")]
            a.sort(key=lambda r: [r[c] for c in place])
            b.sort(key=lambda r: [r[c] for c in place])
            if header_b != header or len(a) != len(b):
                failures.append("%s differs in its columns or rows" % table_name)
                continue
            for c in range(len(header)):
                scale = max(abs(r[c]) for r in a) or 1.
                worst = max([worst] + [abs(ra[c] - rb[c]) / scale for ra, rb in zip(a, b)])
        print("%s: %d outputs at the reference's times, %d tables, largest difference "
              "%.2e of the column's scale" % (name, len(outputs), tables, worst))
        if worst > tolerance:
            failures.append("%s: the tables differ by %.2e > %g" % (name, worst, tolerance))
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("out")
    p.add_argument("--np", type=int, required=True)
    p.add_argument("--resume-np", required=True)
    p.add_argument("--stop", required=True)
    p.add_argument("--final", required=True)
    p.add_argument("--checkpoint", required=True)
    p.add_argument("--tolerance", required=True)
    p.add_argument("--mesh")
    p.add_argument("--mismatch", action="store_true")
    p.add_argument("--series", action="store_true")
    p.add_argument("--columns")
    args, options = p.parse_known_args()
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    args.mesh_copy = None
    if args.mesh:
        parameter, source = args.mesh.split("=", 1)
        args.mesh_copy = os.path.join(args.out, "mesh.msh")
        shutil.copy(source, args.mesh_copy)
        options += ["--set", parameter + "=" + args.mesh_copy]
    base = [args.exe, args.prm, "--quiet"] + options
    failures = []

    reference = os.path.join(args.out, "reference")
    status, text = run(launcher(args.np) + base + [
        "--set", "Output/Directory=" + reference, "--set", "Time/Final time=" + args.final])
    part = os.path.join(args.out, "part")
    status2, text2 = run(launcher(args.np) + base + [
        "--set", "Output/Directory=" + part, "--set", "Time/Final time=" + args.stop,
        "--set", "Output/Checkpoint interval=" + args.checkpoint])
    if status or status2:
        print(text + text2 + "FAIL: the runs to resume from failed")
        return 1
    snapshots = sorted(os.listdir(os.path.join(part, "checkpoints")))
    print("snapshots of the run on %d ranks: %s" % (args.np, snapshots))
    step = int(snapshots[-1].split("_")[1])

    for np in [int(n) for n in args.resume_np.split(",")]:
        resumed = os.path.join(args.out, "resumed_np%d" % np)
        shutil.copytree(part, resumed)
        status, text = run(launcher(np) + base + [
            "--set", "Output/Directory=" + resumed, "--set", "Time/Final time=" + args.final,
            "--set", "Output/Checkpoint interval=" + args.checkpoint, "--resume", resumed])
        if status != 0:
            print(text)
            failures.append("the resume on %d ranks failed (exit %d)" % (np, status))
            continue
        status, text = run([sys.executable, os.path.join(HERE, "..", "compare_histories.py"),
                            os.path.join(reference, "history.csv"),
                            os.path.join(resumed, "history.csv"),
                            "--tolerance", args.tolerance]
                           + (["--columns", args.columns] if args.columns else []))
        print(text, end="")
        with open(os.path.join(resumed, "log.txt")) as f:
            found = re.search(r"resumed at step \d+ \(t = (\S+)\)", f.read())
        snapshot_time = float(found.group(1)) if found else 0.
        worst, where, n = largest_difference(os.path.join(reference, "history.csv"),
                                             os.path.join(resumed, "history.csv"),
                                             snapshot_time)
        print("written on %d ranks, resumed on %d from step %d: %d rows recomputed, largest "
              "difference %.2e of the column's scale (%s)" % (args.np, np, step, n, worst, where))
        if status != 0:
            failures.append("the history resumed on %d ranks differs" % np)
        if args.series:
            failures += ["resumed on %d ranks: %s" % (np, f) for f in
                         compare_series(reference, resumed, float(args.tolerance))]

    if args.mismatch:
        failures += mismatch(args, base, part)
    for failure in failures:
        print("FAIL:", failure)
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


def mismatch(args, base, part):
    """A mesh file changed under a snapshot: refused as not matching."""
    moved = os.path.join(args.out, "moved")
    shutil.copytree(part, moved)
    with open(args.mesh_copy) as f:
        lines = f.read().split("\n")
    original = list(lines)
    # The first interior node of the $Nodes section moved by a tenth of a
    # unit in x: the mesh keeps its unknowns, not their places.
    start = lines.index("$Nodes") + 2
    for k in range(start, lines.index("$EndNodes")):
        words = lines[k].split()
        if float(words[1]) not in (0., 2.) and float(words[2]) not in (0., 2.):
            words[1] = repr(float(words[1]) + 0.1)
            lines[k] = " ".join(words)
            break
    try:
        with open(args.mesh_copy, "w") as f:
            f.write("\n".join(lines))
        status, text = run(base + ["--set", "Output/Directory=" + moved,
                                   "--set", "Time/Final time=" + args.final, "--resume", moved])
    finally:
        with open(args.mesh_copy, "w") as f:
            f.write("\n".join(original))
    print(text)
    if status != 1 or "cannot be matched to this run" not in text or "corrupt" in text:
        return ["a snapshot of another mesh: exit %d, not refused as not matching" % status]
    print("PASS: a snapshot of another mesh is refused as not matching this run")
    return []


if __name__ == "__main__":
    sys.exit(main())
