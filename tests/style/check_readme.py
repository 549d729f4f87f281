#!/usr/bin/env python3
"""check_readme.py SRC [--max-lines N]: README.md is a front door, not a
manual. It fails when

  - README.md has more than N lines (default 200): details belong in doc/;
  - a file the README names (doc/*.md, doc/*.png, LICENSE, CITATION.cff,
    BENCHMARKS.md, run.sh, test.sh, postprocess/*.py, a prm file) does not
    exist, whether in a link or in backquotes (check_links.py sees links only);
  - a parameter file of prm/ is missing from the README (every example is
    in its table), or a cookbook of doc/cookbook_*.md is not linked;
  - the license is not stated alike in README.md, LICENSE (the LGPL 2.1
    text) and CITATION.cff (LGPL-2.1-or-later).

Prints every problem; exit 1 if any."""
import argparse
import os
import re
import sys

NAMED = re.compile(r"(?<![\w/.-])((?:doc|postprocess|prm|bench|meshes)/[\w./-]+\."
                   r"(?:md|png|py|prm|msh|sh)|LICENSE|CITATION\.cff|BENCHMARKS\.md|"
                   r"run\.sh|test\.sh)")
PRM = re.compile(r"(?<![\w/.-])(?:prm/)?([\w-]+\.prm)\b")


def license_problems(src, readme):
    """The one license, LGPL-2.1-or-later (as deal.II), said the same way
    in the three places a reader or a tool looks for it."""
    out = []
    if "LGPL-2.1-or-later" not in readme:
        out.append("README.md does not state the license LGPL-2.1-or-later")
    try:
        with open(os.path.join(src, "LICENSE"), encoding="utf-8") as f:
            head = f.read(400)
        if "GNU LESSER GENERAL PUBLIC LICENSE" not in head or "Version 2.1" not in head:
            out.append("LICENSE is not the text of the GNU LGPL version 2.1")
        with open(os.path.join(src, "CITATION.cff"), encoding="utf-8") as f:
            cff = f.read()
        if not re.search(r"^license: LGPL-2\.1-or-later$", cff, re.M):
            out.append("CITATION.cff has no line 'license: LGPL-2.1-or-later'")
        if not cff.startswith("cff-version: 1.2.0"):
            out.append("CITATION.cff does not start with 'cff-version: 1.2.0'")
    except OSError as e:
        out.append("cannot read %s" % e.filename)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("src")
    parser.add_argument("--max-lines", type=int, default=200)
    args = parser.parse_args()
    with open(os.path.join(args.src, "README.md"), encoding="utf-8") as f:
        text = f.read()
    problems = []
    lines = text.count("\n")
    if lines > args.max_lines:
        problems.append("README.md has %d lines, more than %d: move the details "
                        "to doc/ and link them" % (lines, args.max_lines))
    for name in sorted(set(NAMED.findall(text))):
        if not os.path.exists(os.path.join(args.src, name)):
            problems.append("README.md names %s, which does not exist" % name)
    named_prm = set(PRM.findall(text))
    for name in sorted(os.listdir(os.path.join(args.src, "prm"))):
        if name.endswith(".prm") and name not in named_prm:
            problems.append("prm/%s is not in the README's table of examples" % name)
    for name in sorted(os.listdir(os.path.join(args.src, "doc"))):
        if name.startswith("cookbook_") and "doc/" + name not in text:
            problems.append("doc/%s is not linked from README.md" % name)
    problems += license_problems(args.src, text)
    for p in problems:
        print(p)
    print("FAIL" if problems else "OK: README.md has %d lines, names only files "
          "that exist, every example and every cookbook; the license stated alike" % lines)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
