#!/usr/bin/env bash
# debug_sanitizer_build.sh SOURCE_DIR BUILD_DIR OUT_DIR [--build-only | PART...]
# The one extra build of the test suite: Debug (deal.II's debug library
# libdeal.ii.g.so, so its Asserts on index ranges, vector sizes and
# ghosted/owned vector misuse fire) with AddressSanitizer and
# UndefinedBehaviorSanitizer, in place of separate Debug and sanitizer
# builds. Under it run the unit tests (those of parallel components on 2
# ranks too), every model and scheme briefly, a checkpoint and resume, a
# control search, 2-rank runs of the string, the membrane, the chain, the
# slab and the elastic body (the distributed-vector asserts need more than
# one rank), the body's implicit and quasi-static steps (active sets, PETSc's
# GAMG, friction) on 1 and 2 ranks, and 30 fuzzed inputs (every 10th on 2
# ranks). A failed run, a sanitizer
# report or a deal.II assertion ("An error occurred in line ...", then
# abort) fails the test; every run is tried, and the failures are listed
# at the end (their logs are in OUT_DIR). Leak checking is off: OpenMPI and
# PETSc keep allocations until exit by design. STICKSLIP_JOBS sets the
# compile jobs (default 2).
#
# --build-only only configures and builds what the runs use (stickslip and
# the unit tests run below; ./test.sh does so before the tests, and the test
# debug_sanitizer_build, the fixture of the others, finds it up to date).
# PART runs one part of the checks without building (the suite runs each as
# a test of its own, debug_sanitizer_PART, so that ctest spreads them over
# the cores: unit, ode, models, implicit and fuzz on 1 rank, unit_np2 and
# np2 on 2);
# no PART runs them all, after the build.
set -uo pipefail
src=$1; build=$2; out=$3; shift 3
parts=("$@")
all_parts=(unit unit_np2 ode models implicit np2 fuzz)
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
start=$SECONDS
# The unit tests run here are those tests/unit/CMakeLists.txt marks
# SANITIZER (target sanitizer_unit_tests, the executable unit_tests; their
# names, ranks and gtest filters in tests/unit/sanitizer_unit_tests.txt of
# the build).
unit_list=$build/tests/unit/sanitizer_unit_tests.txt

