#!/usr/bin/python3
"""check_two_bodies.py EXE PRM OUTDIR --case bar|layer --tolerance T

The mirror counterpart (Body/Contact/Counterpart = mirror, doc/theory.md
§7.6) against a run of the two bodies it stands for, computed here by an
independent program: two chains of the same lumped-mass linear elements,
each advanced by the central-difference scheme of the body (doc/theory.md
§7.1: a half step from the initial velocity, the contact nodes keeping
theirs), coupled only through the node pair of the contact plane, whose
impulse is solved from the pair's relative motion without any symmetry
assumed. The laterally homogeneous periodic bodies of PRM
(prm/body_signorini_bar.prm) reduce exactly to such chains (the fields
depend on y only, so the Q1 stiffness is the 1D chain's and the row-sum mass
the 1D lumped mass).

--case bar: the Signorini bar (N = 50, CFL 0.5, v0 = 1) against a second
bar moving up at v0, the initial gap 0.2 between them: unilateral contact
of the pair, w = g0 + u_A - u_B, the closing rule of Renard 2001, eqs.
(47)-(48) (a closed pair gets the velocity that closes the gap). Compared:
momentum_y, mean_gap (the gap between the bodies), mean_pressure.

--case layer: the sliding layer of check_mirror.py (periodic, pulled by
rho a, exponential friction) against a second layer pulled the other way,
the fault between them held at the normal traction rho g H (Contact law =
prescribed traction): the pair's tangential impulse from Z s + S mu(|s|)
Dir(s) = Z s* with Z = m/(2 dt) (two node masses m in series), s* the
pair's free slip rate. Compared: momentum_x, mean_slip_rate (the slip rate
between the bodies). The smallest relative distance of the stick test
|Z s*| against mu_s S over the run is printed: far above round-off, so
that no stick/slip decision can differ between the two programs.

Every compared column agrees within T times its largest magnitude.
Measured: see tests/body/physics.cmake.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import (SLIDE_A, SLIDE_G, SLIDE_H, SLIDE_MU_D, SLIDE_MU_S,  # noqa: E402
                       SLIDE_RHO, SLIDE_VC, SLIDE_WIDTH, bar_settings, run,
                       sliding_settings)

BAR_N, BAR_GAP = 50, 0.2
BAR_MODULUS, BAR_WIDTH = 1.0, 2.0 / BAR_N  # lambda + 2G; 2 cells of h
LAYER_N, LAYER_SHEAR, LAYER_DT, LAYER_FINAL_TIME = 20, 0.25, 0.02, 40.0


class Chain:
    """A column of n linear elements of height h, per unit cross-section:
    lumped masses rho h (rho h/2 at the ends), springs modulus/h, the nodal
    loads of a body force b; node 0 lies on the contact plane."""

    def __init__(self, n, h, rho, modulus, body_force, velocity):
        self.n, self.spring = n, modulus / h
        self.mass = [rho * h] * (n + 1)
        self.mass[0] = self.mass[n] = rho * h / 2
        self.load = [body_force * m / rho for m in self.mass]
        self.u = [0.0] * (n + 1)
        self.v = [velocity] * (n + 1)

    def free_step(self, dt, keep_contact_node=False):
        force = list(self.load)
        for j in range(self.n):
            pull = self.spring * (self.u[j] - self.u[j + 1])
            force[j] -= pull
            force[j + 1] += pull
        for j in range(0 if not keep_contact_node else 1, self.n + 1):
            self.v[j] += dt * force[j] / self.mass[j]

    def move(self, dt):
        self.u = [u + dt * v for u, v in zip(self.u, self.v)]

    def momentum(self):
        return sum(m * v for m, v in zip(self.mass, self.v))


def advance(upper, lower, dt, steps, pair_impulse):
    """The two chains over STEPS steps; pair_impulse(upper, lower) applies
    the contact plane's correction and returns the row to record."""
    rows = []
    for n in range(1, steps + 1):
        for chain in (upper, lower):
            if n == 1:
                chain.free_step(-0.5 * dt, keep_contact_node=True)
            chain.free_step(dt)
        row = pair_impulse(upper, lower)
        for chain in (upper, lower):
            chain.move(dt)
        rows.append(row)
    return rows


