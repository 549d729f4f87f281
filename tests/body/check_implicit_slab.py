#!/usr/bin/python3
"""check_implicit_slab.py EXE [--mesh N] [--ratios R...] [--spectral-radius RHO...]
                         [--levels N...] [--level-ratio R] [--reference-cells N]
                         [--max-S-error E...] [--max-w-error E...]
                         [--max-slip-error E...] [--min-order Q]
                         [--max-balance B] [--max-dissipation-error E]
                         [--max-event-steps K] [--workdir DIR]

Body/Time scheme = implicit against Model = slab (Renard 2001) and against
the explicit body: the strip of prm/body_slab_periodic.prm, periodic in x,
2 cells 16 h wide, whose data depend on y only, is the slab of
prm/slab.prm (tests/body/slab_cross_check.py, whose functions this script
uses). The configuration is slab_cross_check.py's "massless" one: surface
mass epsilon = 0 and the constant friction coefficient 0.5. The data of
prm/slab.prm as they are ("paper": epsilon = 10 kg/m^2, the fig2 law) are
refused by the implicit scheme, which has no surface mass
(body_implicit_refuses_slab_surface_mass); without the surface mass the
fig2 law makes the slab's friction step ambiguous (G/c1 < S L_mu), which is
why the cross-check has the massless configuration.

The explicit bound of the strip is dt_e = 0.9997 h/c2 (the program's own,
read from its refusal of a too large step: slab_cross_check.stable_cfl).
The implicit body runs with dt = T/ceil(T/(R dt_e)) (R the step ratio):

  sweep       on N_z = --mesh cells over the height, R = --ratios, for each
              --spectral-radius (1: Newmark's average acceleration; < 1 the
              generalized-alpha method), with the explicit body at its own
              bound (R = 1) on the same mesh beside it;
  refinement  N_z = --levels at the fixed ratio --level-ratio (h and dt
              refined together), rho_inf 1.

Against the slab at --reference-cells (CFL 1), interpolated linearly in
time at the body's times 0 < t_n <= T, relative to the slab's own norms:
  S      |S - S_ref|_L1 / |S_ref|_L1 (mean_pressure; L1 in time),
  w      |w - w_ref|_max / |w_ref|_max (mean_gap: the normal displacement),
  slip   |s - s_ref|_max / |s_ref|_max, s = u_T(0) - v_* t (the implicit
         body's -max_slip: the slab's slip never changes sign, asserted;
         the explicit body's sum of dt mean_slip_velocity_1),
  v_s    the step-mean slip rate (s^{n+1} - s^n)/dt against the slab's
         over the same step, L1 in time, relative,
  f      the friction traction friction_force_1/W against the slab's
         -friction_force_1 (the slab's sign: the traction on the foundation),
         L1 in time, relative;
the distances between the event times (lift-off, re-contact, stick, slip
onset; states lasting at least 0.2 us, slab_cross_check.events) in steps
of the body's dt; and the energy: E = kinetic + elastic at T, the
dissipated energy against the slab's (W times the integral of |f v_s|
over time), impact_work (the contact's work, the scheme's energy error at
the steps that close or open a node), numerical_dissipation (rho_inf < 1),
the balance. The balance is measured from the first step on: at t0 the
implicit step sets no reaction at the nodes that are pressed (R^0 = 0), so
the first step, in which the strip leaves the floor, books no work for
the initial pressure P^0 and energy_balance jumps by P^0 g^1/2 (printed
beside the jump; reported as a bug in the issue).

Asserts, at every step ratio of the sweep: the relative errors of S, w
and slip below the bounds given (lists aligned with --ratios for every
rho_inf, or with the runs: every R of the first rho_inf, then of the
next); over the refinement: the least-squares orders of the quantities
--ordered (default S) >= --min-order (w's is low: its max norm is that
of a missed or spurious short opening at every level); in every implicit
run:
max |balance(t) - balance(t_1)| <= --max-balance of the largest energy,
the friction's dissipation of every step >= 0, the dissipated energy
within --max-dissipation-error of the slab's; with --max-event-steps,
the event distances (lift-off, re-contact) at the refinement's levels
but the first.
"""
import argparse
import bisect
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slab_cross_check as cross  # noqa: E402

CONFIG = "massless"
ASPECT = 16
KINDS = cross.KINDS


def read_rows(path):
    with open(path, newline="") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


