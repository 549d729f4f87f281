#!/usr/bin/env python3
"""check_eta_limit.py SPLITTING_DIR ETA_DIR_1 ETA_DIR_2 ... 

The regularized route of Glowinski et al. 2006, eqs. (5)-(6): the runs in ETA_DIR_k use
decreasing eta. Checks that (a) their errors against the exact solution
(errors.csv) decrease with eta, and (b) their distance to the splitting
solution (history.csv of SPLITTING_DIR, same output times) decreases with
eta, the last one below 1/4 of the first. Needs at least two ETA_DIRs and
x/v columns to compare. Exit 1 otherwise.
"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def distance(a, b):
    keys = [k for k in a[0] if k[0] in "xv" and k[1:].isdigit()]
    if not keys or not a:
        raise SystemExit("FAIL: no x/v columns or no rows to compare")
    if len(a) != len(b):
        raise SystemExit("FAIL: %d rows against %d" % (len(a), len(b)))
    return max(abs(float(ra[k]) - float(rb[k])) for ra, rb in zip(a, b) for k in keys)


def main():
    if len(sys.argv) < 4:
        print("FAIL: usage: check_eta_limit.py SPLITTING_DIR ETA_DIR_1 ETA_DIR_2 ...")
        return 1
    splitting = rows(sys.argv[1] + "/history.csv")
    errors, distances = [], []
    for directory in sys.argv[2:]:
        e = rows(directory + "/errors.csv")[0]
        errors.append(float(e["error_x"]) + float(e["error_v"]))
        distances.append(distance(splitting, rows(directory + "/history.csv")))
    for d, e, dist in zip(sys.argv[2:], errors, distances):
        print("%-40s error_x+error_v %.3e  max |x,v - splitting| %.3e" % (d, e, dist))
    ok = all(e2 < e1 for e1, e2 in zip(errors, errors[1:])) and \
        all(d2 < d1 for d1, d2 in zip(distances, distances[1:])) and \
        distances[-1] < 0.25 * distances[0]
    print("PASS" if ok else "FAIL: not approaching the splitting solution as eta -> 0")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
