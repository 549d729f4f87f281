#!/usr/bin/env python3
"""Plot the scaling table of bench/sections/56_scaling.sh (its CSV): set-up
time and time per step against the number of unknowns, log-log, with a line
of slope 1 (cost proportional to N) for reference.

    python3 bench/plot_scaling.py bench/results/56_scaling.csv -o doc/scaling.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("-o", "--output", default="scaling.png")
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for (dim, ranks), style in {("1", "1"): "o-", ("1", "2"): "o--",
                                ("2", "1"): "s-", ("2", "2"): "s--"}.items():
        sel = [r for r in rows if r["dim"] == dim and r["ranks"] == ranks]
        if not sel:
            continue
        n = [int(r["unknowns"]) for r in sel]
        label = "%sD, %s rank%s" % (dim, ranks, "s" if ranks != "1" else "")
        axes[0].loglog(n, [float(r["setup_s"]) for r in sel], style, label=label)
        axes[1].loglog(n, [float(r["loop_s"]) / int(r["steps"]) for r in sel],
                       style, label=label)
    for ax, title, ylabel in ((axes[0], "set-up", "wall time [s]"),
                              (axes[1], "one time step", "wall time per step [s]")):
        lines = ax.get_lines()
        if lines:
            xs = [x for line in lines for x in line.get_xdata()]
            ys = [y for line in lines for y in line.get_ydata()]
            x0, x1 = min(xs), max(xs)
            y0 = max(ys) * x0 / x1  # slope 1 ending at the largest value
            ax.loglog([x0, x1], [y0, y0 * x1 / x0], "k:", label="slope 1 (cost ∝ N)")
        ax.set_xlabel("unknowns N")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Lumped explicit string (1D) and membrane (2D): cost against N")
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)


if __name__ == "__main__":
    main()
