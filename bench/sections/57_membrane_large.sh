#!/usr/bin/env bash
# The Q1 membrane at 10^7 unknowns and more on one machine: the unit square,
# 12 refinements (4096 x 4096 cells, 16785409 unknowns), lumped mass, the
# fused explicit Lie step (clamped edges, u_D = 0), 10 steps, 1 rank, with
# the assembled and the matrix-free stiffness. About 12-14 GB and 2 minutes
# per run: run it alone. MEMBRANE_REFINEMENTS=n tries another size.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
refinements=${MEMBRANE_REFINEMENTS:-12}; n=$(( ((1 << refinements) + 1) ** 2 ))
setup_s() { grep '^| set-up ' | awk -F'|' '{gsub(/[ s]/, "", $4); print $4}'; }
loop_s() { grep '^| time loop ' | awk -F'|' '{gsub(/[ s]/, "", $4); print $4}'; }
model_setup() { grep -o 'set-up of the model: .*' | head -1 | sed 's/set-up of the model: //'; }
rows=()
for operator in assembled matrix-free; do
  out=$( { /usr/bin/time -v "$exe" prm/membrane_manufactured.prm --set "Output/Overwrite=true" \
    --set "Output/Interval=1" --set "Output/Field output=false" \
    --set "String/Global refinements=$refinements" --set "String/Stiffness operator=$operator" \
    --set "String/Dirichlet data=0" --set "String/Forcing=0" --set "String/Initial velocity=sin(pi*x)*sin(pi*y)" \
    --set "String/Exact displacement=" --set "String/Exact velocity=" --set "String/Exact multiplier=" \
    --set "Splitting/Friction substeps=1" --set "Splitting/Elastic substeps=1" \
    --set "Splitting/Elastic implicitness=0" --set "Time/Time step=5e-5" --set "Time/Final time=5e-4" \
    --set "Output/Directory=$work/$operator"; } 2>&1 )
  grep -q "Lie splitting" <<<"$out" || { echo "$out" | tail -20 >&2; exit 1; }
  rows+=("$operator" "$(setup_s <<<"$out")" "$(loop_s <<<"$out")" "$(rss_kb <<<"$out")"
    "$(elapsed_s <<<"$out")" "$(model_setup <<<"$out")")
done
python3 - "$n" "$refinements" "${rows[@]}" <<'PY'
import sys, os
n, refinements = int(sys.argv[1]), int(sys.argv[2])
a = sys.argv[3:]
runs = [(a[i], float(a[i + 1]), float(a[i + 2]), int(a[i + 3]), float(a[i + 4]), a[i + 5])
        for i in range(0, len(a), 6)]
steps = 10
print("## The membrane at 10⁷ unknowns on one machine\n")
print("Q1 on the unit square, %d refinements (%d unknowns), lumped mass, the fused explicit Lie step"
      " (u = 0 on the edges, u1 = sin(pi x) sin(pi y)), %d steps, 1 rank, no field output.\n"
      % (refinements, n, steps))
print("| stiffness | set-up + run wall | set-up | time loop (%d steps) | dof-updates/s | peak RSS | bytes per unknown |" % steps)
print("|---|---|---|---|---|---|---|")
for operator, setup, loop, rss_kb, elapsed, model in runs:
    print("| %s | %.0f s | %.0f s | %.2f s | %.3g | %.1f GB | %.0f |"
          % (operator, elapsed, setup, loop, n * steps / loop, rss_kb / 2**20, rss_kb * 1024 / n))
largest = max(r[3] for r in runs)
print("\nTarget (issue 17): a membrane with 10⁷ unknowns on one 24 GiB machine: %s (%.1f GB at the"
      " most). Where the model's set-up went: %s.\n"
      % ("met" if largest < 24 * 2**20 else "**missed**", largest / 2**20,
         "; ".join("%s: %s" % (r[0], r[5]) for r in runs)))
print("Load average when this section ran: %.1f (2 cores)." % os.getloadavg()[0])
PY