class Slab:
    """The slab's history: S, w, the slip s = u_T(0) - v_* t and the friction
    traction on the body, interpolated linearly in time."""

    def __init__(self, rows, tau):
        rows = [r for r in rows if r["t"] <= cross.T * (1 + 1e-9)]
        self.t = [r["t"] for r in rows]
        self.columns = {
            "S": [r["contact_pressure"] for r in rows],
            "w": [r["normal_displacement"] for r in rows],
            "slip": [r["tangential_displacement_1"] - r["t"] for r in rows],
            "f": [-r["friction_force_1"] for r in rows],
        }
        series = [(r["t"], r["contact_pressure"], r["slip_velocity_1"],
                   r["normal_displacement"], r["stick"] == 1) for r in rows if r["t"] > 0]
        self.events, self.raw = cross.events(series, tau)
        self.tau = tau
        # The friction's dissipation per unit area, |f v_s| integrated.
        self.dissipation = sum((b["t"] - a["t"]) * abs(b["friction_force_1"] * b["slip_velocity_1"])
                               for a, b in zip(rows, rows[1:]))
        self.norms = {
            "S": sum((b - a) * abs(s) for a, b, s in zip(self.t, self.t[1:], self.columns["S"][1:])),
            "w": max(abs(x) for x in self.columns["w"]),
            "slip": max(abs(x) for x in self.columns["slip"]),
            "v": abs(self.columns["slip"][-1]),  # the slip never changes sign: |int v_s dt|
            "f": sum((b - a) * abs(f) for a, b, f in zip(self.t, self.t[1:], self.columns["f"][1:])),
        }
        self.slip_sign_change = max(self.columns["slip"][1:]) > 0

    def at(self, name, t):
        values = self.columns[name]
        j = bisect.bisect_left(self.t, t)
        if j <= 0:
            return values[0]
        if j >= len(self.t):
            return values[-1]
        w = (t - self.t[j - 1]) / (self.t[j] - self.t[j - 1])
        return (1 - w) * values[j - 1] + w * values[j]


def run_body(exe, n, dt, scheme, rho, out):
    command = cross.body_command(exe, (n, 1, 2, ASPECT), dt, CONFIG, out)
    command += ["--set", "Body/Time scheme=" + scheme]
    if scheme == "implicit":
        command += ["--set", "Body/Spectral radius at infinity=%r" % rho]
    seconds, done = cross.run(command)
    if done.returncode != 0:
        raise RuntimeError("the body failed:\n" + done.stdout[-3000:])
    return seconds, read_rows(os.path.join(out, "history.csv"))


def measure(rows, slab, dt, implicit, width):
    """Relative errors, events and energies of one body run."""
    err = {"S": 0.0, "w": 0.0, "slip": 0.0, "v": 0.0, "f": 0.0}
    slip = previous_slip = 0.0
    previous = rows[0]
    series = []
    for r in rows[1:]:
        t, h = r["t"], r["t"] - previous["t"]
        if implicit:
            slip = -r["max_slip"]
        else:
            slip = previous_slip + h * r["mean_slip_velocity_1"]
        err["S"] += h * abs(r["mean_pressure"] - slab.at("S", t))
        err["w"] = max(err["w"], abs(r["mean_gap"] - slab.at("w", t)))
        err["slip"] = max(err["slip"], abs(slip - slab.at("slip", t)))
        ref_rate = (slab.at("slip", t) - slab.at("slip", previous["t"])) / h
        rate = (slip - previous_slip) / h
        err["v"] += h * abs(rate - ref_rate)
        err["f"] += h * abs(r["friction_force_1"] / width - slab.at("f", t))
        stuck = r["stick_fraction"] == 1 and r["contact_fraction"] == 1
        series.append((t, r["mean_pressure"], rate, r["mean_gap"], stuck))
        previous, previous_slip = r, slip
    rel = {k: err[k] / slab.norms[k] for k in err}
    found, raw = cross.events(series, slab.tau)
    dist = [cross.hausdorff(found[k], slab.events[k]) / dt for k in KINDS]
    last = rows[-1]
    energies = [r["kinetic_energy"] + r["elastic_energy"] for r in rows]
    scale = max(energies)
    first = rows[1]["energy_balance"] if len(rows) > 1 else 0.0
    m = {
        "rel": rel,
        "events": dist,
        "counts": " ".join("%d:%d" % (len(found[k]), len(slab.events[k])) for k in KINDS),
        "E0": energies[0],
        "E": energies[-1],
        "dissipated": last["dissipated_energy"],
        "impact": last["impact_work"],
        "data": last["data_work"],
        "numerical": last.get("numerical_dissipation", 0.0),
        "balance_first": first,
        "balance": max(abs(r["energy_balance"] - first) for r in rows[1:]) / scale,
        "least_dissipation": min(b["dissipated_energy"] - a["dissipated_energy"]
                                 for a, b in zip(rows, rows[1:])),
        "steps": len(rows) - 1,
    }
    if implicit:
        m["newton_mean"] = last["newton_iterations"] / m["steps"]
        m["newton_max"] = last["max_newton_iterations"]
        m["cg"] = last["cg_iterations"] / max(last["newton_iterations"], 1)
        # The first step's missing work of the initial pressure P^0 (the
        # static pressure (lambda + 2G) D/H over the width) over the gap g^1.
        m["missing"] = 0.5 * (107e9 + 2 * 77e9) * 1e-5 / cross.H * width * rows[1]["mean_gap"]
    return m


