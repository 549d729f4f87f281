#!/usr/bin/env bash
# Peak memory per unknown of the lumped explicit string (2^20 cells) and of
# the Q1 membrane (1024 x 1024 cells), 1 rank.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
refinements=20; dofs=$(( (1 << refinements) + 1 ))
string_args=(prm/string.prm --quiet --set "Output/Overwrite=true" --set "Output/Interval=1"
  --set "Output/Field output=false" --set "String/Global refinements=$refinements"
  --set "Time/Time step=2.5e-7" --set "Time/Final time=5e-5")
outs=$( { /usr/bin/time -v "$exe" "${string_args[@]}" --set "Output/Directory=$work/s"; } 2>&1 )
membrane_args=(prm/membrane_manufactured.prm --quiet --set "Output/Overwrite=true"
  --set "Output/Interval=1" --set "Output/Field output=false" --set "String/Global refinements=10"
  --set "Time/Time step=2.5e-4" --set "Time/Final time=5e-3" --set "Splitting/Friction substeps=1"
  --set "Splitting/Elastic substeps=1" --set "Splitting/Elastic implicitness=0"
  --set "String/Exact displacement=" --set "String/Exact velocity=" --set "String/Exact multiplier=")
outm=$( { /usr/bin/time -v "$exe" "${membrane_args[@]}" --set "Output/Directory=$work/m"; } 2>&1 )
python3 - "$dofs" "$(rss_kb <<<"$outs")" $(( 1025 * 1025 )) "$(rss_kb <<<"$outm")" "$(wall <<<"$outm")" <<'PY'
import sys
dofs, rss_s, mdofs, rss_m = map(int, sys.argv[1:5])
tm = float(sys.argv[5])
print("## Peak memory per unknown\n")
print("| run | unknowns | peak RSS | bytes per unknown |")
print("|---|---|---|---|")
print("| string 1D, P1 lumped, 1 rank | %d | %.0f MB | %.0f |" % (dofs, rss_s / 1024, rss_s * 1024 / dofs))
print("| membrane 2D, Q1 lumped, 1 rank (%.1f s for 20 steps) | %d | %.0f MB | %.0f |" % (tm, mdofs, rss_m / 1024, rss_m * 1024 / mdofs))
print("\nTarget: at most 300 B per unknown for both.")
PY
