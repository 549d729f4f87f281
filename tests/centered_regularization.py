#!/usr/bin/env python3
"""centered_regularization.py STICKSLIP PRM OUTDIR [--np N] [bounds...]

Runs the centered multiplier scheme of Glowinski & Kearsley 1995 on PRM twice, with the
unregularized update (1.14) and the regularized one (1.19), and compares
the runs (Glowinski & Kearsley 1995, Tables 1/3 and 5):
  - average fixed-point iterations per time step, and their ratio NR/R;
  - D(x_R, x_NR) = |max_n |x_NR - x_R||_2 / (1 + |max_n |x_R||_2), likewise
    for the velocity (the paper's Table 5 measure; its norm is unspecified,
    here the Euclidean norm over the components of the maxima in time);
  - the total variation in time of every multiplier component,
    sum_n |lambda^n - lambda^{n-1}|, summed over the components.
Prints one table row and exits 1 if a bound is violated, or if the runs
have no step, different lengths, no x, v or lambda columns, non-finite
values, or an unregularized multiplier that never varies (the measures
would be 0 and every bound met vacuously).
"""
import argparse
import csv
import math
import os
import subprocess
import sys


def run(exe, prm, out, regularized, np_, extra):
    launcher = []
    if np_ > 1:
        launcher = ["mpirun", "-np", str(np_), "--oversubscribe"]
        if os.geteuid() == 0:
            launcher.append("--allow-run-as-root")
    command = launcher + [exe, prm, "--quiet",
                          "--set", "Output/Directory=" + out,
                          "--set", "Output/Overwrite=true",
                          "--set", "Output/Interval=0",
                          "--set", "Centered scheme/Regularization=%s"
                          % ("true" if regularized else "false")] + extra
    subprocess.run(command, check=True)
    with open(os.path.join(out, "history.csv"), newline="") as f:
        return list(csv.DictReader(f))


def columns(rows, prefix):
    names = sorted((k for k in rows[0] if k.startswith(prefix)
                    and k[len(prefix):].isdigit()),
                   key=lambda k: int(k[len(prefix):]))
    return [[float(r[k]) if r[k] != "" else float("nan") for r in rows]
            for k in names]


def discrepancy(a, b):
    """D(b, a) of Glowinski & Kearsley 1995, Table 5, b the regularized run."""
    diff = [max(abs(x - y) for x, y in zip(ca, cb)) for ca, cb in zip(a, b)]
    size = [max(abs(y) for y in cb) for cb in b]
    return math.sqrt(sum(d * d for d in diff)) / (
        1. + math.sqrt(sum(s * s for s in size)))


def total_variation(rows):
    # row 0 is t0, without a multiplier
    return sum(sum(abs(c[n] - c[n - 1]) for n in range(2, len(c)))
               for c in columns(rows, "lambda"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("prm")
    parser.add_argument("out")
    parser.add_argument("--np", type=int, default=1)
    parser.add_argument("--min-iteration-ratio", type=float, default=3.)
    parser.add_argument("--max-discrepancy-x", type=float, required=True)
    parser.add_argument("--max-discrepancy-v", type=float, required=True)
    parser.add_argument("--min-variation-ratio", type=float, default=5.)
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    extra = []
    for s in args.set:
        extra += ["--set", s]

    nr = run(args.exe, args.prm, os.path.join(args.out, "unregularized"),
             False, args.np, extra)
    r = run(args.exe, args.prm, os.path.join(args.out, "regularized"),
            True, args.np, extra)
    steps = len(nr) - 1
    if steps < 1 or len(r) != len(nr):
        print("FAIL: %d and %d rows: no step or different lengths" % (len(nr), len(r)))
        return 1
    for prefix in ("x", "v", "lambda"):
        values = [v for run_ in (nr, r) for c in columns(run_, prefix) for v in c[1:]]
        if not values or not all(math.isfinite(v) for v in values):
            print("FAIL: no %s columns or non-finite values" % prefix)
            return 1
    it_nr = sum(float(row["iterations"]) for row in nr)
    it_r = sum(float(row["iterations"]) for row in r)
    dx = discrepancy(columns(nr, "x"), columns(r, "x"))
    dv = discrepancy(columns(nr, "v"), columns(r, "v"))
    tv_nr, tv_r = total_variation(nr), total_variation(r)
    print("steps %d | iterations NR %d (%.2f/step), R %d (%.2f/step), "
          "ratio %.2f | D(x) %.2e D(v) %.2e | TV(lambda) NR %.1f R %.1f "
          "ratio %.1f" % (steps, it_nr, it_nr / steps, it_r, it_r / steps,
                          it_nr / max(it_r, 1), dx, dv, tv_nr, tv_r,
                          tv_nr / max(tv_r, 1e-300)))
    failed = False
    if not (it_nr > 0 and tv_nr > 0):
        print("FAIL: no iterations or a constant multiplier in the unregularized run")
        failed = True
    if it_nr < args.min_iteration_ratio * it_r:
        print("FAIL: regularization cuts the iterations less than %gx"
              % args.min_iteration_ratio)
        failed = True
    if dx > args.max_discrepancy_x or dv > args.max_discrepancy_v:
        print("FAIL: discrepancy above the bounds %g (x), %g (v)"
              % (args.max_discrepancy_x, args.max_discrepancy_v))
        failed = True
    if tv_nr < args.min_variation_ratio * tv_r:
        print("FAIL: the regularized multiplier varies more than 1/%g of the "
              "unregularized one" % args.min_variation_ratio)
        failed = True
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
