#!/usr/bin/env bash
# The body's implicit step against its explicit one (bench/body_implicit.py):
# iterations per mesh from 8e3 to 1e6 unknowns (2D) and 2e3 to 1e5 (3D),
# the cost per unit of physical time. About 15 minutes on 2 cores.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
/usr/bin/python3 bench/body_implicit.py "$exe"
