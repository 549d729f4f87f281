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
Refuses (exit 1) a folder without history.csv or an unknown column, naming
the columns there are. Default output: OUTPUT_DIR/history.png, written to a
temporary name and renamed.
"""
import argparse
import csv
import os
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


def time_unit(t_max):
    """Scale and label of the time axis."""
    if t_max < 1e-3:
        return 1e6, "t [us]"
    if t_max < 1:
        return 1e3, "t [ms]"
    return 1.0, "t [s]"


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

    fig, axes = plt.subplots(len(a.panel), 1, sharex=True, squeeze=False,
                             figsize=(8, 2.4 * len(a.panel) + 0.6))
    for i, spec in enumerate(a.panel):
        ax = axes[i][0]
        for name in columns_of(spec, body, path):
            pts = [(t * scale, v) for t, v in zip(body["t"], body[name]) if t <= t_max]
            ax.plot([q[0] for q in pts], [q[1] for q in pts], lw=1.2, label=name)
        if reference is not None and a.reference_panel[i] != "-":
            for name in columns_of(a.reference_panel[i], reference, ref_path):
                pts = [(t * scale, v) for t, v in zip(reference["t"], reference[name])
                       if t <= t_max]
                ax.plot([q[0] for q in pts], [q[1] for q in pts], "k--", lw=1,
                        label="%s: %s" % (a.reference_label, name))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
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
