"""Kostrov's self-similar crack in plane strain (mode II) and antiplane shear
(mode III): the amplitude of its slip, and the slip profile of a body run.

A crack grows symmetrically from x = 0 at the constant speed v < c_s under a
constant stress drop dtau; its slip is (doc/theory.md §7.7)

    Delta u(x, t) = A(v) (dtau/G) sqrt(v^2 t^2 - x^2),   |x| < v t,

  mode III: A = 4/I_III,          I_III = 2 E(sqrt(1 - v^2/c_s^2)),
  mode II:  A = 4 (v/c_s)^2/I_II, I_II = 2 int_0^{pi/2} N/((X^2 + 4 u S_p S_s) S_s) dtheta,

with u = sin^2, w = cos^2 of theta, S_j = sqrt(u + b_j w), b_j = (v/c_j)^2,
X = 2u + b_s w, P = u + b_s w and N = 16 u^2 P (b_s - b_p) + 8 u P b_s^2 w
+ b_s^4 w^3 (every term positive: the integrand is smooth and needs no
cancellation). Limits: A -> 2 (mode III) and 2(1 - nu) (mode II) as v -> 0,
the static cracks of half-length v t.

  amplitude(mode, v, c_s, c_p)    A(v) by Gauss-Legendre quadrature
  ellipe(k)                       E(k) by the arithmetic-geometric mean
  slip_profile(output_dir, t)     (t_record, x, 2 u_x) along the fault of a
                                  Counterpart = mirror run, from contact.pvd
  closed_form(x, t, A, ...)       Delta u of the formula (0 outside the crack)

Standard library and numpy (slip_profile: VTK through vtk_python.py).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vtk_python import point_values, read_pvd, read_record, select_record  # noqa: E402

# Gauss-Legendre points on [0, pi/2]: the integrands are smooth (analytic in
# theta for v < c_s); 200 points give A to round-off (checked against E(k)
# for mode III: 1e-15, and A(v = 1e-4 c_s) = 2(1 - nu) to 4e-8 = O(v^2)).
QUADRATURE_POINTS = 200


def ellipe(k):
    """The complete elliptic integral of the second kind E(k) = int_0^{pi/2}
    sqrt(1 - k^2 sin^2) by the arithmetic-geometric mean (Abramowitz and
    Stegun 17.6)."""
    a, b, c = 1.0, math.sqrt(1.0 - k * k), k
    total, power = c * c / 2, 0.5
    for _ in range(64):  # quadratic convergence: 6 iterations for k < 0.9999
        if abs(c) <= 1e-16 * a:
            break
        a, b, c = (a + b) / 2, math.sqrt(a * b), (a - b) / 2
        power *= 2
        total += power * c * c
    return math.pi / (2 * a) * (1 - total)


def _nodes():
    x, w = np.polynomial.legendre.leggauss(QUADRATURE_POINTS)
    return (x + 1) * math.pi / 4, w * math.pi / 4


def amplitude(mode, v, c_s, c_p=None):
    """A(v) of Delta u = A (dtau/G) sqrt(v^2 t^2 - x^2), mode 'II' or 'III'."""
    if not 0 < v < c_s:
        raise ValueError("the rupture speed must lie in (0, c_s): %r" % v)
    theta, weight = _nodes()
    u, w = np.sin(theta) ** 2, np.cos(theta) ** 2
    b_s = (v / c_s) ** 2
    s_s = np.sqrt(u + b_s * w)
    if mode == "III":
        return 4.0 / (2 * np.sum(weight * s_s))
    if mode != "II":
        raise ValueError("mode is 'II' or 'III': %r" % mode)
    b_p = (v / c_p) ** 2
    s_p = np.sqrt(u + b_p * w)
    p = u + b_s * w
    x = 2 * u + b_s * w
    n = 16 * u * u * p * (b_s - b_p) + 8 * u * p * b_s ** 2 * w + b_s ** 4 * w ** 3
    integral = 2 * np.sum(weight * n / ((x * x + 4 * u * s_p * s_s) * s_s))
    return 4 * b_s / integral


def closed_form(x, t, a, dtau, shear_modulus, v):
    """Kostrov's slip at the positions x (numpy array) and the time t."""
    return a * dtau / shear_modulus * np.sqrt(np.maximum((v * t) ** 2 - x * x, 0.0))


def slip_profile(output_dir, t=None, index=None):
    """(t, x, slip) of the contact.pvd record nearest t (or number index) of a
    2D run with the fault on y = 0 and Counterpart = mirror: the nodes sorted
    by x (those shared by two faces once), the slip 2 u_x and the rupture
    time."""
    record = select_record(read_pvd(output_dir, "contact", "run with contact output"),
                           t, index)
    grid = read_record(record)
    from vtkmodules.util.numpy_support import vtk_to_numpy
    points = vtk_to_numpy(grid.GetPoints().GetData()).astype(float)
    displacement = point_values(grid, "displacement", record.path)
    rupture = point_values(grid, "rupture_time", record.path)
    x, first = np.unique(np.round(points[:, 0], 9), return_index=True)
    return record.t, x, 2 * displacement[first, 0], rupture[first]
