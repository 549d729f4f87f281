#!/usr/bin/python3
"""check_sliding_block.py EXE PRM OUTDIR [--levels N...] [--mass lumped|redistributed]
                          [--dimension 2|3] [--rate-weakening] [--set KEY=VALUE]...
                          [--min-contact F] [--min-order Q] [--max-error E]
                          [--max-all-errors E] [--max-stop-steps K]

The sliding block of prm/body_sliding_block_2d.prm (issue 30): a block W = 1
wide, H = 0.25 high (rho = 1, lambda = 0.5, G = 0.25: P-wave speed 1), pressed
by the traction p = 1e-3 on its top, thrown sideways with V0 = 0.01 on the
floor with constant friction mu = 0.2 (and the example's Prakash-Clifton
normal stress). The rigid block decelerates at d = mu p/(rho H) = 8e-4 and
stops at t_s = V0/d = 12.5 after sliding D = V0^2/(2 d) = 0.0625:
    x_c(t) = V0 t - d t^2/2 (t <= t_s), D after.
With --rate-weakening the runs use the rational law mu(V) = mu_d + (mu_s -
mu_d)/(1 + V/v_c) (mu_s = 0.3, mu_d = 0.1, v_c = 0.005) and the rigid block
dV/dt = -mu(V) p/(rho H) is integrated here (RigidBlock).
In 3D (--dimension 3, prm/body_sliding_block_3d.prm) the block has the
depth B = 0.5 and the same rigid solution (d = mu p W B/(rho W B H)).
For every level N (cells along H; 4N x N square cells, 4N x 2N x N cubes in
3D, h = H/N) the script
runs EXE PRM with dt = h/4 (T = 20, a row every step) and Body/Contact/Mass
at contact nodes = MASS into OUTDIR/N<N>, and measures from history.csv:
  contact   the mean and the least contact_fraction over the rows with
            0 < t <= 0.9 t_s (sliding);
  error     max_t |x(t) - x_c(t)|/D, x(t) the centre of mass's displacement,
            the sum of dt momentum_x/m over the rows (the rows hold
            v^{n+1/2} at t^{n+1}: x^{n+1} = x^n + dt v^{n+1/2} exactly);
  stop      the first row with momentum_x <= 0, t_stop - t_s in steps dt
            (after it the stuck block sways: momentum_x changes sign).
Asserts: the least contact fraction >= --min-contact at every level; with
--min-order, errors decreasing with a least-squares order >= it; the finest
error <= --max-error and every error <= --max-all-errors; |t_stop - t_s| <=
--max-stop-steps dt at every level. The elastic block departs from the rigid
one by about 2e-3 D however fine the mesh (measured values in
tests/body/physics.cmake): an order is meaningful only against a finer
elastic run, not against x_c. So with three levels or more the script also
measures the self-convergence error of every level but the finest,
  max_t |x_N(t) - x_finest(t)|/D
at the level's own times (the steps halve from level to level: every coarse
time is a time of the finest run), and with --min-self-order asserts that it
decreases with a least-squares order >= it. Level 16 is the 2D example
file's mesh and step, level 8 the 3D one's.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import log_order, run  # noqa: E402

W, B, H, RHO, P, V0, MU = 1.0, 0.5, 0.25, 1.0, 1e-3, 0.01, 0.2
FINAL_TIME = 20.0
# The rate-weakening law of --rate-weakening: rational, mu(V) = mu_d +
# (mu_s - mu_d)/(1 + V/v_c), from 0.1667 at V0 up to 0.3 at rest.
RATIONAL = {"mu_s": 0.3, "mu_d": 0.1, "v_c": 0.005}


class RigidBlock:
    """The rigid block thrown with V0: dV/dt = -mu(V) p/(rho H) until V = 0.
    Constant mu: the closed form. Rate weakening: integrated here with RK4 at
    a step of 1e-3 (the table interpolated linearly: an error of about
    dt^2 |x''|/8 = 1e-10, 1e-7 of the sliding distance), the stopping time
    from the closed-form integral
      t_s = (rho H v_c/p) [U/mu_d - (dmu/mu_d^2) ln((mu_d (1 + U) + dmu)/mu_s)],
    U = V0/v_c, dmu = mu_s - mu_d."""

    def __init__(self, rate_weakening):
        self.rate_weakening = rate_weakening
        scale = P / (RHO * H)
        if not rate_weakening:
            self.t_stop = V0 / (MU * scale)
            self.distance = V0 * V0 / (2 * MU * scale)
            return
        mu_s, mu_d, v_c = RATIONAL["mu_s"], RATIONAL["mu_d"], RATIONAL["v_c"]
        u, dmu = V0 / v_c, mu_s - mu_d
        self.t_stop = v_c / scale * (u / mu_d - dmu / mu_d ** 2
                                     * math.log((mu_d * (1 + u) + dmu) / mu_s))
        self.step = 1e-3
        self.table = [0.0]
        v, x = V0, 0.0

        def acceleration(v):
            return -(mu_d + dmu / (1 + max(v, 0.0) / v_c)) * scale
        for _ in range(int(self.t_stop / self.step)):
            h = self.step
            k1v, k1x = acceleration(v), v
            k2v, k2x = acceleration(v + h / 2 * k1v), v + h / 2 * k1v
            k3v, k3x = acceleration(v + h / 2 * k2v), v + h / 2 * k2v
            k4v, k4x = acceleration(v + h * k3v), v + h * k3v
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            self.table.append(x)
        # The last part step to the stop: V falls linearly there.
        rest = self.t_stop - self.step * (len(self.table) - 1)
        self.distance = x + 0.5 * v * rest
        self.table.append(self.distance)

    def x(self, t):
        """The rigid block's displacement at t."""
        t = min(t, self.t_stop)
        if not self.rate_weakening:
            deceleration = V0 / self.t_stop
            return V0 * t - 0.5 * deceleration * t * t
        k = min(int(t / self.step), len(self.table) - 2)
        t_k = k * self.step
        t_next = min((k + 1) * self.step, self.t_stop)
        w = (t - t_k) / (t_next - t_k) if t_next > t_k else 0.0
        return (1 - w) * self.table[k] + w * self.table[k + 1]


