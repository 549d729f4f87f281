#!/usr/bin/python3
"""Plot the response of a chain (Bastien & Lamarque 2009) from its history.csv.

Usage: chain_response.py HISTORY_CSV [-o OUT.png] [--dpi N]

Left, the hysteresis of the St-Venant elements:
- a chain with a free right end (Right end = force or displacement, e.g.
  prm/chain_quasistatic_free_force.prm): the load-displacement loop at the
  right end, -F_{n+1} against the end displacement x;
- a chain clamped at both ends (e.g. prm/chain_dynamical_clamped.prm): the
  friction force g_i of each written mass against its displacement x_i, a
  loop that is vertical while the mass sticks and flat at +-threshold while
  it slips. (The reaction F_0 against x_1 drawn there before is only the
  first spring's law F_0 = -k_1 x_1, a straight line.)
The kind of chain is read from 'Right end' in parameters.prm next to the
CSV, or, without that file, from end_displacement (all zero: clamped).
Right: the friction forces g_i of the written masses against t.
Default output: response.png next to the CSV.
"""
import argparse
import csv
import os
import sys

import re

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def right_end(history, x_end):
    """'clamped', 'force' or 'displacement': from parameters.prm, else guessed."""
    prm = os.path.join(os.path.dirname(os.path.abspath(history)), "parameters.prm")
    if os.path.isfile(prm):
        with open(prm) as f:
            for line in f:
                m = re.match(r"\s*set\s+Right end\s*=\s*(\w+)", line)
                if m:
                    return m.group(1)
    return "force" if any(v != 0 for v in x_end) else "clamped"


def draw_loops(ax, column, g_columns):
    """g_i against x_i, one loop per written mass."""
    for c in g_columns[:12]:
        x = "x" + c[1:]
        ax.plot(column(x), column(c), lw=1.0, label="%s(%s)" % (c, x))
    ax.set_xlabel("displacement x_i")
    ax.set_ylabel("friction force g_i")
    ax.set_title("St-Venant loops (clamped chain)", fontsize="medium")
    if g_columns:
        ax.legend(fontsize=7, ncol=2)


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
    g_columns = [c for c in rows[0] if c.startswith("g") and c[1:].isdigit()
                 and "x" + c[1:] in rows[0]]
    end = right_end(a.history, x_end)
    if end == "clamped":
        draw_loops(left, column, g_columns)
        print("chain_response: clamped chain: left panel g_i against x_i")
    else:
        print(f"chain_response: Right end = {end}: left panel -F_(n+1) against x")
        left.plot(x_end, [-f for f in column("reaction_right")])
        left.set_xlabel("end displacement x")
        left.set_ylabel("load at the end, -F_{n+1}")
        left.set_title("load-displacement loop at the free end", fontsize="medium")
    left.grid(True, alpha=0.3)
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
