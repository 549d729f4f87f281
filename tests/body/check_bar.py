#!/usr/bin/python3
"""check_bar.py EXE PRM OUTDIR [--degree P] [--dim D] [--levels N...] [--cfl C]
                [--min-order-duration Q] [--min-order-pressure Q]
                [--min-order-velocity Q] [--min-order-energy Q]
                [--max-duration-error E] [--max-pressure-error E]
                [--max-velocity-error E] [--max-energy-loss E]
                [--max-oscillation A] [--same-as DIR --same-tolerance T]

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
Asserts: every error decreases from level to level, the least-squares
orders reach the minima, the errors at the finest level stay below the
bounds given, the oscillation below --max-oscillation at every level.
--same-as DIR compares the (single-level) run with the history.csv of DIR
(e.g. 3D against 2D at the same N): mean_pressure and the velocity
momentum/mass must agree within --same-tolerance at every row.

Fails when a run fails, has fewer than 100 rows, or never touches.

Measured (Release build, 2 cores shared, numbers of this script's output;
the test bounds in tests/body/physics.cmake are these with a margin):
  p = 1, CFL 0.5, N = 50 100 200 400:
    N    duration   pressure L1  velocity    energy loss  oscillation
    50   see physics.cmake for the table and the orders
"""
import argparse
import csv
import math
import os
import subprocess
import sys

L, V0, RHO, C = 1.0, 1.0, 1.0, 1.0
T_CONTACT = 2 * L / C
PRESSURE = RHO * C * V0
FINAL_TIME = 3.0


def run(exe, prm, out, n, degree, dim, cfl):
    """Run level n into out; return the rows of history.csv as dicts of floats."""
    h = L / n
    dt = cfl * h / C
    steps = round(FINAL_TIME / dt)
    dt = FINAL_TIME / steps
    settings = {
        "Output/Directory": out,
        "Output/Overwrite": "true",
        "Output/Field output": "false",
        "Output/Interval": "0",
        "Time/Final time": repr(FINAL_TIME),
        "Time/Time step": repr(dt),
        "Body/Finite element degree": str(degree),
    }
    if dim == 3:
        settings.update({
            "Dimension": "3",
            "Body/Size": "%r, %r, %r" % (2 * h, 2 * h, L),
            "Body/Subdivisions": "2, 2, %d" % n,
            "Body/Periodic boundary pairs": "0:1:x, 2:3:y",
            "Body/Initial velocity": "0; 0; %r" % -V0,
            "Body/Contact/Boundary id": "4",
        })
    else:
        settings.update({
            "Body/Size": "%r, %r" % (2 * h, L),
            "Body/Subdivisions": "2, %d" % n,
            "Body/Initial velocity": "0; %r" % -V0,
        })
    command = [exe, prm, "--quiet"]
    for key, value in settings.items():
        command += ["--set", "%s=%s" % (key, value)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "history.csv"), newline="") as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    mass = RHO * L * (2 * h) ** (dim - 1)
    return rows, dt, mass


def exact_mean_pressure(t0, t1):
    """The exact pressure averaged over the step [t0, t1]."""
    overlap = max(0.0, min(t1, T_CONTACT) - max(t0, 0.0))
    return PRESSURE * overlap / (t1 - t0)


def measure(rows, mass, dim):
    """Errors of one run against the exact solution, or None (no contact)."""
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
        exact = exact_mean_pressure(previous["t"], r["t"])
        pressure_l1 += step * abs(r["mean_pressure"] - exact)
        if 0.25 <= r["t"] <= 1.75:
            oscillation = max(oscillation, abs(r["mean_pressure"] - PRESSURE))
    last = rows[-1]
    energy0 = rows[0]["kinetic_energy"] + rows[0]["elastic_energy"]
    energy = last["kinetic_energy"] + last["elastic_energy"]
    values = {
        "duration": abs(t_open - T_CONTACT) if t_open is not None else math.inf,
        "pressure": pressure_l1,
        "velocity": abs(last[momentum] / mass - V0),
        "energy": 1 - energy / energy0,
        "impact": -last["impact_work"] / energy0,
        "balance": max(abs(r["energy_balance"]) for r in rows) / energy0,
        "oscillation": oscillation,
        "t_open": t_open if t_open is not None else math.nan,
    }
    return values


def least_squares_order(levels, errors):
    x = [math.log(1.0 / n) for n in levels]
    y = [math.log(e) for e in errors]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((u - mx) * (v - my) for u, v in zip(x, y)) / sum((u - mx) ** 2 for u in x)


def compare(rows, n, dim, other_dir, tolerance):
    """Whether mean_pressure and the velocity momentum/mass of every row agree
    with those of the run in other_dir (same level n, either dimension)."""
    with open(os.path.join(other_dir, "history.csv"), newline="") as f:
        other = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--degree", type=int, default=1)
    p.add_argument("--dim", type=int, default=2)
    p.add_argument("--levels", type=int, nargs="+", default=[50, 100, 200, 400])
    p.add_argument("--cfl", type=float, default=0.5)
    for name in ("duration", "pressure", "velocity", "energy", "oscillation"):
        p.add_argument("--min-order-" + name, type=float)
    p.add_argument("--max-duration-steps", type=float)
    for name in ("duration", "pressure", "velocity"):
        p.add_argument("--max-%s-error" % name, type=float)
    p.add_argument("--max-energy-loss", type=float)
    p.add_argument("--max-balance", type=float)
    p.add_argument("--max-oscillation", type=float)
    p.add_argument("--same-as")
    p.add_argument("--same-tolerance", type=float, default=1e-12)
    a = p.parse_args()

    results = []
    same_ok = True
    for n in a.levels:
        out = os.path.join(a.outdir, "N%d" % n)
        rows, dt, mass = run(a.exe, a.prm, out, n, a.degree, a.dim, a.cfl)
        values = measure(rows, mass, a.dim)
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
            errors = [v[name] for v in results]
            if getattr(a, "min_order_" + name) is None and not all(e > 0 for e in errors):
                print("%-9s errors %s (not ordered)" % (name, " ".join("%.3e" % e for e in errors)))
                continue
            if not all(e > 0 and math.isfinite(e) for e in errors):
                print("%-9s errors not positive and finite: %s" % (name, errors))
                ok = False
                continue
            order = least_squares_order(a.levels, errors)
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
    # Physical sanity that holds on every level: the scheme loses energy at
    # the impact (frictionless contact: -impact_work >= 0) and never gains.
    for n, v in zip(a.levels, results):
        if not v["impact"] >= 0:
            print("FAIL: N = %d: impact_work is positive (%.3e E0)" % (n, -v["impact"]))
            ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
