#!/usr/bin/python3
"""check_implicit_amg.py EXE PRM OUTDIR --dim D --levels N... --max-cg K
                         --cg-band K

The elastic solve of Body/Time scheme = implicit in the nearly static limit
(one step of c dt/h = 1000, where K + 4/dt^2 M is K to 1e-6): the block of
PRM (prm/body_sliding_block_2d.prm or _3d.prm) pressed on the plane by twice
its prescribed load, frictionless, from its initial state at rest. For
every level N (cells along the block's length; the other directions in the
prm's proportions) the script runs EXE into OUTDIR/N<N> and reads the CG
iterations of the step's solve from history.csv (the active set does not
change: one solve). Asserted: at most K iterations on every level
(--max-cg) and at most K between the least and the largest (--cg-band):
the algebraic multigrid with the rigid-body modes (ElasticityAmg) is mesh
independent where classical AMG on the vector problem is not.
"""
import argparse
import csv
import os
import subprocess
import sys


def run(a, n):
    shape = [n, n // 4] if a.dim == 2 else [n, n // 2, n // 4]
    dt = 1000.0 / (4 * n)  # c dt/h = 1000 with c = 1 m/s and h = 1/n
    load = "0; -2e-3" if a.dim == 2 else "0; 0; -2e-3"
    rest = "0; 0" if a.dim == 2 else "0; 0; 0"
    out = os.path.join(a.outdir, "N%d" % n)
    command = [a.exe, a.prm, "--quiet",
               "--set", "Output/Directory=" + out,
               "--set", "Output/Overwrite=true",
               "--set", "Output/Field output=false",
               "--set", "Body/Time scheme=implicit",
               # The multigrid's iterations are what this measures.
               "--set", "Body/Linear solver/Preconditioner=multigrid",
               "--set", "Body/Subdivisions=" + ", ".join(map(str, shape)),
               "--set", "Time/Time step=%r" % dt,
               "--set", "Time/Final time=%r" % dt,
               "--set", "Output/Interval=%r" % dt,
               "--set", "Body/Initial velocity=" + rest,
               "--set", "Body/Traction 1/Value=" + load,
               "--set", "Body/Contact/Friction law/Static friction coefficient=0",
               "--set", "Body/Contact/Friction law/"
                        "Normal stress regularization length=0"]
    subprocess.run(command, check=True)
    with open(os.path.join(out, "history.csv")) as f:
        rows = list(csv.DictReader(f))
    return int(float(rows[-1]["cg_iterations"])), int(float(rows[-1]["newton_iterations"]))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--dim", type=int, required=True)
    p.add_argument("--levels", type=int, nargs="+", required=True)
    p.add_argument("--max-cg", type=float, required=True)
    p.add_argument("--cg-band", type=float, required=True)
    a = p.parse_args()
    counts = []
    for n in a.levels:
        cg, newton = run(a, n)
        print("N %4d  active-set iterations %d  CG iterations %d" % (n, newton, cg))
        if newton != 1:
            print("FAIL: the active set changed (%d iterations): not one solve" % newton)
            return 1
        counts.append(cg)
    ok = True
    if max(counts) > a.max_cg:
        print("FAIL: %d CG iterations, above %g" % (max(counts), a.max_cg))
        ok = False
    if max(counts) - min(counts) > a.cg_band:
        print("FAIL: the CG iterations vary by %d over the levels (band %g)"
              % (max(counts) - min(counts), a.cg_band))
        ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
