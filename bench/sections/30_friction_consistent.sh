#!/usr/bin/env bash
# The friction step with a consistent mass in a whole run (2^14 cells, 100
# steps, alpha = 1/4): semismooth Newton against the projection algorithm
# (39)-(41) and against the lumped closed form.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
friction_args=(prm/string.prm --quiet --set "Output/Overwrite=true" --set "Output/Interval=1"
  --set "Output/Field output=false" --set "String/Global refinements=14"
  --set "Time/Time step=1e-4" --set "Time/Final time=1e-2" --set "String/Mass=consistent"
  --set "Splitting/Elastic implicitness=0.25")
outn=$("$exe" "${friction_args[@]}" --set "Friction/Solver=semismooth newton" --set "Output/Directory=$work/n")
outp=$("$exe" "${friction_args[@]}" --set "Friction/Solver=projection" --set "Output/Directory=$work/p")
outl=$("$exe" "${friction_args[@]}" --set "String/Mass=lumped" --set "Friction/Solver=closed form" --set "Output/Directory=$work/l")
per_solve() { grep -o '([0-9.]* per solve)' | tr -d '(' | awk '{print $1}'; }
python3 - "$(wall <<<"$outn")" "$(wall <<<"$outp")" "$(wall <<<"$outl")" \
  "$(per_solve <<<"$outn")" "$(per_solve <<<"$outp")" <<'PY'
import sys
tn, tp, tl = map(float, sys.argv[1:4])
itn, itp = sys.argv[4:6]
print("## Friction step with a consistent mass (string, 16385 unknowns, 100 steps, alpha = 1/4)\n")
print("| friction solver | iterations per solve | wall | ratio to semismooth Newton |")
print("|---|---|---|---|")
print("| semismooth Newton (one masked CG solve per iteration) | %s | %.2f s | 1 |" % (itn, tn))
print("| projection (39)-(41), rho automatic | %s | %.2f s | %.1fx slower |" % (itp, tp, tp / tn))
print("| (lumped mass, closed form: the same step without iteration) | 0 | %.2f s | %.2fx |\n" % (tl, tl / tn))
print("Penalty/Newton (67)-(74) works on the dense tau C M^-1 C and refuses more than 2000 unknowns.")
PY
