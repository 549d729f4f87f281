#!/usr/bin/python3
"""check_sliding.py EXE PRM OUTDIR [--dt DT] [--final-time T]
                   [--max-acceleration-error E] [--max-friction-ratio-error E]

The sliding block (settings in body_runs.sliding_settings(), on top of PRM =
prm/body_signorini_bar.prm): a laterally infinite layer (periodic in x)
H = 1 high, rho = 1, c2 = 1, c1 = 0.5, resting on the floor in its static
compressed state under the normal body force -rho g (N = m g), pulled by the
tangential body force rho a with a = g = 0.01 > mu_s g; exponential
rate-weakening friction mu(s) = mu_d + (mu_s - mu_d) exp(-s/v_c),
mu_s = 0.6, mu_d = 0.4, v_c = 0.01. It starts stuck (the friction first
balances the shear that reaches the floor), then slides, and once the slip
speed is >> v_c the centre of mass accelerates with
    (F - mu_d N)/m = a - mu_d g = 0.006.

Measured from history.csv (a row every step):
  acceleration  the slope of momentum_x(t)/m by least squares over the late
                half [T/2, T], against (F - mu_d N)/m;
  friction      the resultant friction_force_1 against -mu_d normal_force
                (|friction_force_1/normal_force + mu_d| on the late half);
and asserted: both below the bounds, contact_fraction = 1 on every row after
t = 0, the block stuck at first (stick_fraction = 1 at t = dt) and sliding
everywhere (stick_fraction = 0) on the late half, no ambiguous friction step.
Fails when the run has fewer than 100 rows.

Measured (Release build; dt = 0.02, h = 0.05, T = 40, 2000 steps, 0.1 s of
CPU): sliding starts at t = 1.22 (1.21 at dt = 0.01; exact 1.2: before the
shear wave reflected at the top returns, the floor's shear traction is
rho a c1 t and reaches mu_s rho g H at t = mu_s g H/(a c1)); the slope is
0.00600000, relative error 1.003e-7, the same at dt = 0.01 and 0.005: it is
the residue mu(s) - mu_d = 0.2 exp(-s/v_c) at s = 0.12..0.25, not the
discretization; |friction_force_1/normal_force + mu(s)| <= 2.3e-14 on
[20, 40] (round-off: the friction law holds exactly when sliding);
|friction_force_1/normal_force + mu_d| = 4.2e-12 at t = 40 (= 0.2 exp(-s/v_c)
at s = 0.2458); normal_force = m g to 4e-14 relative (the static initial
state). Bounds (tests/body/physics.cmake): acceleration 1e-6 (10x), the
friction ratios 1e-9, onset 0.05.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import (SLIDE_ACCELERATION, SLIDE_G, SLIDE_MASS, SLIDE_MU_D,  # noqa: E402
                       SLIDE_MU_S, SLIDE_VC, SLIDE_A, SLIDE_C1, SLIDE_H,
                       line_fit, run, sliding_settings)


def mu(s):
    return SLIDE_MU_D + (SLIDE_MU_S - SLIDE_MU_D) * math.exp(-abs(s) / SLIDE_VC)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--dt", type=float, default=0.02)
    p.add_argument("--final-time", type=float, default=40.0)
    p.add_argument("--max-acceleration-error", type=float, default=1e-6)
    p.add_argument("--max-friction-ratio-error", type=float, default=1e-9)
    p.add_argument("--max-law-error", type=float, default=1e-9)
    p.add_argument("--max-onset-error", type=float, default=0.05)
    a = p.parse_args()
    rows = run(a.exe, a.prm, a.outdir, sliding_settings(a.dt, a.final_time))
    if len(rows) < 100:
        print("FAIL: %d rows of history.csv" % len(rows))
        return 1
    late = [r for r in rows if r["t"] >= 0.5 * a.final_time]
    slope, _ = line_fit([r["t"] for r in late], [r["momentum_x"] / SLIDE_MASS for r in late])
    acceleration_error = abs(slope / SLIDE_ACCELERATION - 1)
    # The layer is uniform in x: every node slips with mean_slip_velocity_1.
    law_error = max(abs(r["friction_force_1"] / r["normal_force"] +
                        mu(r["mean_slip_velocity_1"])) for r in late)
    last = rows[-1]
    ratio_error = abs(last["friction_force_1"] / last["normal_force"] + SLIDE_MU_D)
    weight_error = max(abs(r["normal_force"] / (SLIDE_MASS * SLIDE_G) - 1) for r in late)
    onset = next((r["t"] for r in rows if r["stick_fraction"] < 1), None)
    in_contact = all(r["contact_fraction"] == 1 for r in rows[1:])
    stuck_first = rows[1]["stick_fraction"] == 1
    sliding_late = all(r["stick_fraction"] == 0 for r in late)
    ambiguous = rows[-1]["ambiguous_nodes"]
    print("sliding block, dt = %g, T = %g, %d rows: sliding from t = %s" % (
        a.dt, a.final_time, len(rows), onset))
    print("acceleration on [%g, %g]: %.8f, (F - mu_d N)/m = %.8f, relative error %.3e "
          "(bound %.1e)" % (late[0]["t"], late[-1]["t"], slope, SLIDE_ACCELERATION,
                            acceleration_error, a.max_acceleration_error))
    print("late half: max |friction_force_1/normal_force + mu(s)| %.3e (bound %.1e), "
          "max |N/(m g) - 1| %.3e" % (law_error, a.max_law_error, weight_error))
    print("last row: slip speed %.4f, |friction_force_1/normal_force + mu_d| %.3e (bound %.1e)"
          % (last["mean_slip_velocity_1"], ratio_error, a.max_friction_ratio_error))
    print("in contact throughout: %s; stuck at the first step: %s; sliding everywhere on the "
          "late half: %s; ambiguous node-steps: %g" % (in_contact, stuck_first, sliding_late,
                                                       ambiguous))
    # Before the shear wave reflected at the top returns (t < 2H/c1 = 4), the
    # floor's shear traction grows as rho a c1 t: the slip starts when it
    # reaches mu_s rho g H, at t = mu_s g H/(a c1) = 1.2.
    onset_exact = SLIDE_MU_S * SLIDE_G * SLIDE_H / (SLIDE_A * SLIDE_C1)
    onset_ok = onset is not None and abs(onset - onset_exact) <= a.max_onset_error
    print("onset of sliding %s, exact %.3f (bound %.2f): %s" % (
        onset, onset_exact, a.max_onset_error, "ok" if onset_ok else "FAIL"))
    ok = (onset_ok and acceleration_error <= a.max_acceleration_error and
          ratio_error <= a.max_friction_ratio_error and law_error <= a.max_law_error and
          in_contact and stuck_first and
          sliding_late and ambiguous == 0)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
