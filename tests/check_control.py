#!/usr/bin/env python3
"""check_control.py OPTIMIZATION.csv --max-e1 E [--max-e2 E]

Checks the last row of the optimization history of a control run: the
constraint errors E1 (4.1) and E2 (4.2) of Glowinski & Kearsley 1995 at the optimum, after
at least one simplex iteration (a file without rows, or E1, E2 not finite,
fails). Exit 0/1.
"""
import argparse
import csv
import math
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("history")
    parser.add_argument("--max-e1", type=float, required=True)
    parser.add_argument("--max-e2", type=float, default=float("inf"))
    args = parser.parse_args()
    with open(args.history, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print("FAIL: %s has no rows" % args.history)
        return 1
    last = rows[-1]
    e1, e2 = float(last["E1"]), float(last["E2"])
    if not (math.isfinite(e1) and math.isfinite(e2)):
        print("FAIL: E1 = %s, E2 = %s" % (e1, e2))
        return 1
    print("%d simplexes, %d simulations, E1 %.3e, E2 %.3e, cost %.10g, "
          "largest edge %.3e" % (int(float(last["simplex"])),
                                 int(float(last["evaluations"])), e1, e2,
                                 float(last["cost"]),
                                 float(last["largest_edge"])))
    failed = False
    if not e1 <= args.max_e1:
        print("FAIL: E1 above %g" % args.max_e1)
        failed = True
    if not e2 <= args.max_e2:
        print("FAIL: E2 above %g" % args.max_e2)
        failed = True
    if len(rows) < 2:
        print("FAIL: no simplex iteration")
        failed = True
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
