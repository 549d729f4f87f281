#!/usr/bin/python3
"""check_hertz.py EXE PRM OUTDIR --levels K... [--mesh STEM] [--max-l2 E]
                 [--min-order R] [--max-a-fit E] [--max-newton N]
                 [--max-cg-per-solve N] [--plot PNG]

Hertz (doc/theory.md §7.9): prm/body_hertz_2d.prm (the quarter cylinder of
radius 1, E = 1, nu = 0.3, pressed quasi-statically on the rigid
frictionless plane by its top's displacement) on meshes/cylinder_2d_<K>.msh
for each level K, one load step (frictionless contact is path-independent).
postprocess/hertz.py compares contact_nodes.csv with the closed form of the
measured force P. Asserts: the L2 pressure error (relative to p0) at the
finest level <= --max-l2 and decreasing from level to level, its
least-squares order over the levels >= --min-order, the error of the fitted
half-width a_fit at the finest level <= --max-a-fit, the active-set
iterations of the step <= --max-newton and the CG iterations per solve <=
--max-cg-per-solve at every level, |energy_balance| <= 1e-15 and the
kinetic energy 0. With --plot the pressures of every level against the
closed form (matplotlib). Prints the table; exit 0 if all hold.

--mesh sphere_3d: the same for prm/body_hertz_3d.prm on
meshes/sphere_3d_<K>.msh (the octant of the sphere, doc/theory.md §7.11):
the pressures against r = sqrt(x^2 + y^2), the a error of the active area
(err_a_are) in place of err_a_mid.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "postprocess"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import body_runs  # noqa: E402
import hertz  # noqa: E402


def plot(results, path, prm):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(figsize=(7, 4.5))
    a, p0 = results[-1]["analysis"]["a"], results[-1]["analysis"]["p0"]
    axis = "r" if hertz.is_3d(results[-1]["nodes"]) else "x"
    xs = [2 * a * i / 400 for i in range(401)]
    axes.plot([x / a for x in xs], [hertz.hertz_pressure(x, a, p0) / p0 for x in xs],
              "k-", label="Hertz: p0 sqrt(1 - %s²/a²)" % axis)
    for result, marker in zip(results, "osd^"):
        nodes = [row for row in result["nodes"] if row[axis] <= 2 * a]
        axes.plot([row[axis] / a for row in nodes], [row["pressure"] / p0 for row in nodes],
                  marker, markersize=4, fillstyle="none",
                  label="mesh %d (h = a/%.0f)" % (result["level"],
                                                  a / result["analysis"]["h"]))
    axes.set_xlabel("%s / a" % axis)
    axes.set_ylabel("p / p0")
    axes.set_title("prm/%s: nodal pressure, quasi-static, a/R = %.3f"
                   % (os.path.basename(prm), a))
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("exe")
    parser.add_argument("prm")
    parser.add_argument("out")
    parser.add_argument("--levels", type=int, nargs="+", required=True)
    parser.add_argument("--mesh", default="cylinder_2d")
    parser.add_argument("--max-l2", type=float, default=math.inf)
    parser.add_argument("--min-order", type=float, default=-math.inf)
    parser.add_argument("--max-a-fit", type=float, default=math.inf)
    parser.add_argument("--max-newton", type=int, default=10 ** 9)
    parser.add_argument("--max-cg-per-solve", type=float, default=math.inf)
    parser.add_argument("--plot")
    args = parser.parse_args()
    meshes = os.path.join(os.path.dirname(os.path.abspath(args.prm)), "..", "meshes")
    results, failures = [], []
    print("level  h/a     P          a          %s  err_a_fit  err_p_max  err_p_L2   "
          "newton  CG/solve" % ("err_a_mid" if args.mesh.endswith("2d") else "err_a_are"))
    for level in args.levels:
        out = os.path.join(args.out, "level%d" % level)
        history = body_runs.run(args.exe, args.prm, out, {
            "Body/Mesh file": os.path.join(meshes, "%s_%d.msh" % (args.mesh, level)),
            "Time/Time step": "1", "Output/Interval": "1",
            # The multigrid's iterations per solve are asserted.
            "Body/Linear solver/Preconditioner": "multigrid"})
        analysis = hertz.analyse(out, 1.0, 1.0, 0.3)
        last = history[-1]
        newton = last["newton_iterations"]
        cg = last["cg_iterations"] / max(newton, 1)
        results.append({"level": level, "analysis": analysis, "nodes": hertz.read_nodes(out)})
        print("%5d  %.4f  %.4e %.4e %.3e  %.3e  %.3e  %.3e  %5d  %7.1f" % (
            level, analysis["h"] / analysis["a"], analysis["P"], analysis["a"],
            analysis.get("error_a_mid", analysis.get("error_a_area")),
            analysis["error_a_fit"], analysis["error_p_max"],
            analysis["error_p_l2"], newton, cg))
        if newton > args.max_newton:
            failures.append("level %d: %d active-set iterations > %d" % (level, newton,
                                                                          args.max_newton))
        if cg > args.max_cg_per_solve:
            failures.append("level %d: %.1f CG iterations per solve > %g" % (
                level, cg, args.max_cg_per_solve))
        balance = max(abs(row["energy_balance"]) for row in history)
        kinetic = max(abs(row["kinetic_energy"]) for row in history)
        if balance > 1e-15 or kinetic != 0:
            failures.append("level %d: |energy_balance| %.2e (<= 1e-15), kinetic %.2e (0)"
                            % (level, balance, kinetic))
    l2 = [r["analysis"]["error_p_l2"] for r in results]
    h = [r["analysis"]["h"] for r in results]
    for i in range(1, len(l2)):
        if not l2[i] < l2[i - 1]:
            failures.append("the L2 pressure error does not decrease: %s" % l2)
    if len(l2) > 1:
        order = body_runs.line_fit([math.log(v) for v in h], [math.log(v) for v in l2])[0]
        print("least-squares order of the L2 pressure error: %.3f" % order)
        if order < args.min_order:
            failures.append("order %.3f < %g" % (order, args.min_order))
    if l2[-1] > args.max_l2:
        failures.append("L2 pressure error %.3e > %g" % (l2[-1], args.max_l2))
    a_fit = results[-1]["analysis"]["error_a_fit"]
    if a_fit > args.max_a_fit:
        failures.append("half-width error (fit) %.3e > %g" % (a_fit, args.max_a_fit))
    if args.plot:
        plot(results, args.plot, args.prm)
    for failure in failures:
        print("FAIL: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
