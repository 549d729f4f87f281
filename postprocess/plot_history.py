#!/usr/bin/python3
"""Plot a stickslip history.csv as stacked panels against t.

Usage: plot_history.py HISTORY_CSV [-o OUT.png] [--title TEXT] [--dpi N]

The layout follows the header:
- ode / gearbox / chain (columns x1..xd, v1..vd, lambda1..lambdad): x_i(t),
  v_i(t) and lambda_i(t) (the latter drawn as steps, 'steps-post'), one line
  per component; other columns (energy, iterations, ...) are ignored.
- string / membrane (columns kinetic_energy, elastic_energy,
  dissipated_energy, stick_fraction, iterations): the three energies and
  their sum (constant up to the splitting error when no force does work), the
  fraction of frictional nodes that stick, and the friction iterations per
  step.
- body (columns kinetic_energy, elastic_energy, dissipated_energy, data_work,
  impact_work, energy_balance): the energies, the works of the data and of the
  contact corrections, and the account kinetic + elastic + dissipated -
  data_work - impact_work, which is E0 + energy_balance: constant up to O(dt)
  (doc/body.md, "Outputs"); the stick and contact fractions the run has.
  (The string's "sum" would not be conserved there: the loads, the prescribed
  displacements and the contact do work.)
Default output: history.png next to the CSV.
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


ENERGY_COLUMNS = {"kinetic_energy", "elastic_energy", "dissipated_energy", "stick_fraction"}
BODY_COLUMNS = {"kinetic_energy", "elastic_energy", "dissipated_energy", "data_work",
                "impact_work", "energy_balance"}
BODY_FRACTIONS = (("stick_fraction", "stick (of the area in contact)"),
                  ("floor_stick_fraction", "stick on the floor"),
                  ("contact_fraction", "contact (of the contact boundary)"))


def energy_axes(has_second, has_iterations):
    """The figure and its panels: energies, [fractions], [iterations]."""
    n = 1 + has_second + has_iterations
    fig, axes = plt.subplots(n, 1, sharex=True, figsize=(8, 2.5 + 2.5 * n),
                             constrained_layout=True, squeeze=False)
    return fig, list(axes[:, 0])


def finish_axes(axes, t):
    for ax in axes:
        ax.grid(True, alpha=0.3)
    axes[0].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                   borderaxespad=0.0)
    axes[-1].set_xlabel(r"$t$")
    if len(t) and np.all(np.isfinite(t)) and t[-1] > t[0]:
        axes[-1].set_xlim(t[0], t[-1])


def plot_energies(header, data, t):
    """The string / membrane layout: energies and their sum, stick fraction,
    iterations; (figure, what it shows)."""
    column = {h.lower(): data[:, j] for j, h in enumerate(header)}
    # closed-form friction solves take no iterations: the panel is left out then
    has_iterations = "iterations" in column and np.nanmax(column["iterations"]) > 0
    fig, axes = energy_axes(True, has_iterations)
    energy, stick = axes[0], axes[1]
    for name, label in (("kinetic_energy", "kinetic"), ("elastic_energy", "elastic"),
                        ("dissipated_energy", "dissipated")):
        energy.plot(t, column[name], lw=1.2, label=label)
    total = column["kinetic_energy"] + column["elastic_energy"] + column["dissipated_energy"]
    energy.plot(t, total, "k--", lw=1.2, label="sum (constant\nwithout loads)")
    energy.set_ylabel("energy")
    stick.plot(t, column["stick_fraction"], drawstyle="steps-post", lw=1.2)
    stick.set_ylabel("stick fraction")
    note = "string/membrane: energies and their sum, stick fraction" + (
        ", friction iterations" if has_iterations else "")
    stick.set_ylim(-0.05, 1.05)
    if has_iterations:
        axes[2].plot(t, column["iterations"], drawstyle="steps-post", lw=1.0)
        axes[2].set_ylabel("friction iterations")
    finish_axes(axes, t)
    return fig, note


def plot_body_energies(header, data, t):
    """The body layout: energies, works and the conserved account; the fractions;
    (figure, what it shows)."""
    column = {h.lower(): data[:, j] for j, h in enumerate(header)}
    fractions = [(name, label) for name, label in BODY_FRACTIONS if name in column]
    fig, axes = energy_axes(bool(fractions), False)
    energy = axes[0]
    for name, label, style in (("kinetic_energy", "kinetic", "-"),
                               ("elastic_energy", "elastic", "-"),
                               ("dissipated_energy", "dissipated by friction", "-"),
                               ("data_work", "work of the data", "-."),
                               ("impact_work", "work of the contact\ncorrections", "-.")):
        # the works dash-dotted: the elastic energy of a body held still is
        # its data's work, drawn on top of each other
        energy.plot(t, column[name], style, lw=1.6 if style == "-" else 1.2, label=label)
    account = (column["kinetic_energy"] + column["elastic_energy"]
               + column["dissipated_energy"] - column["data_work"] - column["impact_work"])
    energy.plot(t, account, "k--", lw=1.2,
                label="kinetic + elastic\n+ dissipated - works\n(= E0 + energy_balance:\n"
                      "constant up to O(dt))")
    terms = np.abs(np.stack([column[n] for n in BODY_COLUMNS if n != "energy_balance"]))
    scale = np.nanmax(terms) if terms.size else 0.0
    spread = (np.nanmax(account) - np.nanmin(account)) / scale if scale > 0 else 0.0
    note = ("body: energies, works and their account kinetic + elastic + dissipated - "
            f"works, which varies by {100 * spread:.2g}% of the largest energy or work")
    # The 2D body is a slice of unit depth (plane strain): its energies are
    # per metre of depth.
    energy.set_ylabel("energy [J]" if "momentum_z" in column else
                      "energy [J/m] (per unit depth)")
    if fractions:
        for name, label in fractions:
            axes[1].plot(t, column[name], drawstyle="steps-post", lw=1.2, label=label)
        axes[1].set_ylabel("fraction")
        axes[1].set_ylim(-0.05, 1.05)
        axes[1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                       borderaxespad=0.0)
    finish_axes(axes, t)
    axes[-1].set_xlabel(r"$t$ [s]")
    return fig, note


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

    layout = plot_body_energies if BODY_COLUMNS <= set(lower) else \
        plot_energies if ENERGY_COLUMNS <= set(lower) else None
    if layout is not None:
        fig, note = layout(header, data, t)
        fig.suptitle(args.title if args.title is not None else args.csv, fontsize="medium")
        out = args.output or os.path.join(os.path.dirname(os.path.abspath(args.csv)),
                                          "history.png")
        return save(fig, out, args.dpi, note)

    panels = [("x", r"$x_{%d}$", r"$x_i(t)$", False),
              ("v", r"$v_{%d}$", r"$v_i(t)$", False),
              ("lambda", r"$\lambda_{%d}$", r"$\lambda_i(t)$", True)]
    cols = {p[0]: component_columns(header, p[0]) for p in panels}
    if not any(cols.values()):
        print(f"plot_history: {args.csv}: neither x1.., v1.., lambda1.. columns nor "
              f"{', '.join(sorted(ENERGY_COLUMNS))} nor {', '.join(sorted(BODY_COLUMNS))} "
              f"(header: {', '.join(header)}); postprocess/body_history_plot.py draws "
              "any columns", file=sys.stderr)
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
    note = f"ode/gearbox/chain: x_i, v_i, lambda_i, d = {d}"

    out = args.output or os.path.join(os.path.dirname(os.path.abspath(args.csv)), "history.png")
    return save(fig, out, args.dpi, note)


def save(fig, out, dpi, note):
    """Write to a temporary name and rename, so an interrupted run leaves no truncated PNG."""
    tmp = out + ".tmp"
    try:
        fig.savefig(tmp, dpi=dpi, format="png")
        os.replace(tmp, out)
    except OSError as e:
        print(f"plot_history: cannot write {out}: {e}", file=sys.stderr)
        return 1
    print(f"plot_history: wrote {out} ({note})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
