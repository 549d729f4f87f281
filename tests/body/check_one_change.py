#!/usr/bin/python3
"""check_one_change.py EXE PRM OUTDIR [--tolerance T] [--min-iterations-ratio R]

Body/Linear solver/One change at a time from (doc/theory.md §7.7): the
safeguard of the active-set iteration against cycling, which changes one
contact or stick flag per iteration (the one of the least index, Murty's
rule). PRM runs twice, with the default (0: only where a set of flags
repeats) and with the safeguard from the first iteration of every step;
both must end at the same discrete solution: the contact nodes' pressures
of contact_nodes.csv within --tolerance of the largest pressure, the
history's normal_force within --tolerance of its largest. The log's
summary must count 0 safeguarded steps in the first run and some in the
second (a step counts where one of its iterations changed a flag), which
must take more active-set iterations (at least --min-iterations-ratio
times the first's). Exit 0 if all hold.
"""
import argparse
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import implicit_summary  # noqa: E402


def run(exe, prm, out, start):
    subprocess.run([exe, prm, "--quiet", "--set", "Output/Directory=" + out,
                    "--set", "Output/Overwrite=true", "--set", "Output/Field output=false",
                    "--set", "Body/Linear solver/One change at a time from=%d" % start,
                    "--set", "Body/Linear solver/Maximum active-set iterations=400"],
                   check=True, stdout=subprocess.DEVNULL,
                   # The examples' mesh files are relative to the top folder.
                   cwd=os.path.dirname(os.path.dirname(os.path.abspath(prm))))
    counts = implicit_summary(out)
    if not counts:
        sys.exit("check_one_change: no implicit summary in %s/log.txt" % out)
    with open(os.path.join(out, "contact_nodes.csv")) as f:
        nodes = [float(r["pressure"]) for r in csv.DictReader(f)]
    with open(os.path.join(out, "history.csv")) as f:
        force = [float(r["normal_force"]) for r in csv.DictReader(f)]
    return [counts[k] for k in ("steps", "iterations", "cycled_steps")], nodes, force


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--tolerance", type=float, default=1e-12)
    p.add_argument("--min-iterations-ratio", type=float, default=1.0)
    a = p.parse_args()
    out = os.path.abspath(a.outdir)
    (steps, iterations, guarded), pressure, force = run(
        a.exe, a.prm, os.path.join(out, "default"), 0)
    (steps1, iterations1, guarded1), pressure1, force1 = run(
        a.exe, a.prm, os.path.join(out, "one_at_a_time"), 1)
    p_error = max(abs(x - y) for x, y in zip(pressure, pressure1)) / max(map(abs, pressure))
    f_error = max(abs(x - y) for x, y in zip(force, force1)) / max(map(abs, force))
    print("default: %d steps, %d active-set iterations, %d safeguarded steps" % (
        steps, iterations, guarded))
    print("one change at a time from iteration 1: %d steps, %d iterations, %d safeguarded "
          "steps" % (steps1, iterations1, guarded1))
    print("pressures differ by %.2e, normal_force by %.2e of their largest (bound %.1e)" % (
        p_error, f_error, a.tolerance))
    ok = (len(pressure) == len(pressure1) and p_error <= a.tolerance and f_error <= a.tolerance
          and guarded == 0 and guarded1 > 0 and steps1 == steps
          and iterations1 > iterations
          and iterations1 >= a.min_iterations_ratio * iterations)
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
