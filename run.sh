#!/usr/bin/env bash
# ./run.sh [file.prm] [-np N] [extra stickslip arguments...]
# Installs missing Debian packages, builds stickslip in Release and runs a
# parameter file (default: the flagship example, prm/string.prm).
#
# The examples of prm/ may be run again and again: their output folder is
# overwritten (Output/Overwrite = true) and run.sh says so. A parameter file
# of your own keeps stickslip's rule: an output folder holding an earlier run
# is never overwritten unless the file says Output/Overwrite = true.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

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
  prm=$root/prm/string.prm   # the flagship: the frictional string of Glowinski et al. 2006, eq. (23)
fi
if [ ! -f "$prm" ]; then
  echo "run.sh: error: the parameter file '$prm' does not exist (or is not a file)" >&2
  exit 1
fi
prm=$(cd "$(dirname "$prm")" && pwd)/$(basename "$prm")
cd "$root"

bash scripts/ensure_dependencies.sh
bash scripts/build.sh stickslip

# Is this one of the shipped examples, run without --resume? Then its own
# output folder is overwritten, and the user is told.
example_flags=()
resuming=false
for a in ${extra[@]+"${extra[@]}"}; do
  [ "$a" = "--resume" ] && resuming=true
done
if [ "$(dirname "$prm")" = "$root/prm" ] && [ "$resuming" = false ]; then
  example_flags=(--set "Output/Overwrite=true")
  echo "run.sh: running the example prm/$(basename "$prm"); its output folder" \
       "is overwritten on every ./run.sh (copy the file elsewhere to keep results)"
fi

exe=${STICKSLIP_BUILD_DIR:-$root/build}/stickslip
if [ "$np" -eq 1 ]; then
  # One rank needs no mpirun (MPI starts as a singleton), and stickslip's own
  # message is then the last thing printed when a run fails.
  exec "$exe" "$prm" ${example_flags[@]+"${example_flags[@]}"} ${extra[@]+"${extra[@]}"}
fi

# -q keeps mpirun from adding its abort banner below stickslip's message.
mpi_flags=(-q)
[ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)
[ "$np" -gt "$(nproc)" ] && mpi_flags+=(--oversubscribe)
exec mpirun "${mpi_flags[@]}" -np "$np" "$exe" "$prm" \
  ${example_flags[@]+"${example_flags[@]}"} ${extra[@]+"${extra[@]}"}
