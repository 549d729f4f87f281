#!/usr/bin/env bash
# The Q1 membrane at 10^7 unknowns and more on one machine: the unit square,
# 12 refinements (4096 x 4096 cells, 16785409 unknowns), lumped mass, the
# fused explicit Lie step (clamped edges, u_D = 0), 10 steps, 1 rank, the
# matrix-free stiffness (the smaller of the two operators, section 25).
# About 18 GB and 15 minutes: run it alone.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
refinements=${MEMBRANE_REFINEMENTS:-12}; n=$(( ((1 << refinements) + 1) ** 2 ))
setup_s() { grep '^| set-up ' | awk -F'|' '{gsub(/[ s]/, "", $4); print $4}'; }
loop_s() { grep '^| time loop ' | awk -F'|' '{gsub(/[ s]/, "", $4); print $4}'; }
model_setup() { grep -o 'set-up of the model: .*' | head -1 | sed 's/set-up of the model: //'; }
out=$( { /usr/bin/time -v "$exe" prm/membrane_manufactured.prm --set "Output/Overwrite=true" \
  --set "Output/Interval=1" --set "Output/Field output=false" \
  --set "String/Global refinements=$refinements" --set "String/Stiffness operator=matrix-free" \
  --set "String/Dirichlet data=0" --set "String/Forcing=0" --set "String/Initial velocity=sin(pi*x)*sin(pi*y)" \
  --set "String/Exact displacement=" --set "String/Exact velocity=" --set "String/Exact multiplier=" \
  --set "Splitting/Friction substeps=1" --set "Splitting/Elastic substeps=1" \
  --set "Splitting/Elastic implicitness=0" --set "Time/Time step=5e-5" --set "Time/Final time=5e-4" \
  --set "Output/Directory=$work/m"; } 2>&1 )
grep -q "Lie splitting" <<<"$out" || { echo "$out" | tail -20 >&2; exit 1; }
python3 - "$n" "$refinements" "$(setup_s <<<"$out")" "$(loop_s <<<"$out")" "$(rss_kb <<<"$out")" \
  "$(elapsed_s <<<"$out")" "$(model_setup <<<"$out")" <<'PY'
import sys, os
n, refinements = int(sys.argv[1]), int(sys.argv[2])
setup, loop = float(sys.argv[3]), float(sys.argv[4])
rss_kb, elapsed = int(sys.argv[5]), float(sys.argv[6]); model = sys.argv[7]
steps = 10
print("## The membrane at 10⁷ unknowns on one machine\n")
print("Q1 on the unit square, %d refinements, lumped mass, matrix-free stiffness, the fused explicit"
      " Lie step (u = 0 on the edges, u1 = sin(pi x) sin(pi y)), %d steps, 1 rank, no field output.\n"
      % (refinements, steps))
print("| unknowns | set-up + run wall | set-up | time loop (%d steps) | dof-updates/s | peak RSS | bytes per unknown |" % steps)
print("|---|---|---|---|---|---|---|")
print("| %d | %.0f s | %.0f s | %.2f s | %.3g | %.1f GB | %.0f |"
      % (n, elapsed, setup, loop, n * steps / loop, rss_kb / 2**20, rss_kb * 1024 / n))
print("\nTarget (issue 17): a membrane with 10⁷ unknowns on one 24 GiB machine: %s (%.1f GB peak)."
      " Where the model's set-up went: %s.\n" % ("met" if rss_kb < 24 * 2**20 else "**missed**", rss_kb / 2**20, model))
print("Load average when this section ran: %.1f (2 cores)." % os.getloadavg()[0])
PY
