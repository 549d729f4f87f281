#!/usr/bin/env bash
# scripts/ensure_dependencies.sh [--tests | --test-packages]
# Installs the Debian packages stickslip needs, if any is missing.
# Used by run.sh and test.sh (with --tests); safe to call repeatedly (dpkg -s first).
# apt's and dpkg's output goes to build/install.log (STICKSLIP_BUILD_DIR), the
# screen gets one line per stage; on a failure, the log's last lines and
# what failed. --test-packages prints the packages only --tests installs
# (tests/first_run/configure_without_test_tools.sh hides their programs).
#
# VTK's Python modules (vtkmodules: the .vtu checks of the tests, the
# scripts of postprocess/) come from python3-vtk9 or from python3-paraview.
# The two conflict (both install /usr/lib/python3/dist-packages/vtkmodules),
# either serves, and the one there is kept: python3-vtk9 is installed only
# when neither is.
# --tests (test.sh): also ParaView (paraview, python3-paraview: pvbatch, for
# postprocess/paraview_view.py and its tests) and xvfb (Debian's ParaView
# renders through X11 only; tests/postprocess/with_display.sh starts an
# Xvfb). python3-paraview replaces python3-vtk9 if that is there: everything
# that used python3-vtk9 runs on ParaView's vtkmodules. Measured on Debian 12
# with deal.II installed: 109 packages, 121 MB of archives, 684 MB on disk;
# 37 s (78 MB downloaded, the rest already in apt's cache). xvfb and xauth:
# 5.8 MB of archives, 7.8 MB on disk. clang-format-14 for the test that the
# sources stay formatted (style_clang_format). Also OpenBLAS (libopenblas0-pthread):
# once installed, Debian makes it the BLAS behind libblas.so.3, whose threads
# stickslip limits to one per rank; tests/threads checks that limit, which a
# machine with only the reference BLAS cannot show. The suite's results do
# not depend on which BLAS it is, up to the tolerances stated by the tests
# (doc/reproducibility.md). python3-h5py (for run.sh too): the scripts of
# postprocess/ read the HDF5 outputs (Output/Field format = hdf5, the
# default of prm/body_fronts_2d.prm) with it where VTK has no XDMF reader
# (python3-vtk9), and the tests read the times of the HDF5 series files to
# check that each output a series lists is complete.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

tests=false
case "${1:-}" in
  --tests) tests=true ;;
  --test-packages) ;;
  "") ;;
  *) echo "ensure_dependencies.sh: unknown argument '$1' (allowed: --tests, --test-packages)" >&2
     exit 1 ;;
esac

packages=(
  libdeal.ii-dev     # deal.II 9.4.1 with PETSc 3.18, Trilinos 13.2, p4est, SUNDIALS, OpenMPI
  cmake make g++
  openmpi-bin
  numdiff
  libgtest-dev       # GoogleTest for the unit tests (tests/unit)
  python3 python3-numpy python3-matplotlib
  python3-h5py       # postprocess/: the HDF5 outputs without ParaView
)
test_packages=(paraview python3-paraview xvfb xauth libopenblas0-pthread clang-format-14)
if [ "${1:-}" = --test-packages ]; then
  printf '%s\n' "${test_packages[@]}"
  exit 0
fi
installed() {   # "ok installed", not merely known to dpkg (removed, config files left)
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' ok installed$'
}

if $tests; then
  packages+=("${test_packages[@]}")
elif ! installed python3-paraview; then
  packages+=(python3-vtk9)
fi

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

build_dir=${STICKSLIP_BUILD_DIR:-$root/build}
mkdir -p "$build_dir"
log=$(cd "$build_dir" && pwd)/install.log
: >"$log"
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
  # Asked here, on the terminal, not inside a command whose output is logged.
  sudo -v || { echo "stickslip: installing needs root: run as root or with sudo" >&2; exit 1; }
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive

# Known noise of Debian's PETSc and SLEPc packages, harmless: their
# postinst asks update-alternatives about an alternative they have not
# registered yet.
noise='^update-alternatives: error: no alternatives for (petsc|slepc)'

# step TEXT COMMAND...: one line on the screen, the command's output in the
# log; on a failure the log's last lines (without the noise above) and why.
step() {
  local text=$1 start=$SECONDS status=0
  shift
  printf 'stickslip: %s ... ' "$text"
  { echo "==== $text: $*"; "$@" </dev/null; } >>"$log" 2>&1 || status=$?
  if [ $status -ne 0 ]; then
    echo "failed"
    grep -Ev "$noise" "$log" | tail -n 25 | sed 's/^/  | /' >&2
    echo "stickslip: '$*' failed (exit status $status); the whole output is in $log" >&2
    exit 1
  fi
  echo "done in $((SECONDS - start)) s"
}

echo "stickslip: missing Debian packages: ${missing[*]} (apt's output: $log)"
if [[ " ${missing[*]} " == *" python3-paraview "* ]] && installed python3-vtk9; then
  echo "stickslip: python3-paraview replaces python3-vtk9 (they conflict; ParaView's" \
       "vtkmodules serve the same scripts)"
fi
step "updating the package lists" $SUDO apt-get update
# How many packages the missing ones bring with them (a simulation).
count=$(apt-get install -s --no-install-recommends "${missing[@]}" 2>>"$log" | grep -c '^Inst ' || true)
step "installing $count Debian packages" \
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
