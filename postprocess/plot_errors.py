#!/usr/bin/python3
"""Plot a stickslip errors.csv (convergence study) as log-log error against dt.

Usage: plot_errors.py ERRORS_CSV [-o OUT.png] [--max] [--title TEXT] [--dpi N]

Curves: error_x, error_v, error_lambda (discrete L2 in time) with markers, plus
dashed reference lines of slope 1 and 1/2.  The legend gives the least-squares
slope of log(error) against log(dt) for each curve.  --max adds max_error_x and
max_error_v (dashed, open markers).  The order_* columns are not needed (they may
be empty); columns are found by name, extra columns are ignored.
Default output: errors.png next to the CSV.
"""
import argparse
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

CURVES = [  # column, label, colour, marker, filled
    ("error_x", r"$x$ ($L^2$)", "C0", "o", True),
    ("error_v", r"$v$ ($L^2$)", "C1", "s", True),
    ("error_lambda", r"$\lambda$ ($L^2$)", "C2", "^", True),
]
MAX_CURVES = [
    ("max_error_x", r"$x$ (max)", "C0", "o", False),
    ("max_error_v", r"$v$ (max)", "C1", "s", False),
]


def read_csv(path):
    """Return (header list, 2-D float array).  Empty / unparsable fields -> NaN."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f)
                if r and any(c.strip() for c in r) and not r[0].lstrip().startswith("#")]
    if not rows:
        raise ValueError(f"{path}: empty file")
    header = [h.strip().lower() for h in rows[0]]
    n = len(header)
    data = np.full((len(rows) - 1, n), np.nan)
    for i, r in enumerate(rows[1:]):
        for j, c in enumerate(r[:n]):
            try:
                data[i, j] = float(c)
            except ValueError:
                pass
    return header, data


def ls_slope(dt, err):
    """Least-squares slope of log(err) vs log(dt) over points with dt, err > 0
    and finite; None if fewer than two distinct usable dt."""
    ok = np.isfinite(dt) & np.isfinite(err) & (dt > 0) & (err > 0)
    if np.unique(dt[ok]).size < 2:
        return None
    return float(np.polyfit(np.log(dt[ok]), np.log(err[ok]), 1)[0])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="errors.csv written by stickslip")
    ap.add_argument("-o", "--output", help="output PNG (default: errors.png next to the CSV)")
    ap.add_argument("--max", action="store_true", help="also plot max_error_x, max_error_v")
    ap.add_argument("--title", help="figure title (default: the CSV path)")
    ap.add_argument("--dpi", type=int, default=150)
    args = ap.parse_args(argv)

    try:
        header, data = read_csv(args.csv)
    except (OSError, ValueError) as e:
        print(f"plot_errors: {e}", file=sys.stderr)
        return 1
    if "dt" not in header:
        print(f"plot_errors: {args.csv}: no 'dt' column in header {header}", file=sys.stderr)
        return 1
    order = np.argsort(data[:, header.index("dt")])[::-1]  # largest dt first
    data = data[order]
    dt = data[:, header.index("dt")]

    fig, ax = plt.subplots(figsize=(7, 5.5), constrained_layout=True)
    anchor = []  # positive errors at the largest dt, for placing the reference lines
    plotted = 0
    for col, label, colour, marker, filled in CURVES + (MAX_CURVES if args.max else []):
        if col not in header:
            print(f"plot_errors: warning: no column '{col}'", file=sys.stderr)
            continue
        err = data[:, header.index(col)]
        ok = np.isfinite(dt) & np.isfinite(err) & (dt > 0) & (err > 0)
        if not ok.any():
            print(f"plot_errors: warning: '{col}' has no positive finite values",
                  file=sys.stderr)
            continue
        s = ls_slope(dt, err)
        lab = label + ("" if s is None else f", slope {s:.2f}")
        print(f"{col}: least-squares slope " + ("n/a" if s is None else f"{s:.4f}"))
        ax.loglog(dt[ok], err[ok], marker=marker, color=colour, label=lab,
                  ls="-" if filled else "--", ms=6,
                  mfc=colour if filled else "none")
        anchor.append(err[ok][0])
        plotted += 1

    good_dt = dt[np.isfinite(dt) & (dt > 0)]
    if plotted and good_dt.size >= 2 and good_dt.max() > good_dt.min():
        d0, d1 = good_dt.max(), good_dt.min()
        e0 = 0.4 * min(anchor)
        xs = np.array([d0, d1])
        for p, style, name in ((1.0, (0, (5, 3)), "1"), (0.5, (0, (1, 2)), "1/2")):
            ax.loglog(xs, e0 * (xs / d0) ** p, color="0.35", ls=style, lw=1.2,
                      label=f"reference slope {name}")

    if not plotted:
        ax.text(0.5, 0.5, "no plottable errors", transform=ax.transAxes,
                ha="center", va="center", color="gray")
    ax.set_xlabel(r"time step $\Delta t$")
    ax.set_ylabel("error")
    ax.grid(True, which="both", alpha=0.3)
    if plotted:
        ax.legend(loc="best", fontsize="small")
    ax.set_title(args.title if args.title is not None else args.csv, fontsize="medium")

    out = args.output or os.path.join(os.path.dirname(os.path.abspath(args.csv)), "errors.png")
    tmp = out + ".tmp"
    try:
        fig.savefig(tmp, dpi=args.dpi, format="png")
        os.replace(tmp, out)
    except OSError as e:
        print(f"plot_errors: cannot write {out}: {e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
