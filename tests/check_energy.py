#!/usr/bin/env python3
"""check_energy.py HISTORY.csv [--balance-tolerance R] [--stop-between A B]

Energy checks of an unforced string/membrane run (f = 0, fixed ends):
  - kinetic + elastic energy E never increases (up to 1e-12 E0);
  - |E + D - E0| <= R E0, D the friction dissipation (the splitting and the
    implicit friction sub-steps dissipate O(dt) more than the friction work);
  - with --stop-between A B: the first time the string is stuck everywhere
    (stick_fraction = 1, and it stays so until the end) lies in [A, B].
At least two rows and finite values are required (a nan would compare
false with every bound and pass). Prints the figures; exit 0/1.
"""
import argparse
import csv
import math
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("history")
    p.add_argument("--balance-tolerance", type=float, default=0.01)
    p.add_argument("--stop-between", type=float, nargs=2)
    args = p.parse_args()
    with open(args.history, newline="") as f:
        rows = list(csv.DictReader(f))
    t = [float(r["t"]) for r in rows]
    E = [float(r["kinetic_energy"]) + float(r["elastic_energy"]) for r in rows]
    D = [float(r["dissipated_energy"]) for r in rows]
    stick = [float(r["stick_fraction"]) for r in rows]
    if len(rows) < 2:
        print("FAIL: %d rows in %s, at least 2 needed" % (len(rows), args.history))
        return 1
    if not all(math.isfinite(v) for v in t + E + D + stick):
        print("FAIL: non-finite values in %s" % args.history)
        return 1
    if not E[0] > 0:
        print("FAIL: initial energy E0 = %g, nothing to compare with" % E[0])
        return 1
    E0 = E[0]
    increase = max(b - a for a, b in zip(E, E[1:]))
    balance = max(abs(e + d - E0) for e, d in zip(E, D)) / E0
    print("E0 = %.6g, final E = %.6g, dissipated %.6g" % (E0, E[-1], D[-1]))
    print("largest increase of E between rows: %.3e (relative %.3e)" % (increase, increase / E0))
    print("largest |E + D - E0| / E0: %.4e" % balance)
    failures = []
    if increase > 1e-12 * E0:
        failures.append("the energy increases")
    if balance > args.balance_tolerance:
        failures.append("energy balance off by %.3e > %.1e" % (balance, args.balance_tolerance))
    if args.stop_between:
        stop = None
        for i in range(len(rows)):
            if all(s == 1.0 for s in stick[i:]):
                stop = t[i]
                break
        print("stuck everywhere from t = %s on" % stop)
        if stop is None or not (args.stop_between[0] <= stop <= args.stop_between[1]):
            failures.append("stop time %s not in [%g, %g]" % (stop, *args.stop_between))
    print("FAIL: " + "; ".join(failures) if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
