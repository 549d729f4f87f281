#!/usr/bin/env bash
# run_and_check.sh NP OUTDIR STICKSLIP PRM [stickslip options...] [-- CHECK COMMAND...]
# Runs stickslip on NP ranks into OUTDIR (overwriting, quiet), then the check
# command, in which the word @OUT@ is replaced by OUTDIR. Fails if either fails.
set -euo pipefail
np=$1; out=$2; exe=$3; prm=$4; shift 4
run_args=()
# CMake cannot pass a literal ";" in a list: tests write @SEMI@.
while [ $# -gt 0 ] && [ "$1" != "--" ]; do run_args+=("${1//@SEMI@/;}"); shift; done
[ $# -gt 0 ] && shift

launcher=()
if [ "$np" -gt 1 ]; then
  launcher=(mpirun -np "$np" --oversubscribe)
  [ "$(id -u)" -eq 0 ] && launcher+=(--allow-run-as-root)
fi
mkdir -p "$(dirname "$out")"
"${launcher[@]}" "$exe" "$prm" --quiet \
  --set "Output/Directory=$out" --set "Output/Overwrite=true" "${run_args[@]}"

if [ $# -gt 0 ]; then
  check=()
  for word in "$@"; do check+=("${word//@OUT@/$out}"); done
  "${check[@]}"
fi
