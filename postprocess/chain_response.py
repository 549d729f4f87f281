#!/usr/bin/python3
"""Plot the response of a chain (seed 004) from its history.csv.

Usage: chain_response.py HISTORY_CSV [-o OUT.png] [--dpi N]

Left: the load-displacement loop at the right end, F_{n+1} against the end
displacement x (clamped-free chains; for a clamped chain, the reaction F_0
against the displacement of the first mass), the elastic-plastic hysteresis
of the St-Venant elements. Right: the friction forces g_i of the written
masses against t. Default output: response.png next to the CSV.
"""
import argparse
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("history")
    p.add_argument("-o", "--output")
    p.add_argument("--dpi", type=int, default=120)
    a = p.parse_args()
    with open(a.history, newline="") as f:
        rows = list(csv.DictReader(f))
    column = lambda name: [float(r[name]) if r[name] not in ("", "nan")
                           else float("nan") for r in rows]
    t = column("t")
    x_end = column("end_displacement")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    if any(v != 0 for v in x_end):
        left.plot(x_end, [-f for f in column("reaction_right")])
        left.set_xlabel("end displacement x")
        left.set_ylabel("load at the end, -F_{n+1}")
    else:
        left.plot(column("x1"), column("reaction_left"))
        left.set_xlabel("x1")
        left.set_ylabel("reaction F_0")
    left.grid(True, alpha=0.3)
    g_columns = [c for c in rows[0] if c.startswith("g") and c[1:].isdigit()]
    for c in g_columns[:12]:
        right.step(t, column(c), where="post", label=c)
    right.set_xlabel("t")
    right.set_ylabel("friction force g_i")
    right.grid(True, alpha=0.3)
    if g_columns:
        right.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    out = a.output or os.path.join(os.path.dirname(a.history), "response.png")
    fig.savefig(out, dpi=a.dpi)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
