#!/usr/bin/env bash
# ./run.sh [file.prm] [-np N] [extra stickslip arguments...]
# Installs missing Debian packages, builds stickslip in Release and runs a parameter file.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"

prm=""
np=1
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -np|--np) np="$2"; shift 2 ;;
    *.prm) prm="$1"; shift ;;
    *) extra+=("$1"); shift ;;
  esac
done
if [ -z "$prm" ]; then
  prm=prm/string.prm   # the flagship example: the frictional string of seed 000 (23)
fi

bash scripts/ensure_dependencies.sh
bash scripts/build.sh

mpi_flags=()
[ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)
[ "$np" -gt "$(nproc)" ] && mpi_flags+=(--oversubscribe)

mpirun "${mpi_flags[@]}" -np "$np" build/stickslip "$prm" "${extra[@]}"
