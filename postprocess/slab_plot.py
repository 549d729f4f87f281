#!/usr/bin/python3
"""Plots of a slab run (history.csv of Model = slab) like Renard 2001, Figs. 4-6.

Usage: slab_plot.py HISTORY_CSV [-o PREFIX] [--detail FRACTION]
                    [--fig4-window TMIN,TMAX] [--dpi N]

Writes PREFIX-fig4.png (contact pressure, slip velocity and normal
displacement against t), PREFIX-fig5.png (tangential displacement of the
contact boundary against t) and PREFIX-fig6.png (detail of the last
FRACTION of the run, default 0.1: tangential displacement and velocity).
PREFIX defaults to 'slab' next to the CSV. Stick intervals are shaded.

fig4 shows the whole run when it has at most FIG4_CYCLES stick-slip cycles;
a longer run (prm/slab_long.prm has 236) would be a solid block of shading
and oscillation there, so fig4 then shows its first FIG4_CYCLES cycles, from
t0 to the next stick onset after them, and says so in its title;
--fig4-window TMIN,TMAX chooses the interval.
"""
import argparse
import csv
import os
import sys

import matplotlib

FIG4_CYCLES = 6   # at most this many stick-slip cycles in fig4 (its line stays readable)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows or "contact_pressure" not in rows[0]:
        sys.exit(f"{path}: not a slab history.csv")
    return {k: [float(r[k]) if r[k] != "" else float("nan") for r in rows] for k in rows[0]}


def save(fig, path, dpi):
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=dpi)
    os.replace(tmp, path)
    plt.close(fig)
    print("wrote", path)


def shade_stick(ax, t, stick):
    start = None
    for i, s in enumerate(stick):
        if s > 0.5 and start is None:
            start = t[i]
        if (s < 0.5 or i == len(stick) - 1) and start is not None:
            ax.axvspan(start, t[i], color="0.9", lw=0)
            start = None


def stick_onsets(t, stick):
    return [t[i] for i in range(1, len(t)) if stick[i] > 0.5 and stick[i - 1] < 0.5]


def fig4_window(t, stick, window):
    """(first index, last index, note for the title) of the rows fig4 shows."""
    if window is not None:
        lo, hi = window
        note = f", t in [{lo:g}, {hi:g}] s"
    else:
        onsets = stick_onsets(t, stick)
        if len(onsets) <= FIG4_CYCLES + 1:
            return 0, len(t) - 1, ""
        lo, hi = t[0], onsets[FIG4_CYCLES]
        note = (f", the first {FIG4_CYCLES} of {len(onsets) - 1} stick-slip cycles "
                "(--fig4-window: another interval)")
    idx = [i for i, x in enumerate(t) if lo <= x <= hi]
    if len(idx) < 2:
        sys.exit(f"--fig4-window {lo:g},{hi:g}: fewer than two rows of the history in it "
                 f"(t = {t[0]:g} .. {t[-1]:g})")
    return idx[0], idx[-1], note


