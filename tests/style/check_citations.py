#!/usr/bin/env python3
"""check_citations.py SRC: every "doc/theory.md §x.y" cited by a tracked file
of the repository names a section that doc/theory.md has (a heading whose
text starts with that number), and every doc/*.md a tracked file cites
exists. Prints each missing section with the first file citing it."""
import pathlib
import re
import subprocess
import sys


def tracked_files(src):
    names = subprocess.run(["git", "-C", str(src), "ls-files"], check=True,
                           capture_output=True, text=True).stdout.split()
    return [src / n for n in names]


def section_numbers(theory):
    numbers = set()
    for line in theory.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#+\s+§?(\d+(?:\.\d+)*)\.?\s", line)
        if m:
            numbers.add(m.group(1))
    return numbers


def main():
    src = pathlib.Path(sys.argv[1]).resolve()
    theory = src / "doc" / "theory.md"
    if not theory.is_file():
        print("FAIL: doc/theory.md does not exist")
        return 1
    have = section_numbers(theory)
    cited = {}
    missing_docs = {}
    for path in tracked_files(src):
        if path.suffix in (".png", ".pdf") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        rel = str(path.relative_to(src))
        for m in re.finditer(r"doc/theory\.md ?§(\d+(?:\.\d+)*)", text):
            cited.setdefault(m.group(1), rel)
        for m in re.finditer(r"\bdoc/([A-Za-z0-9_]+\.md)", text):
            if not (src / "doc" / m.group(1)).is_file():
                missing_docs.setdefault(m.group(1), rel)
    failures = 0
    for number, first in sorted(cited.items()):
        if number not in have:
            print(f"FAIL: doc/theory.md has no section {number} (cited in {first})")
            failures += 1
    for name, first in sorted(missing_docs.items()):
        print(f"FAIL: doc/{name} does not exist (cited in {first})")
        failures += 1
    if failures == 0:
        print(f"PASS: {len(cited)} sections of doc/theory.md cited, all present; "
              "every cited doc/ file exists")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