def trajectory(rows, mass, newmark=False):
    """[(t, x)]: the centre of mass's displacement at the rows' times (with
    NEWMARK the rows hold v^{n+1} at t^{n+1}: x^{n+1} = x^n + dt (v^n +
    v^{n+1})/2 exactly, the average acceleration scheme's update)."""
    x, previous, result = 0.0, rows[0]["t"], [(rows[0]["t"], 0.0)]
    momentum = rows[0]["momentum_x"]
    for r in rows[1:]:
        mean = 0.5 * (momentum + r["momentum_x"]) if newmark else r["momentum_x"]
        x += (r["t"] - previous) * mean / mass
        momentum = r["momentum_x"]
        previous = r["t"]
        result.append((r["t"], x))
    return result


def measure(rows, mass, rigid, newmark=False):
    """contact (mean, least), error, t_stop and the trajectory of one run of
    a block of MASS, against the RigidBlock rigid."""
    sliding = [r["contact_fraction"] for r in rows[1:] if r["t"] <= 0.9 * rigid.t_stop]
    path = trajectory(rows, mass, newmark)
    error = max(abs(x - rigid.x(t)) for t, x in path)
    t_stop = next((r["t"] for r in rows if r["momentum_x"] <= 0), math.inf)
    return {"mean_contact": sum(sliding) / len(sliding),
            "min_contact": min(sliding),
            "error": error / rigid.distance,
            "t_stop": t_stop,
            "path": path}


def self_convergence_errors(results, dt_finest, distance):
    """max_t |x_N(t) - x_finest(t)|/D of every level but the finest, at the
    level's own times (the steps halve level by level, so every coarse time
    is a time of the finest run)."""
    finest = {round(t / dt_finest): x for t, x in results[-1]["path"]}
    return [max(abs(x - finest[round(t / dt_finest)]) for t, x in m["path"]) / distance
            for m in results[:-1]]


