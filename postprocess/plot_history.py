#!/usr/bin/python3
"""Plot a stickslip history.csv (ode / chain models) as three stacked panels.

Usage: plot_history.py HISTORY_CSV [-o OUT.png] [--title TEXT] [--dpi N]

Panels: x_i(t), v_i(t) and lambda_i(t) (the latter drawn as steps, 'steps-post'),
one line per component.  The dimension d is detected from the header (columns
x1..xd, v1..vd, lambda1..lambdad); other columns (energy, iterations, anything
added later) are ignored.  Default output: history.png next to the CSV.
"""
import argparse
import csv
import os
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

MAX_LEGEND = 12  # above this many components the legend is left out


def read_csv(path):
    """Return (header list, 2-D float array).  Empty / unparsable fields -> NaN.
    Blank lines and lines starting with '#' are skipped."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f)
                if r and any(c.strip() for c in r) and not r[0].lstrip().startswith("#")]
    if not rows:
        raise ValueError(f"{path}: empty file")
    header = [h.strip() for h in rows[0]]
    n = len(header)
    data = np.full((len(rows) - 1, n), np.nan)
    for i, r in enumerate(rows[1:]):
        for j, c in enumerate(r[:n]):
            try:
                data[i, j] = float(c)
            except ValueError:
                pass
    return header, data


def component_columns(header, prefix):
    """Indices of columns named <prefix><k>, k = 1, 2, ..., sorted by k."""
    pat = re.compile(r"^" + re.escape(prefix) + r"_?(\d+)$", re.IGNORECASE)
    found = {}
    for j, h in enumerate(header):
        m = pat.match(h)
        if m:
            found[int(m.group(1))] = j
    return [found[k] for k in sorted(found)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="history.csv written by stickslip")
    ap.add_argument("-o", "--output", help="output PNG (default: history.png next to the CSV)")
    ap.add_argument("--title", help="figure title (default: the CSV path)")
    ap.add_argument("--dpi", type=int, default=150)
    args = ap.parse_args(argv)

    try:
        header, data = read_csv(args.csv)
    except (OSError, ValueError) as e:
        print(f"plot_history: {e}", file=sys.stderr)
        return 1

    lower = [h.lower() for h in header]
    if "t" not in lower:
        print(f"plot_history: {args.csv}: no 't' column in header {header}", file=sys.stderr)
        return 1
    t = data[:, lower.index("t")]

    panels = [("x", r"$x_{%d}$", r"$x_i(t)$", False),
              ("v", r"$v_{%d}$", r"$v_i(t)$", False),
              ("lambda", r"$\lambda_{%d}$", r"$\lambda_i(t)$", True)]
    cols = {p[0]: component_columns(header, p[0]) for p in panels}
    if not any(cols.values()):
        print(f"plot_history: {args.csv}: no x1.., v1.., lambda1.. columns "
              f"(header: {', '.join(header)})", file=sys.stderr)
        return 1
    d = max(len(c) for c in cols.values())
    if len(data) == 0:
        print(f"plot_history: warning: {args.csv} has a header but no data rows",
              file=sys.stderr)

    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(8, 9), constrained_layout=True)
    for ax, (name, label, ylabel, steps) in zip(axes, panels):
        idx = cols[name]
        for k, j in enumerate(idx, start=1):
            kw = {"drawstyle": "steps-post"} if steps else {}
            ax.plot(t, data[:, j], label=label % k, lw=1.2, **kw)
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        if not idx:
            ax.text(0.5, 0.5, f"no {name} columns", transform=ax.transAxes,
                    ha="center", va="center", color="gray")
        elif len(idx) <= MAX_LEGEND:
            # outside, right of the panel, so that it never hides data
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                      borderaxespad=0.0)
    axes[-1].set_xlabel(r"$t$")
    if len(t) and np.all(np.isfinite(t)) and t[-1] > t[0]:
        axes[-1].set_xlim(t[0], t[-1])
    fig.suptitle(args.title if args.title is not None else f"{args.csv}  (d = {d})",
                 fontsize="medium")

    out = args.output or os.path.join(os.path.dirname(os.path.abspath(args.csv)), "history.png")
    return save(fig, out, args.dpi)


def save(fig, out, dpi):
    """Write to a temporary name and rename, so an interrupted run leaves no truncated PNG."""
    tmp = out + ".tmp"
    try:
        fig.savefig(tmp, dpi=dpi, format="png")
        os.replace(tmp, out)
    except OSError as e:
        print(f"plot_history: cannot write {out}: {e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
