#!/usr/bin/python3
"""check_implicit_laws.py EXE PRM OUTDIR CASE [--dt DT ...] [bounds]

The friction laws of Body/Time scheme = implicit (doc/theory.md §7.12) on a
rigid-like block: a laterally infinite layer (periodic in x, on top of PRM =
prm/body_signorini_bar.prm) H = 1 high, 0.1 wide, 2 x 4 Q1 cells, stiff
(lambda = 1000, G = 500: c1 = 22, the shear transit 0.045 s, a tenth of the
step or less), rho = 1, in its static compressed state under the normal body
force -rho g (N = m g), pulled by the tangential body force rho a from t = 0.
Every contact node slips with the same rate and state, and the block's slip
x(t) follows the one-degree-of-freedom equation m x'' = m a - mu N:

  exponential     mu = mu_d + (mu_s - mu_d) exp(-V/v_c), a/g = A + mu_d > mu_s:
                  V(t) = v_c ln((B + (A - B) exp(g A t/v_c))/A), B = mu_s - mu_d
  rational        mu = mu_d + (mu_s - mu_d)/(1 + V/v_c):
                  t(V) = v_c/(g A) (y - 1 + (B/A) ln((A y - B)/(A - B))),
                  y = 1 + V/v_c, inverted by bisection
  slip-weakening  mu = mu_s - (mu_s - mu_d) min(D/D_c, 1), A0 = a/g - mu_s > 0:
                  D(t) = (A0 D_c/B)(cosh(w t) - 1), w^2 = g B/D_c, up to
                  D = D_c at t1, then the constant acceleration g (a/g - mu_d)
  rate-and-state  (aging, a > b: velocity strengthening), from rest with
                  theta_0 = D_c/V_0: no closed form; x(t) of the 1-dof
                  equations by the classical Runge-Kutta method (h = 2e-3 s)
  stick-LAW       a/g = 0.25 mu_s (the sudden load's dynamic overshoot stays
                  below mu_s): max_slip exactly 0 at every row, stick 1.
  noise-floor     the exponential case with Body/Linear solver/Friction
                  tolerance = --friction-tolerance (far below the noise of
                  the linear solves) and the multigrid preconditioner: the
                  iteration must end its steps at the solves' noise floor
                  (doc/theory.md §7.7 rule 4): the run reaches T, the log's
                  "steps ended at the solves' noise" is at least
                  --min-noise-ends, and max_slip stays within
                  --max-difference of x(T) from the run at the default
                  tolerance 1e-8, row by row.

x(t) (exponential, rational: the trapezoidal quadrature of V(t) on 20000
intervals) is
compared with the history's max_slip at every row; the error is reported
relative to x(T). With --dt DT1 DT2 (halved) the observed order is
reported and bounded below. Slip-weakening also asserts the discrete law:
|friction_force_1| / normal_force = mu(D) with D = mean_friction_state (the
state after the step, the one the step's coefficient used) to 1e-8, and
mean_friction_state = max_slip (rigid: the state is the slip).
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import implicit_summary, log_order, run  # noqa: E402

H, WIDTH, RHO = 1.0, 0.1, 1.0
LAMBDA, G_SHEAR = 1e5, 5e4
MU_S, MU_D, VC, DC = 0.6, 0.4, 0.01, 0.05
# Rate and state (aging): a - b > 0.
RS_A, RS_B, RS_F0, RS_V0, RS_DC = 0.01, 0.005, 0.6, 1e-3, 0.01

CASES = {
    # name: (law, g, a/g, final time)
    "exponential": ("exponential", 0.01, 0.8, 20.0),
    "rational": ("rational", 0.01, 0.8, 20.0),
    "slip-weakening": ("slip-weakening", 0.01, 0.65, 20.0),
    "rate-and-state": ("rate-and-state", 1.0, 0.62, 20.0),
    "stick-exponential": ("exponential", 0.01, 0.25 * MU_S, 20.0),
    "stick-slip-weakening": ("slip-weakening", 0.01, 0.25 * MU_S, 20.0),
    "noise-floor": ("exponential", 0.01, 0.8, 20.0),
}


def settings(law, g, ratio, dt, final_time):
    modulus = LAMBDA + 2 * G_SHEAR
    values = {
        "Body/Time scheme": "implicit",
        # The fixed point's noise floor on this stiff layer was about 3e-10
        # of mu P with the multigrid (the CG tolerance on K + c0 M), where
        # 1e-10 stalled; with the direct preconditioner 1e-10 settles too
        # (exponential, dt = 0.1: 585 active-set iterations against 528).
        "Body/Linear solver/Friction tolerance": "1e-8",
        "Output/Interval": "0",
        "Time/Final time": repr(final_time),
        "Time/Time step": repr(dt),
        "Body/Size": "%r, %r" % (WIDTH, H),
        "Body/Subdivisions": "2, 4",
        "Body/Periodic boundary pairs": "0:1:x",
        "Body/Density": repr(RHO),
        "Body/Lame lambda": repr(LAMBDA),
        "Body/Shear modulus": repr(G_SHEAR),
        "Body/Initial velocity": "0; 0",
        "Body/Initial displacement": "0; %r*(y^2/2 - %r*y)" % (RHO * g / modulus, H),
        "Body/Body force": "%r; %r" % (RHO * ratio * g, -RHO * g),
        "Body/Contact/Friction law/Law": law,
    }
    if law == "rate-and-state":
        values.update({
            "Body/Contact/Friction law/Direct effect a": repr(RS_A),
            "Body/Contact/Friction law/Evolution effect b": repr(RS_B),
            "Body/Contact/Friction law/Reference coefficient f0": repr(RS_F0),
            "Body/Contact/Friction law/Reference slip rate V0": repr(RS_V0),
            "Body/Contact/Friction law/Critical slip distance": repr(RS_DC),
            "Body/Contact/Friction law/Initial state": repr(RS_DC / RS_V0),
        })
    else:
        values.update({
            "Body/Contact/Friction law/Static friction coefficient": repr(MU_S),
            "Body/Contact/Friction law/Dynamic friction coefficient": repr(MU_D),
            "Body/Contact/Friction law/Critical slip velocity": repr(VC),
            "Body/Contact/Friction law/Critical slip distance": repr(DC),
        })
    return values


def rate_exponential(t, g, ratio):
    a, b = ratio - MU_D, MU_S - MU_D
    return VC * math.log((b + (a - b) * math.exp(g * a * t / VC)) / a)


def rate_rational(t, g, ratio):
    a, b = ratio - MU_D, MU_S - MU_D

    def time_of(v):
        y = 1 + v / VC
        return VC / (g * a) * (y - 1 + (b / a) * math.log((a * y - b) / (a - b)))
    low, high = 0.0, g * ratio * t + 1e-300
    for _ in range(200):
        mid = 0.5 * (low + high)
        if time_of(mid) < t:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def slip_of_rate(rate, times, g, ratio, n=20000):
    """x(t) at @p times: the rate's integral by the trapezoidal rule on n
    intervals of [0, max(times)] (error below 1e-8 of x), interpolated."""
    end = max(times)
    h = end / n
    xs, x, previous = [0.0], 0.0, rate(0.0, g, ratio)
    for k in range(1, n + 1):
        value = rate(k * h, g, ratio)
        x += 0.5 * h * (previous + value)
        xs.append(x)
        previous = value
    result = []
    for t in times:
        j = min(int(t / h), n - 1)
        w = t / h - j
        result.append((1 - w) * xs[j] + w * xs[j + 1])
    return result


def slip_weakening_slip(t, g, ratio):
    a0, b = ratio - MU_S, MU_S - MU_D
    w = math.sqrt(g * b / DC)
    scale = a0 * DC / b
    t1 = math.acosh(DC / scale + 1) / w
    if t <= t1:
        return scale * (math.cosh(w * t) - 1)
    v1 = scale * w * math.sinh(w * t1)
    return DC + v1 * (t - t1) + 0.5 * g * (ratio - MU_D) * (t - t1) ** 2


def rate_state_slip(times, g, ratio, h=2e-3):
    """x(t) of the rigid block under rate and state (aging) from rest with
    theta_0 = D_c/V_0: m V' = m a - N mu(V, theta), theta' = 1 - V theta/D_c,
    x' = V, by the classical Runge-Kutta method with the step h (x to 1e-7
    relative: h/2 changes it by less)."""
    def mu(v, theta):
        return RS_A * math.asinh(v / (2 * RS_V0) * math.exp(
            (RS_F0 + RS_B * math.log(RS_V0 * theta / RS_DC)) / RS_A))

    def f(y):
        v = max(y[0], 0.0)
        return (g * (ratio - mu(v, y[1])), 1 - v * y[1] / RS_DC, v)
    y, t, result = (0.0, RS_DC / RS_V0, 0.0), 0.0, []
    for target in times:
        while t < target - 1e-12:
            step = min(h, target - t)
            k1 = f(y)
            k2 = f([y[i] + step / 2 * k1[i] for i in range(3)])
            k3 = f([y[i] + step / 2 * k2[i] for i in range(3)])
            k4 = f([y[i] + step * k3[i] for i in range(3)])
            y = [y[i] + step / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(3)]
            t += step
        result.append(y[2])
    return result


def run_case(a, name, dt, extra=None, tag=""):
    """Run case NAME at step DT (EXTRA: more settings) into its own folder;
    return (history rows, g, ratio, folder)."""
    law, g, ratio, final_time = CASES[name]
    out = os.path.join(a.outdir, "%s_dt%g%s" % (name, dt, tag))
    values = settings(law, g, ratio, dt, final_time)
    values.update(extra or {})
    return run(a.exe, a.prm, out, values), g, ratio, out


def noise_floor(a):
    """The exponential case at a friction tolerance below the solves' noise:
    True if the run ends steps at the noise floor, at least
    --min-noise-ends of them, and its slip is that of the default run."""
    dt = a.dt[0]
    reference = run_case(a, "noise-floor", dt, tag="_default")[0]
    tight = {"Body/Linear solver/Friction tolerance": repr(a.friction_tolerance),
             "Body/Linear solver/Preconditioner": "multigrid"}
    rows, _, _, out = run_case(a, "noise-floor", dt, tight, "_tight")
    counts = implicit_summary(out)
    if not counts:
        print("FAIL: no implicit summary in %s/log.txt" % out)
        return False
    iterations, ends = counts["iterations"], counts["noise_floor_ends"]
    difference = max(abs(r["max_slip"] - s["max_slip"])
                     for r, s in zip(rows, reference)) / reference[-1]["max_slip"]
    print("noise-floor: dt = %g, Friction tolerance %g, multigrid: %d steps, %d active-set "
          "iterations, %d steps ended at the noise floor (at least %d); max_slip against the "
          "run at 1e-8: %.2e of x(T) (bound %.1e)"
          % (dt, a.friction_tolerance, len(rows) - 1, iterations, ends, a.min_noise_ends,
             difference, a.max_difference))
    return (len(rows) == len(reference) and ends >= a.min_noise_ends
            and difference <= a.max_difference)


def slip_error(rows, name, g, ratio):
    times = [r["t"] for r in rows]
    if name == "slip-weakening":
        exact = [slip_weakening_slip(t, g, ratio) for t in times]
    elif name == "rate-and-state":
        exact = rate_state_slip(times, g, ratio)
    else:
        rate = rate_exponential if name == "exponential" else rate_rational
        exact = slip_of_rate(rate, times, g, ratio)
    errors = [abs(r["max_slip"] - x) for r, x in zip(rows[1:], exact[1:])]
    return max(errors) / exact[-1], rows[-1]["max_slip"], exact[-1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--dt", type=float, nargs="+", default=[0.2])
    p.add_argument("--max-error", type=float, default=1.0)
    p.add_argument("--min-order", type=float, default=0.0)
    p.add_argument("--max-law-error", type=float, default=1e-8)
    p.add_argument("--friction-tolerance", type=float, default=1e-12)
    p.add_argument("--min-noise-ends", type=int, default=1)
    p.add_argument("--max-difference", type=float, default=1e-7)
    a = p.parse_args()
    good = True
    name = a.case
    if name == "noise-floor":
        good = noise_floor(a)
    elif name.startswith("stick-"):
        rows, g, ratio, _ = run_case(a, name, a.dt[0])
        slip = max(r["max_slip"] for r in rows)
        stick = min(r["stick_fraction"] for r in rows[1:])
        print("%s: a/g = %g, max_slip over %d rows %r, least stick fraction %r"
              % (name, ratio, len(rows), slip, stick))
        good = slip == 0 and stick == 1 and rows[-1]["dissipated_energy"] == 0
    else:
        errors = []
        for dt in a.dt:
            rows, g, ratio, _ = run_case(a, name, dt)
            error, slip, exact = slip_error(rows, name, g, ratio)
            errors.append(error)
            print("%s: dt = %g, x(T) %.8f, exact %.8f, max |x - x_exact|/x(T) %.3e "
                  "(bound %.1e), Newton at most %d, least stick fraction after t = 0 %g"
                  % (name, dt, slip, exact, error, a.max_error,
                     rows[-1]["max_newton_iterations"],
                     min(r["stick_fraction"] for r in rows[1:])))
            good = good and error <= a.max_error
            if name == "slip-weakening":
                law = max(abs(abs(r["friction_force_1"]) / r["normal_force"] -
                              (MU_S - (MU_S - MU_D) *
                               min(r["mean_friction_state"] / DC, 1)))
                          for r in rows[1:] if r["stick_fraction"] == 0)
                state = max(abs(r["mean_friction_state"] - r["max_slip"])
                            for r in rows[1:])
                print("  |F/N - mu(D)| <= %.3e (bound %.1e), |D - max_slip| <= %.3e"
                      % (law, a.max_law_error, state))
                good = good and law <= a.max_law_error and state <= 1e-9
        if len(a.dt) > 1:
            order = log_order([1 / dt for dt in a.dt], errors)
            print("observed order %.3f (bound %.2f)" % (order, a.min_order))
            good = good and order >= a.min_order
    print("ok" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
