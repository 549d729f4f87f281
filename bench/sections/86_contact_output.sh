#!/usr/bin/env bash
# The cost of one contact-surface write and one volume write of
# prm/body_fronts_2d.prm (issue 33, item 2), VTU against HDF5 (Output/Field
# format), from the run's own timer: each format runs 300 rows (Final time
# 3e-4) three times, writing nothing after row 0 (the baseline: the history
# rows, the first writes), the contact surface at every row, or the volume
# at every 10th row; the cost of a write is the difference to the baseline
# over the 300 (30) writes. The smallest of 2 repeats of each run. Then the
# whole example once: the share of its wall time that output takes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The wall seconds of the timer's "time loop: output" row.
output_seconds() {
  local best=""
  for _ in 1 2; do
    local s
    s=$($exe prm/body_fronts_2d.prm --set "Time/Final time=3e-4" \
          --set "Output/Directory=$scratch/run" --set "Output/Overwrite=true" "$@" |
        grep 'time loop: output' | awk -F'|' '{print $4}' | tr -d ' s')
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$s; fi
  done
  echo "$best"
}
echo "## Field output of body_fronts_2d.prm: contact surface and volume, VTU and HDF5"
echo
echo "prm/body_fronts_2d.prm (400 x 200 Q1 cells, 161202 unknowns, 401 contact nodes) for 300 rows, one rank; the cost of a write from the run's timer (\`time loop: output\`): the run writing the contact surface at every row, or the volume at every 10th, minus the run writing neither after row 0, over the number of writes; the smallest of 2 repeats (\`bench/sections/86_contact_output.sh\`)."
echo
echo "| format | precision | baseline s (300 rows) | ms per contact write | ms per volume write |"
echo "|---|---|---|---|---|"
for case in "vtu double" "hdf5 double" "hdf5 single"; do
  set -- $case
  common=(--set "Output/Field format=$1" --set "Output/Field precision=$2")
  base=$(output_seconds "${common[@]}" --set "Output/Field output every=100000" \
           --set "Output/Contact output every=100000")
  contact=$(output_seconds "${common[@]}" --set "Output/Field output every=100000" \
              --set "Output/Contact output every=1")
  volume=$(output_seconds "${common[@]}" --set "Output/Field output every=10" \
             --set "Output/Contact output every=100000")
  awk -v f="$1" -v p="$2" -v b="$base" -v c="$contact" -v v="$volume" 'BEGIN {
    printf "| %s | %s | %.3f | %.2f | %.1f |\n", f, (f == "vtu" ? "(32-bit)" : p), b,
           1000 * (c - b) / 300, 1000 * (v - b) / 30 }'
done
echo
# The whole example at its settings (issue 33's target: output <= 10% of its
# wall time): the timer's output row against its total, once.
$exe prm/body_fronts_2d.prm --set "Output/Directory=$scratch/whole" \
  --set "Output/Overwrite=true" >"$scratch/whole.log"
whole=$(grep 'Total wallclock' "$scratch/whole.log" | awk -F'|' '{print $3}' | tr -d ' s')
out=$(grep 'time loop: output' "$scratch/whole.log" | awk -F'|' '{print $4}' | tr -d ' s')
files=$(find "$scratch/whole" -type f | wc -l)
awk -v w="$whole" -v o="$out" -v n="$files" 'BEGIN {
  printf "The whole example (3001 rows, 1501 contact and 31 volume outputs, HDF5 single precision): %.1f s, of which output %.2f s: **%.1f%%** of the wall time (target: at most 10%%), %d files.\n", w, o, 100 * o / w, n }'
echo
echo "Load average at the end: $(load_average)."
