#!/usr/bin/env python3
"""lumped_vs_consistent.py EXE PRM OUTDIR --levels 6,8 --dt0 0.25

Runs PRM with a lumped mass (closed-form friction step) and with a consistent
mass (semismooth Newton) at each level r (Global refinements r, dt = dt0 2^-r)
and measures the largest difference of their kinetic and elastic energies,
relative to the initial energy. The two discretizations must approach each
other: the difference at the finest level below half the coarsest. Needs
two levels or more, runs of the same length and finite energies. Exit 0/1.
"""
import argparse
import csv
import math
import os
import subprocess
import sys


def run(args, out, r, mass, solver, degree):
    subprocess.run([args.exe, args.prm, "--quiet",
                    "--set", "Output/Directory=" + out,
                    "--set", "Output/Overwrite=true",
                    "--set", "String/Global refinements=%d" % r,
                    "--set", "Time/Time step=%r" % (args.dt0 * 2.0 ** -r),
                    "--set", "Splitting/Elastic implicitness=0.25",
                    "--set", "String/Finite element degree=%d" % degree,
                    "--set", "String/Mass=" + mass,
                    "--set", "Friction/Solver=" + solver],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "history.csv"), newline="") as f:
        return list(csv.DictReader(f))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--levels", default="6,8")
    p.add_argument("--dt0", type=float, default=0.25)
    p.add_argument("--degree", type=int, default=1)
    args = p.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    if len(levels) < 2:
        print("FAIL: --levels needs two levels or more")
        return 1
    differences = []
    for r in levels:
        a = run(args, os.path.join(args.outdir, "lumped%d" % r), r, "lumped", "closed form", args.degree)
        b = run(args, os.path.join(args.outdir, "consistent%d" % r), r, "consistent",
                "semismooth newton", args.degree)
        if len(a) != len(b) or len(a) < 2:
            print("FAIL: level %d: %d rows (lumped) against %d (consistent)" % (r, len(a), len(b)))
            return 1
        e0 = float(a[0]["kinetic_energy"]) + float(a[0]["elastic_energy"])
        if not e0 > 0:
            print("FAIL: level %d: initial energy %g" % (r, e0))
            return 1
        d = max(abs(float(x[k]) - float(y[k])) for x, y in zip(a, b)
                for k in ("kinetic_energy", "elastic_energy")) / e0
        if not math.isfinite(d):
            print("FAIL: level %d: non-finite energies" % r)
            return 1
        differences.append(d)
        print("level %d: largest energy difference lumped - consistent = %.3e E0" % (r, d))
    ok = differences[-1] < 0.5 * differences[0]
    print("PASS" if ok else "FAIL: lumped and consistent do not approach each other")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
