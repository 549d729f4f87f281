#!/usr/bin/env bash
# quick_start_twice.sh SOURCE_DIR BUILD_DIR WORK_DIR
# The README's quick start, ./run.sh, run twice in a row: both runs must
# succeed (an example overwrites its own earlier output and says so), and the
# flagship run must reach its final time. Then a parameter file of the user's
# own, run twice on 2 ranks: the second run is refused (exit 1) and
# stickslip's message is the last thing printed (no mpirun banner below it).
set -uo pipefail
src=$1
build=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
export STICKSLIP_BUILD_DIR=$build
fail() { echo "FAIL: $*"; exit 1; }

grep -q '\./run\.sh' "$src/README.md" || fail "README.md has no ./run.sh quick start"

for i in 1 2; do
  (cd "$work" && "$src/run.sh" >"run_$i.txt" 2>&1) ||
    { cat "$work/run_$i.txt"; fail "./run.sh number $i exited with $?"; }
done
grep -q 'overwritten on every ./run.sh' "$work/run_2.txt" ||
  fail "the second ./run.sh did not say that the example output is overwritten"
history=$src/output/string/history.csv
last_time=$(tail -n 1 "$history" | cut -d, -f1)
python3 -c "import sys; sys.exit(0 if abs(float('$last_time') - 4) < 1e-12 else 1)" ||
  fail "the flagship's history.csv ends at t = $last_time, not 4"

# A file of the user's own: the output folder is protected.
sed "s|output/string|$work/own_output|" "$src/prm/string.prm" >"$work/own.prm"
own_args=("$work/own.prm" -np 2 --set "Time/Final time=0.01")
(cd "$work" && "$src/run.sh" "${own_args[@]}" >own_1.txt 2>&1) ||
  { cat "$work/own_1.txt"; fail "the first run of own.prm failed"; }
(cd "$work" && "$src/run.sh" "${own_args[@]}" >own_2.txt 2>&1)
status=$?
[ "$status" -eq 1 ] || { cat "$work/own_2.txt"; fail "the second run of own.prm exited with $status, expected 1"; }
last_line=$(grep -v '^[[:space:]]*$' "$work/own_2.txt" | tail -n 1)
case "$last_line" in
  "stickslip: error: the output directory"*"Output/Overwrite"*) ;;
  *) cat "$work/own_2.txt"; fail "the last line is not stickslip's message: $last_line" ;;
esac
echo "PASS: ./run.sh twice, and a protected output folder refused with a visible message"
