#!/usr/bin/env bash
# The lumped explicit string: Lie, P = Q = 1, alpha = 0, closed form, 2^20
# cells (1048577 unknowns), 200 steps, no field output; 1 and 2 ranks against
# the bandwidth limit measured in the same run.
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
B_min, B_impl = 144, 352
limit = triad1 * 1e9 / B_min
print("## Lumped explicit string (Lie, P = Q = 1, alpha = 0, closed form)\n")
print("%d unknowns, %d steps, no field output. A dof-update is one unknown advanced one time step." % (dofs, steps))
print("Bytes per dof-update: **%d** for the algorithm itself (read X, V, 1/m, c; apply A twice, 44 B each;"
      " write X, V, lambda) and %d as this implementation moves them (counted pass by pass)." % (B_min, B_impl))
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
