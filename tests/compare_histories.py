#!/usr/bin/env python3
"""compare_histories.py A.csv B.csv [--tolerance T] [--columns x,v]

Compare two history.csv files of stickslip row by row: same header, same
number of rows (at least one), and every value within T times the largest
magnitude of its column in A (a relative tolerance per column). --columns
restricts the check to the columns whose names start with one of the given
prefixes; every prefix must match a column. The 'iterations' column is not
compared. Fails on a header-only or empty file, rows of the wrong length,
non-numeric or non-finite values, a cell empty in one file only, and when
no value at all was compared. Prints the worst difference; exit 0 when
within tolerance, 1 otherwise.
"""
import argparse
import csv
import math
import sys


class Failure(Exception):
    pass


def load(path):
    try:
        with open(path, newline="") as f:
            rows = [r for r in csv.reader(f) if r]
    except OSError as e:
        raise Failure("cannot read %s: %s" % (path, e))
    if not rows:
        raise Failure("%s is empty (no header)" % path)
    if len(rows) < 2:
        raise Failure("%s has a header but no data rows" % path)
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != len(rows[0]):
            raise Failure("%s, line %d: %d fields, the header has %d"
                          % (path, i, len(row), len(rows[0])))
    return rows


def value(path, row, name, cell):
    try:
        v = float(cell)
    except ValueError:
        raise Failure("%s, row %d, column %s: '%s' is not a number" % (path, row, name, cell))
    if not math.isfinite(v):
        raise Failure("%s, row %d, column %s: %s" % (path, row, name, cell))
    return v


def compare(args):
    a, b = load(args.a), load(args.b)
    if a[0] != b[0]:
        raise Failure("headers differ:\n  %s\n  %s" % (a[0], b[0]))
    if len(a) != len(b):
        raise Failure("%d rows against %d" % (len(a) - 1, len(b) - 1))
    header = a[0]
    prefixes = [p.strip() for p in args.columns.split(",") if p.strip()]
    unmatched = [p for p in prefixes if not any(n.startswith(p) for n in header)]
    if unmatched:
        raise Failure("--columns %s matches no column (columns: %s)"
                      % (",".join(unmatched), ",".join(header)))
    selected = [j for j, name in enumerate(header)
                if name != "iterations" and
                (not prefixes or any(name.startswith(p) for p in prefixes))]
    if not selected:
        raise Failure("no column selected for comparison (columns: %s)" % ",".join(header))
    scale = [0.0] * len(header)
    for i, row in enumerate(a[1:], start=1):
        for j in selected:
            if row[j]:
                scale[j] = max(scale[j], abs(value(args.a, i, header[j], row[j])))
    worst, where, n_compared = 0.0, None, 0
    for i, (ra, rb) in enumerate(zip(a[1:], b[1:]), start=1):
        for j in selected:
            if (ra[j] == "") != (rb[j] == ""):
                raise Failure("row %d column %s: empty in one file only" % (i, header[j]))
            if ra[j] == "":
                continue
            d = abs(value(args.a, i, header[j], ra[j]) -
                    value(args.b, i, header[j], rb[j])) / max(scale[j], 1e-300)
            n_compared += 1
            if d > worst:
                worst, where = d, (i, header[j], ra[j], rb[j])
    if n_compared == 0:
        raise Failure("every selected cell is empty: nothing compared")
    print("%d values in %d columns x %d rows compared; largest difference "
          "relative to the column scale: %.3e at %s"
          % (n_compared, len(selected), len(a) - 1, worst, where))
    if worst > args.tolerance:
        raise Failure("above the tolerance %.1e" % args.tolerance)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--tolerance", type=float, default=1e-12)
    parser.add_argument("--columns", default="")
    args = parser.parse_args()
    try:
        compare(args)
    except Failure as e:
        print("FAIL: %s" % e)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
