#!/usr/bin/env python3
"""check_row.py HISTORY.csv --at T COLUMN=VALUE [COLUMN=VALUE ...] [--tolerance E]

Asserts that the row of HISTORY.csv whose t is the double nearest to T (T as
written, parsed by Python like stickslip parses t0 + n dt) has each COLUMN
equal to VALUE within E (absolute, default 1e-15). Several --at groups may
follow one another. Exit 0 if all hold, 1 otherwise.
"""
import csv
import sys


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    with open(argv[0], newline="") as handle:
        rows = list(csv.DictReader(handle))
    tolerance = 1e-15
    checks, at = [], None
    args = argv[1:]
    i = 0
    while i < len(args):
        if args[i] == "--tolerance":
            tolerance = float(args[i + 1])
            i += 2
        elif args[i] == "--at":
            at = float(args[i + 1])
            i += 2
        else:
            column, value = args[i].split("=")
            checks.append((at, column, float(value)))
            i += 1
    failures = 0
    for t, column, expected in checks:
        matching = [row for row in rows if abs(float(row["t"]) - t) <= 1e-12 * max(1, abs(t))]
        if len(matching) != 1:
            print(f"FAIL: {len(matching)} rows at t = {t}")
            failures += 1
            continue
        value = float(matching[0][column])
        good = abs(value - expected) <= tolerance
        print(f"{'ok  ' if good else 'FAIL'} t = {matching[0]['t']}: {column} = {value!r}, "
              f"expected {expected!r} (tolerance {tolerance:g})")
        failures += 0 if good else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
