#!/usr/bin/python3
"""Compares the final u, v of every run (JSON of the peer scripts) with a
fine reference and prints the markdown table of bench/sections/70_peers.sh.

Errors are taken at the nodes of the run (the reference, a finer uniform
mesh of 2^k cells, holds them all; np.interp is exact there): the max norm
and the discrete L2 norm sqrt(h sum_i e_i^2).

usage: compare.py REFERENCE.json RUN.json ...
"""

import json
import sys

import numpy as np


def errors(run, ref):
    x = np.asarray(run["x"])
    h = 1.0 / run["cells"]
    out = {}
    for field in ("u", "v"):
        e = np.asarray(run[field]) - np.interp(x, ref["x"], ref[field])
        out[field + "_max"] = np.abs(e).max()
        out[field + "_l2"] = np.sqrt(h * np.sum(e**2))
    return out


def main():
    ref = json.load(open(sys.argv[1]))
    runs = [json.load(open(p)) for p in sys.argv[2:]]
    print("| unknowns | run | scheme | steps | dt/h | loop wall | dof-updates/s "
          "| max u err | L2 u err | max v err | L2 v err |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        r.update(errors(r, ref))
        r["rate"] = r["unknowns"] * r["steps"] / r["loop_seconds"]
        print(f"| {r['unknowns']} | {r['name']} | {r['scheme']} | {r['steps']} "
              f"| {r['dt'] * r['cells']:.3g} | {r['loop_seconds']:.3g} s | {r['rate']:.3g} "
              f"| {r['u_max']:.2e} | {r['u_l2']:.2e} | {r['v_max']:.2e} | {r['v_l2']:.2e} |")
    print()
    headline(runs)
    return 0


def headline(runs):
    """At each size: the peers' best displacement error is the target; the
    cheapest stickslip run that reaches it (within 1.5x) against the peer's
    loop time, and for each stickslip scheme that does not reach it the
    steps a first-order (Lie) or second-order extrapolation would need."""
    for n in sorted({r["unknowns"] for r in runs}):
        here = [r for r in runs if r["unknowns"] == n]
        peers = [r for r in here if not r["name"].startswith("stickslip")]
        if not peers:
            continue
        peer = min(peers, key=lambda r: r["u_max"])
        target = 1.5 * peer["u_max"]
        ours = [r for r in here if r["name"].startswith("stickslip") and r["u_max"] <= target]
        line = (f"- **{n} unknowns**: the most accurate peer run, {peer['name']} "
                f"({peer['steps']} steps), has max u error {peer['u_max']:.2e} in "
                f"{peer['loop_seconds']:.3g} s. ")
        if ours:
            best = min(ours, key=lambda r: r["loop_seconds"])
            line += (f"The fastest stickslip run at least as accurate (within 1.5x): "
                     f"{best['name']}, {best['steps']} steps, error {best['u_max']:.2e}, "
                     f"{best['loop_seconds']:.3g} s: **{peer['loop_seconds'] / best['loop_seconds']:.0f}x "
                     f"faster at equal accuracy**. ")
        lie = [r for r in here if r["name"] == "stickslip lie"]
        if lie:
            finest = max(lie, key=lambda r: r["steps"])
            if finest["u_max"] > target:
                factor = finest["u_max"] / target
                line += (f"Lie (first order in dt) at {finest['steps']} steps is still "
                         f"{finest['u_max'] / peer['u_max']:.0f}x less accurate; reaching "
                         f"the target would take about {factor:.0f}x more steps "
                         f"(~{finest['loop_seconds'] * factor:.3g} s, extrapolated).")
            else:
                line += (f"Lie reaches it at {finest['steps']} steps in "
                         f"{finest['loop_seconds']:.3g} s.")
        print(line)


if __name__ == "__main__":
    sys.exit(main())
