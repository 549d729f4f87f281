#!/usr/bin/env bash
# The three stiffness operators of Model = body on meshes with one to many
# distinct cell shapes (bench/stiffness_operators.py): where
# Body/Stiffness operator = auto takes the element kernels. About 25 minutes
# on 2 cores (at a load of 7).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
/usr/bin/python3 bench/stiffness_operators.py "$exe"
