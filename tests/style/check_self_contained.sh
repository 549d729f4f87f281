#!/usr/bin/env bash
# check_self_contained.sh SRC: the repository cites its own doc/ and the
# papers (doc/references.md), never a folder outside it or a path of the
# machine it was written on. Prints every offending line; fails if any.
set -uo pipefail
src=$1
cd "$src" || exit 2
hits=$(grep -rnI -e '\.\./shared' -e '/work[/]' -e '/home[/]' -e '/root[/]' \
  README.md BENCHMARKS.md CMakeLists.txt run.sh test.sh \
  doc prm src postprocess tests scripts bench cmake meshes .ci 2>/dev/null)
if [ -n "$hits" ]; then
  echo "paths outside the repository:"
  echo "$hits"
  exit 1
fi
echo "OK: no path outside the repository"