def settings(n, mass, dimension, rate_weakening, cfl=0.25):
    h = H / n
    dt = cfl * h
    cells = (4 * n, n) if dimension == 2 else (4 * n, 2 * n, n)
    values = {
        "Output/Interval": "0",
        "Time/Final time": repr(FINAL_TIME),
        "Time/Time step": repr(dt),
        "Body/Subdivisions": ", ".join(str(c) for c in cells),
        "Body/Contact/Mass at contact nodes": mass,
    }
    if rate_weakening:
        law = "Body/Contact/Friction law/"
        values.update({law + "Law": "rational",
                       law + "Static friction coefficient": repr(RATIONAL["mu_s"]),
                       law + "Dynamic friction coefficient": repr(RATIONAL["mu_d"]),
                       law + "Critical slip velocity": repr(RATIONAL["v_c"])})
    return values, dt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--levels", type=int, nargs="+", default=[4, 8, 16])
    p.add_argument("--mass", default="redistributed")
    p.add_argument("--dimension", type=int, choices=[2, 3], default=2)
    p.add_argument("--rate-weakening", action="store_true")
    p.add_argument("--min-contact", type=float)
    p.add_argument("--min-order", type=float)
    p.add_argument("--max-error", type=float)
    p.add_argument("--max-all-errors", type=float)
    p.add_argument("--max-stop-steps", type=float)
    p.add_argument("--min-self-order", type=float)
    p.add_argument("--implicit", action="store_true",
                   help="Body/Time scheme = implicit (no normal stress "
                   "regularization), the step --cfl h (P waves: c = 1)")
    p.add_argument("--cfl", type=float, default=0.25)
    p.add_argument("--max-newton", type=float,
                   help="implicit: most active-set iterations of a step")
    p.add_argument("--max-cg", type=float,
                   help="implicit: most CG iterations per solve (mean)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a further setting of every run")
    a = p.parse_args()
    block_mass = RHO * W * H * (B if a.dimension == 3 else 1.0)
    rigid = RigidBlock(a.rate_weakening)
    print("rigid block: stops at t_s = %.4f after D = %.5f" % (rigid.t_stop, rigid.distance))
    results = []
    for n in a.levels:
        values, dt = settings(n, a.mass, a.dimension, a.rate_weakening, a.cfl)
        if a.implicit:
            values.update({"Body/Time scheme": "implicit",
                           "Body/Contact/Friction law/Normal stress "
                           "regularization length": "0"})
        values.update(item.split("=", 1) for item in a.set)
        rows = run(a.exe, a.prm, os.path.join(a.outdir, "N%d" % n), values)
        m = measure(rows, block_mass, rigid, a.implicit)
        if a.implicit:
            last = rows[-1]
            m["newton"] = last["max_newton_iterations"]
            m["cg"] = last["cg_iterations"] / max(last["newton_iterations"], 1)
            m["dissipation"] = min(r1["dissipated_energy"] - r0["dissipated_energy"]
                                   for r0, r1 in zip(rows, rows[1:]))
            m["balance"] = max(abs(r["energy_balance"]) for r in rows)
            print("N %4d  Newton at most %d per step (mean %.2f), CG %.2f per "
                  "solve, least dissipation of a step %.3e, |balance| %.2e"
                  % (n, m["newton"], last["newton_iterations"] / (len(rows) - 1),
                     m["cg"], m["dissipation"], m["balance"]))
        m["steps"] = (m["t_stop"] - rigid.t_stop) / dt
        results.append(m)
        print("N %4d dt %.3e  contact mean %.4f least %.4f  error %.3e  "
              "t_stop %.4f (%+.1f steps)" % (n, dt, m["mean_contact"],
                                               m["min_contact"], m["error"],
                                               m["t_stop"], m["steps"]))
    good = True
    if len(results) > 2:
        # The elastic block's own trajectory (not the rigid one) is what the
        # mesh converges to: the finest level is its reference.
        errors = self_convergence_errors(results, dt, rigid.distance)
        order = log_order(a.levels[:-1], errors)
        print("against the finest level: errors %s, order %.2f"
              % (" ".join("%.3e" % e for e in errors), order))
        if a.min_self_order is not None:
            decreasing = all(e1 < e0 for e0, e1 in zip(errors, errors[1:]))
            if not decreasing or order < a.min_self_order:
                print("FAIL: errors against the finest level not decreasing with "
                      "order >= %g" % a.min_self_order)
                good = False
    if len(results) > 1:
        errors = [m["error"] for m in results]
        order = log_order(a.levels, errors)
        print("least-squares order of the trajectory error: %.2f" % order)
        if a.min_order is not None:
            decreasing = all(e1 < e0 for e0, e1 in zip(errors, errors[1:]))
            if not decreasing or order < a.min_order:
                print("FAIL: errors not decreasing with order >= %g" % a.min_order)
                good = False
    if a.min_contact is not None and any(m["min_contact"] < a.min_contact for m in results):
        print("FAIL: contact fraction below %g while sliding" % a.min_contact)
        good = False
    if a.max_error is not None and results[-1]["error"] > a.max_error:
        print("FAIL: finest error above %g" % a.max_error)
        good = False
    if a.max_all_errors is not None and any(m["error"] > a.max_all_errors for m in results):
        print("FAIL: an error above %g" % a.max_all_errors)
        good = False
    if a.max_stop_steps is not None and any(abs(m["steps"]) > a.max_stop_steps for m in results):
        print("FAIL: stopping time more than %g steps from t_s" % a.max_stop_steps)
        good = False
    if a.implicit:
        if any(m["dissipation"] < 0 for m in results):
            print("FAIL: a step with negative friction dissipation")
            good = False
        if a.max_newton is not None and any(m["newton"] > a.max_newton for m in results):
            print("FAIL: more than %g active-set iterations in a step" % a.max_newton)
            good = False
        if a.max_cg is not None and any(m["cg"] > a.max_cg for m in results):
            print("FAIL: more than %g CG iterations per solve" % a.max_cg)
            good = False
    print("ok" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
