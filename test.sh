#!/usr/bin/env bash
# ./test.sh [ctest arguments...]
# Installs missing Debian packages, builds stickslip in Release and runs every test with ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"

bash scripts/ensure_dependencies.sh --tests
bash scripts/build.sh
cd "${STICKSLIP_BUILD_DIR:-build}"
# The suite runs 2- and 3-rank jobs side by side on a few cores: ranks that
# wait for a message give their core away instead of spinning (under a loaded
# machine a 3-rank string run took 217 s spinning and 5 s yielding).
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
ctest --output-on-failure -j "${STICKSLIP_TEST_JOBS:-2}" "$@"
