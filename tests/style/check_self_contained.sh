#!/usr/bin/env bash
# check_self_contained.sh SRC: the repository cites its own doc/ and the
# papers (doc/references.md), never a folder outside it, a path of the
# machine it was written on, or the planning notes it was built from (their
# content lives in doc/theory.md, doc/verification.md, doc/developers.md).
# Prints every offending line; fails if any.
set -uo pipefail
src=$1
cd "$src" || exit 2
files=(README.md BENCHMARKS.md CITATION.cff CMakeLists.txt run.sh test.sh
  doc prm src postprocess tests scripts bench cmake meshes .ci)
hits=$(grep -rnI -e '\.\./shared' -e '/work[/]' -e '/home[/]' -e '/root[/]' \
  "${files[@]}" 2>/dev/null)
if [ -n "$hits" ]; then
  echo "paths outside the repository:"
  echo "$hits"
  exit 1
fi
notes=$(grep -rnI -e 'MODELS[.]md' -e 'TEST_PROBLEMS[.]md' -e 'DESIGN[.]md' \
  "${files[@]}" 2>/dev/null)
if [ -n "$notes" ]; then
  echo "citations of documents that are not in the repository (cite doc/theory.md,"
  echo "doc/verification.md or doc/developers.md instead):"
  echo "$notes"
  exit 1
fi
echo "OK: no path outside the repository, no citation of a document outside it"
