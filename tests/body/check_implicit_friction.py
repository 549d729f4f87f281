#!/usr/bin/python3
"""check_implicit_friction.py EXE PRM OUTDIR [--max-stick-slip S] [--max-balance B]
                              [--min-force-ratio R]

Exact stick and sliding with Body/Time scheme = implicit (doc/theory.md §7.7)
on the block of prm/body_sliding_block_2d.prm (16 x 4 cells, at rest in its
static state under p = 1e-3 on its top, mu = 0.2, no normal stress
regularization), dt = 0.25 (c dt/h = 4, about 6 times the explicit bound),
T = 20, with the tangential traction Q on its top applied at t = 0:
  stick  Q = 0.1 mu p: every contact node stays stuck; asserted: max_slip
         (the largest |u_T - u_T(t0)| of a contact node) exactly 0 at every
         row, stick_fraction 1, no dissipation;
  slide  Q = 1.5 mu p: the block slides; asserted: max_slip > 0.01 at T,
         the friction force within a factor --min-force-ratio of mu times
         the normal force while sliding (t >= 2, stick_fraction 0).
Both: the friction's dissipation of every step >= 0 and |energy_balance|
<= --max-balance.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import implicit_summary, run  # noqa: E402

MU, P = 0.2, 1e-3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--max-balance", type=float, default=1e-16)
    p.add_argument("--min-force-ratio", type=float, default=0.9999)
    a = p.parse_args()
    common = {"Body/Time scheme": "implicit",
              "Body/Contact/Friction law/Normal stress regularization length": "0",
              "Body/Subdivisions": "16, 4", "Body/Initial velocity": "0; 0",
              "Time/Final time": "20", "Time/Time step": "0.25",
              "Output/Interval": "0"}
    good = True
    for name, ratio in (("stick", 0.1), ("slide", 1.5)):
        values = dict(common)
        values["Body/Traction 1/Value"] = "%r; %r" % (ratio * MU * P, -P)
        rows = run(a.exe, a.prm, os.path.join(a.outdir, name), values)
        steps = list(zip(rows, rows[1:]))
        least = min(r1["dissipated_energy"] - r0["dissipated_energy"] for r0, r1 in steps)
        balance = max(abs(r["energy_balance"]) for r in rows)
        slip = max(r["max_slip"] for r in rows)
        last = rows[-1]
        print("%s: max_slip %.3e (at T %.3e), least stick fraction %.4f, least "
              "dissipation of a step %.3e, dissipated %.3e, |balance| %.2e, "
              "Newton at most %d, CG %.2f per solve"
              % (name, slip, last["max_slip"], min(r["stick_fraction"] for r in rows),
                 least, last["dissipated_energy"], balance,
                 last["max_newton_iterations"],
                 last["cg_iterations"] / max(last["newton_iterations"], 1)))
        # No step of either case settled one change at a time (the 2D
        # block at 1.5 mu p did, at t = 0.25, before rule 3' tested the
        # stick against the P its force was given with: doc/theory.md §7.7).
        counts = implicit_summary(os.path.join(a.outdir, name))
        print("%s: steps settled one change at a time %d" % (name, counts["cycled_steps"]))
        if counts["cycled_steps"] != 0:
            print("FAIL: the active set cycled")
            good = False
        if least < 0 or balance > a.max_balance:
            print("FAIL: negative dissipation or energy balance above %g" % a.max_balance)
            good = False
        if name == "stick":
            if slip != 0 or last["dissipated_energy"] != 0 or \
               min(r["stick_fraction"] for r in rows) != 1:
                print("FAIL: a stuck node moved")
                good = False
        else:
            sliding = [r for r in rows if r["t"] >= 2 and r["stick_fraction"] == 0]
            ratios = [abs(r["friction_force_1"]) / (MU * r["normal_force"]) for r in sliding]
            print("slide: %d sliding rows, |F_T|/(mu N) in [%.9f, %.9f]"
                  % (len(sliding), min(ratios), max(ratios)))
            if last["max_slip"] < 0.01 or not sliding or \
               min(ratios) < a.min_force_ratio or max(ratios) > 2 - a.min_force_ratio:
                print("FAIL: the block does not slide with |F_T| = mu N")
                good = False
    print("ok" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
