#!/usr/bin/env bash
# ./test.sh [ctest arguments...]
# Installs missing Debian packages, builds stickslip in Release and runs every test with ctest.
# The wall and CPU time (user + system, of every process it started) of each
# stage goes to build/test_times.txt (bench/sections/90_test_suite.sh reads it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"

# timed NAME COMMAND...: runs COMMAND; appends "NAME wall_s cpu_s" to $times_file.
times_file=
children_cpu() {   # user + system seconds of the finished children of this shell
  local t
  t=$(mktemp)
  times >"$t"   # a redirect, not $(times): a subshell would see no children
  tail -n 1 "$t" | tr 'ms' '  ' | awk '{ printf "%.2f", $1 * 60 + $2 + $3 * 60 + $4 }'
  rm -f "$t"
}
timed() {
  local name=$1 start cpu0 status=0
  shift
  start=$(date +%s.%N)
  cpu0=$(children_cpu)
  "$@" || status=$?
  if [ -n "$times_file" ]; then
    awk -v n="$name" -v w0="$start" -v w1="$(date +%s.%N)" -v c0="$cpu0" \
        -v c1="$(children_cpu)" 'BEGIN { printf "%s %.1f %.1f\n", n, w1 - w0, c1 - c0 }' \
      >>"$times_file"
  fi
  return $status
}

bash scripts/ensure_dependencies.sh --tests
mkdir -p "${STICKSLIP_BUILD_DIR:-build}"
build=$(cd "${STICKSLIP_BUILD_DIR:-build}" && pwd)
times_file=$build/test_times.txt
: >"$times_file"
timed build bash scripts/build.sh
# The two extra builds that tests compare with or run under (the Trilinos
# backend; Debug with the sanitizers) are compiled here, before the tests:
# inside a test a whole second build had to fit the test's time limit, which
# a loaded machine can exceed. The tests then find them up to date.
echo "stickslip: building the Trilinos and the Debug + sanitizer variants" \
     "(logs in $build/variants.log)"
{
  timed build_trilinos bash tests/trilinos_backend.sh "$root" "$build/trilinos" --build-only &&
  timed build_debug_sanitize bash tests/debug_sanitizer_build.sh "$root" "$build/debug_sanitize" \
       "$build/tests/output/debug_sanitizer_build" --build-only
} >"$build/variants.log" 2>&1 || {
  tail -n 60 "$build/variants.log" >&2
  echo "stickslip: a variant build failed; the whole output is in $build/variants.log" >&2
  exit 1
}
cd "$build"
# The suite runs 2- and 3-rank jobs side by side on a few cores: ranks that
# wait for a message give their core away instead of spinning (under a loaded
# machine a 3-rank string run took 217 s spinning and 5 s yielding).
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
timed ctest ctest --output-on-failure -j "${STICKSLIP_TEST_JOBS:-2}" "$@"
