#!/usr/bin/env bash
# Configures (Release by default) and builds stickslip into build/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${STICKSLIP_BUILD_DIR:-$root/build}
build_type=${STICKSLIP_BUILD_TYPE:-Release}
jobs=${STICKSLIP_JOBS:-$(nproc)}

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
fi
cmake --build "$build_dir" -j "$jobs"
