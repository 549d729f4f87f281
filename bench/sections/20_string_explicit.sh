#!/usr/bin/env bash
# The lumped explicit string: Lie, P = Q = 1, alpha = 0, closed form, 2^20
# cells (1048577 unknowns), 200 steps, no field output; 1 and 2 ranks against
# the bandwidth limit measured in the same run.
#
# Bytes per dof-update, 8 B per vector entry read or written (the triad's own
# convention, no write-allocate), a product with A (P1, 3 entries a row) 56 B:
# 3 values and 3 column indices (36), a row pointer (4), x (8), y written (8).
# The step is FusedLieStep (src/time/fused_lie_step.cc), pass by pass:
#   pass A: read X, X^1 of the last step (to check X is still it), V, m, c,
#           A X (kept from the last step); write X^1, lambda, stick    72
#   A X^1 (PETSc MatMult)                                               56
#   pass B: read X, X^1, m, A X^1; write X = X^1, V                     48
#   the per-step check (max |X|, max |V|, FrictionEvolution)            16
#   total                                                              192
# (zero forcing: no force vector; 1/m computed in the passes, not read).
# Before the fusion (FrictionSubsteps + ElasticSubsteps::explicit_leapfrog):
# lambda = 0, stick = 1, f = 0 (8 each); the friction pass (read m, c, f, W,
# lambda, stick; write W, lambda, stick: 72); A X (56); X^0, X^1 (read X, V,
# A X, 1/m; write 2: 48); A X^1 (56); X^2 (read 4, write 1: 40); X, V (read 3,
# write 2: 40); the check (16): 352. The algorithm's 144 applies A twice; the
# fused step applies it once, A X^{n+1} serving the next step too.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
measure_triad
refinements=20; steps=200; dofs=$(( (1 << refinements) + 1 ))
string_args=(prm/string.prm --quiet --set "Output/Overwrite=true" --set "Output/Interval=1"
  --set "Output/Field output=false" --set "String/Global refinements=$refinements"
  --set "Time/Time step=2.5e-7" --set "Time/Final time=5e-5")
out1=$("$exe" "${string_args[@]}" --set "Output/Directory=$work/s1")
out2=$("${mpi[@]}" -np 2 "$exe" "${string_args[@]}" --set "Output/Directory=$work/s2")
python3 - "$triad1" "$triad2" "$(wall <<<"$out1")" "$(wall <<<"$out2")" "$dofs" "$steps" <<'PY'
import sys
triad1, triad2, t1, t2 = map(float, sys.argv[1:5])
dofs, steps = int(sys.argv[5]), int(sys.argv[6])
rate1, rate2 = dofs * steps / t1, dofs * steps / t2
B_min, B_impl = 144, 192
limit = triad1 * 1e9 / B_min
print("## Lumped explicit string (Lie, P = Q = 1, alpha = 0, closed form)\n")
print("%d unknowns, %d steps, no field output. A dof-update is one unknown advanced one time step." % (dofs, steps))
print("Bytes per dof-update: **%d** for the algorithm itself (read X, V, 1/m, c; apply A twice, 44 B each;"
      " write X, V, lambda) and %d (%.2fx) as this implementation moves them (counted pass by pass in"
      " bench/sections/20_string_explicit.sh: two fused passes around one product with A, whose result"
      " serves the next step too; 352 before the fusion)." % (B_min, B_impl, B_impl / B_min))
print("The limit is the 1-core triad bandwidth (%.1f GB/s, same run) divided by %d B.\n" % (triad1, B_min))
print("| ranks | wall (time loop) | dof-updates/s per core | fraction of the limit | implementation traffic / triad |")
print("|---|---|---|---|---|")
print("| 1 | %.2f s | %.3g | **%.0f%%** (target >= 50%%) | %.0f%% |" % (t1, rate1, 100 * rate1 / limit, 100 * rate1 * B_impl / (triad1 * 1e9)))
print("| 2 | %.2f s | %.3g | %.0f%% | %.0f%% |\n" % (t2, rate2 / 2, 100 * rate2 / 2 / limit, 100 * rate2 / 2 * B_impl / (triad1 * 1e9)))
print("Speed-up 2 ranks / 1 rank: **%.2fx**, against %.2fx for the triad itself on the same two cores%s."
      % (t1 / t2, 2 * triad2 / triad1,
         ": the kernel is memory bound and two cores share one memory system here"
         if t1 / t2 <= 2 * triad2 / triad1 else
         " (one core alone does not saturate the memory system, and the kernel moves less than the"
         " triad per core: see the last column)"))
PY
echo; echo "Load average when this section ran: $(load_average) (2 cores)."
