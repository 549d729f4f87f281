#!/usr/bin/python3
"""check_sliding_block.py EXE PRM OUTDIR [--levels N...] [--mass lumped|redistributed]
                          [--dimension 2|3] [--set KEY=VALUE]... [--min-contact F] [--min-order Q] [--max-error E]
                          [--max-all-errors E] [--max-stop-steps K]

The sliding block of prm/body_sliding_block_2d.prm (issue 30): a block W = 1
wide, H = 0.25 high (rho = 1, lambda = 0.5, G = 0.25: P-wave speed 1), pressed
by the traction p = 1e-3 on its top, thrown sideways with V0 = 0.01 on the
floor with constant friction mu = 0.2 (and the example's Prakash-Clifton
normal stress). The rigid block decelerates at d = mu p/(rho H) = 8e-4 and
stops at t_s = V0/d = 12.5 after sliding D = V0^2/(2 d) = 0.0625:
    x_c(t) = V0 t - d t^2/2 (t <= t_s), D after.
In 3D (--dimension 3, prm/body_sliding_block_3d.prm) the block has the
depth B = 0.5 and the same rigid solution (d = mu p W B/(rho W B H)).
For every level N (cells along H; 4N x N square cells, 4N x 2N x N cubes in
3D, h = H/N) the script
runs EXE PRM with dt = h/4 (T = 20, a row every step) and Body/Contact/Mass
at contact nodes = MASS into OUTDIR/N<N>, and measures from history.csv:
  contact   the mean and the least contact_fraction over the rows with
            0 < t <= 0.9 t_s (sliding);
  error     max_t |x(t) - x_c(t)|/D, x(t) the centre of mass's displacement,
            the sum of dt momentum_x/m over the rows (the rows hold
            v^{n+1/2} at t^{n+1}: x^{n+1} = x^n + dt v^{n+1/2} exactly);
  stop      the first row with momentum_x <= 0, t_stop - t_s in steps dt
            (after it the stuck block sways: momentum_x changes sign).
Asserts: the least contact fraction >= --min-contact at every level; with
--min-order, errors decreasing with a least-squares order >= it; the finest
error <= --max-error and every error <= --max-all-errors; |t_stop - t_s| <=
--max-stop-steps dt at every level. The elastic block departs from the rigid
one by about 2e-3 D however fine the mesh (measured values in
tests/body/physics.cmake): an order is meaningful only against a finer
elastic run, not against x_c. So with three levels or more the script also
measures the self-convergence error of every level but the finest,
  max_t |x_N(t) - x_finest(t)|/D
at the level's own times (the steps halve from level to level: every coarse
time is a time of the finest run), and with --min-self-order asserts that it
decreases with a least-squares order >= it. Level 16 is the 2D example
file's mesh and step, level 8 the 3D one's.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import log_order, run  # noqa: E402

W, B, H, RHO, P, V0, MU = 1.0, 0.5, 0.25, 1.0, 1e-3, 0.01, 0.2
DECELERATION = MU * P / (RHO * H)
T_STOP = V0 / DECELERATION
DISTANCE = V0 * V0 / (2 * DECELERATION)
FINAL_TIME = 20.0


def rigid(t):
    t = min(t, T_STOP)
    return V0 * t - 0.5 * DECELERATION * t * t


def trajectory(rows, mass):
    """[(t, x)]: the centre of mass's displacement at the rows' times."""
    x, previous, result = 0.0, rows[0]["t"], [(rows[0]["t"], 0.0)]
    for r in rows[1:]:
        x += (r["t"] - previous) * r["momentum_x"] / mass
        previous = r["t"]
        result.append((r["t"], x))
    return result


def measure(rows, mass):
    """contact (mean, least), error, t_stop and the trajectory of one run of
    a block of MASS."""
    sliding = [r["contact_fraction"] for r in rows[1:] if r["t"] <= 0.9 * T_STOP]
    path = trajectory(rows, mass)
    error = max(abs(x - rigid(t)) for t, x in path)
    t_stop = next((r["t"] for r in rows if r["momentum_x"] <= 0), math.inf)
    return {"mean_contact": sum(sliding) / len(sliding),
            "min_contact": min(sliding),
            "error": error / DISTANCE,
            "t_stop": t_stop,
            "path": path}


def self_convergence_errors(results, dt_finest):
    """max_t |x_N(t) - x_finest(t)|/D of every level but the finest, at the
    level's own times (the steps halve level by level, so every coarse time
    is a time of the finest run)."""
    finest = {round(t / dt_finest): x for t, x in results[-1]["path"]}
    return [max(abs(x - finest[round(t / dt_finest)]) for t, x in m["path"]) / DISTANCE
            for m in results[:-1]]


def settings(n, mass, dimension):
    h = H / n
    dt = h / 4
    cells = (4 * n, n) if dimension == 2 else (4 * n, 2 * n, n)
    return {
        "Output/Interval": "0",
        "Time/Final time": repr(FINAL_TIME),
        "Time/Time step": repr(dt),
        "Body/Subdivisions": ", ".join(str(c) for c in cells),
        "Body/Contact/Mass at contact nodes": mass,
    }, dt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--levels", type=int, nargs="+", default=[4, 8, 16])
    p.add_argument("--mass", default="redistributed")
    p.add_argument("--dimension", type=int, choices=[2, 3], default=2)
    p.add_argument("--min-contact", type=float)
    p.add_argument("--min-order", type=float)
    p.add_argument("--max-error", type=float)
    p.add_argument("--max-all-errors", type=float)
    p.add_argument("--max-stop-steps", type=float)
    p.add_argument("--min-self-order", type=float)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a further setting of every run")
    a = p.parse_args()
    block_mass = RHO * W * H * (B if a.dimension == 3 else 1.0)
    results = []
    for n in a.levels:
        values, dt = settings(n, a.mass, a.dimension)
        values.update(item.split("=", 1) for item in a.set)
        rows = run(a.exe, a.prm, os.path.join(a.outdir, "N%d" % n), values)
        m = measure(rows, block_mass)
        m["steps"] = (m["t_stop"] - T_STOP) / dt
        results.append(m)
        print("N %4d dt %.3e  contact mean %.4f least %.4f  error %.3e  "
              "t_stop %.4f (%+.1f steps)" % (n, dt, m["mean_contact"],
                                               m["min_contact"], m["error"],
                                               m["t_stop"], m["steps"]))
    good = True
    if len(results) > 2:
        # The elastic block's own trajectory (not the rigid one) is what the
        # mesh converges to: the finest level is its reference.
        errors = self_convergence_errors(results, dt)
        order = log_order(a.levels[:-1], errors)
        print("against the finest level: errors %s, order %.2f"
              % (" ".join("%.3e" % e for e in errors), order))
        if a.min_self_order is not None:
            decreasing = all(e1 < e0 for e0, e1 in zip(errors, errors[1:]))
            if not decreasing or order < a.min_self_order:
                print("FAIL: errors against the finest level not decreasing with "
                      "order >= %g" % a.min_self_order)
                good = False
    if len(results) > 1:
        errors = [m["error"] for m in results]
        order = log_order(a.levels, errors)
        print("least-squares order of the trajectory error: %.2f" % order)
        if a.min_order is not None:
            decreasing = all(e1 < e0 for e0, e1 in zip(errors, errors[1:]))
            if not decreasing or order < a.min_order:
                print("FAIL: errors not decreasing with order >= %g" % a.min_order)
                good = False
    if a.min_contact is not None and any(m["min_contact"] < a.min_contact for m in results):
        print("FAIL: contact fraction below %g while sliding" % a.min_contact)
        good = False
    if a.max_error is not None and results[-1]["error"] > a.max_error:
        print("FAIL: finest error above %g" % a.max_error)
        good = False
    if a.max_all_errors is not None and any(m["error"] > a.max_all_errors for m in results):
        print("FAIL: an error above %g" % a.max_all_errors)
        good = False
    if a.max_stop_steps is not None and any(abs(m["steps"]) > a.max_stop_steps for m in results):
        print("FAIL: stopping time more than %g steps from t_s" % a.max_stop_steps)
        good = False
    print("ok" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
