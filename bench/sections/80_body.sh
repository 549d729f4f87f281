#!/usr/bin/env bash
# The elastic body in frictional contact (Model = body): bench/body.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bash "$root/bench/body.sh"
