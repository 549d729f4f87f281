#!/usr/bin/env bash
# ./test.sh [ctest arguments...]
# Installs missing Debian packages, builds stickslip in Release and runs every test with ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"

bash scripts/ensure_dependencies.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j "${STICKSLIP_TEST_JOBS:-2}" "$@"
