#!/usr/bin/python3
"""check_energy.py EXE PRM OUTDIR --case sliding|bar --steps DT1 DT2 [...]
                  [--min-ratio R] [--max-ratio R] [--max-balance E]

The energy balance of history.csv on frictional runs:
    energy_balance = kinetic + elastic + dissipated - data_work - impact_work - E0
must be O(dt) and not accumulate. The script runs PRM
(prm/body_signorini_bar.prm) at the time steps DT1 > DT2 > ... with the mesh
fixed, a row every step, and measures B(dt) = max over the rows of
|energy_balance| / scale, scale = the largest kinetic + elastic +
dissipated_energy of the run. Asserts:
  - B(dt_k)/B(dt_{k+1}) in [--min-ratio, --max-ratio] for every pair (first
    order: close to dt_k/dt_{k+1} = 2);
  - B at the smallest step <= --max-balance;
  - dissipated_energy is non-decreasing and > 0 (friction works);
  - the end value |energy_balance|/scale <= B (no drift beyond the bound).
Cases:
  sliding  the sliding block of check_sliding.py (body_runs.sliding_settings:
           periodic layer, body forces, exponential mu; stick, then sliding
           that accelerates): loads, friction and impact_work all non-zero;
  bar      the Signorini bar at N = 100 (h = 0.01) thrown sideways:
           u1 = (0.5, -1), Coulomb mu = 0.2 (constant), so the contact node
           slides during the whole contact (the shear wave alone would need
           rho c1 0.5 = 0.25 > mu rho c v0 = 0.2 to stop it): impact,
           friction and release. Also reported: the tangential impulse,
           Delta p_x + mu Delta p_y (Coulomb: 0 while sliding), and
           impact_work (the scheme's contact dissipation).
Fails when a run has fewer than 100 rows.

Measured (Release build):
  sliding, dt = 0.02, 0.01, 0.005 (h = 0.05): B = 9.70e-6, 4.92e-6, 2.45e-6
    (ratios 1.97, 2.01), scale 4.77e-3 J; dissipated 1.912e-3 J at T = 40;
    impact_work at the end +1.003e-6, +5.006e-7, +2.501e-7: positive and
    O(dt), = (dt/2) sum_n A f.(v^{n+1/2} - v^{n-1/2}) ~ (dt/2) mu_d N v(T)
    (the correction's work is taken with the mean velocity of the step, the
    dissipation with v^{n+1/2}); 0.2 s CPU for the three runs.
  bar, dt = 0.005, 0.0025, 0.00125: B = 2.88e-3, 1.30e-3, 6.81e-4 (ratios
    2.22, 1.90; the largest values at the impact, t = 0.025, and at t = 1.0:
    not accumulating, |energy_balance(T)| = 4.0e-4, 5.3e-5, 3.2e-5 of E0);
    dissipated 8.14e-4 J = 6.5% of E0 = 0.0125 J; impact_work -5.17e-5 J
    (0.41% of E0); Delta p_x + mu Delta p_y = 7.5e-6..7.65e-6 (0.1% of the
    impulse mu Delta p_y = 7.95e-3; bound 1e-5). 1.2 s CPU for the three
    runs.
Bounds in tests/body/physics.cmake: ratios in [1.7, 2.5], B at the
smallest step 10% above the measured value.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import bar_settings, run, sliding_settings  # noqa: E402

BAR_MU = 0.2


def settings_of(case, dt):
    if case == "sliding":
        return sliding_settings(dt)
    settings, _, _ = bar_settings(100)
    settings.update({
        "Time/Time step": repr(dt),
        "Body/Initial velocity": "0.5; -1",
        "Body/Contact/Friction law/Static friction coefficient": repr(BAR_MU),
    })
    return settings


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--case", choices=("sliding", "bar"), required=True)
    p.add_argument("--steps", type=float, nargs="+", required=True)
    p.add_argument("--min-ratio", type=float, default=1.7)
    p.add_argument("--max-ratio", type=float, default=2.5)
    p.add_argument("--max-balance", type=float)
    p.add_argument("--max-impulse-error", type=float)
    a = p.parse_args()
    if len(a.steps) < 2:
        print("FAIL: a ratio needs two time steps or more")
        return 1
    ok = True
    balances = []
    print("case %s" % a.case)
    print("  dt        rows   scale [J]   max|bal|/scale  end|bal|/scale  dissipated  "
          "impact_work")
    for dt in a.steps:
        rows = run(a.exe, a.prm, os.path.join(a.outdir, "dt%g" % dt), settings_of(a.case, dt))
        if len(rows) < 100:
            print("FAIL: dt = %g: %d rows" % (dt, len(rows)))
            return 1
        scale = max(r["kinetic_energy"] + r["elastic_energy"] + r["dissipated_energy"]
                    for r in rows)
        balance = max(abs(r["energy_balance"]) for r in rows) / scale
        end = abs(rows[-1]["energy_balance"]) / scale
        dissipated = [r["dissipated_energy"] for r in rows]
        monotone = all(y >= x for x, y in zip(dissipated, dissipated[1:]))
        print("  %-8g %6d  %.4e  %.4e      %.4e      %.4e  %+.4e" % (
            dt, len(rows), scale, balance, end, dissipated[-1], rows[-1]["impact_work"]))
        if not (monotone and dissipated[-1] > 0):
            print("FAIL: dissipated_energy is not non-decreasing and positive")
            ok = False
        if not end <= balance:
            ok = False
        balances.append(balance)
        if a.case == "bar":
            impulse = (rows[-1]["momentum_x"] - rows[0]["momentum_x"] +
                       BAR_MU * (rows[-1]["momentum_y"] - rows[0]["momentum_y"]))
            print("    Delta p_x + mu Delta p_y = %.3e (mu Delta p_y = %.3e)" % (
                impulse, BAR_MU * (rows[-1]["momentum_y"] - rows[0]["momentum_y"])))
            if a.max_impulse_error is not None and not abs(impulse) <= a.max_impulse_error:
                print("FAIL: |Delta p_x + mu Delta p_y| > %.1e" % a.max_impulse_error)
                ok = False
    for k in range(1, len(balances)):
        ratio = balances[k - 1] / balances[k] if balances[k] > 0 else float("inf")
        good = a.min_ratio <= ratio <= a.max_ratio
        print("max|bal| ratio dt = %g -> %g: %.3f in [%g, %g]: %s" % (
            a.steps[k - 1], a.steps[k], ratio, a.min_ratio, a.max_ratio, "ok" if good else "FAIL"))
        ok = ok and good
    if a.max_balance is not None:
        good = balances[-1] <= a.max_balance
        print("max|bal|/scale at dt = %g: %.3e <= %.3e: %s" % (
            a.steps[-1], balances[-1], a.max_balance, "ok" if good else "FAIL"))
        ok = ok and good
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
