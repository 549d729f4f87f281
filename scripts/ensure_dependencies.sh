#!/usr/bin/env bash
# Installs the Debian packages stickslip needs, if any is missing.
# Used by run.sh and test.sh; safe to call repeatedly (dpkg -s first).
set -euo pipefail

packages=(
  libdeal.ii-dev     # deal.II 9.4.1 with PETSc 3.18, Trilinos 13.2, p4est, SUNDIALS, OpenMPI
  cmake make g++
  openmpi-bin
  numdiff
  libgtest-dev       # GoogleTest for the unit tests (tests/unit)
  python3 python3-numpy python3-matplotlib python3-vtk9
)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "stickslip: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
