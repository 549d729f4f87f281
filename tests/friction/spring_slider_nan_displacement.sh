#!/usr/bin/env bash
# spring_slider_nan_displacement.sh EXE SRC OUTDIR
# A prescribed slider displacement that turns NaN at t = 2 (D7): the run
# fails with exit status 2, the message names the parameter, where it was
# set, its value and the time, and the last good state (t = 1.995, the step
# before) is the last row of history.csv although Output/Interval = 0.5
# has no row there.
set -uo pipefail
exe=$1; src=$2; out=$3
rm -rf "$out"
output=$("$exe" "$src/prm/spring_slider_rate_state.prm" --set "Output/Directory=$out" \
  --set "Spring slider/Slider displacement=t < 2 ? 1e-6*t : sqrt(-1)" 2>&1); status=$?
echo "$output"
fail() { echo "FAIL: $1"; exit 1; }
[ "$status" -eq 2 ] || fail "exit status $status, expected 2"
grep -Eq "parameter 'Spring slider/Slider displacement' \(set on the command line by --set\) = 't < 2 \? 1e-6\*t : sqrt\(-1\)' became -?nan at t = 2 during the run.*last good state \(t = 1\.995\) is in history\.csv" <<<"$output" ||
  fail "message does not name the parameter, its value, the time and the last good state"
last=$(tail -n 1 "$out/history.csv")
echo "last row: $last"
[[ "$last" == 1.995,* ]] || fail "the last row of history.csv is not the last good state (t = 1.995)"
grep -q ',,\|,$' "$out/history.csv" && fail "history.csv has an empty field"
echo "PASS"
