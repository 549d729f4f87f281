#!/usr/bin/env python3
"""check_orders.py ERRORS.csv [--x LO:HI] [--v LO:HI] [--lambda LO:HI]
       [--max-error-x E] [--max-error-lambda E]

Least-squares slopes of log(error) against log(dt) over every row of a
stickslip errors.csv (errors against the exact solution or a fine reference
run), each checked to lie in its band LO:HI; the errors at the smallest dt
checked against the optional bounds. At least two rows and one band or
bound are required (without, nothing would be checked). Prints the table
and PASS or FAIL.
"""
import argparse
import csv
import math
import sys


def slope(dt, e):
    pts = [(math.log(a), math.log(b)) for a, b in zip(dt, e) if b > 0]
    n = len(pts)
    sx = sum(p[0] for p in pts)
    sy = sum(p[1] for p in pts)
    sxx = sum(p[0] ** 2 for p in pts)
    sxy = sum(p[0] * p[1] for p in pts)
    return (n * sxy - sx * sy) / (n * sxx - sx * sx)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    for name in ("x", "v", "lambda"):
        p.add_argument("--" + name, metavar="LO:HI")
    p.add_argument("--max-error-x", type=float)
    p.add_argument("--max-error-lambda", type=float)
    a = p.parse_args()
    if not (a.x or a.v or getattr(a, "lambda") or a.max_error_x is not None
            or a.max_error_lambda is not None):
        print("FAIL: no checks requested (give a band or a bound)")
        return 1
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) < 2:
        print("FAIL: %d rows in %s, at least two time steps needed" % (len(rows), a.csv))
        return 1
    rows.sort(key=lambda r: -float(r["dt"]))
    dt = [float(r["dt"]) for r in rows]
    failures = []
    for name in ("x", "v", "lambda"):
        e = [float(r["error_" + name]) for r in rows]
        s = slope(dt, e)
        band = getattr(a, name)
        verdict = ""
        if band:
            lo, hi = (float(t) for t in band.split(":"))
            verdict = " in [%g, %g]" % (lo, hi)
            if not lo <= s <= hi:
                failures.append("slope of error_%s %.3f outside [%g, %g]"
                                % (name, s, lo, hi))
        print("  error_%-6s %s  slope %.3f%s"
              % (name, " ".join("%.3e" % v for v in e), s, verdict))
    if a.max_error_x is not None and not float(rows[-1]["error_x"]) <= a.max_error_x:
        failures.append("error_x %s > %g" % (rows[-1]["error_x"], a.max_error_x))
    if a.max_error_lambda is not None and \
       not float(rows[-1]["error_lambda"]) <= a.max_error_lambda:
        failures.append("error_lambda %s > %g"
                        % (rows[-1]["error_lambda"], a.max_error_lambda))
    if failures:
        print("FAIL: " + "; ".join(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
