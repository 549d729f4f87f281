#!/usr/bin/python3
"""check_mirror.py EXE PRM OUTDIR --tolerance T [--dt DT] [--final-time T]
                  [--mass lumped|redistributed]

The sliding block of check_sliding.py (body_runs.sliding_settings(), on top
of PRM = prm/body_signorini_bar.prm: a periodic layer pressed by -rho g and
pulled by rho a, exponential friction mu(s) = mu_d + (mu_s - mu_d)
exp(-s/v_c)) against its mirror image (Body/Contact/Counterpart = mirror),
against the same layer on the rigid plane with the critical slip velocity
v_c/2. The layer and its image, pulled in opposite directions, slip at
s = 2 v_T on the plane between them: friction mu(|s|) on the mirror is
mu(2 |v_T|), which is the rigid plane's law with v_c/2 (doc/theory.md
§7.6). The periodic layer makes the mirror exact (no Poisson motion of the
contact plane), so the two runs are one problem: every column of
history.csv must agree within T times the largest magnitude of the column
(of the momenta, of the energies and works for those),
the fault's slip rates and gap (slip_rate, slip, gap columns) being twice
the rigid plane's; the rupture slip rate of the twin is halved too.
Also asserted on the mirror run: the acceleration of the centre of mass on
the late half, (F - mu_d N)/m = a - mu_d g, as check_sliding.py, within
1e-6 relative (the residue of mu(s) - mu_d, 1.0e-7 measured on the rigid
plane), and at least one row where the layer slides.

--time-scheme implicit: both runs with Newmark's implicit step (doc/theory.md
§7.7), whose mirror is the gap g0 - 2 u.n and the rate 2 |ds|/dt of the law.

--direction DX DY: the 3D layer (body_runs.sliding_settings(): periodic in x
and y, 2 x 2 x 20 cells) pulled along the unit vector (DX, DY) of the floor
plane: the law sees the rate of a slip with two components, the mirror the
fault's 2 ds in both tangents; the acceleration is asserted along (DX, DY).

--contact-law prescribed traction: the mirror run is a fault that never
opens, its normal traction held at the layer's floor pressure rho g H (in the
periodic layer the unilateral pressure stays at that value: the shear waves
do not change the normal stress), compared in the same way.

Measured (Release build, dt = 0.02, T = 40, 0.1 s of CPU per run): see
tests/body/physics.cmake.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import (SLIDE_ACCELERATION, SLIDE_G, SLIDE_H, SLIDE_MASS,  # noqa: E402
                       SLIDE_RHO, SLIDE_VC, SLIDE_WIDTH, line_fit, run,
                       sliding_settings)

# Columns that hold the fault's slip rate or gap: twice the rigid plane's.
DOUBLED = ("slip", "gap")


def group_scale(rows, name):
    """The scale of a column: its largest magnitude, and for the momenta and
    the energies that of their family (momentum_y is round-off, 1e-19,
    beside momentum_x; the works beside the energies)."""
    def largest(column):
        return max(abs(r[column]) for r in rows)
    scale = largest(name)
    if name.startswith("momentum"):
        scale = max(largest(c) for c in rows[0] if c.startswith("momentum"))
    if any(w in name for w in ("energy", "work", "balance")):
        scale = max(largest(c) for c in rows[0]
                    if any(w in c for w in ("energy", "work", "balance")))
    return scale or 1.0


def compare(rows, twin):
    """The worst relative difference per column, and its name."""
    if len(rows) != len(twin) or not rows:
        return math.inf, "rows"
    worst, where = 0.0, ""
    for name in rows[0]:
        # The solvers' counts are not the physics: with the prescribed
        # traction the normal rows are free, the CG counts differ.
        if name not in twin[0] or "cpu" in name or "wall" in name or "iterations" in name:
            continue
        factor = 2.0 if any(d in name for d in DOUBLED) and "stick" not in name else 1.0
        scale = group_scale(rows, name)
        for a, b in zip(rows, twin):
            difference = abs(a[name] - factor * b[name]) / scale
            if difference > worst:
                worst, where = difference, name
    return worst, where


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--tolerance", type=float, required=True)
    p.add_argument("--dt", type=float, default=0.02)
    p.add_argument("--final-time", type=float, default=40.0)
    p.add_argument("--mass", default="lumped")
    p.add_argument("--contact-law", default="unilateral",
                   choices=["unilateral", "prescribed traction"],
                   help="prescribed traction: the mirror run's normal traction "
                   "is held at rho g H, the layer's floor pressure, instead "
                   "of unilateral contact")
    p.add_argument("--direction", type=float, nargs=2, default=None,
                   help="the 3D layer pulled along this unit vector (DX, DY)")
    p.add_argument("--time-scheme", default="explicit",
                   choices=["explicit", "implicit", "quasi-static"],
                   help="Body/Time scheme of both runs (implicit: the mirror "
                   "is the gap g0 - 2 u.n and the fault's slip 2 ds alone)")
    a = p.parse_args()

    if a.direction is not None and abs(math.hypot(*a.direction) - 1) > 1e-12:
        p.error("--direction must be a unit vector")
    settings = sliding_settings(a.dt, a.final_time, a.direction)
    settings["Body/Contact/Mass at contact nodes"] = a.mass
    settings["Body/Time scheme"] = a.time_scheme
    # The equivalence mu(2 |v_T|) holds for the law itself: the rigid plane's
    # default normal-stress regularization (auto: L = h_C/50) has no
    # counterpart on the mirror (auto: 0 there), and moved mean_pressure by
    # 3.3e-12 of its scale (measured), so both runs take L = 0.
    settings["Body/Contact/Friction law/Normal stress regularization length"] = "0"
    mirror = dict(settings)
    mirror["Body/Contact/Counterpart"] = "mirror"
    if a.contact_law != "unilateral":
        mirror["Body/Contact/Contact law"] = a.contact_law
        mirror["Body/Contact/Normal traction"] = repr(SLIDE_RHO * SLIDE_G * SLIDE_H)
    twin = dict(settings)
    twin["Body/Contact/Friction law/Critical slip velocity"] = repr(SLIDE_VC / 2)
    twin["Body/Contact/Friction law/Rupture slip rate"] = repr(0.5 * 1e-3)
    mirror["Body/Contact/Friction law/Rupture slip rate"] = repr(1e-3)
    rows = run(a.exe, a.prm, os.path.join(a.outdir, "mirror"), mirror)
    other = run(a.exe, a.prm, os.path.join(a.outdir, "rigid_plane"), twin)
    ok = True
    worst, where = compare(rows, other)
    good = worst <= a.tolerance
    print("mirror (v_c = %g) against the rigid plane (v_c = %g): worst relative "
          "column difference %.3e in %s (tolerance %.1e): %s" % (
              SLIDE_VC, SLIDE_VC / 2, worst, where, a.tolerance, "ok" if good else "FAIL"))
    ok = ok and good
    late = [r for r in rows if r["t"] >= a.final_time / 2]
    # The momentum along the pull (2D: (1, 0); momentum_y is then vertical).
    dx, dy = a.direction or (1.0, 0.0)
    mass = SLIDE_MASS * (SLIDE_WIDTH if a.direction else 1.0)
    along = [(r["momentum_x"] * dx + r["momentum_y"] * dy) / mass for r in late]
    slope = line_fit([r["t"] for r in late], along)[0]
    error = abs(slope / SLIDE_ACCELERATION - 1)
    good = error <= 1e-6
    print("acceleration on the late half %.8f, exact %.8f, relative error %.3e <= 1e-6: %s" % (
        slope, SLIDE_ACCELERATION, error, "ok" if good else "FAIL"))
    ok = ok and good
    sliding = any(r["stick_fraction"] == 0 and r["contact_fraction"] == 1 for r in late)
    print("the layer slides in contact on the late half: %s" % ("ok" if sliding else "FAIL"))
    ok = ok and sliding
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
