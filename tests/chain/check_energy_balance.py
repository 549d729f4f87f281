#!/usr/bin/env python3
"""check_energy_balance.py HISTORY.csv --tolerance R

For an unforced chain (F_i = 0, right end fixed: clamped or a constant
displacement x): the energy column (kinetic energy of the masses plus the
elastic energy of every spring, the last one included) plus the dissipated
friction work stays equal to its initial value, |E + D - E0| <= R E0 on
every row, and the dissipation never decreases. Needs two rows or more,
finite values and E0 > 0 (a nan would pass every bound). Prints the
figures; exit 0/1.
"""
import argparse
import csv
import math
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("history")
    p.add_argument("--tolerance", type=float, required=True)
    a = p.parse_args()
    with open(a.history, newline="") as f:
        rows = list(csv.DictReader(f))
    E = [float(r["energy"]) for r in rows]
    D = [float(r["dissipated_energy"]) for r in rows]
    if len(rows) < 2 or not all(math.isfinite(v) for v in E + D) or not E[0] > 0:
        print("FAIL: %d rows, non-finite values or E0 <= 0 in %s" % (len(rows), a.history))
        return 1
    balance = max(abs(e + d - E[0]) for e, d in zip(E, D)) / E[0]
    decrease = min(b - a for a, b in zip(D, D[1:]))
    print("E0 = %.6g, final E = %.6g, dissipated %.6g, max |E + D - E0|/E0 = %.3e"
          % (E[0], E[-1], D[-1], balance))
    failures = []
    if balance > a.tolerance:
        failures.append("balance %.3e > %.1e" % (balance, a.tolerance))
    if decrease < 0:
        failures.append("the dissipated energy decreases")
    print("FAIL: " + "; ".join(failures) if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
