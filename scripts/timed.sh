#!/usr/bin/env bash
# scripts/timed.sh FILE NAME COMMAND...
# Runs COMMAND and appends "NAME WALL CPU" to FILE: its wall time and the CPU
# time (user + system) of every process it started, in seconds. COMMAND's
# exit status is this script's. Used by test.sh (build/test_times.txt) and
# bench/sections/92_test_suite.sh.
set -uo pipefail
file=$1 name=$2
shift 2
start=$(date +%s.%N)
status=0
"$@" || status=$?
end=$(date +%s.%N)
t=$(mktemp)
times >"$t"   # a redirect, not $(times): a subshell would see no children
cpu=$(tail -n 1 "$t" | tr 'ms' '  ' | awk '{ printf "%.1f", $1 * 60 + $2 + $3 * 60 + $4 }')
rm -f "$t"
awk -v n="$name" -v w0="$start" -v w1="$end" -v c="$cpu" \
  'BEGIN { printf "%s %.1f %s\n", n, w1 - w0, c }' >>"$file"
exit $status
