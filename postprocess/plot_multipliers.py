#!/usr/bin/python3
"""Compare the multipliers of two runs of the centered scheme (Glowinski & Kearsley 1995):
unregularized (1.14) against regularized (1.19), one panel per component.

Usage: plot_multipliers.py UNREGULARIZED/history.csv REGULARIZED/history.csv
                           [-o OUT.png] [--title TEXT] [--dpi N]

The unregularized multiplier of a stuck component oscillates from step to
step (weak-* convergence only); the regularized one follows its time
average. tests/centered_regularization.py writes both runs.
"""
import argparse
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))[1:]  # t0 has no multiplier
    names = sorted((k for k in rows[0] if k.startswith("lambda")),
                   key=lambda k: int(k[len("lambda"):]))
    t = [float(r["t"]) for r in rows]
    return t, names, [[float(r[k]) for r in rows] for k in names]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("unregularized")
    parser.add_argument("regularized")
    parser.add_argument("-o", "--output")
    parser.add_argument("--title", default="")
    parser.add_argument("--dpi", type=int, default=120)
    args = parser.parse_args()
    t_nr, names, nr = load(args.unregularized)
    t_r, _, r = load(args.regularized)
    output = args.output or os.path.join(
        os.path.dirname(os.path.abspath(args.regularized)), "multipliers.png")

    figure, axes = plt.subplots(len(names), 1, sharex=True,
                                figsize=(9, 2.4 * len(names)), squeeze=False)
    for k, name in enumerate(names):
        axis = axes[k][0]
        axis.plot(t_nr, nr[k], lw=0.6, color="tab:gray",
                  label="unregularized (1.14)")
        axis.plot(t_r, r[k], lw=1.4, color="tab:red",
                  label="regularized (1.19)")
        axis.set_ylabel(name)
        axis.set_ylim(-1.1, 1.1)
        axis.grid(alpha=0.3)
    axes[0][0].legend(loc="upper right", fontsize=8)
    axes[-1][0].set_xlabel("t")
    if args.title:
        axes[0][0].set_title(args.title)
    figure.tight_layout()
    figure.savefig(output, dpi=args.dpi)
    print("wrote", output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
