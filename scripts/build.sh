#!/usr/bin/env bash
# Configures (Release by default) and builds stickslip into build/.
# The compiler's output goes to build/build.log; it is printed only when the
# build fails (or always with STICKSLIP_VERBOSE_BUILD=1).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${STICKSLIP_BUILD_DIR:-$root/build}
build_type=${STICKSLIP_BUILD_TYPE:-Release}
jobs=${STICKSLIP_JOBS:-$(nproc)}

if [ "${STICKSLIP_VERBOSE_BUILD:-0}" = 1 ]; then
  if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
  fi
  cmake --build "$build_dir" -j "$jobs"
  exit 0
fi

mkdir -p "$build_dir"
log=$build_dir/build.log
if [ -f "$build_dir/CMakeCache.txt" ]; then
  echo "stickslip: building in $build_dir ($build_type; compiler output in $log)"
else
  echo "stickslip: first build in $build_dir ($build_type; several minutes on" \
       "2 cores; compiler output in $log)"
fi
{
  if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type"
  fi
  cmake --build "$build_dir" -j "$jobs"
} >"$log" 2>&1 || {
  tail -n 60 "$log" >&2
  echo "stickslip: the build failed; the whole output is in $log" >&2
  exit 1
}
