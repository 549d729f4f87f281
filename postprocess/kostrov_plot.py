#!/usr/bin/python3
"""Slip profiles of Kostrov's crack against the closed form.

    kostrov_plot.py OUTPUT_DIR [-o OUT.png] [--rupture-speed V]
                    [--stress-drop DTAU] [--density RHO] [--lame-lambda L]
                    [--shear-modulus G] [--times T ...]

OUTPUT_DIR is a run of prm/body_kostrov.prm (a 2D body, the fault y = 0
against its mirror image, the crack growing from x = 0; the defaults are
that example's data). Left: the slip 2 u_x of the contact records nearest
--times (default every record after t = 0) along the fault, drawn on both
sides of x = 0 (the run computes x > 0, the crack is symmetric), and
Kostrov's slip A (dtau/G) sqrt(v^2 t^2 - x^2) dashed, with A of mode II
(postprocess/kostrov.py, doc/theory.md §7.6.1). Right: the rupture time of
the last record against the forced front x/v. Default output:
OUTPUT_DIR/kostrov.png (written to a temporary name and renamed). Exit 1
with the reason when the folder has no contact.pvd or a record lacks a
field. Needs VTK (python3-vtk9 or python3-paraview), numpy, matplotlib.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kostrov import amplitude, closed_form, slip_profile  # noqa: E402
from vtk_python import Error, read_pvd, require_vtk  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("-o", "--output")
    p.add_argument("--rupture-speed", type=float, default=2400.0)
    p.add_argument("--stress-drop", type=float, default=10e6)
    p.add_argument("--density", type=float, default=2500.0)
    p.add_argument("--lame-lambda", type=float, default=3e10)
    p.add_argument("--shear-modulus", type=float, default=3e10)
    p.add_argument("--times", type=float, nargs="+")
    a = p.parse_args()
    require_vtk("kostrov_plot.py")
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g, v = a.shear_modulus, a.rupture_speed
    c_s = math.sqrt(g / a.density)
    c_p = math.sqrt((a.lame_lambda + 2 * g) / a.density)
    amp = amplitude("II", v, c_s, c_p)
    try:
        times = a.times or [r.t for r in read_pvd(a.folder, "contact") if r.t > 0]
        profiles = [slip_profile(a.folder, t) for t in times]
    except Error as e:
        print("kostrov_plot.py: error: %s" % e, file=sys.stderr)
        sys.exit(1)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), gridspec_kw={"width_ratios": [2, 1]})
    for k, (t, x, slip, _) in enumerate(profiles):
        both = np.concatenate([-x[::-1], x])
        colour = "C%d" % k
        axes[0].plot(both / 1e3, np.concatenate([slip[::-1], slip]), colour, lw=1.2,
                     label="t = %.2g s" % t)
        fine = np.linspace(-v * t, v * t, 401)
        axes[0].plot(fine / 1e3, closed_form(fine, t, amp, a.stress_drop, g, v), "k--", lw=0.8)
    axes[0].set_xlabel("x [km]")
    axes[0].set_ylabel("slip 2 u_x [m]")
    axes[0].set_title("Kostrov's crack, mode II, v_r = %.3g c_s: stickslip (colour), "
                      "closed form A = %.4f (dashed)" % (v / c_s, amp), fontsize=9)
    axes[0].legend(fontsize=8)
    t, x, _, rupture = profiles[-1]
    reach = 1.2 * v * max(q[0] for q in profiles)
    axes[0].set_xlim(-reach / 1e3, reach / 1e3)
    # (the corner node of the fixed far side reports a rupture time 0: its
    # motion is prescribed; the plot keeps to the crack's reach)
    ruptured = (rupture >= 0) & (x <= reach)
    axes[1].plot(x[ruptured] / 1e3, rupture[ruptured], "C0.", ms=3, label="rupture time")
    line = np.array([0.0, reach])
    axes[1].plot(line / 1e3, line / v, "k--", lw=0.8, label="x / v_r")
    axes[1].set_xlabel("x [km]")
    axes[1].set_ylabel("t [s]")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    out = a.output or os.path.join(a.folder, "kostrov.png")
    temporary = out + ".tmp.png"
    fig.savefig(temporary, dpi=110)
    os.replace(temporary, out)
    print("wrote %s" % out)


if __name__ == "__main__":
    main()
