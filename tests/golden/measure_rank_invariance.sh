#!/usr/bin/env bash
# tests/golden/measure_rank_invariance.sh STICKSLIP [NAME...]
#
# Measures the spreads behind the tolerances of the rank-invariance tests
# (*_same_as_np1 in tests/CMakeLists.txt, tests/centered/, tests/chain/,
# tests/slab/, and string_triangulations_agree): each run of those tests on
# 1, 2 and 3 ranks, and on 1 rank with 1-ulp changes of one input, compared
# with the run on 1 rank (run_golden.py measure; doc/reproducibility.md has
# the results). The run arguments repeat those of the CMake files: keep them
# in step. Prints SUMMARY lines; work files go under ${TMPDIR:-/tmp}.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 1 ]; then sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; fi
exe=$1; shift
case "$exe" in /*) ;; *) exe=$(pwd)/$exe ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/stickslip_rank_invariance.XXXXXX")
U1=1.0000000000000002   # the double after 1
U2=2.0000000000000004   # after 2

measure() {  # measure NAME NP PRM FILES(comma) PERTURB... -- ARGS...
  local name=$1 np=$2 prm=$3 files=$4; shift 4
  if [ ${#selected[@]} -gt 0 ] && [ -z "${selected[$name]:-}" ]; then return; fi
  local case_args=(--np "$np" --prm "$prm")
  local f; for f in ${files//,/ }; do case_args+=(--file "$f"); done
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do case_args+=(--perturb "$1"); shift; done
  shift
  echo "==== $name"
  python3 "$here/run_golden.py" measure --exe "$exe" --out "$work/$name" \
    --reference "$work/$name/none" "${case_args[@]}" -- "$@" < /dev/null
}
declare -A selected=()
for name in "$@"; do selected[$name]=1; done

# tests/CMakeLists.txt: mpi_<problem>_np{2,3}_same_as_np1.
ONE=(--set "Time/Convergence time steps=" --set "Time/Time step=1e-3")
measure mpi_p5b 1 prm/p5b.prm history.csv \
  "ODE/Initial velocity=$U1, 0, -1" "ODE/Friction coefficients=$U1, 1, 1" \
  -- "${ONE[@]}" --set "Friction/Solver=penalty newton"
measure mpi_p3 1 prm/p3.prm history.csv \
  "ODE/Initial velocity=$U1, 0" "ODE/Friction coefficients=$U1, 1" \
  -- "${ONE[@]}" --set "Friction/Solver=projection"
measure mpi_p4 1 prm/p4.prm history.csv \
  "ODE/Initial velocity=$U1, 1, 1" "ODE/Friction coefficients=10.000000000000002, 10, 10" \
  -- "${ONE[@]}"
measure mpi_string 1 prm/string.prm history.csv \
  "String/Friction=$U2" "String/Initial displacement=$U1*sin(pi*x)" \
  -- --set "Time/Final time=2"
measure mpi_membrane 1 prm/membrane_manufactured.prm history.csv \
  "String/Friction=$U1" "String/Wave speed=$U1" \
  -- --set "String/Mass=consistent" --set "Friction/Solver=semismooth newton"
# tests/centered/CMakeLists.txt.
measure centered_tp2 1 prm/tp2.prm history.csv \
  "ODE/Initial velocity=$U2, 2, 2" "ODE/Friction coefficients=6.000000000000001, 5, 4" \
  -- --set "Centered scheme/Regularization=true"
measure control_tp1 1 prm/tp1_control.prm optimization.csv,history.csv \
  "Control/Target displacement=$U2, 0, -2" "ODE/Initial velocity=$U1, 1, 1" --
measure control_tp2 1 prm/tp2_control.prm optimization.csv,history.csv \
  "Control/Target displacement=5.000000000000001, 10, 15" "ODE/Initial velocity=$U2, 2, 2" --
# tests/chain/CMakeLists.txt: chain_mpi_<regime>_np{2,3}_same_as_np1.
CHAIN=(--set "Chain/Number of masses=30" --set "Time/Final time=3"
       --set "Chain/History masses=1, 10, 11, 20, 21, 30" --set "Output/Field output=false")
measure chain_mpi_dynamical 1 prm/chain_dynamical_clamped.prm history.csv \
  "Chain/Masses=$U1" "Chain/Stiffnesses=$U1 + 0.1*i" \
  -- --set "Chain/Masses=1" --set "Chain/Stiffnesses=1 + 0.1*i" \
     --set "Chain/Thresholds=0.2 + 0.01*i" "${CHAIN[@]}"
measure chain_mpi_semidynamical 1 prm/chain_semidynamical_free.prm history.csv \
  "Chain/Masses=i == 30 ? $U1 : 0" "Chain/Stiffnesses=$U2" \
  -- --set "Chain/Masses=i == 30 ? 1 : 0" --set "Chain/Stiffnesses=2" \
     --set "Chain/Thresholds=0.05 + 0.005*i" "${CHAIN[@]}"
measure chain_mpi_quasistatic 1 prm/chain_quasistatic_clamped.prm history.csv \
  "Chain/Stiffnesses=5.000000000000001" "Chain/Forces=i == 15 ? 4.000000000000001*sin(t) : 0" \
  -- --set "Chain/Stiffnesses=5" --set "Chain/Thresholds=0.1 + 0.01*i" \
     --set "Chain/Forces=i == 15 ? 4*sin(t) : 0" "${CHAIN[@]}"
# tests/slab/CMakeLists.txt: slab_mpi_np{2,3}_same_as_np1.
measure slab_mpi 1 prm/slab.prm history.csv,profile-final.csv \
  "Slab/Foundation velocity=$U1" "Slab/Shear modulus=77000000000.00002" \
  "Slab/Initial velocity=0; 0; $U2*cos(pi*z/(2*0.05))^2" \
  -- --set "Time/Final time=3e-5" --set "Slab/Number of cells=300" \
     --set "Slab/Interior scheme=lax-wendroff" --set "Slab/Write profiles=true"
# tests/body/reliability.cmake: body_mpi_<case>_np{2,3}_same_as_np1.
measure body_mpi_block_p1 1 tests/body/block.prm history.csv \
  "Body/Density=1200.0000000000002" "Body/Contact/Friction law/Static friction coefficient=0.6000000000000001" \
  -- --set "Output/Field output=false"
measure body_mpi_block_p2 1 tests/body/block.prm history.csv \
  "Body/Density=1200.0000000000002" "Body/Contact/Friction law/Static friction coefficient=0.6000000000000001" \
  -- --set "Body/Finite element degree=2" --set "Time/Time step=1e-7" \
     --set "Output/Field output=false"
measure body_mpi_block3d 1 tests/body/block3d.prm history.csv \
  "Body/Density=1200.0000000000002" "Body/Contact/Friction law/Static friction coefficient=0.6000000000000001" --
measure body_mpi_membrane 1 prm/body_membrane.prm history.csv \
  "Body/Density=$U1" "Body/Distributed friction=$U2" \
  -- --set "Time/Final time=1" --set "Output/Field output=false"
# tests/CMakeLists.txt: string_triangulations_agree (2 ranks, shared against
# fully distributed); the spread between the two is printed last.
measure string_shared 2 prm/string.prm history.csv \
  "String/Friction=$U2" "String/Initial displacement=$U1*sin(pi*x)" \
  -- --set "Time/Final time=0.5" --set "String/Triangulation=shared"
if [ -d "$work/string_shared/np2" ]; then
  [ ${#selected[@]} -eq 0 ] || selected[string_fully_distributed]=1
  measure string_fully_distributed 2 prm/string.prm history.csv -- --set "Time/Final time=0.5"
  echo "==== string_triangulations (shared against fully distributed, 2 ranks)"
  python3 "$here/run_golden.py" spread "$work/string_shared/np2" \
    "$work/string_fully_distributed/np2" history.csv
fi
echo "work files: $work"
