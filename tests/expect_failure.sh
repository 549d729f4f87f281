#!/usr/bin/env bash
# expect_failure.sh OUTDIR REGEX COMMAND...
# Bad-input test: OUTDIR first holds a sentinel history.csv (an earlier run);
# COMMAND must exit non-zero, print a message matching REGEX (grep -E), and
# leave the sentinel untouched; an error message is printed at most once.
set -uo pipefail
out=$1; regex=$2; shift 2
rm -rf "$out"; mkdir -p "$out"
echo "sentinel of an earlier run" > "$out/history.csv"
# CMake cannot pass a literal ";" in a list: tests write @SEMI@.
command=()
for word in "$@"; do command+=("${word//@SEMI@/;}"); done
output=$("${command[@]}" 2>&1); status=$?
echo "$output"
if [ $status -eq 0 ]; then echo "FAIL: exit status 0"; exit 1; fi
if ! grep -Eq -- "$regex" <<<"$output"; then echo "FAIL: message does not match /$regex/"; exit 1; fi
# Under MPI every rank stops, but the message is printed once.
errors=$(grep -c "^stickslip: error" <<<"$output")
if [ "$errors" -gt 1 ]; then echo "FAIL: the error is printed $errors times"; exit 1; fi
if [ "$(cat "$out/history.csv")" != "sentinel of an earlier run" ]; then echo "FAIL: earlier results overwritten"; exit 1; fi
if [ -e "$out/errors.csv" ] || [ -e "$out/parameters.prm" ]; then echo "FAIL: files written"; exit 1; fi
echo "PASS (exit status $status)"
