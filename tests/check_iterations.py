#!/usr/bin/env python3
"""check_iterations.py HISTORY.csv --substeps P [--phases 1] --max-average A

Average friction-solver iterations per friction solve over a run: the sum of
the history's 'iterations' column (iterations since the previous row) divided
by the number of solves, steps * P * phases (steps = rows - 1; the history
must have one row per step, Output/Interval = 0). Exit 1 if above A, and
also when the history has no step or counts no iteration at all (an average
of 0 would pass any bound).
"""
import argparse
import csv
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("history")
    parser.add_argument("--substeps", type=int, required=True)
    parser.add_argument("--phases", type=int, default=1)
    parser.add_argument("--max-average", type=float, required=True)
    args = parser.parse_args()
    with open(args.history, newline="") as f:
        rows = list(csv.DictReader(f))
    steps = len(rows) - 1
    if steps < 1:
        print("FAIL: %s has %d rows: no time step" % (args.history, len(rows)))
        return 1
    total = sum(float(r["iterations"]) for r in rows)
    if not total > 0:
        print("FAIL: %s counts %s friction-solver iterations" % (args.history, total))
        return 1
    solves = steps * args.substeps * args.phases
    average = total / solves
    print("%d steps, %d friction solves, %d iterations, %.3f per solve"
          % (steps, solves, total, average))
    if average > args.max_average:
        print("FAIL: more than %.2f iterations per solve" % args.max_average)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
