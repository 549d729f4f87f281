#!/usr/bin/python3
"""check_implicit_block_3d.py EXE PRM OUTDIR thrown [--levels N...] [--cfl C]
                              [--final-time T] [--direction DX DY]
                              [--min-order Q] [--max-error E]
                              [--max-velocity-angle A] [--max-force-angle A]
                              [--max-newton K] [--max-cg K] [--max-balance B]
check_implicit_block_3d.py EXE PRM OUTDIR stop [--levels N...] [--cfl C]
                              [--final-time T] [--min-order Q] [--max-error E]
                              [--max-newton K] [--max-balance B]
                              [--limit-rule-level N] [--max-rule-difference R]
                              [--rational MU_D V_C] [--max-cycled K]
check_implicit_block_3d.py EXE PRM OUTDIR stick [--cells NX NY NZ] [--dt DT]
                              [--load Q] [--direction DX DY] [--max-balance B]

Coulomb friction of Body/Time scheme = implicit in 3D (doc/theory.md §7.7:
exact stick, the slip force mu P along the iterate's slip, isotropic) on
the block of prm/body_sliding_block_3d.prm (W = 1, B = 0.5, H = 0.25, rho
= 1, lambda = 0.5, G = 0.25: c = 1; pressed by p = 1e-3 on its top,
mu = 0.2, no normal stress regularization: the implicit scheme has none).

thrown  the block thrown with V0 = 0.01 along the unit vector d = --direction
        (both tangential components: the isotropic direction matters; a
        friction bound taken component by component would pull along the
        diagonal of its square, 45 degrees). The rigid block decelerates at
        mu p/(rho H) = 8e-4 along -d and stops at t_s = 12.5 after D =
        0.0625: X_c(t) = (V0 t - mu p t^2/(2 rho H)) d. For every level N
        (4N x 2N x N cubes, h = H/N) the implicit run has dt = C h/c, and the
        explicit scheme runs beside it at dt = h/4 (its bound is 0.71 h/c):
          error   max_t |X(t) - X_c(t)|/D, X the centre of mass's
                  displacement in the plane (momentum_x, _y over the mass,
                  the trapezoidal rule for Newmark's v^n, a sum of dt
                  v^{n+1/2} for the explicit rows), and its cross-track
                  part |X x d|/D;
          v angle the largest angle between the centre of mass's velocity
                  and d over the rows (degrees);
          F angle the largest angle between the friction force
                  (friction_force_1, _2) and -d over the rows (degrees),
                  and the least and mean |F|/(mu N);
          solver  active-set iterations per step (largest, mean), CG per
                  solve; the least dissipation of a step, |energy_balance|.
        T = --final-time stays before the stop, where the angles lose their
        meaning (the block rebounds elastically): case stop goes through it.
        Asserts: the implicit errors decreasing with a least-squares order
        >= --min-order, the finest <= --max-error, the angles, iterations
        and balance below their bounds at every level, the dissipation of
        every step >= 0.
stop    the thrown block through its stop (t_s = 12.5) to T = --final-time
        (16 by the doc's runs), implicit only, the levels as for thrown:
          rest    X(T).d/D - 1, where the elastic block comes to rest
                  against the rigid block's D (first order in dt: the
                  friction of the mean rate);
          solver  active-set iterations per step (largest, mean), the
                  steps whose active set cycled (then settled one change
                  at a time) and the steps repeated by rule 3' (a rate
                  law's; log.txt's summary).
        Asserts: every run completes (each step settles), |X(T).d/D - 1|
        decreasing with a least-squares order >= --min-order, the finest <=
        --max-error, at most --max-cycled (0) steps cycled, the iterations
        and |energy_balance|
        below their bounds, every step's dissipation >= 0; and level
        --limit-rule-level run again with Body/Linear solver/
        Complementarity constant = 0 (the limit rule, doc/theory.md §7.7):
        the same momentum and friction force in every row to
        --max-rule-difference of their largest magnitudes.
        --rational MU_D V_C: the rational law mu(V) = mu_d + (mu_s - mu_d)/
        (1 + V/v_c) (mu_s = 0.2) instead of Coulomb's constant mu (its
        slipping nodes take the limit rule, a step it does not settle is
        repeated by rule 3': doc/body.md "Friction laws of the implicit
        scheme"); the rigid block's stop time and rest distance are then
        t_s = int_0^V0 dV/(g mu(V)), D = int_0^V0 V/(g mu(V)) dV, g = p/(rho
        H), by Simpson's rule.
stick   the block at rest in its static state under p, the top traction
        Q = --load mu p along d applied at t = 0, 4N x 2N x N cells
        (--cells), dt = --dt, T = 20. Asserts: max_slip exactly 0 and
        stick_fraction 1 at every row (a stuck node's tangential
        displacement is a constraint), no dissipation, one active-set
        iteration per step, |energy_balance| <= --max-balance.
Exit 0 if all hold.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import implicit_summary, log_order, run  # noqa: E402

W, B, H, RHO, P, V0, MU = 1.0, 0.5, 0.25, 1.0, 1e-3, 0.01, 0.2
MASS = RHO * W * B * H
DECELERATION = MU * P / (RHO * H)
DISTANCE = V0 * V0 / (2 * DECELERATION)
IMPLICIT = {"Body/Time scheme": "implicit"}
COMMON = {"Output/Interval": "0",
          "Body/Contact/Friction law/Normal stress regularization length": "0"}


def angle(ax, ay, bx, by):
    """The angle between two plane vectors, in degrees (0 for a zero one)."""
    na, nb = math.hypot(ax, ay), math.hypot(bx, by)
    if na == 0 or nb == 0:
        return 0.0
    c = max(-1.0, min(1.0, (ax * bx + ay * by) / (na * nb)))
    return math.degrees(math.acos(c))


def measure_thrown(rows, d, newmark):
    x = y = 0.0
    error = cross = 0.0
    v_angle = f_angle = 0.0
    ratios = []
    for a, b in zip(rows, rows[1:]):
        h = b["t"] - a["t"]
        if newmark:
            x += h * 0.5 * (a["momentum_x"] + b["momentum_x"]) / MASS
            y += h * 0.5 * (a["momentum_y"] + b["momentum_y"]) / MASS
        else:
            x += h * b["momentum_x"] / MASS
            y += h * b["momentum_y"] / MASS
        t = b["t"]
        s = V0 * t - 0.5 * DECELERATION * t * t
        error = max(error, math.hypot(x - s * d[0], y - s * d[1]))
        cross = max(cross, abs(x * d[1] - y * d[0]))
        v_angle = max(v_angle, angle(b["momentum_x"], b["momentum_y"], d[0], d[1]))
        fx, fy = b["friction_force_1"], b["friction_force_2"]
        f_angle = max(f_angle, angle(-fx, -fy, d[0], d[1]))
        if b["normal_force"] > 0:
            ratios.append(math.hypot(fx, fy) / (MU * b["normal_force"]))
    m = {"error": error / DISTANCE, "cross": cross / DISTANCE, "v_angle": v_angle,
         "f_angle": f_angle, "ratio_min": min(ratios), "ratio_mean": sum(ratios) / len(ratios),
         "contact": min(r["contact_fraction"] for r in rows[1:]),
         "balance": max(abs(r["energy_balance"]) for r in rows),
         "least_dissipation": min(b["dissipated_energy"] - a["dissipated_energy"]
                                  for a, b in zip(rows, rows[1:]))}
    last = rows[-1]
    if newmark:
        m["newton_max"] = last["max_newton_iterations"]
        m["newton_mean"] = last["newton_iterations"] / (len(rows) - 1)
        m["cg"] = last["cg_iterations"] / max(last["newton_iterations"], 1)
    return m


def thrown(a, d):
    ok = True
    print("3D block thrown with V0 = %g along d = (%.4f, %.4f) (%.2f degrees); rigid: stop "
          "at t_s = %g after D = %g; T = %g" % (V0, d[0], d[1], math.degrees(math.atan2(d[1], d[0])),
                                                 V0 / DECELERATION, DISTANCE, a.final_time))
    print("  %-9s %-4s %-9s %-5s %-10s %-10s %-8s %-8s %-15s %-7s %-10s %-9s %-8s %s" % (
        "scheme", "N", "dt", "steps", "error/D", "cross/D", "v angle", "F angle",
        "|F|/muN min/mean", "contact", "Newton", "CG/solve", "balance", "min diss"))
    errors = []
    for n in a.levels:
        h = H / n
        cells = "%d, %d, %d" % (4 * n, 2 * n, n)
        for scheme, dt in (("implicit", a.cfl * h), ("explicit", h / 4)):
            values = dict(COMMON)
            values.update({"Time/Final time": repr(a.final_time), "Time/Time step": repr(dt),
                           "Body/Subdivisions": cells,
                           "Body/Initial velocity": "%r; %r; 0" % (V0 * d[0], V0 * d[1])})
            if scheme == "implicit":
                values.update(IMPLICIT)
            rows = run(a.exe, a.prm, os.path.join(a.outdir, "%s_N%d" % (scheme, n)), values)
            m = measure_thrown(rows, d, scheme == "implicit")
            solver = ("%2d / %5.2f" % (m["newton_max"], m["newton_mean"]),
                      "%.1f" % m["cg"]) if scheme == "implicit" else ("-", "-")
            print("  %-9s %-4d %-9.4g %-5d %.3e  %.3e  %-8.4f %-8.4f %.6f/%.6f %-7.4f %-10s %-9s "
                  "%.1e  %.2e" % (scheme, n, dt, len(rows) - 1, m["error"], m["cross"],
                                  m["v_angle"], m["f_angle"], m["ratio_min"], m["ratio_mean"],
                                  m["contact"], solver[0], solver[1], m["balance"],
                                  m["least_dissipation"]))
            if scheme != "implicit":
                continue
            errors.append(m["error"])
            checks = [("v angle", m["v_angle"], a.max_velocity_angle),
                      ("F angle", m["f_angle"], a.max_force_angle),
                      ("Newton", m["newton_max"], a.max_newton),
                      ("CG per solve", m["cg"], a.max_cg),
                      ("balance", m["balance"], a.max_balance)]
            for name, value, bound in checks:
                if bound is not None and not value <= bound:
                    print("FAIL: N = %d: %s %.4g above %g" % (n, name, value, bound))
                    ok = False
            if m["least_dissipation"] < 0:
                print("FAIL: N = %d: a step with negative dissipation" % n)
                ok = False
    return converges(a, errors, "implicit: the error") and ok


def converges(a, errors, what):
    """Print the least-squares order of the errors over a.levels; true if
    they decrease with an order >= --min-order and the finest is <=
    --max-error (each bound where given)."""
    ok = True
    if len(errors) > 1:
        order = log_order(a.levels, errors)
        print("%s: least-squares order %.2f (pairwise %s)" % (
            what, order, " ".join("%.2f" % (math.log(e0 / e1) / math.log(n1 / n0))
                                  for e0, e1, n0, n1 in
                                  zip(errors, errors[1:], a.levels, a.levels[1:]))))
        if a.min_order is not None and not (
                order >= a.min_order and all(e1 < e0 for e0, e1 in zip(errors, errors[1:]))):
            print("FAIL: errors not decreasing with order >= %g" % a.min_order)
            ok = False
    if a.max_error is not None and not errors[-1] <= a.max_error:
        print("FAIL: finest error %.3e above %g" % (errors[-1], a.max_error))
        ok = False
    return ok


def rest_position(rows, d, distance):
    """X(T).d/D: the centre of mass's displacement along d at the last row
    (Newmark's trapezoidal rule on the momentum) over the rigid block's
    @p distance D."""
    x = 0.0
    for a, b in zip(rows, rows[1:]):
        va = a["momentum_x"] * d[0] + a["momentum_y"] * d[1]
        vb = b["momentum_x"] * d[0] + b["momentum_y"] * d[1]
        x += (b["t"] - a["t"]) * 0.5 * (va + vb) / MASS
    return x / distance


def rigid_rest(a):
    """The rigid block's stop time and distance, t_s = int dV/(g mu(V)) and
    D = int V dV/(g mu(V)) over 0..V0 (Simpson's rule, 2000 intervals: the
    integrands are smooth, the rule's error is below 1e-12 of D)."""
    if a.rational is None:
        return V0 / DECELERATION, DISTANCE
    mu_d, v_c = a.rational
    g = P / (RHO * H)
    n = 2000
    t = x = 0.0
    for k in range(n + 1):
        v = V0 * k / n
        weight = (1 if k in (0, n) else 4 if k % 2 else 2) * V0 / (3 * n)
        mu = mu_d + (MU - mu_d) / (1 + v / v_c)
        t += weight / (g * mu)
        x += weight * v / (g * mu)
    return t, x


def thrown_settings(a, d, n):
    values = dict(COMMON)
    values.update(IMPLICIT)
    if a.rational is not None:
        values.update({"Body/Contact/Friction law/Law": "rational",
                       "Body/Contact/Friction law/Dynamic friction coefficient": repr(a.rational[0]),
                       "Body/Contact/Friction law/Critical slip velocity": repr(a.rational[1])})
    values.update({"Time/Final time": repr(a.final_time), "Time/Time step": repr(a.cfl * H / n),
                   "Body/Subdivisions": "%d, %d, %d" % (4 * n, 2 * n, n),
                   "Body/Initial velocity": "%r; %r; 0" % (V0 * d[0], V0 * d[1])})
    return values


def rule_difference(rows, limit_rows):
    """The largest difference of the momentum and friction force columns
    between two runs, over each column's largest magnitude."""
    worst = 0.0
    for column in ("momentum_x", "momentum_y", "friction_force_1", "friction_force_2"):
        scale = max(abs(r[column]) for r in rows) or 1.0
        worst = max(worst, max(abs(r[column] - q[column])
                               for r, q in zip(rows, limit_rows)) / scale)
    return worst if len(rows) == len(limit_rows) else float("inf")


def stop(a, d):
    ok = True
    stop_time, distance = rigid_rest(a)
    law = ("mu = %g (Coulomb)" % MU if a.rational is None else
           "rational mu_s = %g, mu_d = %g, v_c = %g" % (MU, a.rational[0], a.rational[1]))
    print("3D block thrown with V0 = %g along d = (%.4f, %.4f) through its stop, %s: rigid "
          "t_s = %.6g, D = %.6g; T = %g, implicit at c dt/h = %g"
          % (V0, d[0], d[1], law, stop_time, distance, a.final_time, a.cfl))
    if not stop_time < a.final_time:
        print("FAIL: --final-time %g is before the rigid stop %g" % (a.final_time, stop_time))
        return False
    print("  %-4s %-8s %-6s %-12s %-9s %-11s %-8s %-9s %-9s %s" % (
        "N", "dt", "steps", "X(T).d/D-1", "Newton", "cycled", "CG/solve", "balance", "min diss",
        "repeated (attempts that cycled)"))
    errors = []
    for n in a.levels:
        folder = os.path.join(a.outdir, "stop_N%d" % n)
        rows = run(a.exe, a.prm, folder, thrown_settings(a, d, n))
        summary = implicit_summary(folder)
        error = abs(rest_position(rows, d, distance) - 1)
        errors.append(error)
        steps = len(rows) - 1
        balance = max(abs(r["energy_balance"]) for r in rows)
        least = min(b["dissipated_energy"] - q["dissipated_energy"] for q, b in zip(rows, rows[1:]))
        print("  %-4d %-8.4g %-6d %-12.3e %2d / %5.2f  %-11d %-8.1f %.1e  %.2e  %d (%d)" % (
            n, a.cfl * H / n, steps, error, summary["max_iterations"],
            summary["iterations"] / steps, summary["cycled_steps"],
            summary["cg_iterations"] / summary["iterations"], balance, least,
            summary["repeated"], summary["cycled_attempts"]))
        if summary["cycled_steps"] > a.max_cycled:
            print("FAIL: N = %d: %d steps cycled, above %d" % (n, summary["cycled_steps"],
                                                              a.max_cycled))
            ok = False
        if a.max_newton is not None and not summary["max_iterations"] <= a.max_newton:
            print("FAIL: N = %d: %d active-set iterations in a step, above %g"
                  % (n, summary["max_iterations"], a.max_newton))
            ok = False
        if a.max_balance is not None and not balance <= a.max_balance:
            print("FAIL: N = %d: |energy_balance| %.2e above %g" % (n, balance, a.max_balance))
            ok = False
        if least < 0:
            print("FAIL: N = %d: a step with negative dissipation" % n)
            ok = False
        if n == a.limit_rule_level:
            values = thrown_settings(a, d, n)
            values["Body/Linear solver/Complementarity constant"] = "0"
            limit_folder = os.path.join(a.outdir, "stop_limit_rule_N%d" % n)
            limit = run(a.exe, a.prm, limit_folder, values)
            limit_summary = implicit_summary(limit_folder)
            difference = rule_difference(rows, limit)
            print("  N = %d with Complementarity constant = 0 (the limit rule): %d active-set "
                  "iterations (at most %d in a step); momentum and friction force within %.2e"
                  % (n, limit_summary["iterations"], limit_summary["max_iterations"], difference))
            if a.max_rule_difference is not None and not difference <= a.max_rule_difference:
                print("FAIL: the two rules' solutions differ by %.2e, above %g"
                      % (difference, a.max_rule_difference))
                ok = False
    return converges(a, errors, "rest position") and ok


def stick(a, d):
    values = dict(COMMON)
    values.update(IMPLICIT)
    q = a.load * MU * P
    values.update({"Time/Final time": "20", "Time/Time step": repr(a.dt),
                   "Body/Subdivisions": ", ".join(str(c) for c in a.cells),
                   "Body/Initial velocity": "0",
                   "Body/Traction 1/Value": "%r; %r; %r" % (q * d[0], q * d[1], -P)})
    rows = run(a.exe, a.prm, os.path.join(a.outdir, "stick"), values)
    steps = list(zip(rows, rows[1:]))
    slip = max(r["max_slip"] for r in rows)
    stuck = min(r["stick_fraction"] for r in rows)
    dissipated = rows[-1]["dissipated_energy"]
    newton = max(b["newton_iterations"] - a0["newton_iterations"] for a0, b in steps)
    balance = max(abs(r["energy_balance"]) for r in rows)
    mobilized = max(math.hypot(r["friction_force_1"], r["friction_force_2"]) /
                    (MU * r["normal_force"]) for r in rows[1:])
    last = rows[-1]
    print("3D block at rest, top traction Q = %g mu p along (%.4f, %.4f), %s cells, dt = %g, "
          "T = 20: %d rows" % (a.load, d[0], d[1], " x ".join(str(c) for c in a.cells), a.dt,
                               len(rows)))
    print("  max_slip %.3e, least stick fraction %.4f, dissipated %.3e, largest |F_T|/(mu N) "
          "%.4f, active-set iterations per step at most %d, CG %.1f per solve, |balance| %.2e"
          % (slip, stuck, dissipated, mobilized, newton,
             last["cg_iterations"] / max(last["newton_iterations"], 1), balance))
    ok = slip == 0 and stuck == 1 and dissipated == 0 and newton == 1
    if not ok:
        print("FAIL: a contact node moved (max_slip, stick_fraction, dissipation or iterations)")
    if a.max_balance is not None and not balance <= a.max_balance:
        print("FAIL: |energy_balance| %.2e above %g" % (balance, a.max_balance))
        ok = False
    return ok


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("case", choices=["thrown", "stop", "stick"])
    p.add_argument("--direction", type=float, nargs=2, default=[0.8, 0.6])
    p.add_argument("--levels", type=int, nargs="+", default=[2, 3, 4])
    p.add_argument("--cfl", type=float, default=8)
    p.add_argument("--final-time", type=float, default=10)
    p.add_argument("--min-order", type=float)
    p.add_argument("--max-error", type=float)
    p.add_argument("--max-velocity-angle", type=float)
    p.add_argument("--max-force-angle", type=float)
    p.add_argument("--max-newton", type=float)
    p.add_argument("--max-cg", type=float)
    p.add_argument("--max-balance", type=float)
    p.add_argument("--cells", type=int, nargs=3, default=[16, 8, 4])
    p.add_argument("--dt", type=float, default=0.25)
    p.add_argument("--load", type=float, default=0.05)
    p.add_argument("--limit-rule-level", type=int)
    p.add_argument("--max-rule-difference", type=float)
    p.add_argument("--rational", type=float, nargs=2, metavar=("MU_D", "V_C"))
    p.add_argument("--max-cycled", type=int, default=0)
    a = p.parse_args()
    norm = math.hypot(*a.direction)
    d = (a.direction[0] / norm, a.direction[1] / norm)
    ok = {"thrown": thrown, "stop": stop, "stick": stick}[a.case](a, d)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
