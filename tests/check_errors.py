#!/usr/bin/env python3
"""Check the errors.csv of a stickslip convergence study.

errors.csv (written by stickslip when 'Time/Convergence time steps' is set and
an exact solution is given) has the columns

    dt, error_x, error_v, error_lambda, max_error_x, max_error_v,
    order_x, order_v, order_lambda

one row per time step size (orders against the previous row, empty on the
first row). This script prints the table, the observed orders between the
coarsest and the finest step, the least-squares slopes of log(e) against
log(dt), and checks the bounds given on the command line:

  --min-order-x Q, --min-order-v Q
      log(e_coarse/e_fine) / log(dt_coarse/dt_fine) between the rows with the
      largest and the smallest dt must be >= Q.
  --max-error-x E, --max-error-v E, --max-error-lambda E
      the error at the smallest dt must be <= E.
  --lambda-decreasing
      error_lambda at the smallest dt must be smaller than at the largest dt.
  --reference-x E, --reference-v E, --reference-lambda E
      the error at dt = --reference-dt (default 1e-3) must agree with E to
      within the relative tolerance --reference-tolerance (default 0.05),
      i.e. |e - E| <= R |E| (reference values of doc/verification.md).

The last line is "PASS" or "FAIL: ..."; the exit code is 0 on PASS and 1
otherwise (also for an unreadable file, a bad command line, or a call that
requests no check at all: it would pass vacuously).

Example:
    python3 tests/check_errors.py output/p3/errors.csv --min-order-x 0.9 \\
        --min-order-v 0.9 --lambda-decreasing --reference-x 1.39e-3 \\
        --reference-v 2.39e-3 --reference-lambda 5.57e-2

Standard library only (no numpy).
"""

import argparse
import csv
import math
import sys

REQUIRED = ["dt", "error_x", "error_v", "error_lambda"]
OPTIONAL = ["max_error_x", "max_error_v", "order_x", "order_v", "order_lambda"]
QUANTITIES = [("x", "error_x"), ("v", "error_v"), ("lambda", "error_lambda")]


class Parser(argparse.ArgumentParser):
    """ArgumentParser whose command-line errors exit with 1, like FAIL."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print("FAIL: bad command line: %s" % message)
        sys.exit(1)


def to_float(text):
    """Parse a CSV cell; empty cells become None."""
    text = (text or "").strip()
    if text == "":
        return None
    return float(text)  # accepts nan, inf, 1e-3, ...


def read_rows(path):
    """Rows of errors.csv as dicts of floats (None for empty cells), sorted by
    decreasing dt."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None:
            raise ValueError("%s is empty" % path)
        names = [n.strip() for n in reader.fieldnames]
        missing = [c for c in REQUIRED if c not in names]
        if missing:
            raise ValueError("%s lacks the column(s) %s (has %s)"
                             % (path, ", ".join(missing), ", ".join(names)))
        rows = []
        for line_no, raw in enumerate(reader, start=2):
            raw = {(k or "").strip(): v for k, v in raw.items()}
            if all((v or "").strip() == "" for v in raw.values()
                   if isinstance(v, str)):
                continue  # blank line
            try:
                row = {c: to_float(raw.get(c)) for c in REQUIRED + OPTIONAL}
            except ValueError as e:
                raise ValueError("%s, line %d: %s" % (path, line_no, e))
            if row["dt"] is None or not row["dt"] > 0:
                raise ValueError("%s, line %d: dt must be a positive number"
                                 % (path, line_no))
            rows.append(row)
    if not rows:
        raise ValueError("%s has no data rows" % path)
    rows.sort(key=lambda r: -r["dt"])
    return rows


def usable(e):
    return e is not None and math.isfinite(e) and e > 0


def observed_order(e_coarse, e_fine, dt_coarse, dt_fine):
    """log(e_coarse/e_fine) / log(dt_coarse/dt_fine), None if undefined."""
    if not (usable(e_coarse) and usable(e_fine)) or dt_coarse == dt_fine:
        return None
    return math.log(e_coarse / e_fine) / math.log(dt_coarse / dt_fine)


def lsq_slope(dts, errors):
    """Least-squares slope of log(e) against log(dt) over the usable points,
    None if fewer than two distinct dt remain."""
    pts = [(math.log(dt), math.log(e)) for dt, e in zip(dts, errors)
           if usable(e)]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def fmt(value, spec="%.4e"):
    if value is None:
        return "-"
    if not math.isfinite(value):
        return str(value)
    return spec % value


def print_table(rows):
    columns = REQUIRED + OPTIONAL
    present = [c for c in columns
               if c in REQUIRED or any(r[c] is not None for r in rows)]
    width = 13
    print("".join("%*s" % (width, c) for c in present))
    for r in rows:
        cells = []
        for c in present:
            spec = "%.3f" if c.startswith("order") else "%.4e"
            cells.append("%*s" % (width, fmt(r[c], spec)))
        print("".join(cells))


