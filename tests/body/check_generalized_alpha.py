#!/usr/bin/python3
"""check_generalized_alpha.py EXE PRM OUTDIR [bounds...]

Body/Spectral radius at infinity (the generalized-alpha method of Chung and
Hulbert 1993, doc/theory.md §7.14) on a one-degree-of-freedom oscillator:
the stiff block of PRM (prm/body_slow_pull.prm) on its pull spring (k, the
driver at rest), without contact, thrown with the velocity v0 from the
spring's rest: x(t) = (v0/omega) sin(omega t), omega = sqrt(k/m). The
block's own waves are 1000 times faster than omega: it moves as a rigid
body, x = -pull_force/k.

For each rho_inf of --rho and each Omega = omega dt of --omega (20 steps):
the body's x_n against the recursion of the method for m x'' + k x = 0,
written here from the paper's equations (the coefficients alpha_m,
alpha_f, beta, gamma of rho_inf; one solve for a_{n+1} per step): the
largest difference relative to v0/omega (--max-recursion-error). The
recursion's amplification matrix gives the closed form of the decay per
step, the spectral radius rho(Omega) of its principal roots (printed:
rho -> rho_inf as Omega -> infinity, 1 for rho_inf = 1). Then the energy:
the largest |energy_balance| (kinetic + elastic + dissipated +
numerical_dissipation - works - E0) relative to E0 = m v0^2/2
(--max-balance), numerical_dissipation absent or 0 for rho_inf = 1, and
the energy lost, (E0 - E(T))/E0 with E = kinetic + elastic + k x^2/2 (x
the block's mean displacement), printed beside numerical_dissipation/E0
and beside 1 - rho(Omega)^(2n) (the principal roots' decay over n steps:
the energy lost but for the start's transient).
Last the order: for each rho_inf of --order-rho, x after one period with
Omega = 0.2, 0.1, 0.05 against the exact solution; the observed orders
(--min-order).
Exit 0 if all hold.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import run  # noqa: E402

import numpy as np  # noqa: E402

STIFFNESS, MASS, V0 = 1e-3, 0.25, 1e-3
OMEGA = math.sqrt(STIFFNESS / MASS)


def coefficients(rho):
    """(alpha_m, alpha_f, beta, gamma) of Chung and Hulbert 1993."""
    if rho == 1:
        return 0.0, 0.0, 0.25, 0.5
    am, af = (2 * rho - 1) / (rho + 1), rho / (rho + 1)
    return am, af, 0.25 * (1 - am + af) ** 2, 0.5 - am + af


def recursion(rho, dt, steps):
    """x_n of the method for x'' + omega^2 x = 0 from x = 0, v = v0, a = 0."""
    am, af, beta, gamma = coefficients(rho)
    w2 = OMEGA ** 2
    x, v, a, xs = 0.0, V0, 0.0, [0.0]
    for _ in range(steps):
        predictor = x + dt * v + dt * dt * (0.5 - beta) * a
        a_new = -(am * a + w2 * ((1 - af) * predictor + af * x)) / (
            (1 - am) + w2 * (1 - af) * beta * dt * dt)
        x, v, a = predictor + beta * dt * dt * a_new, v + dt * ((1 - gamma) * a + gamma * a_new), a_new
        xs.append(x)
    return np.array(xs)


def spectral_radius(rho, dt):
    """The largest |eigenvalue| of the step's amplification matrix (x, v, a)."""
    columns = []
    for start in np.eye(3):
        am, af, beta, gamma = coefficients(rho)
        w2 = OMEGA ** 2
        x, v, a = start
        predictor = x + dt * v + dt * dt * (0.5 - beta) * a
        a_new = -(am * a + w2 * ((1 - af) * predictor + af * x)) / (
            (1 - am) + w2 * (1 - af) * beta * dt * dt)
        columns.append([predictor + beta * dt * dt * a_new,
                        v + dt * ((1 - gamma) * a + gamma * a_new), a_new])
    return max(abs(np.linalg.eigvals(np.array(columns).T)))


def settings(rho, dt, steps):
    return {
        "Body/Contact/Boundary id": "none",
        "Body/Traction 1/Boundary ids": "",
        "Body/Initial displacement": "0; 0",
        "Body/Initial velocity": "%r; 0" % V0,
        "Body/Pull spring/Driver displacement": "0",
        "Body/Adaptive time steps/Enabled": "false",
        "Body/Spectral radius at infinity": repr(rho),
        "Time/Time step": repr(dt),
        "Time/Final time": repr(dt * steps),
        "Output/Interval": "0",
    }


def body_motion(a, rho, dt, steps, name):
    rows = run(a.exe, a.prm, os.path.join(a.outdir, name), settings(rho, dt, steps))
    x = np.array([-r["pull_force"] / STIFFNESS for r in rows])
    energy = [r["kinetic_energy"] + r["elastic_energy"] + 0.5 * r["pull_force"] ** 2 / STIFFNESS
              for r in rows]
    dissipated = rows[-1].get("numerical_dissipation", 0.0)
    balance = max(abs(r["energy_balance"]) for r in rows)
    return x, energy, dissipated, balance


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--rho", type=float, nargs="+", default=[1.0, 0.8, 0.5, 0.0])
    p.add_argument("--omega", type=float, nargs="+", default=[0.25, 2.5, 25.0])
    p.add_argument("--order-rho", type=float, nargs="+", default=[1.0, 0.5])
    p.add_argument("--max-recursion-error", type=float, default=2e-5)
    p.add_argument("--max-balance", type=float, default=2e-6)
    p.add_argument("--min-order", type=float, default=1.9)
    a = p.parse_args()
    ok, amplitude, steps = True, V0 / OMEGA, 20
    print("rho_inf  Omega   rho(Omega)  |x - recursion|/amp  |balance|/E0  energy lost/E0  "
          "numerical_dissipation/E0  1 - rho^(2n)")
    for rho in a.rho:
        for omega_dt in a.omega:
            dt = omega_dt / OMEGA
            x, energy, dissipated, balance = body_motion(
                a, rho, dt, steps, "rho%g_omega%g" % (rho, omega_dt))
            error = np.max(np.abs(x - recursion(rho, dt, steps))) / amplitude
            lost = (energy[0] - energy[-1]) / energy[0]
            radius = spectral_radius(rho, dt)
            print("%6.2f %7.3f  %10.6f  %18.3e  %12.2e  %14.6f  %24.6f  %.6f" % (
                rho, omega_dt, radius, error, balance / energy[0], lost,
                dissipated / energy[0], 1 - radius ** (2 * steps)))
            ok = ok and error <= a.max_recursion_error and balance <= a.max_balance * energy[0]
            if rho == 1 and dissipated != 0:
                print("FAIL: numerical_dissipation with rho_inf = 1")
                ok = False
    for rho in a.order_rho:
        errors = []
        for omega_dt in (0.2, 0.1, 0.05):
            dt = omega_dt / OMEGA
            n = int(round(2 * math.pi / omega_dt))
            x, _, _, _ = body_motion(a, rho, dt, n, "order_rho%g_omega%g" % (rho, omega_dt))
            exact = amplitude * math.sin(OMEGA * dt * n)
            errors.append(abs(x[-1] - exact) / amplitude)
        orders = [math.log2(errors[i] / errors[i + 1]) for i in range(2)]
        print("rho_inf %.2f: x after one period at Omega = 0.2, 0.1, 0.05: errors %s, "
              "orders %s (bound %.2f)" % (rho, ", ".join("%.3e" % e for e in errors),
                                          ", ".join("%.2f" % o for o in orders), a.min_order))
        ok = ok and min(orders) >= a.min_order
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
