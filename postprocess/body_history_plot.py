#!/usr/bin/python3
"""Time histories of a Model = body run, one panel per group of columns.

    body_history_plot.py OUTPUT_DIR --panel COL[,COL...] [--panel ...]
                         [--reference DIR --reference-panel COL[,COL...] ...]
                         [--reference-label TEXT] [--tmax T] [-o OUT.png]

Each --panel draws the named columns of OUTPUT_DIR/history.csv against t.
With --reference, the i-th --reference-panel draws columns of DIR/history.csv
(another run, for instance Model = slab) dashed in the i-th panel ('-' for
none), so that a body run can be laid over the model it must converge to.
The time axis is in microseconds or milliseconds when the run is that short.

Units: a run of Model = body or slab (read from OUTPUT_DIR/parameters.prm)
is in SI units, and each axis is labelled with the unit of its columns; the
2D body is per unit depth (energies in J/m, forces in N/m, momentum in
kg/s). A panel whose columns have different units (friction_force_1 in N/m
beside stick_fraction) puts the second unit on a right-hand axis, and refuses
a third. The other models (string, chain, ode) are written in the units of
their parameter files (doc/outputs.md): their axes name the columns only.

Refuses (exit 1) a folder without history.csv or an unknown column, naming
the columns there are. Default output: OUTPUT_DIR/history.png, written to a
temporary name and renamed.
"""
import argparse
import csv
import os
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_history(folder):
    path = os.path.join(folder, "history.csv")
    if not os.path.isfile(path):
        raise SystemExit("body_history_plot: %s has no history.csv" % folder)
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit("body_history_plot: %s has no rows" % path)
    return path, {k: [float(r[k]) for r in rows] for k in rows[0]}


def columns_of(spec, table, path):
    names = [c for c in spec.split(",") if c]
    for name in names:
        if name not in table:
            raise SystemExit("body_history_plot: no column '%s' in %s; there are: %s"
                             % (name, path, ", ".join(table)))
    return names


def run_kind(folder):
    """(model, dimension) from the run's parameters.prm; (None, None) without
    it."""
    path = os.path.join(folder, "parameters.prm")
    if not os.path.isfile(path):
        return None, None
    text = open(path).read()
    model = re.search(r"^set Model\s*=\s*(\S+)", text, re.M)
    dimension = re.search(r"^set Dimension\s*=\s*(\d)", text, re.M)
    return (model.group(1) if model else None,
            int(dimension.group(1)) if dimension else None)


# The columns of the body's and the slab's history.csv by kind (doc/body.md,
# "Outputs"; doc/outputs.md). A 2D body is a slice of unit depth.
FRACTION = re.compile(r"_fraction$|^stick$")
COUNT = re.compile(r"iterations$|_changes$|^ambiguous_nodes$|^substeps$|^substep_cuts$|"
                   r"^solutions$")
ENERGY = re.compile(r"_energy$|_work$|^energy_balance$|^numerical_dissipation$")
FORCE = re.compile(r"^normal_force$|^friction_force_\d$|^pull_force$")
SPEED = re.compile(r"slip_rate$|slip_velocity_\d$|^normal_velocity$")
LENGTH = re.compile(r"_gap$|displacement|^front_m(in|ax)_\d$|^max_slip$")
TIME = re.compile(r"substep$")


def column_unit(name, model, dimension):
    """The unit of column NAME of a body or slab run ('' if unknown), or None
    for the models written in the units of their parameter files."""
    if model not in ("body", "slab"):
        return None
    per_depth = model == "body" and dimension == 2
    if FRACTION.search(name):
        return "fraction"
    if COUNT.search(name):
        return "count"
    if ENERGY.search(name):
        return "J/m" if per_depth else "J"
    if name.startswith("momentum_"):
        return "kg/s" if per_depth else "kg m/s"
    if model == "slab" and (name.startswith("friction_") or name == "contact_pressure"):
        return "Pa"  # the slab's tractions are per unit area
    if FORCE.search(name):
        return "N/m" if per_depth else "N"
    if name in ("mean_pressure", "contact_pressure"):
        return "Pa"
    if SPEED.search(name):
        return "m/s"
    if LENGTH.search(name):
        return "m"
    if TIME.search(name):
        return "s"
    if name.endswith("_strength") or name.endswith("_friction_state") or name == "max_b3":
        return "dimensionless"
    return ""


