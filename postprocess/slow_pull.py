#!/usr/bin/python3
"""The slow pull's stick-slip cycles (prm/body_slow_pull.prm) from history.csv.

    slow_pull.py OUTPUT_DIR --stiffness k --velocity V --mass m --normal N
                 --mu-s MU_S --mu-d MU_D [-o OUT.png] [--no-plot]
                 [--cycles C] [--max-period-error E] [--max-peak-error E]

Reads pull_force(t) (the spring's force on the block) and finds the slip
events: a row where the force falls by more than a tenth of the expected
drop 2 (mu_s - mu_d) N from its last peak starts one; the peak before it is
the event's peak. Prints the events (time, peak force/N, lowest force/N
after it), the cycle period (the mean spacing of the peaks after the first)
against the one-degree-of-freedom estimate (doc/theory.md §7.13)

    T = 2 (mu_s - mu_d) N/(k V) + pi sqrt(m/k),

the first slip time against mu_s N/(k V), and with --cycles C checks that
at least C events occurred and that the period and the
peaks (against mu_s N) are within the given relative errors, and that the
first event's peak and lowest force are within --max-peak-error of mu_s N
and --max-low-error of (2 mu_d - mu_s) N (exit 1 if not; --cycles C asks
for at least C events). Draws pull_force/N against t with the levels mu_s and 2 mu_d - mu_s
into OUT.png (default OUTPUT_DIR/slow_pull.png) unless --no-plot.
"""
import argparse
import csv
import math
import os
import sys


def read(folder):
    path = os.path.join(folder, "history.csv")
    if not os.path.isfile(path):
        sys.exit("slow_pull: %s has no history.csv" % folder)
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows or "pull_force" not in rows[0]:
        sys.exit("slow_pull: %s has no pull_force column (Body/Pull spring)" % path)
    return [float(r["t"]) for r in rows], [float(r["pull_force"]) for r in rows]


def events(times, forces, drop):
    """(peak time, peak force, lowest force until the next rise) per slip."""
    found = []
    peak_t, peak_f, falling = times[0], forces[0], False
    low = forces[0]
    for t, f in zip(times, forces):
        if not falling:
            if f >= peak_f:
                peak_t, peak_f = t, f
            elif peak_f - f > 0.1 * drop:
                falling, low = True, f
        else:
            if f < low:
                low = f
            elif f > low + 0.1 * drop:
                found.append((peak_t, peak_f, low))
                falling, peak_t, peak_f = False, t, f
    if falling:
        found.append((peak_t, peak_f, low))
    return found


def plot(times, forces, normal, a, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.plot(times, [f / normal for f in forces], lw=0.9, label="pull force / N")
    for level, name in ((a.mu_s, "mu_s"), (2 * a.mu_d - a.mu_s, "2 mu_d - mu_s")):
        ax.axhline(level, color="0.5", lw=0.6, ls="--")
        ax.text(times[-1], level, " " + name, va="center", fontsize=8)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("k (X - u) / N")
    ax.set_title("slow pull: stick-slip of a block on a soft spring", fontsize=10)
    fig.tight_layout()
    temporary = out + ".tmp.png"
    fig.savefig(temporary, dpi=110)
    os.replace(temporary, out)
    print("wrote %s" % out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    for name in ("stiffness", "velocity", "mass", "normal", "mu-s", "mu-d"):
        p.add_argument("--" + name, type=float, required=True)
    p.add_argument("-o", "--output")
    p.add_argument("--no-plot", action="store_true")
    p.add_argument("--cycles", type=int, default=0)
    p.add_argument("--max-period-error", type=float, default=1.0)
    p.add_argument("--max-peak-error", type=float, default=1.0)
    p.add_argument("--max-low-error", type=float, default=1.0)
    a = p.parse_args()
    times, forces = read(a.folder)
    drop = 2 * (a.mu_s - a.mu_d) * a.normal
    found = events(times, forces, drop)
    stick = drop / (a.stiffness * a.velocity)
    slip = math.pi * math.sqrt(a.mass / a.stiffness)
    estimate = stick + slip
    first = a.mu_s * a.normal / (a.stiffness * a.velocity)
    print("%d slip events (1-dof: first slip at %.2f s, period %.2f s = stick %.2f + "
          "slip %.2f)" % (len(found), first, estimate, stick, slip))
    for t, f, low in found:
        print("  peak at t = %.3f: force/N %.5f, lowest after %.5f" %
              (t, f / a.normal, low / a.normal))
    good = True
    if len(found) >= 3:
        peaks = [t for t, _, _ in found]
        period = (peaks[-1] - peaks[1]) / (len(peaks) - 2)
        period_error = abs(period / estimate - 1)
        peak_error = max(abs(f / (a.mu_s * a.normal) - 1) for _, f, _ in found)
        print("period %.3f s (from %d cycles after the first), 1-dof %.3f s, relative "
              "error %.3e (bound %.1e); first slip %.3f s (1-dof %.2f); peaks/(mu_s N) - 1 "
              "up to %.3e (bound %.1e)"
              % (period, len(peaks) - 2, estimate, period_error, a.max_period_error,
                 peaks[0], first, peak_error, a.max_peak_error))
        good = period_error <= a.max_period_error and peak_error <= a.max_peak_error
    if found and a.cycles:
        peak_error = abs(found[0][1] / (a.mu_s * a.normal) - 1)
        low_error = abs(found[0][2] / ((2 * a.mu_d - a.mu_s) * a.normal) - 1)
        print("first event: peak/(mu_s N) - 1 = %.3e (bound %.1e), lowest/((2 mu_d - "
              "mu_s) N) - 1 = %.3e (bound %.1e)"
              % (found[0][1] / (a.mu_s * a.normal) - 1, a.max_peak_error,
                 found[0][2] / ((2 * a.mu_d - a.mu_s) * a.normal) - 1, a.max_low_error))
        good = good and peak_error <= a.max_peak_error and low_error <= a.max_low_error
    if a.cycles and len(found) < a.cycles:
        print("FAIL: %d slip events, %d wanted" % (len(found), a.cycles))
        good = False
    if not a.no_plot:
        plot(times, forces, a.normal, a, a.output or os.path.join(a.folder, "slow_pull.png"))
    if a.cycles:
        print("ok" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
