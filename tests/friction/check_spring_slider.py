#!/usr/bin/python3
"""check_spring_slider.py OUTDIR --stiffness K [--mass M] [--normal-force N]
       [--a A] [--b B] [--dc DC] [--f0 F0] [--v0 V0] [--v-load V]
       [--window T0 T1] [--tolerance R] [--expect grow|decay]
       [--min-cycles N --cycle-factor F]

The stability of steady sliding of the spring-slider on rate-and-state
friction (doc/theory.md §8.5; Ruina 1983, Rice and Ruina 1983). Linearized
about steady sliding at V = V_load (xi = x - x_ss, u = x' - V, phi = theta -
D_c/V; aging and slip law alike):

    xi' = u,  m u' = -k xi - N (mu_V u + mu_theta phi),
    phi' = -(theta_ss u + V phi)/D_c,

with the regularized law's mu_V = a/sqrt(V^2 + w^2), mu_theta =
V/sqrt(V^2 + w^2) b/theta, w = 2 V0 exp(-psi/a). The eigenvalue of largest
real part is alpha +- i omega (numpy). From history.csv the deviation u(t) =
velocity - V_load: its extrema of |u| in the window [T0, T1] (the linear
regime), and the least-squares slope of ln|u| at them is the measured
alpha; their spacing gives the measured half period pi/omega.

Asserts |alpha_measured - alpha| <= R |alpha|, the same for omega, and the
sign the run must show (--expect grow: alpha > 0, below k_c = N (b - a)/D_c;
decay: alpha < 0). With --min-cycles: at least N slip events late in the
run (the second half) where the velocity exceeds F V_load and falls below
V_load/F between them: stick-slip cycles. Fails when it checks nothing
(fewer than 4 extrema in the window).
"""
import argparse
import csv
import math
import os
import sys

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("outdir")
p.add_argument("--stiffness", type=float, required=True)
p.add_argument("--mass", type=float, default=100.0)
p.add_argument("--normal-force", type=float, default=1000.0)
p.add_argument("--a", type=float, default=0.01)
p.add_argument("--b", type=float, default=0.015)
p.add_argument("--dc", type=float, default=1e-5)
p.add_argument("--f0", type=float, default=0.6)
p.add_argument("--v0", type=float, default=1e-6)
p.add_argument("--v-load", type=float, default=1e-6)
p.add_argument("--window", type=float, nargs=2, default=(0.0, 600.0))
p.add_argument("--tolerance", type=float, default=0.02)
p.add_argument("--expect", choices=("grow", "decay"), required=True)
p.add_argument("--min-cycles", type=int, default=0)
p.add_argument("--cycle-factor", type=float, default=10.0)
a = p.parse_args()

V = a.v_load
theta = a.dc / V
psi = a.f0 + a.b * math.log(a.v0 * theta / a.dc)
w = 2 * a.v0 * math.exp(-psi / a.a)
h = math.hypot(V, w)
mu_v, mu_theta = a.a / h, (V / h) * a.b / theta
k, m, N = a.stiffness, a.mass, a.normal_force
J = np.array([[0.0, 1.0, 0.0],
              [-k / m, -N * mu_v / m, -N * mu_theta / m],
              [0.0, -theta / a.dc, -V / a.dc]])
eigenvalues = np.linalg.eigvals(J)
pair = max(eigenvalues, key=lambda z: z.real)
alpha, omega = pair.real, abs(pair.imag)
k_c = N * (a.b - a.a) / a.dc
print("k = %g = %.3f k_c (k_c = N (b - a)/D_c = %g N/m; inertia correction "
      "m V^2/(N a D_c) = %.2e)" % (k, k / k_c, k_c, m * V * V / (N * a.a * a.dc)))
print("linearized eigenvalue %.6e +- %.6e i" % (alpha, omega))

with open(os.path.join(a.outdir, "history.csv"), newline="") as f:
    rows = [(float(r["t"]), float(r["velocity"])) for r in csv.DictReader(f)]
t = [r[0] for r in rows]
u = [r[1] - V for r in rows]
extrema = [j for j in range(1, len(u) - 1)
           if a.window[0] <= t[j] <= a.window[1]
           and abs(u[j]) >= abs(u[j - 1]) and abs(u[j]) > abs(u[j + 1])
           and u[j] * u[j - 1] > 0]
if len(extrema) < 4:
    sys.exit("FAIL: %d extrema of |v - V_load| in the window %s: nothing to fit"
             % (len(extrema), a.window))
times = np.array([t[j] for j in extrema])
logs = np.array([math.log(abs(u[j])) for j in extrema])
slope = np.polyfit(times, logs, 1)[0]
half_period = float(np.mean(np.diff(times)))
omega_measured = math.pi / half_period
print("measured: %d extrema in [%g, %g] s, growth rate %.6e (relative error "
      "%.2e), omega %.6e (relative error %.2e)"
      % (len(extrema), times[0], times[-1], slope, abs(slope - alpha) / abs(alpha),
         omega_measured, abs(omega_measured - omega) / omega))
failures = []
if (a.expect == "grow") != (alpha > 0) or (a.expect == "grow") != (slope > 0):
    failures.append("expected the perturbation to %s: eigenvalue %g, measured %g"
                    % (a.expect, alpha, slope))
if abs(slope - alpha) > a.tolerance * abs(alpha):
    failures.append("growth rate %g against the eigenvalue's %g: beyond %g relative"
                    % (slope, alpha, a.tolerance))
if abs(omega_measured - omega) > a.tolerance * omega:
    failures.append("frequency %g against the eigenvalue's %g: beyond %g relative"
                    % (omega_measured, omega, a.tolerance))
if a.min_cycles:
    late = [(tt, v + V) for tt, v in zip(t, u) if tt >= t[-1] / 2]
    events, fast = 0, False
    for tt, v in late:
        if not fast and v > a.cycle_factor * V:
            fast, events = True, events + 1
        elif fast and v < V / a.cycle_factor:
            fast = False
    print("late half: %d slip events (v > %g V_load, then < V_load/%g); max v "
          "%.3e, min v %.3e" % (events, a.cycle_factor, a.cycle_factor,
                                max(v for _, v in late), min(v for _, v in late)))
    if events < a.min_cycles:
        failures.append("%d stick-slip cycles in the late half, expected >= %d"
                        % (events, a.min_cycles))
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("OK")
