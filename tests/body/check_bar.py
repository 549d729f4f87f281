#!/usr/bin/python3
"""check_bar.py EXE PRM OUTDIR [--degree P] [--dim D] [--levels N...] [--cfl C]
                [--mass lumped|redistributed] [--counterpart 'rigid plane'|mirror]
                [--gap G] [--compliance ETA] [--twin-tolerance T]
                [--min-order-duration Q] [--min-order-pressure Q]
                [--min-order-velocity Q] [--min-order-energy Q]
                [--min-order-oscillation Q] [--max-duration-steps K]
                [--max-duration-error E] [--max-pressure-error E]
                [--max-velocity-error E] [--max-energy-loss E]
                [--max-balance E] [--max-oscillation A]
                [--same-as DIR --same-tolerance T] [--analyze DIR]

The Signorini bar of prm/body_signorini_bar.prm (Doyen, Ern & Piperno 2011):
a column of height L = 1 falling with v0 = 1 on the floor y = 0 (z = 0 in
3D), periodic in x (and y), rho = 1, c = sqrt((lambda + 2G)/rho) = 1. Exact
solution: contact on 0 < t < 2L/c = 2 with the pressure rho c v0 = 1, then
the bar leaves with +v0 uniformly; no energy is lost.

For every level N (cells along the height, h = L/N; the cross-section is 2
cells of width h: square cells) the script runs EXE PRM with dt = C h/c
(fixed CFL number C; T = 3, a row of history.csv every step) into
OUTDIR/N<N> and measures against the exact solution:
  duration  |t_open - 2L/c|, t_open the first time of the row from which the
            contact stays open (contact_fraction = 0) to the end;
  pressure  the L1-in-time error of mean_pressure over [0, T]: the row at
            t^{n+1} holds the pressure of the step [t^n, t^{n+1}] and is
            compared with the exact pressure averaged over that step;
  velocity  |momentum/mass - v0| after the bounce (last row);
  energy    1 - (kinetic + elastic)/E0 at the end (frictionless: the
            scheme's impact loss; it equals -impact_work/E0 up to the O(dt)
            energy_balance), E0 = m v0^2/2;
and reports the spurious oscillation of the pressure, max |p - rho c v0|
over the rows with 0.25 <= t <= 1.75 (away from the ends of the contact).
Asserts, for each quantity given a minimum order: every error decreases
from level to level and the least-squares order reaches the minimum; the
errors at the finest level stay below the bounds given (--max-balance: the
largest |energy_balance|/E0); the oscillation below --max-oscillation at
every level; with --max-duration-steps K, |t_open - 2L/c| <= K dt at every
level (for Q2, where t_open is not monotone); -impact_work >= 0.
--same-as DIR compares the (single-level) run with the history.csv of DIR
(e.g. 3D against 2D at the same N): mean_pressure and the velocity
momentum/mass must agree within --same-tolerance at every row.

Fails when a run fails, has fewer than 100 rows, or never touches.

--analyze DIR measures an existing run (the example file as it is) instead.

--counterpart mirror: the bar against its mirror image (doc/theory.md §7.6),
two bars colliding, whose plane of symmetry is a rigid plane at half the
gap: the same closed form, the contact beginning at g0/(2 v0) (--gap g0;
g0/v0 on the rigid plane). --twin-tolerance T also runs the rigid plane at
the gap g0/2 (with --compliance eta: the compliance eta/2, which the gap
2 w of the pair makes the same law) into OUTDIR/N<N>_rigid_plane and asserts
that every column of history.csv (the gap and slip columns halved) agrees
within T.

Measured (Release build; the same with the matrix-free and the assembled
stiffness operator):
  Q1, CFL 0.5 (dt = h/2), 2D, 0.6 s CPU for the four levels:
    N    |t_open-2|  |p|L1 err   |v-v0|      energy loss -impact/E0  oscillation
    50   3.000e-02   3.537e-02   2.012e-02   9.287e-03   1.000e-02   5.781e-03
    100  2.000e-02   2.090e-02   1.243e-02   4.479e-03   5.000e-03   2.101e-03
    200  1.000e-02   1.251e-02   7.680e-03   2.282e-03   2.500e-03   7.191e-04
    400  6.250e-03   7.540e-03   4.788e-03   1.138e-03   1.250e-03   2.558e-04
    (800 3.750e-03   4.575e-03   2.998e-03   5.622e-04   6.250e-04   8.972e-05)
    least-squares orders on 50..400: duration 0.78 (pairwise 0.58 1.00 0.68),
    pressure 0.74, velocity 0.69, energy 1.01, oscillation 1.50.
  Q2 (Gauss-Lobatto lumped), CFL 0.25 (the element bound allows 0.33),
  2.5 s CPU:
    50   5.000e-03   7.203e-02   5.588e-03   1.938e-03   3.333e-03   6.528e-02
    100  0           5.379e-02   3.340e-03   1.291e-03   1.667e-03   4.679e-02
    200  2.500e-03   4.077e-02   2.619e-03   5.754e-04   8.333e-04   3.291e-02
    400  0           3.027e-02   2.058e-03   2.973e-04   4.167e-04   2.282e-02
    (800 3.125e-04   2.215e-02   1.304e-03   1.447e-04   2.083e-04   1.627e-02)
    (1600 4.688e-04  1.595e-02   8.217e-04   7.257e-05   1.042e-04   1.151e-02)
    orders on 50..400: pressure 0.42, velocity 0.47 (pairwise 0.74 0.35 0.35,
    then 0.66 0.67 to N = 1600), energy 0.93, oscillation 0.51; t_open
    within 0..3 steps of 2 (not monotone: bounded in steps, not ordered).
  3D (2 x 2 x N, periodic in x and y), Q1, N = 100: the 2D numbers; the
    history differs from the 2D one by 5.7e-13 at most (1.8e-13 with the
    matrix-free operator; Q2 at N = 25: 7.9e-14).
  The impact loss is exactly the kinetic energy of the contact node stopped
  at the first step: -impact_work/E0 = (h/2)/L for Q1, (h/6)/L for Q2 (the
  vertex's Gauss-Lobatto weight); nothing is lost at the release. The order
  about 2/3 of duration, pressure and exit velocity (Q1) is that of the
  numerical dispersion of the release front, whose width grows as
  (h^2 L)^(1/3).
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import (BAR_C, BAR_L, BAR_RHO, BAR_V0, bar_settings, log_order,  # noqa: E402
                       read_history, run)

L, V0, RHO, C = BAR_L, BAR_V0, BAR_RHO, BAR_C
T_CONTACT = 2 * L / C
PRESSURE = RHO * C * V0


def exact_mean_pressure(t0, t1, start=0.0):
    """The exact pressure averaged over the step [t0, t1], the contact on
    [start, start + 2L/c]."""
    overlap = max(0.0, min(t1, start + T_CONTACT) - max(t0, start))
    return PRESSURE * overlap / (t1 - t0)


def measure(rows, mass, dim, start=0.0):
    """Errors of one run against the exact solution whose contact begins at
    start (the initial gap closed at v0), or None (no contact)."""
    momentum = "momentum_" + "xyz"[dim - 1]
    if len(rows) < 100 or not any(r["contact_fraction"] > 0 for r in rows):
        return None
    t_open = None
    for r in reversed(rows):
        if r["contact_fraction"] > 0:
            break
        t_open = r["t"]
    pressure_l1 = 0.0
    oscillation = 0.0
    for previous, r in zip(rows, rows[1:]):
        step = r["t"] - previous["t"]
        exact = exact_mean_pressure(previous["t"], r["t"], start)
        pressure_l1 += step * abs(r["mean_pressure"] - exact)
        if start + 0.25 <= r["t"] <= start + 1.75:
            oscillation = max(oscillation, abs(r["mean_pressure"] - PRESSURE))
    last = rows[-1]
    energy0 = rows[0]["kinetic_energy"] + rows[0]["elastic_energy"]
    energy = last["kinetic_energy"] + last["elastic_energy"]
    values = {
        "duration": abs(t_open - start - T_CONTACT) if t_open is not None else math.inf,
        "pressure": pressure_l1,
        "velocity": abs(last[momentum] / mass - V0),
        "energy": 1 - energy / energy0,
        "impact": -last["impact_work"] / energy0,
        "balance": max(abs(r["energy_balance"]) for r in rows) / energy0,
        "oscillation": oscillation,
        "t_open": t_open if t_open is not None else math.nan,
    }
    return values


def compare(rows, n, dim, other_dir, tolerance):
    """Whether mean_pressure and the velocity momentum/mass of every row agree
    with those of the run in other_dir (same level n, either dimension)."""
    other = read_history(os.path.join(other_dir, "history.csv"))
    if len(other) != len(rows) or not rows:
        print("FAIL: %d rows here, %d in %s" % (len(rows), len(other), other_dir))
        return False
    other_dim = 3 if "momentum_z" in other[0] else 2
    h = L / n
    worst = 0.0
    for a, b in zip(rows, other):
        velocity_a = a["momentum_" + "xyz"[dim - 1]] / (RHO * L * (2 * h) ** (dim - 1))
        velocity_b = b["momentum_" + "xyz"[other_dim - 1]] / (RHO * L * (2 * h) ** (other_dim - 1))
        worst = max(worst, abs(a["t"] - b["t"]),
                    abs(a["mean_pressure"] - b["mean_pressure"]),
                    abs(velocity_a - velocity_b))
    good = worst <= tolerance
    print("largest difference of t, mean_pressure, velocity from %s: %.3e "
          "(tolerance %.1e): %s" % (other_dir, worst, tolerance, "ok" if good else "FAIL"))
    return good


def compare_twin(rows, twin, pair):
    """The largest difference between the columns of the mirror run (rows)
    and those of the rigid plane at half the gap (twin): every column but
    the run's timings, the fault's gap and slip columns being pair times the
    twin's (the slip 2 v_T of the pair; in 3D v_T is round-off)."""
    if len(rows) != len(twin) or not rows:
        return math.inf
    worst = 0.0
    for a, b in zip(rows, twin):
        for name, value in a.items():
            if name not in b or "cpu" in name or "wall" in name:
                continue
            doubled = name == "mean_gap" or "slip" in name
            other = pair * b[name] if doubled else b[name]
            worst = max(worst, abs(value - other))
    return worst


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--degree", type=int, default=1)
    p.add_argument("--dim", type=int, default=2)
    p.add_argument("--levels", type=int, nargs="+", default=[50, 100, 200, 400])
    p.add_argument("--cfl", type=float, default=0.5)
    p.add_argument("--mass", default="lumped",
                   help="Body/Contact/Mass at contact nodes")
    for name in ("duration", "pressure", "velocity", "energy", "oscillation"):
        p.add_argument("--min-order-" + name, type=float)
    p.add_argument("--max-duration-steps", type=float)
    for name in ("duration", "pressure", "velocity"):
        p.add_argument("--max-%s-error" % name, type=float)
    p.add_argument("--max-energy-loss", type=float)
    p.add_argument("--max-balance", type=float)
    p.add_argument("--max-oscillation", type=float)
    p.add_argument("--analyze", metavar="DIR",
                   help="measure the run already in DIR (one level: its N) instead of running")
    p.add_argument("--same-as")
    p.add_argument("--same-tolerance", type=float, default=1e-12)
    p.add_argument("--counterpart", default="rigid plane",
                   choices=["rigid plane", "mirror"])
    p.add_argument("--gap", type=float, default=0.0,
                   help="Body/Contact/Initial gap g0: the contact begins at "
                   "g0/v0 (rigid plane), g0/(2 v0) (mirror: two bars collide)")
    p.add_argument("--compliance", type=float,
                   help="Contact law = compliant with this eta (the twin of "
                   "--twin-tolerance: eta/2 against the mirror's gap 2 w)")
    p.add_argument("--twin-tolerance", type=float,
                   help="also run the rigid plane at half the gap (the two "
                   "bars' plane of symmetry) and assert that every column "
                   "agrees within this")
    a = p.parse_args()
    pair = 2.0 if a.counterpart == "mirror" else 1.0
    start = a.gap / (pair * V0)

    results = []
    same_ok = True
    for n in a.levels:
        out = os.path.join(a.outdir, "N%d" % n)
        settings, dt, mass = bar_settings(n, a.degree, a.dim, a.cfl)
        if a.mass != "lumped":
            settings["Body/Contact/Mass at contact nodes"] = a.mass
        twin_settings = dict(settings)
        if a.gap != 0:
            settings["Body/Contact/Initial gap"] = repr(a.gap)
            twin_settings["Body/Contact/Initial gap"] = repr(a.gap / pair)
        if a.compliance is not None:
            settings["Body/Contact/Contact law"] = "compliant"
            twin_settings["Body/Contact/Contact law"] = "compliant"
            settings["Body/Contact/Compliance"] = repr(a.compliance)
            twin_settings["Body/Contact/Compliance"] = repr(a.compliance / pair)
        settings["Body/Contact/Counterpart"] = a.counterpart
        if a.analyze:
            rows = read_history(os.path.join(a.analyze, "history.csv"))
            dt = rows[1]["t"] - rows[0]["t"] if len(rows) > 1 else math.nan
        else:
            rows = run(a.exe, a.prm, out, settings)
        if a.twin_tolerance is not None:
            twin = run(a.exe, a.prm, out + "_rigid_plane", twin_settings)
            worst = compare_twin(rows, twin, pair)
            good = worst <= a.twin_tolerance
            print("N = %d: %s against the rigid plane at gap %g: largest column "
                  "difference %.3e (tolerance %.1e): %s" % (
                      n, a.counterpart, a.gap / pair, worst, a.twin_tolerance,
                      "ok" if good else "FAIL"))
            same_ok = same_ok and good
        values = measure(rows, mass, a.dim, start)
        if values is None:
            print("FAIL: N = %d: %d rows, no contact" % (n, len(rows)))
            return 1
        values["dt"] = dt
        results.append(values)
        if a.same_as:
            same_ok = compare(rows, n, a.dim, a.same_as, a.same_tolerance) and same_ok

    print("Signorini bar, Q%d, dim %d, CFL %g (dt = %g h/c)" % (a.degree, a.dim, a.cfl, a.cfl))
    print("    N  t_open     |dur err|   |p|L1 err   |v err|     energy loss "
          "-impact/E0  max|bal|/E0 oscillation")
    for n, v in zip(a.levels, results):
        print("%5d  %.6f  %.3e   %.3e   %.3e   %.3e   %.3e   %.3e   %.3e" % (
            n, v["t_open"], v["duration"], v["pressure"], v["velocity"],
            v["energy"], v["impact"], v["balance"], v["oscillation"]))
    ok = same_ok
    names = ("duration", "pressure", "velocity", "energy", "oscillation")
    if len(a.levels) >= 2:
        for name in names:
            # The redistributed mass gains a little energy: its size is
            # the error.
            errors = [abs(v[name]) if a.mass != "lumped" else v[name]
                      for v in results]
            if getattr(a, "min_order_" + name) is None and not all(e > 0 for e in errors):
                print("%-9s errors %s (not ordered)" % (name, " ".join("%.3e" % e for e in errors)))
                continue
            if not all(e > 0 and math.isfinite(e) for e in errors):
                print("%-9s errors not positive and finite: %s" % (name, errors))
                ok = False
                continue
            order = log_order(a.levels, errors)
            pairwise = " ".join("%.2f" % (math.log(errors[j - 1] / errors[j]) /
                                          math.log(a.levels[j] / a.levels[j - 1]))
                                for j in range(1, len(errors)))
            minimum = getattr(a, "min_order_" + name)
            if minimum is None and name == "duration" and a.max_duration_steps is not None:
                print("duration  errors %s (bounded in steps below, not ordered)" %
                      " ".join("%.3e" % e for e in errors))
                continue
            decreasing = all(errors[j] < errors[j - 1] for j in range(1, len(errors)))
            good = minimum is None or (decreasing and order >= minimum)
            print("%-9s order (least squares) %.3f, pairwise %s, decreasing %s, "
                  "min %s: %s" % (name, order, pairwise, decreasing, minimum,
                                  "ok" if good else "FAIL"))
            ok = ok and good
    finest = results[-1]
    bounds = (("duration", a.max_duration_error), ("pressure", a.max_pressure_error),
              ("velocity", a.max_velocity_error), ("energy", a.max_energy_loss),
              ("balance", a.max_balance))
    for name, bound in bounds:
        if bound is None:
            continue
        good = abs(finest[name]) <= bound
        print("%-9s at N = %d: %.3e <= %.3e: %s" % (name, a.levels[-1], abs(finest[name]),
                                                    bound, "ok" if good else "FAIL"))
        ok = ok and good
    if a.max_duration_steps is not None:
        # t_open is a time of the grid: the error in steps of every level.
        steps = [v["duration"] / v["dt"] for v in results]
        good = max(steps) <= a.max_duration_steps + 1e-9
        print("duration in time steps %s <= %g on every level: %s" % (
            " ".join("%.2f" % x for x in steps), a.max_duration_steps, "ok" if good else "FAIL"))
        ok = ok and good
    if a.max_oscillation is not None:
        worst = max(v["oscillation"] for v in results)
        good = worst <= a.max_oscillation
        print("oscillation on every level %.3e <= %.3e: %s" % (worst, a.max_oscillation,
                                                              "ok" if good else "FAIL"))
        ok = ok and good
    # Physical sanity that holds on every level: the lumped scheme loses
    # energy at the impact (frictionless contact: -impact_work >= 0) and
    # never gains (the redistributed mass's pressure does work of either
    # sign: measured, not asserted).
    for n, v in zip(a.levels, results):
        if a.mass == "lumped" and not v["impact"] >= 0:
            print("FAIL: N = %d: impact_work is positive (%.3e E0)" % (n, -v["impact"]))
            ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
