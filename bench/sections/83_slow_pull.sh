#!/usr/bin/env bash
# The slow pull's cost (bench/slow_pull.py): implicit generalized alpha with
# adaptive steps on 8 x 2 to 32 x 8 cells against the explicit scheme's
# estimated cost for the same 2500 s. About 2 minutes on 2 cores.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
/usr/bin/python3 bench/slow_pull.py "$exe"