rm -rf "$out"
mkdir -p "$out"
if [ ${#parts[@]} -eq 0 ] || [ "${parts[0]}" = --build-only ]; then
  # One make goal at a time (CMake's Makefiles): the program first, then
  # the unit tests side by side.
  { cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" &&
    cmake --build "$build" --target stickslip -j "${STICKSLIP_JOBS:-2}" &&
    cmake --build "$build" --target sanitizer_unit_tests -j "${STICKSLIP_JOBS:-2}"; } \
    > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; echo "FAIL: build"; exit 1; }
  echo "built in $((SECONDS - start)) s"
  [ ${#parts[@]} -gt 0 ] && exit 0
  parts=("${all_parts[@]}")
fi
for part in "${parts[@]}"; do
  [[ " ${all_parts[*]} " == *" $part "* ]] ||
    { echo "debug_sanitizer_build.sh: no part '$part' (parts: ${all_parts[*]})"; exit 1; }
done
[ -x "$build/stickslip" ] ||
  { echo "FAIL: $build/stickslip is not built (tests/debug_sanitizer_build.sh ... --build-only)"; exit 1; }
exe=$build/stickslip
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi2=(mpirun -np 2 --oversubscribe)
failures=()

# verdict NAME LOG STATUS: a failed run, a sanitizer report or a deal.II
# assertion is a failure (its log is printed).
verdict() {
  if [ "$3" -ne 0 ] || grep -qE "Sanitizer|runtime error:|An error occurred in line" "$2"; then
    cat "$2"; echo "FAIL: $1 (exit status $3; log $2)"; failures+=("$1")
  else
    echo "ok $1 ($((SECONDS - start)) s)"
  fi
}

# unit NAME FILTER [launcher...]: the cases of one component (of the
# executable unit_tests).
unit() {
  local name=$1 filter=$2; shift 2
  local log=$out/unit_$name${1:+_np2}.log
  "$@" "$build/tests/unit/unit_tests" "--gtest_filter=$filter" </dev/null > "$log" 2>&1
  verdict "unit $name${1:+ on 2 ranks}" "$log" $?
}
part_unit() {
  local name ranks filter
  while read -r name ranks filter; do unit "$name" "$filter"; done <"$unit_list"
}
part_unit_np2() {
  local name ranks filter
  while read -r name ranks filter; do
    [ "$ranks" -gt 1 ] && unit "$name" "$filter" "${mpi2[@]}"
  done <"$unit_list"
}

# run NAME PRM [args...]: one stickslip run (prefix with NP=2 for 2 ranks).
run() {
  local name=$1 prm=$2; shift 2
  local launcher=(); [ "${NP:-1}" -gt 1 ] && launcher=("${mpi2[@]}")
  "${launcher[@]}" "$exe" "$src/$prm" --quiet --set "Output/Directory=$out/$name" \
    --set "Output/Overwrite=true" "$@" > "$out/$name.log" 2>&1
  verdict "$name" "$out/$name.log" $?
}
# The ODE systems: every friction-step solver, Strang, ARKode, centered,
# and a control search (parallel direct search over simulations).
part_ode() {
  local single=(--set "Time/Convergence time steps=" --set "Time/Time step=1e-2")
  run p3_semismooth prm/p3.prm "${single[@]}"
  run p3_projection prm/p3.prm "${single[@]}" --set "Friction/Solver=projection"
  run p3_strang prm/p3.prm "${single[@]}" --set "Time/Scheme=strang"
  run p5b_penalty prm/p5b.prm "${single[@]}" --set "Friction/Solver=penalty newton"
  run p4_closed_form prm/p4.prm "${single[@]}" --set "Friction/Solver=closed form"
  run p3_arkode prm/p3.prm "${single[@]}" --set "Time/Scheme=regularized arkode"
  run gearbox prm/gearbox.prm --set "Time/Reference time step=0" --set "Time/Convergence time steps="
  run tp1_centered prm/tp1.prm --set "Centered scheme/Regularization=true"
  run tp1_control prm/tp1_control.prm --set "Control/Tolerance=1e-3"
}
body_short=(--set "Time/Final time=2e-5" --set "Output/Field output every=5")
# The string, the membrane, the chain (implicit Euler of Bastien & Lamarque
# 2009), the slab and the elastic body on 1 rank; the string and the body
# write a snapshot and resume from it.
part_models() {
  run string prm/string.prm --set "Time/Final time=0.2" --set "Output/Checkpoint interval=0.1"
  run string_resumed prm/string.prm --set "Time/Final time=0.4" --resume "$out/string"
  run membrane prm/membrane_manufactured.prm --set "Time/Final time=0.125" \
    --set "String/Mass=consistent" --set "Friction/Solver=semismooth newton"
  run chain prm/chain_dynamical_clamped.prm --set "Time/Final time=0.2" \
    --set "Output/Field output=false"
  run slab prm/slab.prm --set "Time/Final time=1e-5" --set "Output/Field output=false"
  run body tests/body/block.prm "${body_short[@]}" --set "Output/Checkpoint interval=1e-5"
  run body_resumed tests/body/block.prm "${body_short[@]}" --set "Time/Final time=3e-5" \
    --resume "$out/body"
}
# 2 ranks: owned/ghosted vectors, partitioned matrices and their asserts;
# the body with the three stiffness operators (the default, auto, takes the
# element kernels on the block), Q2, 3D, distributed friction and the
# implicit step.
part_np2() {
  NP=2 run string_np2 prm/string.prm --set "Time/Final time=0.1"
  NP=2 run membrane_np2 prm/membrane_manufactured.prm --set "Time/Final time=0.125" \
    --set "String/Mass=consistent" --set "Friction/Solver=semismooth newton"
  NP=2 run chain_np2 prm/chain_quasistatic_clamped.prm --set "Time/Final time=1"
  NP=2 run slab_np2 prm/slab.prm --set "Time/Final time=1e-5"
  NP=2 run body_np2 tests/body/block.prm "${body_short[@]}"
  NP=2 run body_matrix_free_np2 tests/body/block.prm "${body_short[@]}" \
    --set "Body/Stiffness operator=matrix-free"
  NP=2 run body_assembled_np2 tests/body/block.prm "${body_short[@]}" \
    --set "Body/Stiffness operator=assembled"
  NP=2 run body_q2_np2 tests/body/block.prm "${body_short[@]}" \
    --set "Body/Finite element degree=2" --set "Time/Time step=1e-7"
  NP=2 run body_3d_np2 tests/body/block3d.prm --set "Time/Final time=8e-6"
  NP=2 run body_membrane_np2 prm/body_membrane.prm --set "Time/Final time=0.05" \
    --set "Body/Mesh file=$src/meshes/membrane.msh"
  NP=2 run implicit_bar_np2 prm/body_signorini_bar.prm "${implicit_bar[@]}"
  NP=2 run implicit_friction_np2 prm/body_sliding_block_2d.prm "${implicit_slide[@]}"
}
# The body's implicit (Newmark) and quasi-static steps: the active-set
# contact, the exact-stick friction, PETSc's GAMG with the rigid-body modes,
# a snapshot and resume (part_np2 runs them on 2 ranks).
# Short: the sanitizer build runs them 20-40 times slower than Release.
implicit_bar=(--set "Body/Time scheme=implicit" --set "Time/Time step=0.05"
  --set "Time/Final time=0.6" --set "Output/Interval=0.05" --set "Body/Subdivisions=4, 40"
  --set "Body/Size=0.04, 1" --set "Output/Field output=false")
implicit_slide=(--set "Body/Time scheme=implicit"
  --set "Body/Contact/Friction law/Normal stress regularization length=0"
  --set "Body/Subdivisions=16, 4" --set "Body/Initial velocity=0"
  --set "Time/Final time=1" --set "Time/Time step=0.25"
  --set "Output/Interval=0.25" --set "Output/Field output=false"
  --set "Body/Traction 1/Value=3e-4; -1e-3")
part_implicit() {
  run implicit_bar prm/body_signorini_bar.prm "${implicit_bar[@]}" \
    --set "Output/Checkpoint interval=0.15" --set "Time/Final time=0.3"
  run implicit_bar_resumed prm/body_signorini_bar.prm "${implicit_bar[@]}" \
    --resume "$out/implicit_bar"
  run implicit_friction prm/body_sliding_block_2d.prm "${implicit_slide[@]}"
  run hertz_quasi_static prm/body_hertz_2d.prm \
    --set "Body/Mesh file=$src/meshes/cylinder_2d_0.msh" --set "Time/Final time=0.5"
}
# Fuzzed inputs, every 10th on 2 ranks: one part of 30 cases (seed 11), one
# case at a time, beside another test. A second part (seed 12) took another
# 118 s and found nothing the first did not: the 200 mutants of the Release
# build (fuzz_inputs_part0/1, clean errors and no crash) cover the breadth,
# this part the memory errors and undefined behaviour of the error paths.
part_fuzz() {
  python3 "$src/tests/fuzz_inputs.py" "$exe" "$src/prm" "$out/fuzz_11" --cases 30 \
    --timeout 300 --jobs 1 --np-every 10 --seed 11 \
    --exclude body_fronts_2d.prm,body_3d.prm,body_sliding_block_3d.prm > "$out/fuzz_11.log" 2>&1
  verdict "fuzz (seed 11)" "$out/fuzz_11.log" $?
}

for part in "${parts[@]}"; do
  "part_$part"
done

if [ ${#failures[@]} -gt 0 ]; then
  echo "FAIL (${#failures[@]}): ${failures[*]}"
  exit 1
fi
echo "PASS: ${parts[*]}: no sanitizer report, no deal.II assertion ($((SECONDS - start)) s in all)"
