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
    runs = sorted((json.load(open(p)) for p in sys.argv[2:]),
                  key=lambda r: (r["unknowns"], r["name"], r["steps"]))
    print("| unknowns | run | scheme | steps | dt/h | loop wall | dof-updates/s "
          "| max u err | L2 u err | max v err | L2 v err |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        if r["name"] == "getfem":  # the mass is in the scheme's description
            r["name"] += " lumped" if "lumped mass" in r["scheme"] else " consistent"
        r.update(errors(r, ref))
        r["rate"] = r["unknowns"] * r["steps"] / r["loop_seconds"]
        print(f"| {r['unknowns']} | {r['name']} | {r['scheme']} | {r['steps']} "
              f"| {r['dt'] * r['cells']:.3g} | {r['loop_seconds']:.3g} s | {r['rate']:.3g} "
              f"| {r['u_max']:.2e} | {r['u_l2']:.2e} | {r['v_max']:.2e} | {r['v_l2']:.2e} |")
    print()
    headline(runs)
    return 0


def headline(runs):
    """Equal accuracy: for each peer and size, its most accurate run against
    the fastest stickslip run (of any mesh) whose displacement error is not
    larger, and the fastest such run on the peer's own mesh when that is
    another one; and, when Lie does not reach that error, the steps a first-order
    extrapolation says it would need."""
    ours = [r for r in runs if r["name"].startswith("stickslip")]
    best_peers = {}
    for r in runs:
        if r in ours:
            continue
        key = (r["name"], r["unknowns"])
        if key not in best_peers or r["u_max"] < best_peers[key]["u_max"]:
            best_peers[key] = r
    for (name, n), peer in sorted(best_peers.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        line = (f"- **{name}, {n} unknowns**, {peer['steps']} steps: max u error "
                f"{peer['u_max']:.2e} in {peer['loop_seconds']:.3g} s. ")
        good = [r for r in ours if r["u_max"] <= peer["u_max"]]
        if good:
            best = min(good, key=lambda r: r["loop_seconds"])
            line += (f"stickslip at equal or better accuracy: {best['name']}, {best['unknowns']} "
                     f"unknowns, {best['steps']} steps, error {best['u_max']:.2e} in "
                     f"{best['loop_seconds']:.3g} s: **{peer['loop_seconds'] / best['loop_seconds']:.0f}x "
                     f"faster**. ")
            same_mesh = [r for r in good if r["unknowns"] == n]
            if same_mesh and best["unknowns"] != n:
                fastest = min(same_mesh, key=lambda r: r["loop_seconds"])
                line += (f"On the same mesh: {fastest['name']}, {fastest['steps']} steps, error "
                         f"{fastest['u_max']:.2e} in {fastest['loop_seconds']:.3g} s: "
                         f"**{peer['loop_seconds'] / fastest['loop_seconds']:.0f}x faster**. ")
        lie = [r for r in ours if r["name"] == "stickslip lie" and r["unknowns"] == n]
        if lie:
            finest = max(lie, key=lambda r: r["steps"])
            if finest["u_max"] > peer["u_max"]:
                factor = finest["u_max"] / peer["u_max"]
                line += (f"Lie (first order in dt) on the same mesh: {finest['u_max']:.2e} at "
                         f"{finest['steps']} steps; {factor:.0f}x more steps would be needed "
                         f"(~{finest['loop_seconds'] * factor:.3g} s, extrapolated).")
        print(line)


if __name__ == "__main__":
    sys.exit(main())
