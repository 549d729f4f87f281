#!/usr/bin/env bash
# ./test.sh [ctest arguments...]
# Installs missing Debian packages, builds stickslip in Release and runs every test with ctest.
# The wall and CPU time (user + system, of every process it started) of each
# stage goes to build/test_times.txt (bench/sections/92_test_suite.sh reads it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"

bash scripts/ensure_dependencies.sh --tests
mkdir -p "${STICKSLIP_BUILD_DIR:-build}"
build=$(cd "${STICKSLIP_BUILD_DIR:-build}" && pwd)
times=$build/test_times.txt
: >"$times"
timed() { bash "$root/scripts/timed.sh" "$times" "$@"; }
# The benchmark programs of bench/ are built with it (about 1 CPU-minute
# without a compiler cache): bench/run.sh must find them compiling against
# today's library (a changed signature once broke one unnoticed).
timed build bash scripts/build.sh all bench_programs
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
# A clean clone has no test times of its own: ctest starts the tests in the
# order they are registered, and the longest could start last and leave a
# core idle at the end. Measured times (tests/ctest_costs.txt, written by
# bench/suite_times.py --costs) let it start the longest first; ctest keeps
# its own times there from then on.
costs=Testing/Temporary/CTestCostData.txt
if [ ! -f "$costs" ] && [ -f "$root/tests/ctest_costs.txt" ]; then
  mkdir -p Testing/Temporary
  cp "$root/tests/ctest_costs.txt" "$costs"
fi
# The suite runs 2- and 3-rank jobs side by side on a few cores: ranks that
# wait for a message give their core away instead of spinning (under a loaded
# machine a 3-rank string run took 217 s spinning and 5 s yielding).
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
# ... and are not bound to cores: Open MPI binds the ranks of a 2-rank run to
# cores 0 and 1 even with --oversubscribe, so every 2-rank test shares the
# same two cores with whatever else runs there and cannot move off a busy
# one. With a build running beside the suite, mpi_p3_np2 (11.9 s on a quiet
# machine) timed out after 600 s bound; the same run took 152+ s bound
# (stopped) and 8.9 s unbound, side by side at load 4-6.
export OMPI_MCA_hwloc_base_binding_policy=${OMPI_MCA_hwloc_base_binding_policy:-none}
# One test more than the cores: a 2-rank test holds two of ctest's slots,
# but its ranks wait for each other (and its Python check runs on one core),
# so two slots on two cores leave them partly idle. Measured on 2 quiet
# cores, the same 771 tests: -j 2 651 s wall (966 s CPU, a quarter of the
# cores idle), -j 3 634 s and 650 s (995 s, 1018 s CPU): 0-3%, within the
# variation from run to run. The tests hold no timing assertion (they passed
# at load 6-10). STICKSLIP_TEST_JOBS sets the number.
jobs=${STICKSLIP_TEST_JOBS:-$(($(nproc) + 1))}
timed ctest ctest --output-on-failure -j "$jobs" "$@"