def main(argv=None):
    p = Parser(description=__doc__.split("\n\n")[0],
               epilog="See the module docstring for the exact definitions.")
    p.add_argument("csv", help="errors.csv written by stickslip")
    p.add_argument("--min-order-x", type=float, metavar="Q")
    p.add_argument("--min-order-v", type=float, metavar="Q")
    p.add_argument("--max-error-x", type=float, metavar="E")
    p.add_argument("--max-error-v", type=float, metavar="E")
    p.add_argument("--max-error-lambda", type=float, metavar="E")
    p.add_argument("--lambda-decreasing", action="store_true")
    p.add_argument("--reference-x", type=float, metavar="E")
    p.add_argument("--reference-v", type=float, metavar="E")
    p.add_argument("--reference-lambda", type=float, metavar="E")
    p.add_argument("--reference-tolerance", type=float, metavar="R",
                   default=0.05,
                   help="relative tolerance of the --reference-* checks "
                        "(default 0.05)")
    p.add_argument("--reference-dt", type=float, metavar="DT", default=1e-3,
                   help="dt at which the --reference-* values apply "
                        "(default 1e-3)")
    args = p.parse_args(argv)

    try:
        rows = read_rows(args.csv)
    except (OSError, ValueError) as e:
        print("FAIL: cannot read errors: %s" % e)
        return 1

    coarse, fine = rows[0], rows[-1]
    dts = [r["dt"] for r in rows]

    print("errors of %s (%d step size%s)" % (args.csv, len(rows),
                                              "" if len(rows) == 1 else "s"))
    print_table(rows)
    print()
    print("%-8s %14s %14s %16s %12s" % ("", "e(dt_max)", "e(dt_min)",
                                        "order max/min", "LSQ slope"))
    orders = {}
    for name, col in QUANTITIES:
        orders[name] = observed_order(coarse[col], fine[col],
                                      coarse["dt"], fine["dt"])
        print("%-8s %14s %14s %16s %12s"
              % (name, fmt(coarse[col]), fmt(fine[col]),
                 fmt(orders[name], "%.3f"),
                 fmt(lsq_slope(dts, [r[col] for r in rows]), "%.3f")))
    print("(dt_max = %s, dt_min = %s)" % (fmt(coarse["dt"], "%g"),
                                          fmt(fine["dt"], "%g")))
    print()

    failures = []
    n_checks = 0

    def check(ok, label, detail):
        nonlocal n_checks
        n_checks += 1
        print("  %-4s %-24s %s" % ("ok" if ok else "FAIL", label, detail))
        if not ok:
            failures.append(label)

    for name, bound in (("x", args.min_order_x), ("v", args.min_order_v)):
        if bound is None:
            continue
        q = orders[name]
        if len(set(dts)) < 2:
            check(False, "min order " + name,
                  "needs at least two different dt, errors.csv has %d"
                  % len(set(dts)))
        elif q is None:
            check(False, "min order " + name,
                  "order undefined (error missing, zero or not finite)")
        else:
            check(q >= bound, "min order " + name,
                  "observed %.3f, required >= %g" % (q, bound))

    for name, col, bound in (("x", "error_x", args.max_error_x),
                             ("v", "error_v", args.max_error_v),
                             ("lambda", "error_lambda",
                              args.max_error_lambda)):
        if bound is None:
            continue
        e = fine[col]
        ok = e is not None and math.isfinite(e) and e <= bound
        check(ok, "max error " + name,
              "e(dt=%g) = %s, required <= %g" % (fine["dt"], fmt(e), bound))

    if args.lambda_decreasing:
        ec, ef = coarse["error_lambda"], fine["error_lambda"]
        if len(set(dts)) < 2:
            check(False, "lambda decreasing",
                  "needs at least two different dt")
        else:
            ok = (ec is not None and ef is not None and math.isfinite(ec)
                  and math.isfinite(ef) and ef < ec)
            check(ok, "lambda decreasing",
                  "e(dt=%g) = %s, must be < e(dt=%g) = %s"
                  % (fine["dt"], fmt(ef), coarse["dt"], fmt(ec)))

    refs = (("x", "error_x", args.reference_x),
            ("v", "error_v", args.reference_v),
            ("lambda", "error_lambda", args.reference_lambda))
    if any(ref is not None for _, _, ref in refs):
        match = [r for r in rows
                 if abs(r["dt"] - args.reference_dt)
                 <= 1e-6 * args.reference_dt]
        for name, col, ref in refs:
            if ref is None:
                continue
            if not match:
                check(False, "reference " + name,
                      "no row with dt = %g in errors.csv" % args.reference_dt)
                continue
            e = match[0][col]
            if e is None or not math.isfinite(e):
                check(False, "reference " + name,
                      "e(dt=%g) = %s" % (args.reference_dt, fmt(e)))
                continue
            rel = abs(e - ref) / abs(ref) if ref != 0 else abs(e)
            check(rel <= args.reference_tolerance, "reference " + name,
                  "e(dt=%g) = %.4e, reference %.4e, relative difference "
                  "%.3f, allowed %g" % (args.reference_dt, e, ref, rel,
                                        args.reference_tolerance))

    print()
    if n_checks == 0:
        # A call without bounds would pass whatever errors.csv holds.
        print("FAIL: no checks requested (give at least one bound, e.g. "
              "--max-error-x or --min-order-x)")
        return 1
    if failures:
        print("FAIL: %d of %d checks failed (%s)"
              % (len(failures), n_checks, ", ".join(failures)))
        return 1
    print("PASS (%d check%s)" % (n_checks, "" if n_checks == 1 else "s"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
