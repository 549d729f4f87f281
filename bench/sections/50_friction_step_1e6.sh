#!/usr/bin/env bash
# The friction step (38) at 1e6 unknowns, consistent mass: the core's
# solvers against PETSc's bound-constrained TAO solvers on the split
# problem W = W+ - W- (bench/friction_step_solvers.cc), 1 and 2 ranks, all
# held to the same KKT residual eta <= 1e-6 (semismooth Newton at its default
# settings, Friction/Tolerance = 1e-6); a TAO solver still running after
# 120 s is stopped and reported as not converged.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
friction_out=$(build/bench/stickslip_friction_step_solvers 1000000 1e-6 120 2>&1 | grep '^friction_bench')
python3 - <<PY
import os
text = """$friction_out"""
rows, problem, note = [], {}, ""
for line in text.splitlines():
    words = line.split()
    if words[0] == "friction_bench_problem":
        problem = dict(zip(words[1::2], words[2::2]))
    elif words[0] == "friction_bench":
        row = dict(zip(words[2::2], words[3::2]))
        row["solver"] = words[1]
        rows.append(row)
by = {r["solver"]: r for r in rows}
ssn = float(by["semismooth_newton"]["seconds"])
labels = {"semismooth_newton": "semismooth Newton (core), default settings: Friction/Tolerance = eta, Newton step CG tolerance = forcing",
          "semismooth_newton_tight_cg": "semismooth Newton, Newton step CG tolerance = 1e-13 (the tight CG of earlier versions; reference W_ssn)",
          "semismooth_newton_tolerance_1e-12": "semismooth Newton, forcing with the default Friction/Tolerance = 1e-12",
          "projection": "projection (39)-(41), rho automatic (core)",
          "tao_bnls": "TAO BNLS (Newton line search, Hessian [[M,-M],[-M,M]])",
          "tao_bntr": "TAO BNTR (Newton trust region, same Hessian)",
          "tao_tron": "TAO TRON (trust region Newton, same Hessian)",
          "tao_gpcg": "TAO GPCG (gradient projection CG for quadratic programs, same Hessian)",
          "tao_bqpip": "TAO BQPIP (interior point for quadratic programs, same Hessian)",
          "tao_bqnls": "TAO BQNLS (quasi-Newton line search)",
          "tao_bqnkls": "TAO BQNKLS (quasi-Newton-preconditioned Newton-Krylov line search)",
          "tao_bncg": "TAO BNCG (bound-constrained nonlinear CG)",
          "tao_blmvm": "TAO BLMVM (limited-memory variable metric)"}
print("## Friction step at 10⁶ unknowns: semismooth Newton vs PETSc TAO\n")
print("One friction step (38) of the consistent-mass P1 string, n = %s unknowns, tau = dt/P = %s, g = %s:"
      " %.0f%% of the nodes stick. 1 rank, cold start (lambda = 0, W = 0) for every solver; every"
      " solver is held to the same KKT residual of (38) in multiplier units, eta <= %s (TAO through a"
      " convergence test whose own cost is not timed; setup, such as assembling the 2n x 2n Hessian or"
      " the mass solver's AMG, is not timed either). TAO solves the bound-constrained form a PETSc user"
      " would write, W = W+ - W-, W+- >= 0, with Jacobi-preconditioned KSPs."
      % (problem["n"], problem["tau"], problem["g"], 100 * float(problem["stick_fraction"]),
         problem["tolerance"]))
