#!/usr/bin/env bash
# The test suite's time, as a contributor and CI wait for it: a clean clone
# of the current commit, the README's two commands in CI's order (.ci/run:
# ./run.sh, then ./test.sh), each stage's wall and CPU time (user + system
# of every process it started: scripts/timed.sh), ctest's time by group and
# the slowest tests (bench/suite_times.py), and the load beside it. About 20
# minutes on 2 quiet cores; the clone is compiled from scratch (no ccache),
# as on a CI machine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
commit=$(git -C "$root" rev-parse --short HEAD)
work=$(mktemp -d)
sampler=
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
git clone -q "$root" "$work/stickslip"
git -C "$work/stickslip" checkout -q "$commit"
cd "$work/stickslip"

# The load average of the machine, every 10 s, while the suite runs.
(while true; do cut -d' ' -f1 /proc/loadavg; sleep 10; done) >"$work/load.txt" &
sampler=$!

times=$work/times.txt
timed() { bash scripts/timed.sh "$times" "$@"; }
export CCACHE_DISABLE=1
{
  # .ci/run's ./run.sh, its three parts apart: packages, Release build, the flagship run.
  timed packages bash scripts/ensure_dependencies.sh
  timed build_release bash scripts/build.sh stickslip
  timed run.sh ./run.sh
  ./test.sh
} >"$work/suite.log" 2>&1 || {
  tail -n 40 "$work/suite.log" >&2
  echo "92_test_suite: the suite failed on the clean clone of $commit" >&2
  exit 1
}
kill "$sampler" 2>/dev/null || true
sampler=

load=$(awk '{ s += $1; if ($1 > m) m = $1 } END { printf "%.1f (at most %.1f)", s / NR, m }' \
  "$work/load.txt")
tests=$(grep -o 'tests passed, 0 tests failed out of [0-9]*' "$work/suite.log" | awk '{print $NF}')
echo "## The test suite: a clean clone's \`.ci/run\`"
echo
echo "\`bench/sections/92_test_suite.sh\`: commit $commit, $(nproc) cores, compiled from"
echo "scratch (no ccache), the load average beside it $load (its own jobs included: a quiet"
echo "machine shows about 2). $tests tests. Stages: \`./run.sh\` (packages, the Release build,"
echo "the flagship run; only the program), then \`./test.sh\` (the unit tests; the two"
echo "variants; ctest). CPU is user + system time of every process of the stage: it depends"
echo "little on the load, the wall time much."
echo
python3 bench/suite_times.py build --stages "$times" build/test_times.txt --slowest 20
