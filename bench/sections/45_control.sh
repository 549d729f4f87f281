#!/usr/bin/env bash
# Optimal control by parallel direct search (Glowinski & Kearsley 1995 TP1): simulations
# (IVPs) per second with 1 and 2 ranks, one simulation per rank.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
control_args=(prm/tp1_control.prm --set "Output/Overwrite=true"
  --set "Control/Search scheme=-1, -2, 0.5, -4, 0.25, -0.5")
pds_rate() { grep -o 'optimum after [0-9]* simplexes, [0-9]* simulations (IVPs), wall [0-9.e+-]* s' |
  awk '{print $5, $9}'; }
read -r ivp1 tc1 < <("$exe" "${control_args[@]}" --set "Output/Directory=$work/c1" | pds_rate)
read -r ivp2 tc2 < <("${mpi[@]}" -np 2 "$exe" "${control_args[@]}" --set "Output/Directory=$work/c2" | pds_rate)
python3 - "$ivp1" "$tc1" "$ivp2" "$tc2" <<'PY'
import sys
ivp1, tc1, ivp2, tc2 = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
print("## Optimal control: parallel direct search (TP1 of Glowinski & Kearsley 1995, template of 18 points)\n")
print("Each simulation is a whole 400-step run of the centered scheme on one rank; the trial points of a")
print("simplex are dealt out to the ranks and the outcomes summed (MPI_Allreduce). Same optimum on 1 and 2 ranks.\n")
print("| ranks | simulations | wall | simulations/s | speed-up |")
print("|---|---|---|---|---|")
print("| 1 | %d | %.2f s | %.0f | 1 |" % (ivp1, tc1, ivp1 / tc1))
print("| 2 | %d | %.2f s | %.0f | **%.2fx** (ideal 2x: independent runs, no shared memory traffic) |"
      % (ivp2, tc2, ivp2 / tc2, (ivp2 / tc2) / (ivp1 / tc1)))
PY
