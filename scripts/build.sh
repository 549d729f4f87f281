#!/usr/bin/env bash
# scripts/build.sh [TARGET...]
# Configures (Release by default) and builds stickslip into build/: the
# TARGETs (./run.sh builds only the program, `stickslip`, the first time a
# third less to compile), by default everything a test needs (the program
# and the unit tests).
# The compiler's output goes to build/build.log; it is printed only when the
# build fails (or always with STICKSLIP_VERBOSE_BUILD=1). On a terminal, one
# line shows the build's own progress (its percentage), updated in place.
#
# The build is configured when build/ has no configuration yet, and again
# when Debian packages were installed or removed since (dpkg's status file is
# newer than build/CMakeCache.txt): a configuration must not keep what it
# found, or did not find, before scripts/ensure_dependencies.sh installed
# something. (The tests look their optional programs up when they run, not
# here: tests/first_run/configure_without_test_tools.sh.)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${STICKSLIP_BUILD_DIR:-$root/build}
build_type=${STICKSLIP_BUILD_TYPE:-Release}
jobs=${STICKSLIP_JOBS:-$(nproc)}
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cache=$build_dir/CMakeCache.txt
dpkg_status=/var/lib/dpkg/status

configure=false
why=
if [ ! -f "$cache" ]; then
  configure=true
elif [ -f "$dpkg_status" ] && [ "$dpkg_status" -nt "$cache" ]; then
  configure=true
  why=" (configured again: Debian packages changed since the last configuration)"
fi
configure_build() {
  if $configure; then
    # cmake leaves an unchanged cache as it was: its time is set before (after,
    # it would be newer than the files generated from it, and regenerate them).
    # Configured again, it keeps its settings (its build type among them).
    if [ -f "$cache" ]; then
      touch "$cache"
      cmake -S "$root" -B "$build_dir" || return 1
    else
      cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" || return 1
    fi
  fi
  cmake --build "$build_dir" -j "$jobs" ${targets[@]+"${targets[@]}"}
}

if [ "${STICKSLIP_VERBOSE_BUILD:-0}" = 1 ]; then
  configure_build
  exit 0
fi

mkdir -p "$build_dir"
log=$build_dir/build.log
if [ -f "$cache" ]; then
  echo "stickslip: building in $build_dir ($build_type; compiler output in $log)$why"
else
  echo "stickslip: first build in $build_dir ($build_type; 7 to 11 minutes on" \
       "2 cores; compiler output in $log)"
fi
start=$SECONDS
progress=false
[ -t 1 ] && progress=true
# Every line to the log; on a terminal, the percentage of the build's own
# progress lines ("[ 45%] ..." of make, "[12/130] ..." of ninja) in place.
status=0
configure_build 2>&1 | awk -v logfile="$log" -v progress="$progress" '
  BEGIN { last = -1 }
  { print > logfile; fflush(logfile) }
  progress == "true" {
    p = -1
    if (match($0, /^\[ *[0-9]+%\]/)) p = substr($0, 2, RLENGTH - 3) + 0
    else if (match($0, /^\[[0-9]+\/[0-9]+\]/)) {
      split(substr($0, 2, RLENGTH - 2), n, "/"); p = int(100 * n[1] / n[2])
    }
    if (p >= 0 && p != last) { printf "\rstickslip: building ... %3d%%", p; fflush(); last = p }
  }
  END { if (last >= 0) printf "\r\033[K" }' || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 60 "$log" >&2
  echo "stickslip: the build failed; the whole output is in $log" >&2
  exit 1
fi
elapsed=$((SECONDS - start))
if [ $elapsed -ge 10 ]; then
  echo "stickslip: built in $((elapsed / 60)) min $((elapsed % 60)) s"
fi
