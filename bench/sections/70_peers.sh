#!/usr/bin/env bash
# Peers side by side: the frictional string of prm/string.prm solved by
# GetFEM (python3-getfem) and Siconos (python3-siconos) and by stickslip,
# with wall time, dof-updates per second and the error of the final u, v
# against a fine stickslip reference (bench/peers/README.md). The two Debian
# packages are optional peers: this section installs them when missing
# (apt-get, root), nothing else in the repository needs them.
set -euo pipefail
if [ "${1:-}" = --help ]; then sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
if ! /usr/bin/python3 -c "import getfem, siconos.kernel" 2>/dev/null; then
  install() { apt-get -y -qq install python3-getfem python3-siconos >/dev/null; }
  install || { apt-get -qq update && install; } || {
    echo "70_peers: cannot install python3-getfem and python3-siconos (apt-get, as root)" >&2
    exit 1; }
fi
bash bench/peers/run.sh
echo; echo "Load average when this section ran: $(load_average) (2 cores)."
