#!/usr/bin/python3
"""check_implicit.py EXE PRM OUTDIR --levels N... --cfl C... [--width W]
                   [--max-duration-error E] [--max-pressure-error E]
                   [--max-velocity-error E] [--max-energy-change E]
                   [--max-balance E] [--max-newton K] [--newton-band K]
                   [--max-cg K] [--cg-band K]

The Signorini bar of prm/body_signorini_bar.prm (see check_bar.py: contact
on 0 < t < 2L/c with the pressure rho c v0 = 1, exit velocity +v0, no
energy lost) with Body/Time scheme = implicit (Newmark's average
acceleration, exact unilateral contact at the end of the step by the
primal-dual active-set method) at the CFL numbers C = c dt/h given, far
above the explicit bound (c dt/h <= 0.70 for Q1 on square cells: the
element bound of BodyEvolution::stable_time_step()). For every level N
(cells along the height, h = L/N, W square cells across, periodic) and every
C the script runs EXE into OUTDIR/N<N>_C<C> and measures, against the exact
solution,
  duration  |t_open - 2L/c| (t_open the first row after which the contact
            stays open);
  pressure  the L1-in-time error of mean_pressure (the pressure at the end
            of each step) against the exact pressure averaged over the step;
  velocity  |momentum/mass - v0| at the end (T = 3);
  energy    (kinetic + elastic)/E0 - 1 at the end: the scheme's contact at
            the end of the step is not energy-consistent, either sign;
  balance   max |energy_balance|/E0 (the works booked against the energies:
            zero up to the linear solver's residual);
and the least-squares order of the pressure error under refinement at each
C (--min-order-pressure), the duration in steps (--max-duration-steps);
and the solver's work: active-set (semismooth Newton) iterations per step
(largest and mean) and CG iterations per solve (largest in a step over the
iterations of that step, and mean). Asserts the bounds given at every run,
and, per CFL number, that the largest Newton iterations per step and the
mean CG iterations per solve differ between the levels by at most the bands
given (mesh independence). Exit 0 if all hold.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import BAR_C, BAR_L, BAR_RHO, BAR_V0, log_order, run  # noqa: E402
from check_bar import PRESSURE, T_CONTACT, exact_mean_pressure  # noqa: E402

FINAL_TIME = 3.0


def settings(n, cfl, width):
    h = BAR_L / n
    steps = round(FINAL_TIME / (cfl * h / BAR_C))
    dt = FINAL_TIME / steps
    return {
        "Output/Interval": "0",
        "Time/Final time": repr(FINAL_TIME),
        "Time/Time step": repr(dt),
        "Body/Time scheme": "implicit",
        # The multigrid's iterations per solve are among the measures.
        "Body/Linear solver/Preconditioner": "multigrid",
        "Body/Size": "%r, %r" % (width * h, BAR_L),
        "Body/Subdivisions": "%d, %d" % (width, n),
        "Body/Initial velocity": "0; %r" % -BAR_V0,
    }, dt, BAR_RHO * BAR_L * width * h


def opening_time(rows):
    """The first time of the row from which the contact stays open."""
    t_open = None
    for r in reversed(rows):
        if r["contact_fraction"] > 0:
            break
        t_open = r["t"]
    return t_open


def measure(rows, mass):
    t_open = opening_time(rows)
    pressure_l1 = 0.0
    for previous, r in zip(rows, rows[1:]):
        step = r["t"] - previous["t"]
        pressure_l1 += step * abs(r["mean_pressure"] - exact_mean_pressure(previous["t"], r["t"]))
    first, last = rows[0], rows[-1]
    energy0 = first["kinetic_energy"] + first["elastic_energy"]
    steps = len(rows) - 1
    newton = [b["newton_iterations"] - a["newton_iterations"] for a, b in zip(rows, rows[1:])]
    cg = [b["cg_iterations"] - a["cg_iterations"] for a, b in zip(rows, rows[1:])]
    return {
        "duration": abs(t_open - T_CONTACT) if t_open is not None else math.inf,
        "pressure": pressure_l1,
        "velocity": abs(last["momentum_y"] / mass - BAR_V0),
        "energy": (last["kinetic_energy"] + last["elastic_energy"]) / energy0 - 1,
        "balance": max(abs(r["energy_balance"]) for r in rows) / energy0,
        "newton_max": max(newton),
        "newton_mean": last["newton_iterations"] / steps,
        "cg_max": max(c / k for c, k in zip(cg, newton)),
        "cg_mean": last["cg_iterations"] / last["newton_iterations"],
        "changes": last["active_set_changes"],
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--levels", type=int, nargs="+", required=True)
    p.add_argument("--cfl", type=float, nargs="+", required=True)
    p.add_argument("--width", type=int, default=2)
    for name in ("duration", "pressure", "velocity"):
        p.add_argument("--max-%s-error" % name, type=float)
    p.add_argument("--max-duration-steps", type=float)
    p.add_argument("--min-order-pressure", type=float)
    p.add_argument("--max-energy-change", type=float)
    p.add_argument("--max-balance", type=float)
    p.add_argument("--max-newton", type=float)
    p.add_argument("--newton-band", type=float)
    p.add_argument("--max-cg", type=float)
    p.add_argument("--cg-band", type=float)
    a = p.parse_args()

    ok = True
    print("Signorini bar, implicit Newmark, Q1, %d cells across" % a.width)
    print("%6s %6s %9s %10s %10s %10s %11s %10s %7s %7s %7s %7s" % (
        "N", "c dt/h", "dt", "|t_open-2|", "|p|L1 err", "|v-v0|", "E/E0 - 1", "balance",
        "Nw max", "Nw mean", "CG max", "CG mean"))
    for cfl in a.cfl:
        newton_max, cg_mean, pressure = [], [], []
        for n in a.levels:
            values, dt, mass = settings(n, cfl, a.width)
            rows = run(a.exe, a.prm, os.path.join(a.outdir, "N%d_C%g" % (n, cfl)), values)
            m = measure(rows, mass)
            print("%6d %6g %9.3e %10.3e %10.3e %10.3e %11.3e %10.3e %7d %7.2f %7.1f %7.2f" % (
                n, cfl, dt, m["duration"], m["pressure"], m["velocity"], m["energy"],
                m["balance"], m["newton_max"], m["newton_mean"], m["cg_max"], m["cg_mean"]))
            checks = [("duration", a.max_duration_error), ("pressure", a.max_pressure_error),
                      ("velocity", a.max_velocity_error), ("balance", a.max_balance),
                      ("newton_max", a.max_newton), ("cg_max", a.max_cg)]
            for key, bound in checks:
                if bound is not None and not m[key] <= bound:
                    print("FAIL: N = %d, c dt/h = %g: %s = %.3e above %.3e" % (
                        n, cfl, key, m[key], bound))
                    ok = False
            if a.max_energy_change is not None and not abs(m["energy"]) <= a.max_energy_change:
                print("FAIL: N = %d, c dt/h = %g: |E/E0 - 1| = %.3e above %.3e" % (
                    n, cfl, abs(m["energy"]), a.max_energy_change))
                ok = False
            if a.max_duration_steps is not None and \
                    not m["duration"] <= a.max_duration_steps * dt * (1 + 1e-9):
                print("FAIL: N = %d, c dt/h = %g: |t_open - 2| = %.3e above %g steps" % (
                    n, cfl, m["duration"], a.max_duration_steps))
                ok = False
            pressure.append(m["pressure"])
            newton_max.append(m["newton_max"])
            cg_mean.append(m["cg_mean"])
        if len(a.levels) > 1:
            order = log_order(a.levels, pressure)
            print("c dt/h = %g: pressure error order %.2f" % (cfl, order))
            if a.min_order_pressure is not None and not order >= a.min_order_pressure:
                print("FAIL: the pressure error's order %.2f is below %g" % (
                    order, a.min_order_pressure))
                ok = False
        for name, values, band in (("Newton iterations per step", newton_max, a.newton_band),
                                   ("CG iterations per solve", cg_mean, a.cg_band)):
            spread = max(values) - min(values)
            if band is not None and not spread <= band:
                print("FAIL: c dt/h = %g: %s vary by %g over the levels (band %g)" % (
                    cfl, name, spread, band))
                ok = False
    print("PRESSURE rho c v0 = %g; exact duration %g" % (PRESSURE, T_CONTACT))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
