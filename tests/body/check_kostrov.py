#!/usr/bin/python3
"""check_kostrov.py EXE PRM OUTDIR [--cell-sizes H...] [--time T]
                   [--min-order Q] [--max-error E] [--max-speed-error R]

Kostrov's self-similar crack (prm/body_kostrov.prm, doc/theory.md §7.6.1): a
mode II crack forced at v_r = 2400 m/s from x = 0 on the fault y = 0
(Counterpart = mirror, Contact law = prescribed traction, the time-weakening
law), rho = 2500, lambda = G = 3e10 (c_s = 3464.1 m/s, c_p = 6000 m/s),
stress drop dtau = tau0 - mu_d sigma_n = 70 - 0.6*100 = 10 MPa: the slip
    Delta u(x, t) = A (dtau/G) sqrt(v_r^2 t^2 - x^2),  A = 1.20062
(postprocess/kostrov.py). For every cell size h (m) PRM is run as it is
but for Body/Subdivisions (square cells of h), Time/Time step (1.25e-3
h/20: the example's c_p dt/h = 0.375), Weakening time t_w = 2h/v_r (the
cohesive zone v_r t_w of two cells: the crack of the law tends to Kostrov's
as h -> 0) and the outputs (the contact record at T only), into OUTDIR/h<H>.
Measured on the last contact record (at T = the example's 0.5 s, before any
reflection returns to the crack):
  slip error  the root mean square over the fault nodes with 0 <= x <= 0.8
              v_r T of 2 u_x - Delta u(x, T), relative to the exact slip at
              the centre A dtau v_r T/G (the window leaves out the outer
              fifth of the crack, where the tip's cohesive zone and the
              square-root edge are); also the largest error there;
  front       the rupture time t_r(x) (the first time the slip rate exceeds
              1e-2 m/s) against the forced front x/v_r over 0.1 .. 0.9 v_r T:
              the lag t_r - x/v_r must lie in [0, t_w] at every node (a point
              cannot slip before the front reaches it, mu_s sigma_n > tau0,
              and must once mu = mu_d < tau0/sigma_n), and the speed of a
              least-squares line x(t_r) is reported with its relative
              error to v_r.
Asserts: the slip errors decrease with a least-squares order >= --min-order,
the finest is <= --max-error; the lag within [0, t_w] on every mesh; the
fitted front speed within --max-speed-error of v_r on every mesh and
closer on each finer mesh. Measured values in tests/body/kostrov.cmake.
"""
import argparse
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "postprocess"))
from body_runs import line_fit, log_order  # noqa: E402
from kostrov import amplitude, closed_form, slip_profile  # noqa: E402

# prm/body_kostrov.prm
RHO, LAMBDA, G = 2500.0, 3e10, 3e10
TAU0, SIGMA_N, MU_D = 70e6, 100e6, 0.6
V_R = 2400.0
LX, LY = 2200.0, 1600.0
DT_PER_METRE = 1.25e-3 / 20
C_S, C_P = math.sqrt(G / RHO), math.sqrt((LAMBDA + 2 * G) / RHO)
DTAU = TAU0 - MU_D * SIGMA_N


def run_mesh(a, h):
    out = os.path.join(a.outdir, "h%g" % h)
    steps = round(a.time / (DT_PER_METRE * h))
    command = [a.exe, a.prm, "--quiet",
               "--set", "Output/Directory=" + out, "--set", "Output/Overwrite=true",
               "--set", "Body/Subdivisions=%d, %d" % (round(LX / h), round(LY / h)),
               "--set", "Time/Time step=%r" % (a.time / steps),
               "--set", "Time/Final time=%r" % a.time,
               "--set", "Output/Interval=%r" % (a.time / 4),
               "--set", "Output/Contact output every=4",
               "--set", "Output/Field output every=1000000",
               "--set", "Body/Contact/Friction law/Weakening time=%r" % (2 * h / V_R)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return slip_profile(out)


def measure(a, h, amp):
    t, x, slip, rupture = run_mesh(a, h)
    if abs(t - a.time) > 1e-9 * a.time:
        sys.exit("FAIL: h = %g: the last contact record is at t = %r, not %r" % (h, t, a.time))
    centre = amp * DTAU / G * V_R * t
    inside = x <= 0.8 * V_R * t
    error = slip[inside] - closed_form(x[inside], t, amp, DTAU, G, V_R)
    rms = math.sqrt(sum(e * e for e in error) / len(error)) / centre
    largest = max(abs(e) for e in error) / centre
    front = (x >= 0.1 * V_R * t) & (x <= 0.9 * V_R * t)
    lag = rupture[front] - x[front] / V_R
    speed = line_fit(list(rupture[front]), list(x[front]))[0]
    return rms, largest, min(lag), max(lag), speed


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--cell-sizes", type=float, nargs="+", default=[40, 20, 10])
    p.add_argument("--time", type=float, default=0.5)
    p.add_argument("--min-order", type=float)
    p.add_argument("--max-error", type=float)
    p.add_argument("--max-speed-error", type=float)
    a = p.parse_args()

    amp = amplitude("II", V_R, C_S, C_P)
    print("Kostrov mode II: v_r/c_s = %.4f, v_r/c_p = %.4f, A = %.6f (static 2(1 - nu) = %.4f)"
          % (V_R / C_S, V_R / C_P, amp, 2 * (1 - LAMBDA / (2 * (LAMBDA + G)))))
    ok = True
    errors, speeds = [], []
    print("   h (m)   slip rms     slip max     lag min (t_w)   lag max (t_w)   front speed   rel. error")
    for h in a.cell_sizes:
        rms, largest, lag_min, lag_max, speed = measure(a, h, amp)
        t_w = 2 * h / V_R
        errors.append(rms)
        speeds.append(abs(speed / V_R - 1))
        print("%8g   %.4e   %.4e   %+.3f          %+.3f          %.1f        %.4f" % (
            h, rms, largest, lag_min / t_w, lag_max / t_w, speed, speeds[-1]))
        if not (lag_min >= 0 and lag_max <= t_w):
            print("FAIL: h = %g: the rupture lags the forced front by %.3g .. %.3g s, "
                  "outside [0, t_w = %.3g]" % (h, lag_min, lag_max, t_w))
            ok = False
    if len(errors) > 1:
        order = log_order([1 / h for h in a.cell_sizes], errors)
        decreasing = all(e2 < e1 for e1, e2 in zip(errors, errors[1:]))
        print("slip errors decreasing: %s, least-squares order %.3f" % (decreasing, order))
        ok = ok and decreasing
        if a.min_order is not None and order < a.min_order:
            print("FAIL: order %.3f < %.3f" % (order, a.min_order))
            ok = False
        closer = all(s2 < s1 for s1, s2 in zip(speeds, speeds[1:]))
        print("front speed closer to v_r on each finer mesh: %s" % closer)
        ok = ok and closer
    if a.max_error is not None and errors[-1] > a.max_error:
        print("FAIL: finest slip error %.4e > %.4e" % (errors[-1], a.max_error))
        ok = False
    if a.max_speed_error is not None and max(speeds) > a.max_speed_error:
        print("FAIL: front speed error %.4f > %.4f" % (max(speeds), a.max_speed_error))
        ok = False
    print("OK" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
