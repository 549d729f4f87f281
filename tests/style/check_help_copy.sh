#!/usr/bin/env bash
# check_help_copy.sh STICKSLIP DOC: the copy of `stickslip --help` in DOC
# (doc/running.md: the code block after "`build/stickslip --help` prints")
# is what STICKSLIP --help prints, line for line.
set -euo pipefail
exe=$1; doc=$2
copy=$(awk '/^`build\/stickslip --help` prints/ { found = 1; next }
            found && /^```/ { if (++fences == 2) exit; next }
            found && fences == 1' "$doc")
[ -n "$copy" ] || { echo "FAIL: no copy of --help found in $doc"; exit 1; }
if ! diff <(printf '%s\n' "$copy") <("$exe" --help); then
  echo "FAIL: the copy of --help in $doc (<) is not what stickslip --help prints (>): paste the new text"
  exit 1
fi
