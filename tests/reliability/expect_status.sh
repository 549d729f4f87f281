#!/usr/bin/env bash
# expect_status.sh STATUS OUTDIR REGEX COMMAND...
# A run that must fail with exit status STATUS and a message matching REGEX
# (grep -E), printed once (under MPI too).
#   STATUS 1, bad input: nothing may be written. OUTDIR first holds a
#     sentinel history.csv (an earlier run), which must stay untouched, and
#     no parameters.prm may appear (as tests/expect_failure.sh).
#   STATUS 2, a run that fails: the results up to the failure are kept.
#     OUTDIR starts missing; history.csv must then hold its header and at
#     least MIN_ROWS rows (environment, default 1), every field of every row
#     after the one at t0 a number (a NaN is written as an empty field; at
#     t0 the multipliers of some models are not defined yet). MIN_ROWS=0:
#     a failure during the set-up, before anything was written.
# CMake cannot pass a literal ";" in a list: tests write @SEMI@.
set -uo pipefail
expected=$1; out=$2; regex=$3; shift 3
rm -rf "$out"
if [ "$expected" -eq 1 ]; then
  mkdir -p "$out"
  echo "sentinel of an earlier run" > "$out/history.csv"
fi
command=()
for word in "$@"; do command+=("${word//@SEMI@/;}"); done
output=$("${command[@]}" 2>&1); status=$?
echo "$output"
fail() { echo "FAIL: $1"; exit 1; }
[ "$status" -eq "$expected" ] || fail "exit status $status, expected $expected"
grep -Eq -- "$regex" <<<"$output" || fail "message does not match /$regex/"
messages=$(grep -Ec "^stickslip: (error|run failed)" <<<"$output")
[ "$messages" -le 1 ] || fail "the message is printed $messages times"
if [ "$expected" -eq 1 ]; then
  [ "$(cat "$out/history.csv")" = "sentinel of an earlier run" ] ||
    fail "earlier results overwritten"
  [ ! -e "$out/parameters.prm" ] || fail "parameters.prm written"
elif [ "${MIN_ROWS:-1}" -eq 0 ] && [ ! -e "$out/history.csv" ]; then
  # A failure during the set-up: nothing had been written yet.
  [ ! -e "$out/parameters.prm" ] || fail "parameters.prm without history.csv"
else
  [ -f "$out/history.csv" ] || fail "no history.csv kept"
  rows=$(($(wc -l < "$out/history.csv") - 1))
  [ "$rows" -ge "${MIN_ROWS:-1}" ] ||
    fail "history.csv has $rows rows, expected at least ${MIN_ROWS:-1}"
  if tail -n +3 "$out/history.csv" | grep -Eq '(^,|,,|,$)'; then
    fail "history.csv has an empty (NaN) field"
  fi
  echo "history.csv: $rows rows, the last: $(tail -n 1 "$out/history.csv" | cut -c1-60)"
fi
echo "PASS (exit status $status)"