def two_bars(dt):
    """The bar and its image: y-displacements, the image moving up."""
    h = 1.0 / BAR_N
    upper = Chain(BAR_N, h, 1.0, BAR_MODULUS, 0.0, -1.0)
    lower = Chain(BAR_N, h, 1.0, BAR_MODULUS, 0.0, 1.0)
    impedance = upper.mass[0] / (2 * dt)

    def contact(a, b):
        gap = BAR_GAP + a.u[0] - b.u[0]
        free = a.v[0] - b.v[0]
        new_gap = max(gap + dt * free, 0.0)
        separation = free if (new_gap > 0 or free > 0) else 0.0 - gap / dt
        a.v[0] += (separation - free) / 2
        b.v[0] -= (separation - free) / 2
        return {"momentum_y": a.momentum() * BAR_WIDTH, "mean_gap": new_gap,
                "mean_pressure": impedance * (separation - free)}

    return advance(upper, lower, dt, round(3.0 / dt), contact)


def two_layers():
    """The layer and its image: x-displacements, pulled either way."""
    h = SLIDE_H / LAYER_N
    upper = Chain(LAYER_N, h, SLIDE_RHO, LAYER_SHEAR, SLIDE_RHO * SLIDE_A, 0.0)
    lower = Chain(LAYER_N, h, SLIDE_RHO, LAYER_SHEAR, -SLIDE_RHO * SLIDE_A, 0.0)
    dt = LAYER_DT
    impedance = upper.mass[0] / (2 * dt)
    pressure = SLIDE_RHO * SLIDE_G * SLIDE_H
    margin = [math.inf]

    def mu(rate):
        return SLIDE_MU_D + (SLIDE_MU_S - SLIDE_MU_D) * math.exp(-rate / SLIDE_VC)

    def friction(a, b):
        free = a.v[0] - b.v[0]
        r = impedance * free
        bound = SLIDE_MU_S * pressure
        margin[0] = min(margin[0], abs(abs(r) - bound) / bound)
        slip = 0.0
        if abs(r) > bound:
            # Z s + S mu(s) = |r| has one root (Z > S L_mu): bisection.
            low, high = 0.0, abs(r) / impedance
            for _ in range(200):
                middle = 0.5 * (low + high)
                if impedance * middle + pressure * mu(middle) > abs(r):
                    high = middle
                else:
                    low = middle
            slip = math.copysign(0.5 * (low + high), r)
        a.v[0] += (slip - free) / 2
        b.v[0] -= (slip - free) / 2
        return {"momentum_x": a.momentum() * SLIDE_WIDTH, "mean_slip_rate": abs(slip)}

    rows = advance(upper, lower, dt, round(LAYER_FINAL_TIME / dt), friction)
    return rows, margin[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--case", choices=["bar", "layer"], required=True)
    p.add_argument("--tolerance", type=float, required=True)
    a = p.parse_args()

    if a.case == "bar":
        settings, dt, _ = bar_settings(BAR_N)
        settings["Body/Contact/Initial gap"] = repr(BAR_GAP)
        reference = two_bars(dt)
    else:
        settings = sliding_settings(LAYER_DT, LAYER_FINAL_TIME)
        settings["Body/Contact/Contact law"] = "prescribed traction"
        settings["Body/Contact/Normal traction"] = repr(SLIDE_RHO * SLIDE_G * SLIDE_H)
        reference, margin = two_layers()
    settings["Body/Contact/Counterpart"] = "mirror"
    rows = run(a.exe, a.prm, os.path.join(a.outdir, "mirror"), settings)[1:]

    ok = len(rows) == len(reference)
    print("rows: mirror %d, two bodies %d: %s" % (len(rows), len(reference), "ok" if ok else "FAIL"))
    for name in reference[0] if ok else []:
        scale = max(abs(r[name]) for r in rows) or 1.0
        worst = max(abs(r[name] - s[name]) for r, s in zip(rows, reference)) / scale
        good = worst <= a.tolerance
        print("%-15s largest difference %.3e relative to its scale %.3e (tolerance %.1e): %s" % (
            name, worst, scale, a.tolerance, "ok" if good else "FAIL"))
        ok = ok and good
    if a.case == "layer":
        slides = any(r["mean_slip_rate"] > 0 for r in reference)
        sticks = reference[0]["mean_slip_rate"] == 0
        print("smallest relative distance to the stick bound %.3e; sticks first, "
              "then slides: %s" % (margin, "ok" if slides and sticks else "FAIL"))
        ok = ok and slides and sticks and margin > 1e-6
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
