#!/usr/bin/env python3
"""compare_histories.py A.csv B.csv [--tolerance T] [--columns x,v]

Compare two history.csv files of stickslip row by row: same header, same
number of rows, and every value within T times the largest magnitude of its
column in A (a relative tolerance per column). --columns restricts the check
to the columns whose names start with one of the given prefixes. Prints the
worst difference; exit 0 when within tolerance, 1 otherwise.
"""
import argparse
import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--tolerance", type=float, default=1e-12)
    parser.add_argument("--columns", default="")
    args = parser.parse_args()

    a, b = load(args.a), load(args.b)
    if a[0] != b[0]:
        print("FAIL: headers differ:\n  %s\n  %s" % (a[0], b[0]))
        return 1
    if len(a) != len(b):
        print("FAIL: %d rows against %d" % (len(a) - 1, len(b) - 1))
        return 1
    header = a[0]
    prefixes = [p for p in args.columns.split(",") if p]
    selected = [j for j, name in enumerate(header)
                if name != "iterations" and
                (not prefixes or any(name.startswith(p) for p in prefixes))]
    scale = [0.0] * len(header)
    for row in a[1:]:
        for j in selected:
            if row[j]:
                scale[j] = max(scale[j], abs(float(row[j])))
    worst, where = 0.0, None
    for i, (ra, rb) in enumerate(zip(a[1:], b[1:])):
        for j in selected:
            if (ra[j] == "") != (rb[j] == ""):
                print("FAIL: row %d column %s: empty in one file only" % (i + 1, header[j]))
                return 1
            if ra[j] == "":
                continue
            d = abs(float(ra[j]) - float(rb[j])) / max(scale[j], 1e-300)
            if d > worst:
                worst, where = d, (i + 1, header[j], ra[j], rb[j])
    print("largest difference relative to the column scale: %.3e at %s" % (worst, where))
    if worst > args.tolerance:
        print("FAIL: above the tolerance %.1e" % args.tolerance)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