print("\n| solver | iterations | seconds per solve | ratio to semismooth Newton | eta reached | max abs(W - W_ssn) / max abs(W_ssn) | converged |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    if r["solver"] not in labels:
        continue
    t = float(r["seconds"])
    extra = ""
    if r["solver"].startswith("semismooth_newton"):
        extra = " (%s CG iterations)" % r["cg_iterations"]
    if "ksp_iterations" in r and r["ksp_iterations"] != "0":
        extra = " (%s KSP iterations)" % r["ksp_iterations"]
    status = "yes" if r["converged"] == "1" else "**no** (%s)" % r.get("reason", "tolerance not met")
    print("| %s | %s%s | %.3g | %s | %s | %s | %s |" % (
        labels[r["solver"]], r["iterations"], extra, t,
        "1" if r["solver"] == "semismooth_newton" else "%.2gx" % (t / ssn),
        r["eta"], r["rel_diff_w"], status))
tao = [r for r in rows if r["solver"].startswith("tao_") and r["converged"] == "1"]
if tao:
    best = min(tao, key=lambda r: float(r["seconds"]))
    ratio = float(best["seconds"]) / ssn
    ssn_row = by["semismooth_newton"]
    print("\n**Headline, equal accuracy:** semismooth Newton at its default settings (inexact-Newton CG"
          " tolerance, Friction/Newton step CG tolerance = forcing, held to Friction/Tolerance = %s) reaches"
          " a KKT residual eta = %s (its own final check: %s); the best converged PETSc solver, %s, held to the"
          " same eta <= %s (reached %s), takes **%.1fx** its time (target >= 3x: %s)."
          % (problem["tolerance"], ssn_row["eta"], "met" if ssn_row["converged"] == "1" else "**not met**",
             best["solver"][4:].upper(), problem["tolerance"], best["eta"], ratio,
             "met" if ratio >= 3 else "**missed**"))
    tight = by.get("semismooth_newton_tight_cg")
    if tight:
        print("With the tight CG of earlier versions (1e-13 relative, eta %s, five orders below the target)"
              " the best PETSc solver takes %.1fx the time of semismooth Newton."
              % (tight["eta"], float(best["seconds"]) / float(tight["seconds"])))
small = by.get("penalty_newton_small")
if small:
    ref = float(by["semismooth_newton_small"]["seconds"])
    print("\nPenalty/Newton (67)-(74) factorizes the dense tau C M^-1 C and refuses more than %s unknowns;"
          " at n = %s (epsilon = %s) it took %s Newton steps, %.3g s per solve plus %s s of setup"
          " (eta %s), against %.3g s for semismooth Newton at the same size (%.0fx)."
          % (small["n"], small["n"], small["epsilon"], small["iterations"], float(small["seconds"]),
             small["setup_seconds"], small["eta"], ref, float(small["seconds"]) / ref))
print("\nLoad average when this section ran: %.1f (2 cores)." % os.getloadavg()[0])
PY
friction_out2=$("${mpi[@]}" -np 2 build/bench/stickslip_friction_step_solvers 1000000 1e-6 120 2>&1 | grep '^friction_bench ')
python3 - <<PY
rows = []
for line in """$friction_out2""".splitlines():
    words = line.split()
    row = dict(zip(words[2::2], words[3::2]))
    row["solver"] = words[1]
    rows.append(row)
by = {r["solver"]: r for r in rows}
ssn = float(by["semismooth_newton"]["seconds"])
print("\nThe same step on 2 ranks:\n")
print("| solver | iterations | seconds per solve | ratio to semismooth Newton | eta reached | converged |")
print("|---|---|---|---|---|---|")
for r in rows:
    if r["solver"].endswith("_small"):
        continue
    t = float(r["seconds"])
    print("| %s | %s | %.3g | %.1fx | %s | %s |" % (r["solver"], r["iterations"], t, t / ssn, r["eta"],
          "yes" if r["converged"] == "1" else "**no** (%s)" % r.get("reason", "tolerance not met")))
tao = [r for r in rows if r["solver"].startswith("tao_") and r["converged"] == "1"]
if tao:
    best = min(tao, key=lambda r: float(r["seconds"]))
    tight = by.get("semismooth_newton_tight_cg")
    print("\nBest converged PETSc solver on 2 ranks: %s, **%.1fx** the time of semismooth Newton at its default"
          " settings (equal accuracy, eta %s); %.1fx that of semismooth Newton with the tight CG."
          % (best["solver"][4:].upper(), float(best["seconds"]) / ssn, by["semismooth_newton"]["eta"],
             float(best["seconds"]) / float(tight["seconds"])))
PY