HEADER = ("  %-5s %-4s %-9s %-5s %-8s %-8s %-8s %-8s %-8s %-19s %-7s %-8s %-9s %-9s %-9s "
          "%-8s %-9s %s" % ("N_z", "rho", "R", "steps", "S", "w", "slip", "v_s", "f",
                            "events [steps]", "E/E0", "D/D_slab", "impact", "num.diss.",
                            "balance", "Newton", "CG/solve", "wall"))


def row(n, rho, ratio, m, width, slab, seconds):
    r = m["rel"]
    newton = ("%4.2f/%-3d" % (m["newton_mean"], m["newton_max"])) if "newton_mean" in m else "-"
    cg = ("%5.1f" % m["cg"]) if "cg" in m else "-"
    return ("  %-5d %-4s %-9s %-5d %.2e %.2e %.2e %.2e %.2e %-19s %7.4f %8.4f %+.2e %.3e "
            "%.2e %-8s %-9s %.1fs" % (
                n, rho, ratio, m["steps"], r["S"], r["w"], r["slip"], r["v"], r["f"],
                " ".join("%4.0f" % d for d in m["events"]), m["E"] / m["E0"],
                m["dissipated"] / (width * slab.dissipation), m["impact"] / m["E0"],
                m["numerical"] / m["E0"], m["balance"], newton, cg, seconds))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("--mesh", type=int, default=400)
    p.add_argument("--ratios", type=float, nargs="+", default=[10, 30, 100])
    p.add_argument("--spectral-radius", type=float, nargs="+", default=[1.0])
    p.add_argument("--levels", type=int, nargs="*", default=[50, 100, 200, 400])
    p.add_argument("--level-ratio", type=float, default=10)
    p.add_argument("--reference-cells", type=int, default=3200)
    p.add_argument("--max-S-error", type=float, nargs="+")
    p.add_argument("--max-w-error", type=float, nargs="+")
    p.add_argument("--max-slip-error", type=float, nargs="+")
    p.add_argument("--min-order", type=float)
    p.add_argument("--ordered", nargs="+", default=["S"],
                   choices=["S", "w", "slip", "v", "f"])
    p.add_argument("--max-balance", type=float)
    p.add_argument("--max-dissipation-error", type=float)
    p.add_argument("--max-event-steps", type=float)
    p.add_argument("--min-duration", type=float, default=2e-7)
    p.add_argument("--workdir")
    a = p.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="implicit_slab_")
    os.makedirs(work, exist_ok=True)
    ok = True

    def fail(message):
        nonlocal ok
        print("FAIL: " + message)
        ok = False

    try:
        seconds, done = cross.run([a.exe, cross.SLAB_PRM, "--quiet"] + sum(
            (["--set", s] for s in [
                "Slab/Number of cells=%d" % a.reference_cells,
                "Output/Directory=" + os.path.join(work, "slab"), "Output/Overwrite=true",
                "Output/Field output=false", "Output/Interval=0"]), [])
            + cross.model_overrides(CONFIG)[0])
        if done.returncode != 0:
            raise RuntimeError("the slab failed:\n" + done.stdout)
        slab = Slab(read_rows(os.path.join(work, "slab", "history.csv")), a.min_duration)
        print("slab (%s): %d cells, CFL 1, wall %.1fs; events %s; dissipation %.4e J/m^2"
              % (CONFIG, a.reference_cells, seconds,
                 ", ".join("%s %d" % (k, len(slab.events[k])) for k in KINDS), slab.dissipation))
        if slab.slip_sign_change:
            fail("the slab's slip changes sign: -max_slip is not the implicit body's slip")
        cfl = cross.stable_cfl(a.exe, 1, 2, ASPECT, CONFIG, work)
        print("explicit bound dt_e = %.3f h/c2 (16:1 cells); errors relative to the slab's "
              "norms, events: lift-off re-contact stick slip-onset" % cfl)

        done_runs = {}

        def one(n, ratio, scheme, rho):
            if (n, ratio, scheme, rho) in done_runs:
                m = done_runs[(n, ratio, scheme, rho)]
                print(m["line"] + " (the run above)")
                return m
            bound = cfl * cross.H / n / cross.C2
            dt = cross.T / math.ceil(cross.T / (ratio * bound) - 1e-9)
            out = os.path.join(work, "%s_n%d_r%g_rho%g" % (scheme, n, ratio, rho))
            seconds, rows = run_body(a.exe, n, dt, scheme, rho, out)
            width = 2 * ASPECT * cross.H / n
            m = measure(rows, slab, dt, scheme == "implicit", width)
            m["line"] = row(n, "-" if scheme == "explicit" else "%g" % rho,
                            "expl." if scheme == "explicit" else "%g" % ratio, m, width, slab,
                            seconds)
            print(m["line"])
            done_runs[(n, ratio, scheme, rho)] = m
            if scheme == "implicit":
                if a.max_balance is not None and not m["balance"] <= a.max_balance:
                    fail("N_z %d, R %g, rho %g: balance %.2e above %g"
                         % (n, ratio, rho, m["balance"], a.max_balance))
                if m["least_dissipation"] < 0:
                    fail("N_z %d, R %g: a step with negative dissipation" % (n, ratio))
                d = m["dissipated"] / (width * slab.dissipation) - 1
                if a.max_dissipation_error is not None and not abs(d) <= a.max_dissipation_error:
                    fail("N_z %d, R %g, rho %g: dissipation %+.3f of the slab's"
                         % (n, ratio, rho, d))
            return m

        print("\nstep sweep on N_z = %d (h = %.3e m)" % (a.mesh, cross.H / a.mesh))
        print(HEADER)
        one(a.mesh, 1, "explicit", 1)
        first_step = []
        for i, rho in enumerate(a.spectral_radius):
            for j, ratio in enumerate(a.ratios):
                m = one(a.mesh, ratio, "implicit", rho)
                first_step.append((rho, ratio, m["balance_first"], m["missing"], m["E0"]))
                for name, bounds in (("S", a.max_S_error), ("w", a.max_w_error),
                                     ("slip", a.max_slip_error)):
                    if not bounds:
                        continue
                    bound = bounds[j] if len(bounds) == len(a.ratios) else \
                        bounds[i * len(a.ratios) + j]
                    if not m["rel"][name] <= bound:
                        fail("N_z %d, R %g, rho %g: %s error %.3e above %g"
                             % (a.mesh, ratio, rho, name, m["rel"][name], bound))
        print("  the first step's energy_balance (the initial pressure's work P^0 g^1/2 "
              "missing):")
        for rho, ratio, jump, missing, e0 in first_step:
            print("    rho %g R %g: %.6e (P^0 g^1/2 = %.6e), %.2e E0"
                  % (rho, ratio, jump, missing, jump / e0))

        if len(a.levels) > 1:
            print("\nrefinement at R = %g (h and dt together), rho_inf 1" % a.level_ratio)
            print(HEADER)
            results = []
            for n in a.levels:
                m = one(n, a.level_ratio, "implicit", 1.0)
                results.append(m)
                if a.max_event_steps is not None and n != a.levels[0]:
                    worst = max(m["events"][:2])
                    if not worst <= a.max_event_steps:
                        fail("N_z %d: lift-off/re-contact %g steps from the slab's" % (n, worst))
            for name in ("S", "w", "slip", "v", "f"):
                values = [m["rel"][name] for m in results]
                order = cross.fit(a.levels, values)
                print("  order %-5s least squares %5.2f, pairwise %s" % (
                    name, order, " ".join("%5.2f" % (math.log(x / y) / math.log(n1 / n0))
                                          for x, y, n0, n1 in zip(values, values[1:], a.levels,
                                                                  a.levels[1:]))))
                if name in a.ordered and a.min_order is not None \
                        and not order >= a.min_order:
                    fail("the order of %s, %.2f, is below %g" % (name, order, a.min_order))
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        if not a.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
