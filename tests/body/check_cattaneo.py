#!/usr/bin/python3
"""check_cattaneo.py EXE PRM OUTDIR --levels K... --loading-times T...
                    [--max-c E] [--max-q-l2 E] [--cycle-level K]
                    [--cycle-step DT] [--unloading-time T] [--max-c-unloading E]
                    [--max-q-l2-unloading E] [--max-loop-error E]
                    [--max-newton N]

Cattaneo-Mindlin (doc/theory.md §7.10): prm/body_cattaneo_mindlin.prm on
meshes/half_cylinder_2d_<K>.msh. One run per level K, with the contact
series written at every row (solution/contact_NNNNN.csv, the contact nodes'
table of each output): its states at the times asked for are read from that
one run (the state at T of a run to T' > T is the state of a run ended at T:
same steps, same data). Loading: for each level K and each load time T of
--loading-times (1 < T <= 2, first loading), postprocess/cattaneo_mindlin.py
compares the nodes at T with c = a sqrt(1 - Q/(mu P)) and Cattaneo's q(x).
Asserts: at the finest level every |c - c_exact|/a <= --max-c and every L2
error of q (relative to mu p0) <= --max-q-l2; the largest error of c over
the load times decreases from level to level, that of q from the first
level to the second (then it stops at the floor of Dundurs' beta != 0).
Cycle (at --cycle-level, whose one run goes to t = 4 with Time step
--cycle-step: its loading states too): its state at --unloading-time (after the turning point Q* at
t = 2) against Mindlin-Deresiewicz's c' and q (--max-c-unloading,
--max-q-l2-unloading), and its end: the loop area of Q against the top's
delta equals the dissipation minus the impact work's change (plus the
elastic energy's) to 1e-10 relative (the quasi-static energy balance), and
the dissipation matches the closed form W to --max-loop-error. Every state:
at most --max-newton active-set iterations in a load step up to it (no
cycling). Exact stick (--stick-times, from the first level's run). Prints
the table; exit 0 if all hold.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "postprocess"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import body_runs  # noqa: E402
import cattaneo_mindlin  # noqa: E402

YOUNG, POISSON, MU, AMPLITUDE = 1.0, 0.45, 0.3, 0.0016


def run_level(args, out, level, final_time, step=None):
    """One run of level LEVEL to FINAL_TIME with the contact series at every
    row (the volume's once, at t0); returns its folder."""
    meshes = os.path.join(os.path.dirname(os.path.abspath(args.prm)), "..", "meshes")
    settings = {"Body/Mesh file": os.path.join(meshes, "half_cylinder_2d_%d.msh" % level),
                "Time/Final time": repr(final_time), "Output/Field output": "true",
                "Output/Field output every": "1000000", "Output/Contact output every": "1"}
    if step is not None:
        settings.update({"Time/Time step": repr(step), "Output/Interval": repr(step)})
    if args.adaptive_minimum is not None:
        # Cut a load step only where the active set does not settle.
        settings.update({"Body/Adaptive time steps/Enabled": "true",
                         "Body/Adaptive time steps/Minimum time step":
                             repr(args.adaptive_minimum),
                         "Body/Adaptive time steps/Maximum changes per step": "1000000"})
    for setting in args.set:
        key, value = setting.split("=", 1)
        settings[key] = value
    body_runs.run(args.exe, args.prm, out, settings)
    return out


def state(out, t):
    """The run's state at T (None: its end) against the closed forms, and its
    history up to T."""
    history, result = cattaneo_mindlin.analyse(out, 1.0, YOUNG, POISSON, MU, at=t)
    result["newton_per_step"] = cattaneo_mindlin.newton_per_step(history)
    return history, result


def check_stick(args, out):
    """Exact stick: a node stuck over the load step from T1 to T2 (its flag at
    T2) has the displacement it had at T1, bit for bit (the step holds it: no
    penalty, no creep); a slipping one moved (so that the check can fail).
    OUT the run of the first level."""
    t1, t2 = args.stick_times
    runs = [cattaneo_mindlin.read_table(cattaneo_mindlin.table_at(out, t)) for t in (t1, t2)]
    before = {(r["x"], r["y"]): r for r in runs[0]}
    moved_stuck, moved_slipping, stuck = 0.0, 0.0, 0
    for row in runs[1]:
        old = before[(row["x"], row["y"])]
        # Under a prescribed normal traction the normal unknown is free:
        # the stick holds the tangential displacement only.
        components = ("u_x",) if args.stick_tangential_only else ("u_x", "u_y")
        change = max(abs(row[c] - old[c]) for c in components)
        if row["stuck"] == 1 and old["stuck"] == 1:
            stuck += 1
            moved_stuck = max(moved_stuck, change)
        elif row["active"] == 1:
            moved_slipping = max(moved_slipping, abs(row["u_x"] - old["u_x"]))
    print("stick from t = %g to %g: %d nodes stuck, their largest %sdisplacement change "
          "%.3e; the slipping nodes' largest tangential change %.3e"
          % (t1, t2, stuck, "tangential " if args.stick_tangential_only else "",
             moved_stuck, moved_slipping))
    failures = []
    if stuck == 0 or moved_stuck != 0.0:
        failures.append("stuck nodes moved (%d stuck, largest change %.3e)"
                        % (stuck, moved_stuck))
    if not moved_slipping > 0:
        failures.append("no slipping node moved: the check sees nothing")
    return failures


def line(level, result):
    return "%5d  %.4f  %5.2f  %+.4f  %.4f  %.4f  %.3e  %.3e  %+.1e  %4d" % (
        level, result["h_over_a"], result["t"], result["Q_over_muP"], result["c_over_a"],
        result["c_exact_over_a"], result["error_c"], result["error_q_l2"],
        result["centre_over_a"], result["newton_per_step"])


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("exe")
    parser.add_argument("prm")
    parser.add_argument("out")
    parser.add_argument("--levels", type=int, nargs="+", required=True)
    parser.add_argument("--loading-times", type=float, nargs="+", required=True)
    parser.add_argument("--max-c", type=float, default=math.inf)
    parser.add_argument("--max-q-l2", type=float, default=math.inf)
    parser.add_argument("--cycle-level", type=int)
    parser.add_argument("--cycle-step", type=float)
    parser.add_argument("--unloading-time", type=float, default=2.5)
    parser.add_argument("--max-c-unloading", type=float, default=math.inf)
    parser.add_argument("--max-q-l2-unloading", type=float, default=math.inf)
    parser.add_argument("--max-loop-error", type=float, default=math.inf)
    parser.add_argument("--max-newton", type=int, default=10 ** 9)
    parser.add_argument("--max-balance", type=float, default=1e-10)
    parser.add_argument("--stick-times", type=float, nargs=2,
                        help="two consecutive load times T1 < T2 of the first level: every "
                             "node stuck at T2 has the displacement it had at T1, bit for bit")
    parser.add_argument("--adaptive-minimum", type=float,
                        help="adaptive load steps down to this size (every run)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter of every run (e.g. the mirror counterpart)")
    parser.add_argument("--stick-tangential-only", action="store_true",
                        help="the exact stick holds u_x only (a prescribed normal "
                             "traction leaves the normal displacement free)")
    parser.add_argument("--q-decreases-throughout", action="store_true",
                        help="the L2 error of q decreases at every level (identical "
                             "bodies: beta = 0, no floor)")
    args = parser.parse_args()
    failures = []
    print("level  h/a     t      Q/(muP)  c/a     exact   err_c      err_q_L2   centre/a  "
          "newton")
    worst_c, worst_q, runs = [], [], {}
    for level in args.levels:
        # The level's one run: to the last time any check reads from it.
        final, step = max(args.loading_times), None
        if level == args.levels[0] and args.stick_times:
            final = max(final, max(args.stick_times))
        if level == args.cycle_level:
            final, step = 4.0, args.cycle_step
        runs[level] = run_level(args, os.path.join(args.out, "level%d" % level), level,
                                final, step)
        results = []
        for t in args.loading_times:
            results.append(state(runs[level], t)[1])
            print(line(level, results[-1]))
        worst_c.append(max(r["error_c"] for r in results))
        worst_q.append(max(r["error_q_l2"] for r in results))
        for r in results:
            if r["newton_per_step"] > args.max_newton:
                failures.append("level %d, t = %g: %d active-set iterations > %d"
                                % (level, r["t"], r["newton_per_step"], args.max_newton))
    # c decreases at every level; q's L2 error from the coarsest to the next
    # only: below, the floor of beta != 0 (doc/body.md, "Cattaneo-Mindlin"),
    # unless the bodies are identical (--q-decreases-throughout).
    q_levels = len(worst_q) if args.q_decreases_throughout else 2
    for name, worst, levels in (("c", worst_c, len(worst_c)), ("q L2", worst_q, q_levels)):
        print("largest error of %s per level: %s" % (name, ", ".join("%.3e" % w for w in worst)))
        for i in range(1, min(levels, len(worst))):
            if not worst[i] < worst[i - 1]:
                failures.append("the error of %s does not decrease: %s" % (name, worst))
    if worst_c[-1] > args.max_c:
        failures.append("c error %.3e > %g" % (worst_c[-1], args.max_c))
    if worst_q[-1] > args.max_q_l2:
        failures.append("q L2 error %.3e > %g" % (worst_q[-1], args.max_q_l2))
    if args.cycle_level is not None:
        level = args.cycle_level
        if level not in runs:
            runs[level] = run_level(args, os.path.join(args.out, "level%d" % level), level,
                                    4.0, args.cycle_step)
        _, unloading = state(runs[level], args.unloading_time)
        print(line(level, unloading) + "  (unloading from Q*)")
        history, full = state(runs[level], None)
        print(line(level, full) + "  (after the cycle)")
        energies = cattaneo_mindlin.loop_energies(
            history, MU, YOUNG, POISSON, cattaneo_mindlin.triangle_displacement(AMPLITUDE))
        impact = history[-1]["impact_work"] - next(
            r["impact_work"] for r in history if r["t"] >= energies["t_from"] - 1e-9)
        # data_work = elastic + dissipated - impact_work (doc/theory.md §7.8).
        balance = abs(energies["loop_area"] - energies["dissipated"] + impact
                      - energies["elastic_change"]) / energies["dissipated"]
        print("cycle Q*/(mu P) = %.4f: loop area %.6e, dissipated %.6e, impact work %.3e, "
              "closed form W %.6e; |loop - dissipated + impact - elastic|/dissipated %.1e, "
              "|dissipated - W|/W %.3e" % (
                  energies["Q_star_over_muP"], energies["loop_area"], energies["dissipated"],
                  impact, energies["closed_form"], balance,
                  energies["error_dissipated_vs_closed"]))
        if not unloading["turned"]:
            failures.append("the unloading run has no turning point")
        if unloading["error_c"] > args.max_c_unloading:
            failures.append("unloading c' error %.3e > %g" % (unloading["error_c"],
                                                             args.max_c_unloading))
        if unloading["error_q_l2"] > args.max_q_l2_unloading:
            failures.append("unloading q L2 error %.3e > %g" % (unloading["error_q_l2"],
                                                               args.max_q_l2_unloading))
        # Measured 2.3e-12 (8e-20 of 3.5e-8: the CG residual and the sums)
        # with fixed load steps; with adaptive ones the loop area (the
        # trapezoidal rule on history.csv's rows) and the works booked per
        # substep integrate Q dδ differently over the cut steps: 1.5e-3.
        if balance > args.max_balance:
            failures.append("loop area and dissipation disagree: %.2e" % balance)
        if energies["error_dissipated_vs_closed"] > args.max_loop_error:
            failures.append("dissipation per cycle %.3e from W > %g" % (
                energies["error_dissipated_vs_closed"], args.max_loop_error))
        for r in (unloading, full):
            if r["newton_per_step"] > args.max_newton:
                failures.append("cycle: %d active-set iterations > %d"
                                % (r["newton_per_step"], args.max_newton))
    if args.stick_times:
        failures += check_stick(args, runs[args.levels[0]])
    for failure in failures:
        print("FAIL: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