def cycle_report(t, stick):
    """Print the stick-slip cycle periods (time between stick onsets) and
    their relative spread in the first and last thirds of the run."""
    onsets = stick_onsets(t, stick)
    periods = [b - a for a, b in zip(onsets, onsets[1:])]
    if len(periods) < 6:
        print("stick-slip cycles: %d stick onsets" % len(onsets))
        return
    def spread(p):
        m = sum(p) / len(p)
        return m, (sum((x - m) ** 2 for x in p) / len(p)) ** 0.5 / m
    k = len(periods) // 3
    m1, s1 = spread(periods[:k])
    m3, s3 = spread(periods[-k:])
    print("stick-slip cycles: %d; period first third %.4g s (relative spread %.3g), "
          "last third %.4g s (relative spread %.3g)" % (len(periods), m1, s1, m3, s3))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("history")
    p.add_argument("-o", "--prefix")
    p.add_argument("--detail", type=float, default=0.1)
    p.add_argument("--fig4-window", metavar="TMIN,TMAX",
                   help="the interval of fig4 (default: the whole run, or its first "
                        f"{FIG4_CYCLES} stick-slip cycles when it has more)")
    p.add_argument("--dpi", type=int, default=110)
    a = p.parse_args()
    window = None
    if a.fig4_window is not None:
        try:
            window = tuple(float(x) for x in a.fig4_window.split(","))
        except ValueError:
            window = ()
        if len(window) != 2 or not window[0] < window[1]:
            p.error("--fig4-window must be TMIN,TMAX with TMIN < TMAX")
    h = read(a.history)
    prefix = a.prefix or os.path.join(os.path.dirname(os.path.abspath(a.history)), "slab")
    t = h["t"]
    first, last, note = fig4_window(t, h["stick"], window)

    def part(column, scale=1.0):
        return [x * scale for x in h[column][first:last + 1]]
    t4 = t[first:last + 1]
    fig, ax = plt.subplots(3, 1, sharex=True, figsize=(8, 8))
    for axis in ax:
        shade_stick(axis, t4, part("stick"))
    pressure = part("contact_pressure", 1e-6)
    ax[0].plot(t4, pressure, "C0")
    smin, smax = min(pressure), max(pressure)
    if smax - smin <= 1e-6 * max(abs(smax), 1e-300):  # constant up to round-off
        ax[0].set_ylim(0.0, 1.2 * smax if smax > 0 else 1.0)
    ax[0].set_ylabel("contact pressure S [MPa]")
    ax[1].plot(t4, part("slip_velocity_1"), "C1", label="slip velocity $v_s$ (x1)")
    ax[1].plot(t4, part("slip_velocity_2"), "C2", lw=0.8, label="slip velocity (x2)")
    ax[1].set_ylabel("slip velocity [m/s]")
    ax[1].legend(loc="best", fontsize=8)
    ax[2].plot(t4, part("normal_displacement", 1e6), "C3")
    ax[2].set_ylabel("normal displacement $u_3(t,0)$ [µm]")
    ax[2].set_xlabel("t [s] (grey: stick)")
    ax[2].set_xlim(t4[0], t4[-1])
    ax[0].set_title("slab: contact pressure, slip velocity, normal displacement\n"
                    f"(cf. Renard 2001, Fig. 4){note}", fontsize=10)
    fig.tight_layout()
    save(fig, prefix + "-fig4.png", a.dpi)
    print(f"fig4: t = {t4[0]:g} .. {t4[-1]:g} s{note}")

    fig, ax = plt.subplots(figsize=(8, 4))
    ax.plot(t, [u * 1e6 for u in h["tangential_displacement_1"]], "C0", lw=0.8)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("$u_1(t,0)$ [µm]")
    ax.set_title("tangential displacement on the contact boundary (cf. Renard 2001, Fig. 5)")
    fig.tight_layout()
    save(fig, prefix + "-fig5.png", a.dpi)

    cycle_report(t, h["stick"])

    start = t[-1] - a.detail * (t[-1] - t[0])
    idx = [i for i, x in enumerate(t) if x >= start]
    td = [t[i] for i in idx]
    fig, ax = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    for axis in ax:
        shade_stick(axis, td, [h["stick"][i] for i in idx])
    ax[0].plot(td, [h["tangential_displacement_1"][i] * 1e6 for i in idx], "C0")
    ax[0].set_ylabel("$u_1(t,0)$ [µm]")
    ax[1].plot(td, [h["slip_velocity_1"][i] for i in idx], "C1")
    ax[1].set_ylabel("slip velocity $v_s$ [m/s]")
    ax[1].set_xlabel("t [s] (grey: stick)")
    ax[0].set_title("detail: tangential displacement and velocity (cf. Renard 2001, Fig. 6)")
    fig.tight_layout()
    save(fig, prefix + "-fig6.png", a.dpi)


if __name__ == "__main__":
    main()
