#!/usr/bin/env bash
# expect_status.sh STATUS REGEX COMMAND...: COMMAND exits with STATUS and
# prints a message matching REGEX (grep -E). For a refusal that comes after
# the run has started its directory (expect_failure.sh requires that
# nothing be written).
set -uo pipefail
expected=$1; regex=$2; shift 2
output=$("$@" 2>&1); status=$?
echo "$output"
if [ $status -ne "$expected" ]; then echo "FAIL: exit status $status, not $expected"; exit 1; fi
if ! grep -Eq -- "$regex" <<<"$output"; then echo "FAIL: message does not match /$regex/"; exit 1; fi
echo "PASS (exit status $status)"
