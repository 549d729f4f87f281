#!/usr/bin/env python3
"""string_convergence.py EXE PRM OUTDIR --levels 3,4,5 --dt0 0.25 [--set S]...
                         [--min-order-x Q] [--min-order-v Q] [--np N]

Joint refinement of h and dt for the string/membrane model: level r runs PRM
with 'String/Global refinements = r' and 'Time/Time step = dt0 * 2^-r', then
reads its errors.csv. Prints the table of errors and observed orders between
consecutive levels, and asserts the order between the first and the last
level (>= Q for x and v) and a decreasing multiplier error. Needs two
levels or more and positive finite errors. Exit 0/1.
"""
import argparse
import csv
import math
import os
import subprocess
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--levels", required=True)
    p.add_argument("--dt0", type=float, required=True)
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--min-order-x", type=float, default=0.9)
    p.add_argument("--min-order-v", type=float, default=0.9)
    p.add_argument("--np", type=int, default=1)
    args = p.parse_args()

    levels = [int(r) for r in args.levels.split(",")]
    if len(levels) < 2:
        print("FAIL: --levels needs two levels or more")
        return 1
    rows = []
    for r in levels:
        out = os.path.join(args.outdir, "level%d" % r)
        command = [args.exe, args.prm, "--quiet",
                   "--set", "Output/Directory=" + out,
                   "--set", "Output/Overwrite=true",
                   "--set", "String/Global refinements=%d" % r,
                   "--set", "Time/Time step=%r" % (args.dt0 * 2.0 ** -r)]
        for s in args.set:
            command += ["--set", s]
        if args.np > 1:
            launcher = ["mpirun", "-np", str(args.np), "--oversubscribe"]
            if os.geteuid() == 0:
                launcher.append("--allow-run-as-root")
            command = launcher + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "errors.csv"), newline="") as f:
            e = next(csv.DictReader(f))
        rows.append((r, float(e["dt"]), float(e["error_x"]), float(e["error_v"]),
                     float(e["error_lambda"])))
        if not all(math.isfinite(v) and v > 0 for v in rows[-1][1:]):
            print("FAIL: level %d: errors.csv holds %s" % (r, rows[-1][1:]))
            return 1

    print("level  dt          error_x     error_v     error_lambda  order_x order_v order_lambda")
    for i, (r, dt, ex, ev, el) in enumerate(rows):
        orders = ""
        if i > 0:
            q = rows[i - 1]
            k = math.log(q[1] / dt)
            orders = "%7.3f %7.3f %7.3f" % (math.log(q[2] / ex) / k,
                                            math.log(q[3] / ev) / k,
                                            math.log(q[4] / el) / k)
        print("%5d  %-10.4g  %-10.4e  %-10.4e  %-12.4e  %s" % (r, dt, ex, ev, el, orders))
    first, last = rows[0], rows[-1]
    k = math.log(first[1] / last[1])
    order_x = math.log(first[2] / last[2]) / k
    order_v = math.log(first[3] / last[3]) / k
    print("orders from level %d to %d: x %.3f, v %.3f" % (first[0], last[0], order_x, order_v))
    failures = []
    if order_x < args.min_order_x:
        failures.append("order of x %.3f < %.2f" % (order_x, args.min_order_x))
    if order_v < args.min_order_v:
        failures.append("order of v %.3f < %.2f" % (order_v, args.min_order_v))
    if not last[4] < first[4]:
        failures.append("the multiplier error does not decrease")
    print("FAIL: " + "; ".join(failures) if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
