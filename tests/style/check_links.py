#!/usr/bin/python3
"""check_links.py SRC: every relative link of the Markdown files (README.md,
BENCHMARKS.md, doc/, postprocess/, tests/ READMEs) names a file of the
repository, and every '#anchor' into a Markdown file names one of its
headings (GitHub's rule: lower case, punctuation dropped, spaces to '-')."""
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path):
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                title = line.lstrip("#").strip().lower()
                title = re.sub(r"[^\w\- ]", "", title)
                out.add(title.replace(" ", "-"))
    return out


def markdown_files(src):
    for top in ["README.md", "BENCHMARKS.md"]:
        yield os.path.join(src, top)
    for folder in ["doc", "postprocess", "tests", "prm", "bench", "meshes"]:
        for root, _, files in os.walk(os.path.join(src, folder)):
            for name in files:
                if name.endswith(".md"):
                    yield os.path.join(root, name)


def main(src):
    bad = []
    for md in markdown_files(src):
        if not os.path.isfile(md):
            continue
        with open(md, encoding="utf-8") as f:
            text = f.read()
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue                      # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            where = os.path.relpath(md, src)
            if not os.path.exists(full):
                bad.append("%s: link to %s: no such file" % (where, target))
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                bad.append("%s: link to %s: no such heading" % (where, target))
    for line in bad:
        print(line)
    print("%s" % ("FAIL" if bad else "OK: every relative link resolves"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
