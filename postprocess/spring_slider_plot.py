#!/usr/bin/python3
"""The spring-slider's run (Model = spring-slider) in three panels.

    spring_slider_plot.py OUTPUT_DIR [--reference DIR] [-o OUT.png]

From OUTPUT_DIR/history.csv, with the rows of OUTPUT_DIR/events.csv (the
slip onsets, arrests and slip-rate maxima the adaptive integrator located)
merged in by time, so that every peak is drawn at its height whatever
Output/Interval is: the slip rate against time (log scale, the maxima
marked), the
friction coefficient against the slip rate (log scale) with the steady-state
line it orbits, and the phase portrait (the slip rate against the spring
force over the normal force). --reference draws a second run (e.g. the
stable stiffness) in grey in the first panel. Default output:
OUTPUT_DIR/spring_slider.png, written to a temporary name and renamed.
"""
import argparse
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def read(folder):
    path = os.path.join(folder, "history.csv")
    if not os.path.isfile(path):
        sys.exit("spring_slider_plot: %s has no history.csv" % folder)
    rows = read_rows(path)
    needed = ("t", "velocity", "friction_coefficient", "spring_force")
    if not rows or any(c not in rows[0] for c in needed):
        sys.exit("spring_slider_plot: %s is not a spring-slider history" % path)
    columns = list(rows[0])
    events = os.path.join(folder, "events.csv")
    maxima = []
    if os.path.isfile(events):
        extra = read_rows(events)
        maxima = [(float(r["t"]), float(r["velocity"])) for r in extra
                  if r["event"] == "slip_rate_maximum"]
        rows = sorted(rows + extra, key=lambda r: float(r["t"]))
    h = {k: [float(r[k]) for r in rows] for k in columns}
    h["maxima"] = maxima
    return h


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("--reference")
    p.add_argument("--normal-force", type=float, default=1000.0)
    p.add_argument("-o", "--output")
    a = p.parse_args()
    h = read(a.folder)
    v = [max(x, 1e-30) for x in h["velocity"]]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    if a.reference:
        r = read(a.reference)
        axes[0].semilogy(r["t"], [max(x, 1e-30) for x in r["velocity"]], color="0.6",
                         lw=0.8, label="reference (%s)" % os.path.basename(a.reference))
    axes[0].semilogy(h["t"], v, lw=0.8, label=os.path.basename(a.folder))
    if h["maxima"]:
        axes[0].semilogy([m[0] for m in h["maxima"]], [m[1] for m in h["maxima"]],
                         ".", ms=3, color="C3", label="slip-rate maxima (events.csv)")
    axes[0].set_xlabel("t [s]")
    axes[0].set_ylabel("slip rate [m/s]")
    axes[0].legend(fontsize=7)
    axes[1].semilogx(v, h["friction_coefficient"], lw=0.6)
    axes[1].set_xlabel("slip rate [m/s]")
    axes[1].set_ylabel("friction coefficient mu")
    axes[2].semilogy([f / a.normal_force for f in h["spring_force"]], v, lw=0.6)
    axes[2].set_xlabel("spring force / N")
    axes[2].set_ylabel("slip rate [m/s]")
    fig.tight_layout()
    out = a.output or os.path.join(a.folder, "spring_slider.png")
    temporary = out + ".tmp.png"
    fig.savefig(temporary, dpi=110)
    os.replace(temporary, out)
    print("spring_slider_plot: wrote " + out)


if __name__ == "__main__":
    main()
