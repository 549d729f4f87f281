#!/usr/bin/env bash
# sanitizer_build.sh SOURCE_DIR BUILD_DIR OUT_DIR
# Builds stickslip with AddressSanitizer and UndefinedBehaviorSanitizer and
# runs under them the unit test, every kind of model and scheme briefly, a
# checkpoint and resume, a control search, and 60 fuzzed inputs. Any
# sanitizer report fails (halt_on_error; the fuzz script also looks for
# reports in the output). Leak checking is off: OpenMPI and PETSc keep
# allocations until exit by design.
set -euo pipefail
src=$1; build=$2; out=$3
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --target stickslip slab_friction_inclusion_test \
  -j "${STICKSLIP_JOBS:-2}" >/dev/null
exe=$build/stickslip
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
rm -rf "$out"; mkdir -p "$out"

run() { # name prm args...
  local name=$1 prm=$2; shift 2
  "$exe" "$src/$prm" --quiet --set "Output/Directory=$out/$name" \
    --set "Output/Overwrite=true" "$@" > "$out/$name.log" 2>&1 ||
    { cat "$out/$name.log"; echo "FAIL: $name"; exit 1; }
  if grep -qE "Sanitizer|runtime error:" "$out/$name.log"; then
    cat "$out/$name.log"; echo "FAIL: sanitizer report in $name"; exit 1
  fi
  echo "ok $name"
}
# The unit test (the friction inclusion (52) of the slab and its selection rule).
"$build/tests/slab/slab_friction_inclusion_test" > "$out/unit.log" 2>&1 ||
  { cat "$out/unit.log"; echo "FAIL: unit test"; exit 1; }
if grep -qE "Sanitizer|runtime error:" "$out/unit.log"; then
  cat "$out/unit.log"; echo "FAIL: sanitizer report in the unit test"; exit 1
fi
echo "ok unit test"
single=(--set "Time/Convergence time steps=" --set "Time/Time step=1e-2")
run p3_semismooth prm/p3.prm "${single[@]}"
run p3_projection prm/p3.prm "${single[@]}" --set "Friction/Solver=projection"
run p5b_penalty prm/p5b.prm "${single[@]}" --set "Friction/Solver=penalty newton"
run p4_closed_form prm/p4.prm "${single[@]}" --set "Friction/Solver=closed form"
run p3_arkode prm/p3.prm "${single[@]}" --set "Time/Scheme=regularized arkode"
run gearbox prm/gearbox.prm --set "Time/Reference time step=0" --set "Time/Convergence time steps="
run tp1_centered prm/tp1.prm --set "Centered scheme/Regularization=true"
run tp1_control prm/tp1_control.prm --set "Control/Tolerance=1e-3"
run string prm/string.prm --set "Time/Final time=0.2" --set "Output/Checkpoint interval=0.1"
run string_resumed prm/string.prm --set "Time/Final time=0.4" --resume "$out/string"
run membrane prm/membrane_manufactured.prm --set "Time/Final time=0.125" \
  --set "String/Mass=consistent" --set "Friction/Solver=semismooth newton"
python3 "$src/tests/fuzz_inputs.py" "$exe" "$src/prm" "$out/fuzz" --cases 60 \
  --timeout 300 --jobs 2 --np-every 0 --seed 11
echo "PASS: no sanitizer report"
