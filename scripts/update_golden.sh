#!/usr/bin/env bash
# scripts/update_golden.sh [--measure] STICKSLIP [NAME...]
#
# Regenerates the golden references tests/golden/NAME/*.csv of the named
# cases (all cases without names) with the binary STICKSLIP, the same runs
# the ctest cases golden_NAME make (tests/golden/CMakeLists.txt, read with
# cmake -P). This is the deliberate act that changes a reference: run it
# only when a change of the results is intended, check the diff (git diff
# --stat tests/golden; the runner prints the old-vs-new differences), say why
# in the commit message, and commit the new references with the change.
#
# --measure writes nothing into tests/golden: it runs each case on its ranks,
# on 1, 2 and 3 ranks and with each of its 1-ulp input perturbations, and
# prints the spreads per column group (doc/reproducibility.md).
#
# Work files go to a new directory under ${TMPDIR:-/tmp}, kept for inspection.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=update
if [ "${1:-}" = "--measure" ]; then mode=measure; shift; fi
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
exe=$1; shift
case "$exe" in /*) ;; *) exe=$(pwd)/$exe ;; esac
if [ ! -x "$exe" ]; then echo "update_golden.sh: $exe is not an executable" >&2; exit 2; fi
command -v numdiff >/dev/null || { echo "update_golden.sh: numdiff is not installed" >&2; exit 2; }
python=$(command -v python3)

work=$(mktemp -d "${TMPDIR:-/tmp}/stickslip_golden.XXXXXX")
cmake -DGOLDEN_LIST="$work/cases.txt" -P "$root/tests/golden/CMakeLists.txt"

declare -A known=()
while IFS=$'\t' read -r name _; do known[$name]=1; done < "$work/cases.txt"
declare -A wanted=()
for name in "$@"; do
  if [ -z "${known[$name]:-}" ]; then
    echo "update_golden.sh: no golden case '$name' (tests/golden/CMakeLists.txt)" >&2
    exit 2
  fi
  wanted[$name]=1
done
status=0
while IFS=$'\t' read -r -a fields; do
  name=${fields[0]}
  if [ $# -gt 0 ] && [ -z "${wanted[$name]:-}" ]; then continue; fi
  echo "==== $name ($mode)"
  # Keep the old references, to show what the update changes.
  if [ "$mode" = update ] && [ -d "$root/tests/golden/$name" ]; then
    mkdir -p "$work/old/$name"
    cp "$root/tests/golden/$name"/*.csv "$work/old/$name/" 2>/dev/null || true
  fi
  if ! "$python" "$root/tests/golden/run_golden.py" "$mode" --exe "$exe" \
       --out "$work/$name" --reference "$root/tests/golden/$name" "${fields[@]:1}" < /dev/null; then
    echo "update_golden.sh: case $name failed" >&2
    status=1
  fi
done < "$work/cases.txt"

for dir in "$root"/tests/golden/*/; do
  name=$(basename "$dir")
  if [ -z "${known[$name]:-}" ]; then
    echo "update_golden.sh: warning: tests/golden/$name is no case any more; remove it" >&2
  fi
done
if [ "$mode" = update ]; then
  for dir in "$work"/old/*/; do
    [ -d "$dir" ] || continue
    name=$(basename "$dir")
    echo "---- $name: new reference against the old one"
    files=()
    for f in "$dir"*.csv; do files+=("$(basename "$f")"); done
    "$python" "$root/tests/golden/run_golden.py" spread "$dir" \
      "$root/tests/golden/$name" "${files[@]}" || true
  done
  (cd "$root" && git status --short tests/golden) || true
fi
echo "work files: $work"
exit $status
