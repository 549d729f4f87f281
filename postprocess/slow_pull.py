#!/usr/bin/python3
"""The slow pull's stick-slip cycles (prm/body_slow_pull.prm) from history.csv.

    slow_pull.py OUTPUT_DIR --stiffness k --velocity V --mass m --normal N
                 --mu-s MU_S --mu-d MU_D [-o OUT.png] [--no-plot]
                 [--cycles C] [--max-period-error E] [--max-peak-error E]
                 [--critical-velocity VC --max-reference-period-error E
                  --max-reference-low-error E]

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
first event's peak is within --max-peak-error of mu_s N and the lowest
force after each completed slip within --max-low-error of (2 mu_d - mu_s) N (exit 1 if not; --cycles C asks
for at least C events). With --critical-velocity (v_c of the exponential
law) it also integrates the 1-dof block with that law and compares the
period over the same cycles and each completed slip's lowest force with
it. Draws pull_force/N against t with the levels mu_s and 2 mu_d - mu_s
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


def one_dof_events(a, final_time, step=2e-3, trace=None):
    """The 1-dof block with the exponential law of the example, mu(v) = mu_d
    + (mu_s - mu_d) exp(-v/v_c), integrated: stuck until k (V t - x) reaches
    mu_s N, then m x'' = k (V t - x) - N mu(x') by RK4 (step [s]) until x'
    returns to 0. (peak time, peak force, lowest force) per slip, as
    events() reads them from history.csv; the pairs (t, x) of the block's
    position appended to the list trace (every 0.5 s while it slips)."""
    k, V, m, N = a.stiffness, a.velocity, a.mass, a.normal

    def mu(v):
        return a.mu_d + (a.mu_s - a.mu_d) * math.exp(-max(v, 0.0) / a.critical_velocity)

    def rate(t, x, v):
        return v, (k * (V * t - x) - N * mu(v)) / m

    found, x, t = [], 0.0, 0.0
    samples = int(round(0.5 / step))
    while True:
        start = min((a.mu_s * N / k + x) / V, final_time)
        if trace is not None:
            trace += [(t, x), (start, x)]
        if start >= final_time:
            return found
        t, v, low, n = start, 1e-12, a.mu_s * N, 0
        while v > 0 and t < final_time:
            k1 = rate(t, x, v)
            k2 = rate(t + step / 2, x + step / 2 * k1[0], v + step / 2 * k1[1])
            k3 = rate(t + step / 2, x + step / 2 * k2[0], v + step / 2 * k2[1])
            k4 = rate(t + step, x + step * k3[0], v + step * k3[1])
            x += step / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
            v += step / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
            t += step
            n += 1
            low = min(low, k * (V * t - x))
            if trace is not None and n % samples == 0:
                trace.append((t, x))
        found.append((start, a.mu_s * N, low))


def compare_with_one_dof(a, final_time, found):
    """The events against the integrated 1-dof block with the same law:
    period (the mean spacing of the peaks after the first) and each slip's
    lowest force; True if within --max-reference-period-error and
    --max-reference-low-error."""
    reference = one_dof_events(a, final_time)
    if len(reference) < 3:
        print("FAIL: the 1-dof block slips %d times before t = %g" % (len(reference), final_time))
        return False
    peaks = [t for t, _, _ in reference]
    period = (peaks[-1] - peaks[1]) / (len(peaks) - 2)
    count = min(len(found), len(reference))
    measured = (found[count - 1][0] - found[1][0]) / (count - 2)
    expected = (reference[count - 1][0] - reference[1][0]) / (count - 2)
    error = abs(measured / expected - 1)
    lows = [abs(f[2] / r[2] - 1) for f, r in zip(found[:count - 1], reference[:count - 1])]
    print("1-dof block with the same law (RK4): slips at %s s, period %.3f s, lowest "
          "forces/N %s; the body's period over the same %d cycles %.3f s against %.3f s: "
          "relative error %.3e (bound %.1e), lowest forces within %.3e (bound %.1e)"
          % (", ".join("%.2f" % t for t in peaks), period,
             ", ".join("%.5f" % (low / a.normal) for _, _, low in reference),
             count - 2, measured, expected, error, a.max_reference_period_error,
             max(lows), a.max_reference_low_error))
    return (error <= a.max_reference_period_error
            and max(lows) <= a.max_reference_low_error)


def plot(times, forces, normal, a, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.plot(times, [f / normal for f in forces], lw=0.9, label="body (history.csv)")
    if a.critical_velocity:
        trace = []
        one_dof_events(a, times[-1], trace=trace)
        ax.plot([t for t, _ in trace],
                [a.stiffness * (a.velocity * t - x) / normal for t, x in trace],
                lw=0.8, ls=":", color="k", label="1-dof block, same law")
        ax.legend(fontsize=8, loc="lower right")
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
    p.add_argument("--critical-velocity", type=float, default=0.0,
                   help="v_c of the exponential law: compare with the 1-dof block "
                        "integrated with that law")
    p.add_argument("--max-reference-period-error", type=float, default=1.0)
    p.add_argument("--max-reference-low-error", type=float, default=1.0)
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
        print("period %.3f s (the mean of %d cycles after the first), 1-dof estimate %.3f s, "
              "relative error %.3e (bound %.1e); first slip %.3f s (1-dof %.2f); "
              "peaks/(mu_s N) - 1 up to %.3e (bound %.1e)"
              % (period, len(peaks) - 2, estimate, period_error, a.max_period_error,
                 peaks[0], first, peak_error, a.max_peak_error))
        good = period_error <= a.max_period_error and peak_error <= a.max_peak_error
        if a.critical_velocity:
            good = compare_with_one_dof(a, times[-1], found) and good
    if found and a.cycles:
        peak_error = abs(found[0][1] / (a.mu_s * a.normal) - 1)
        low_error = max(abs(low / ((2 * a.mu_d - a.mu_s) * a.normal) - 1)
                        for _, _, low in found[:-1] or found)
        print("first event: peak/(mu_s N) - 1 = %.3e (bound %.1e); the lowest force after "
              "each completed slip against (2 mu_d - mu_s) N: up to %.3e (bound %.1e)"
              % (found[0][1] / (a.mu_s * a.normal) - 1, a.max_peak_error,
                 low_error, a.max_low_error))
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
