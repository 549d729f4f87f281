#!/usr/bin/python3
"""check_adaptive.py EXE PRM OUTDIR CASE [bounds...]

Body/Adaptive time steps on the Signorini bar of prm/body_signorini_bar.prm
(check_implicit.py's problem and measures: contact on 0 < t < 2L/c with the
pressure rho c v0, exit velocity +v0, no energy lost) with Body/Time scheme
= implicit, N cells along the height, 2 across, the grid step c dt/h = C.

CASE accuracy: the fixed step and the adaptive substeps (Minimum time step
= grid step / 2^L) on the same grid; prints both runs' errors (duration,
pressure L1 over the grid's rows, energy change and velocity at T = 3) and
the adaptive run's substeps and cuts; asserts that the adaptive pressure
and energy errors are at most --max-ratio times the fixed ones and below
the bounds given, the number of substeps in all (--substeps LO HI), that
the substeps grew back (the last one of the run is the grid step) and that
the smallest is the minimum. (The velocity at T is not asserted: the
momentum after the release depends on the bar's vibration, which the
coarse fixed step can hit by chance: 1.5e-3 at c dt/h = 40, N = 100, with
the energy 24% wrong.)

CASE rescue: PRM is then prm/body_slow_pull.prm (its own adaptive
settings, minimum dt/64), to T = 700 (the first slip, t ~ 600): with the
fixed grid step dt = 4 s the weakening law's stick set does not settle at
the slip (9 nodes cycle between stick and slip) and the run stops with the
RunError of Maximum active-set iterations; the adaptive run must reach T
with at least --min-cuts cuts. Both runs take --set (the test gives
Complementarity constant = 0: the limit rule alone). --repeats K: the fixed
step again without --set (the default: a step the limit rule does not
settle is repeated by rule 3', doc/theory.md §7.7) must reach T with at
least K repeated steps, its first slip (max_slip > 1e-6) at the adaptive
run's time and its dissipated energy at T within --max-difference of the
adaptive run's.

CASE stop: the same with Minimum time step = the grid step: the run must
stop with the RunError naming Body/Adaptive time steps/Minimum time step,
and history.csv must keep the rows before the failure (--min-rows).
CASE quasi-static: PRM is then prm/body_hertz_2d.prm (frictionless,
quasi-static: the solution does not depend on the load path): the fixed
load steps and the adaptive substeps (Minimum time step = step/2^L) must
give the same rows (normal_force, mean_pressure, contact_fraction,
elastic_energy) within --tolerance times each column's largest magnitude.
Exit 0 if all hold.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import implicit_summary, read_history, run  # noqa: E402
from check_implicit import measure, settings  # noqa: E402


def adaptive(levels, dt, changes=0, calm=4):
    return {
        "Body/Adaptive time steps/Enabled": "true",
        "Body/Adaptive time steps/Minimum time step": repr(dt / 2**levels),
        "Body/Adaptive time steps/Maximum changes per step": str(changes),
        "Body/Adaptive time steps/Calm steps": str(calm),
    }


def failing_run(exe, prm, out, values):
    """Run expecting a failure; return (exit status, output, rows)."""
    command = [exe, prm, "--quiet", "--set", "Output/Directory=" + out,
               "--set", "Output/Overwrite=true", "--set", "Output/Field output=false"]
    for key, value in values.items():
        command += ["--set", "%s=%s" % (key, value)]
    p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    path = os.path.join(out, "history.csv")
    return p.returncode, p.stdout, read_history(path) if os.path.exists(path) else []


def accuracy(a, base, dt, mass):
    fixed = measure(run(a.exe, a.prm, os.path.join(a.outdir, "fixed"), base), mass)
    rows = run(a.exe, a.prm, os.path.join(a.outdir, "adaptive"),
               {**base, **adaptive(a.levels, dt, a.changes, a.calm)})
    adapted = measure(rows, mass)
    substeps = sum(r["substeps"] for r in rows[1:])
    cuts = sum(r["substep_cuts"] for r in rows[1:])
    smallest = min(r["min_substep"] for r in rows[1:])
    print("%-9s %10s %10s %11s %10s" % ("run", "|t_open-2|", "|p|L1 err", "E/E0 - 1", "|v-v0|"))
    for name, m in (("fixed", fixed), ("adaptive", adapted)):
        print("%-9s %10.3e %10.3e %11.3e %10.3e" % (
            name, m["duration"], m["pressure"], m["energy"], m["velocity"]))
    print("grid steps %d, substeps %d, cuts %d, smallest %.4g (dt/%g), last %.4g" % (
        len(rows) - 1, substeps, cuts, smallest, dt / smallest, rows[-1]["last_substep"]))
    ok = True
    for key in ("pressure", "energy"):
        if not abs(adapted[key]) <= a.max_ratio * abs(fixed[key]):
            print("FAIL: adaptive %s error %.3e above %g times the fixed step's %.3e" % (
                key, abs(adapted[key]), a.max_ratio, abs(fixed[key])))
            ok = False
    for key, bound in (("pressure", a.max_pressure_error), ("energy", a.max_energy_change)):
        if bound is not None and not abs(adapted[key]) <= bound:
            print("FAIL: adaptive %s error %.3e above %.3e" % (key, abs(adapted[key]), bound))
            ok = False
    if not a.substeps[0] <= substeps <= a.substeps[1]:
        print("FAIL: %d substeps, expected %d to %d" % (substeps, *a.substeps))
        ok = False
    if not abs(rows[-1]["last_substep"] - dt) <= 1e-12 * dt:
        print("FAIL: the substep did not grow back to the grid step")
        ok = False
    if not abs(smallest - dt / 2**a.levels) <= 1e-12 * dt:
        print("FAIL: the smallest substep is not the minimum")
        ok = False
    return ok


RESCUE_FINAL_TIME = 700.0


def first_slip(rows):
    return next((r["t"] for r in rows if r["max_slip"] > 1e-6), float("nan"))


def repeated_fixed_step(a, final, rows):
    folder = os.path.join(a.outdir, "repeated")
    fixed = run(a.exe, a.prm, folder, {**final, "Body/Adaptive time steps/Enabled": "false"})
    counts = implicit_summary(folder)
    difference = abs(fixed[-1]["dissipated_energy"] / rows[-1]["dissipated_energy"] - 1)
    print("fixed step, repeated by rule 3': reached t = %g, %d steps repeated (their first "
          "attempts' cycles %d), first slip at t = %g (adaptive %g), dissipated energy %.6g "
          "(adaptive %.6g, %.2e apart)" % (
              fixed[-1]["t"], counts["repeated"], counts["abandoned_cycles"],
              first_slip(fixed), first_slip(rows), fixed[-1]["dissipated_energy"],
              rows[-1]["dissipated_energy"], difference))
    ok = (abs(fixed[-1]["t"] - RESCUE_FINAL_TIME) < 1e-9 and counts["repeated"] >= a.repeats
          and first_slip(fixed) == first_slip(rows) and difference <= a.max_difference)
    if not ok:
        print("FAIL: expected the end time, at least %d repeats, the same first slip and the "
              "dissipated energy within %g" % (a.repeats, a.max_difference))
    return ok


def rescue(a):
    final = {"Time/Final time": repr(RESCUE_FINAL_TIME), "Output/Interval": "0"}
    given = dict(item.split("=", 1) for item in a.set)
    status, output, _ = failing_run(a.exe, a.prm, os.path.join(a.outdir, "fixed"),
                                    {**final, **given,
                                     "Body/Adaptive time steps/Enabled": "false"})
    ok = True
    print("slow pull to T = %g, fixed grid step and adaptive substeps" % RESCUE_FINAL_TIME)
    print("fixed step: exit %d" % status)
    if status == 0 or "did not settle" not in output:
        print("FAIL: the fixed step did not fail as expected:\n" + output)
        ok = False
    rows = run(a.exe, a.prm, os.path.join(a.outdir, "adaptive"), {**final, **given})
    cuts = sum(r["substep_cuts"] for r in rows[1:])
    print("adaptive: reached t = %g with %d substeps, %d cuts" % (
        rows[-1]["t"], sum(r["substeps"] for r in rows[1:]), cuts))
    if not (abs(rows[-1]["t"] - RESCUE_FINAL_TIME) < 1e-9 and cuts >= a.min_cuts):
        print("FAIL: expected the end time %g and at least %d cuts" % (
            RESCUE_FINAL_TIME, a.min_cuts))
        ok = False
    if a.repeats is not None:
        ok = repeated_fixed_step(a, final, rows) and ok
    return ok


def stop(a, base, dt):
    forced = {**base, "Body/Linear solver/Maximum active-set iterations": str(a.iterations),
              **adaptive(a.levels, dt, a.changes, a.calm)}
    status, output, rows = failing_run(a.exe, a.prm, os.path.join(a.outdir, "stop"), forced)
    print("exit %d, %d rows kept; the message:\n%s" % (status, len(rows), output.strip()))
    expected = "with the smallest substep"
    if status == 0 or expected not in output or \
            "Body/Adaptive time steps/Minimum time step" not in output:
        print("FAIL: expected a RunError naming the smallest substep")
        return False
    if not len(rows) >= a.min_rows:
        print("FAIL: %d rows kept, expected at least %d" % (len(rows), a.min_rows))
        return False
    return True


def quasi_static(a):
    base = {"Output/Interval": "0", **dict(item.split("=", 1) for item in a.set)}
    fixed = run(a.exe, a.prm, os.path.join(a.outdir, "fixed"), base)
    dt = fixed[1]["t"] - fixed[0]["t"]
    rows = run(a.exe, a.prm, os.path.join(a.outdir, "adaptive"),
               {**base, **adaptive(a.levels, dt, a.changes, a.calm)})
    worst = 0.0
    for key in ("normal_force", "mean_pressure", "contact_fraction", "elastic_energy"):
        scale = max(abs(r[key]) for r in fixed) or 1.0
        worst = max(worst, max(abs(r[key] - q[key]) for r, q in zip(fixed, rows)) / scale)
    print("quasi-static, %d load steps, %d substeps, %d cuts: largest difference %.2e "
          "of the column's scale" % (len(fixed) - 1, sum(r["substeps"] for r in rows),
                                     sum(r["substep_cuts"] for r in rows), worst))
    return len(rows) == len(fixed) and worst <= a.tolerance


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("case", choices=("accuracy", "rescue", "stop", "quasi-static"))
    p.add_argument("--level", type=int, default=50, help="cells along the height")
    p.add_argument("--cfl", type=float, default=40)
    p.add_argument("--levels", type=int, default=4, help="grid step / minimum = 2^levels")
    p.add_argument("--changes", type=int, default=0)
    p.add_argument("--calm", type=int, default=4)
    p.add_argument("--max-ratio", type=float, default=1.0)
    p.add_argument("--substeps", type=int, nargs=2, default=(0, 10**9))
    p.add_argument("--max-pressure-error", type=float)
    p.add_argument("--max-energy-change", type=float)
    p.add_argument("--iterations", type=int, default=1)
    p.add_argument("--min-cuts", type=int, default=1)
    p.add_argument("--min-rows", type=int, default=2)
    p.add_argument("--tolerance", type=float, default=1e-12)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="quasi-static, rescue: a further setting of both runs")
    p.add_argument("--repeats", type=int)
    p.add_argument("--max-difference", type=float, default=0.05)
    a = p.parse_args()
    if a.case in ("rescue", "quasi-static"):
        ok = rescue(a) if a.case == "rescue" else quasi_static(a)
        print("PASS" if ok else "FAILED")
        sys.exit(0 if ok else 1)
    base, dt, mass = settings(a.level, a.cfl, 2)
    print("Signorini bar, N = %d, grid step c dt/h = %g (dt = %.4g), minimum dt/%d" % (
        a.level, a.cfl, dt, 2**a.levels))
    ok = {"accuracy": lambda: accuracy(a, base, dt, mass),
          "stop": lambda: stop(a, base, dt)}[a.case]()
    print("PASS" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
