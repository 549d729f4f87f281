#!/usr/bin/env python3
"""check_quasistatic_exact.py HISTORY --stiffnesses K0,..,Kn --thresholds A1,..,An
       --rate R --peak-time TP [--tolerance TOL]

Exact elastic-plastic response of the quasistatic clamped-free chain of Bastien
& Lamarque 2009 (force-displacement variant, (3.56)-(3.64)) pulled at its free end by
P(t) = R t up to t = TP, then released at the same rate (F_{n+1} = -P), from
rest. Derivation (doc/theory.md §5.4): with T_l = k_l (v_{l+1} - v_l) the tension
of spring l (v_0 = 0) and T_n = P, the balance of the massless mass i is
T_i - T_{i-1} + g_i = 0, |g_i| <= alpha_i, and a mass moves only when
|g_i| = alpha_i. Loading from rest, the slip front runs from the free end:

    T_l = max(0, P - S_l),   S_l = alpha_{l+1} + ... + alpha_n   (l < n).

Unloading from P_max by dP = P_max - P (0 <= P), every element reverses only
when its friction force has changed by 2 alpha (Masing's rule):

    T_l = max(0, P_max - S_l) - max(0, dP - 2 S_l).

Then v_i = sum_{l<i} T_l / k_l, g_i = T_{i-1} - T_i, F_0 = -T_0, the free-end
displacement x = v_n + P/k_n, F_{n+1} = -P, and the dissipated energy is
sum alpha_i * (total variation of v_i). Implicit Euler with the load
increments is exact at the nodes for a load piecewise linear on the grid, so
every row of history.csv must match to round-off (TOL, relative to the
column's largest magnitude). Every column is checked on every row, the t0
row included (it has the initial multiplier), and must be finite.
"""
import argparse
import csv
import math
import sys


def exact(t, k, alpha, rate, peak):
    n = len(alpha)
    S = [sum(alpha[l:]) for l in range(n)]  # S_l = alpha_{l+1}..alpha_n
    p_max = rate * peak
    if t <= peak:
        P = rate * t
        T = [max(0.0, P - S[l]) for l in range(n)]
    else:
        P = p_max - rate * (t - peak)
        dP = p_max - P
        T = [max(0.0, p_max - S[l]) - max(0.0, dP - 2 * S[l]) for l in range(n)]
    v = []
    total = 0.0
    for l in range(n):
        total += T[l] / k[l]
        v.append(total)
    T_full = T + [P]
    g = [T_full[i] - T_full[i + 1] for i in range(n)]
    return {"x": v, "g": g, "reaction_left": -T[0], "reaction_right": -P,
            "end_displacement": v[-1] + P / k[n]}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("history")
    p.add_argument("--stiffnesses", required=True)
    p.add_argument("--thresholds", required=True)
    p.add_argument("--rate", type=float, required=True)
    p.add_argument("--peak-time", type=float, required=True)
    p.add_argument("--tolerance", type=float, default=1e-10)
    a = p.parse_args()
    k = [float(s) for s in a.stiffnesses.split(",")]
    alpha = [float(s) for s in a.thresholds.split(",")]
    n = len(alpha)
    if len(k) != n + 1:
        print("FAIL: need n+1 stiffnesses")
        return 1
    with open(a.history, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print("FAIL: empty history")
        return 1

    computed, expected = {}, {}
    for index, row in enumerate(rows):
        t = float(row["t"])
        e = exact(t, k, alpha, a.rate, a.peak_time)
        names = ["x%d" % (i + 1) for i in range(n)] + \
                ["g%d" % (i + 1) for i in range(n)] + \
                ["reaction_left", "reaction_right", "end_displacement"]
        values = e["x"] + e["g"] + [e["reaction_left"], e["reaction_right"],
                                    e["end_displacement"]]
        for name, value in zip(names, values):
            if not math.isfinite(float(row[name])):
                print("FAIL: row %d, %s = %s" % (index + 1, name, row[name]))
                return 1
            computed.setdefault(name, []).append(float(row[name]))
            expected.setdefault(name, []).append(value)

    # Dissipation: sum alpha_i TV(v_i) from the exact nodal values.
    xs = [[exact(float(r["t"]), k, alpha, a.rate, a.peak_time)["x"][i]
           for r in rows] for i in range(n)]
    dissipated = sum(alpha[i] * sum(abs(xs[i][j + 1] - xs[i][j])
                                    for j in range(len(rows) - 1))
                     for i in range(n))
    computed["dissipated_energy"] = [float(rows[-1]["dissipated_energy"])]
    expected["dissipated_energy"] = [dissipated]

    worst, failed = 0.0, []
    short = [name for name in names if len(computed.get(name, [])) < len(rows) - 1]
    if short:
        print("FAIL: columns checked on fewer than %d rows: %s" % (len(rows) - 1, ", ".join(short)))
        return 1
    for name in computed:
        scale = max(1.0, max(abs(v) for v in expected[name]))
        error = max(abs(c - e) for c, e in zip(computed[name], expected[name]))
        worst = max(worst, error / scale)
        print("  %-18s max |error| = %.3e" % (name, error))
        if error > a.tolerance * scale:
            failed.append(name)
    print("worst relative error %.3e over %d rows (tolerance %.1e)"
          % (worst, len(rows), a.tolerance))
    if failed:
        print("FAIL: " + ", ".join(failed))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
