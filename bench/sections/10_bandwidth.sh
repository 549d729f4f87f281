#!/usr/bin/env bash
# Memory bandwidth, the limit of the explicit kernels: a STREAM-like triad
# (bench/stream_triad.cc) on one core alone and on two together.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
measure_triad
python3 - "$triad1" "$triad2" <<'PY'
import sys
triad1, triad2 = map(float, sys.argv[1:])
print("## Memory bandwidth (the limit)\n")
print("| triad, 1 core alone | triad per core, 2 cores together | 2-core aggregate / 1 core |")
print("|---|---|---|")
print("| %.1f GB/s | %.1f GB/s | %.2fx |" % (triad1, triad2, 2 * triad2 / triad1))
PY