KIND = {"J": "energy", "J/m": "energy", "N": "force", "N/m": "force", "kg/s": "momentum",
        "kg m/s": "momentum", "m/s": "velocity", "m": "length", "Pa": "stress", "s": "time",
        "fraction": "fraction", "count": "count", "dimensionless": "value"}


def label_of(names, unit):
    """The axis label: one column's name, or for several (the legend names
    them) what they are; then the unit in brackets."""
    text = names[0] if len(names) == 1 else KIND.get(unit, ", ".join(names))
    if unit in ("fraction", "count", "dimensionless"):
        return text if text == unit else "%s [%s]" % (text, unit)
    return text + (" [%s]" % unit if unit else "")


def time_unit(t_max):
    """Scale and label of the time axis."""
    if t_max < 1e-3:
        return 1e6, "t [us]"
    if t_max < 1:
        return 1e3, "t [ms]"
    return 1.0, "t [s]"


def draw_panel(ax, curves, scale, t_max):
    """CURVES (table, column, unit, reference label or None) against t: the
    first unit on AX, a second on a right-hand axis; the reference dashed."""
    units = []
    for _, _, unit, _ in curves:
        if unit not in units:
            units.append(unit)
    if len(units) > 2:
        raise SystemExit("body_history_plot: one panel with columns of %d units (%s): "
                         "give each unit its own --panel"
                         % (len(units), ", ".join(u or "none" for u in units)))
    axis_of = {units[0]: ax}
    if len(units) == 2:
        axis_of[units[1]] = ax.twinx()
    lines = []
    for k, (table, name, unit, reference_label) in enumerate(curves):
        pts = [(t * scale, v) for t, v in zip(table["t"], table[name]) if t <= t_max]
        style = dict(color="k", ls="--", lw=1) if reference_label else \
            dict(color="C%d" % k, lw=1.2)
        lines += axis_of[unit].plot([q[0] for q in pts], [q[1] for q in pts],
                                    label=reference_label or name, **style)
    for unit, axis in axis_of.items():
        names = [name for _, name, u, ref in curves if u == unit and ref is None] or \
            [name for _, name, u, _ in curves if u == unit]
        axis.set_ylabel(label_of(names, unit) if unit is not None else ", ".join(names),
                        fontsize=8)
    ax.grid(alpha=0.3)
    ax.legend(lines, [line.get_label() for line in lines], fontsize=8, loc="best")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("--panel", action="append", required=True,
                   help="comma-separated columns of history.csv drawn in one panel")
    p.add_argument("--reference", help="another output folder drawn dashed")
    p.add_argument("--reference-panel", action="append", default=[],
                   help="columns of the reference for the panel of the same rank ('-': none)")
    p.add_argument("--reference-label", default="reference")
    p.add_argument("--tmax", type=float, help="last time drawn")
    p.add_argument("--title")
    p.add_argument("--dpi", type=int, default=110)
    p.add_argument("-o", "--output")
    a = p.parse_args()

    path, body = read_history(a.folder)
    reference = None
    if a.reference:
        ref_path, reference = read_history(a.reference)
        if len(a.reference_panel) != len(a.panel):
            raise SystemExit("body_history_plot: %d --panel but %d --reference-panel"
                             % (len(a.panel), len(a.reference_panel)))
    t_max = a.tmax if a.tmax is not None else body["t"][-1]
    scale, t_label = time_unit(t_max)

    model, dimension = run_kind(a.folder)
    ref_model, ref_dimension = run_kind(a.reference) if a.reference else (None, None)
    fig, axes = plt.subplots(len(a.panel), 1, sharex=True, squeeze=False,
                             figsize=(8, 2.4 * len(a.panel) + 0.6))
    for i, spec in enumerate(a.panel):
        curves = [(body, name, column_unit(name, model, dimension), None)
                  for name in columns_of(spec, body, path)]
        if reference is not None and a.reference_panel[i] != "-":
            curves += [(reference, name, column_unit(name, ref_model, ref_dimension),
                        "%s: %s" % (a.reference_label, name))
                       for name in columns_of(a.reference_panel[i], reference, ref_path)]
        draw_panel(axes[i][0], curves, scale, t_max)
    axes[-1][0].set_xlabel(t_label)
    axes[-1][0].set_xlim(0, t_max * scale)
    fig.suptitle(a.title or os.path.basename(os.path.normpath(a.folder)))
    fig.tight_layout()

    out = a.output or os.path.join(a.folder, "history.png")
    tmp = out + ".tmp.%d.png" % os.getpid()
    fig.savefig(tmp, dpi=a.dpi)
    os.replace(tmp, out)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
