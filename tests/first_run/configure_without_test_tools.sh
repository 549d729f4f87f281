#!/usr/bin/env bash
# configure_without_test_tools.sh SOURCE_DIR BUILD_DIR WORK_DIR
# The README's two commands must pass in either order: ./run.sh configures
# build/ before ./test.sh installs the test packages (ParaView, Xvfb,
# clang-format, ...; scripts/ensure_dependencies.sh --test-packages), so no
# test may depend on what the configuration found of them. This script
#  1. hides every program of those packages: a PATH of links to every other
#     program, and CMAKE_IGNORE_PATH over the system's program folders
#     (checked: a find_program(pvbatch) there finds nothing);
#  2. configures the source twice, once with the programs hidden and once
#     with them visible, and requires the same tests, with the same
#     commands and properties, in both (CTestTestfile.cmake, build paths
#     made equal);
#  3. runs postprocess_paraview_view_string from the configuration made
#     without pvbatch (its stickslip a link to BUILD_DIR's), with the
#     programs visible again: it must find pvbatch and pass.
set -uo pipefail
src=$1
build=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

mapfile -t packages < <(bash "$src/scripts/ensure_dependencies.sh" --test-packages)
declare -A hidden=()
for p in "${packages[@]}"; do
  while read -r f; do
    case "$f" in
      */bin/* | */sbin/*) [ -f "$f" ] && hidden[$(readlink -f "$f")]=1 ;;
    esac
  done < <(dpkg -L "$p" 2>/dev/null)
done
[ -n "${hidden[$(readlink -f /usr/bin/pvbatch 2>/dev/null || echo none)]:-}" ] ||
  fail "pvbatch is not installed: install the test packages (scripts/ensure_dependencies.sh --tests)"

# path_with and path_without: a link to every program of PATH (the first of
# a name wins, as in PATH), path_without leaving out the hidden ones.
mkdir -p "$work/path_with" "$work/path_without"
IFS=: read -ra dirs <<<"$PATH"
ignore=(/usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin)
left_out=()
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  ignore+=("$d")
  files=("$d"/*)
  [ -e "${files[0]}" ] || continue
  mapfile -t reals < <(readlink -f -- "${files[@]}")
  for i in "${!files[@]}"; do
    f=${files[$i]}
    name=${f##*/}
    [ -x "$f" ] && [ ! -d "$f" ] && [ ! -e "$work/path_with/$name" ] || continue
    ln -s "$f" "$work/path_with/$name"
    if [ -n "${hidden[${reals[$i]}]:-}" ]; then
      left_out+=("$name")
    else
      ln -s "$f" "$work/path_without/$name"
    fi
  done
done
echo "hidden: ${left_out[*]}"
ignore_path=$(IFS=';'; echo "${ignore[*]}")

# 1. The hiding works for CMake too.
mkdir -p "$work/probe"
cat >"$work/probe/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(probe NONE)
find_program(PROBE_PVBATCH NAMES pvbatch)
message(STATUS "probe: pvbatch=${PROBE_PVBATCH}")
EOF
probe() { # PATH_DIR: what find_program(pvbatch) finds
  PATH=$1 cmake -S "$work/probe" -B "$work/probe/build_${1##*/}" \
    -DCMAKE_IGNORE_PATH="$ignore_path" 2>&1 | sed -n 's/^-- probe: pvbatch=//p'
}
found=$(probe "$work/path_without")
[[ "$found" == *NOTFOUND ]] || fail "pvbatch still found with the test programs hidden: $found"
found=$(probe "$work/path_with")
[[ "$found" == */pvbatch ]] || fail "pvbatch not found with the test programs visible: '$found'"

# 2. The same tests either way. deal.II is looked for before project(),
# where CMake's prefixes come from PATH alone: it is given as the suite's
# build found it.
dealii_dir=$(sed -n 's/^deal.II_DIR:PATH=//p' "$build/CMakeCache.txt")
configure() { # NAME: configures work/NAME with PATH work/path_NAME
  PATH=$work/path_$1 cmake -S "$src" -B "$work/$1" -DCMAKE_BUILD_TYPE=Release \
    -Ddeal.II_DIR="$dealii_dir" -DCMAKE_IGNORE_PATH="$ignore_path" \
    >"$work/configure_$1.log" 2>&1 ||
    { cat "$work/configure_$1.log"; fail "configuring with PATH $work/path_$1 failed"; }
}
configure without
configure with
tests_of() { # NAME: every CTestTestfile.cmake of work/NAME, paths made equal
  (cd "$work/$1" && find . -name CTestTestfile.cmake | sort | while read -r f; do
    echo "== $f"
    sed -e "s|$work/path_$1|PATH_DIR|g" -e "s|$work/$1|BUILD_DIR|g" "$f"
  done)
}
tests_of without >"$work/tests_without.txt"
tests_of with >"$work/tests_with.txt"
count=$(grep -c '^add_test' "$work/tests_with.txt")
[ "$count" -gt 100 ] || fail "only $count tests registered: the configuration is incomplete"
diff "$work/tests_without.txt" "$work/tests_with.txt" >"$work/tests.diff" ||
  { echo "tests that differ (whole difference: $work/tests.diff):"
    grep -o '^[<>] add_test([^ ]*' "$work/tests.diff" | cut -c 12- | sort -u
    fail "the tests depend on whether the test programs (${left_out[*]}) were there when the build was configured"; }
echo "the same $count tests whether the test programs were there at configure time or not"

# 3. The configuration made without pvbatch runs the ParaView test.
ln -s "$build/stickslip" "$work/without/stickslip"
(cd "$work/without" &&
  ctest -R '^postprocess_paraview_view_string$' --output-on-failure >"$work/ctest.log" 2>&1)
status=$?
grep -q '100% tests passed, 0 tests failed out of 1' "$work/ctest.log" && [ $status -eq 0 ] ||
  { cat "$work/ctest.log"; fail "postprocess_paraview_view_string of the configuration made without pvbatch"; }
echo "PASS: configured without the test programs, the ParaView test found pvbatch when it ran"
