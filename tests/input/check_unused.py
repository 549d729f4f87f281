#!/usr/bin/env python3
"""A run reported the entries it did not use, on screen and in parameters.prm.

For each PATH=REASON given (PATH "Sub/Name", REASON a regular expression),
the run in OUTDIR must have written to log.txt (its screen output)

    warning: 'PATH' (WHERE) has no effect on this run: REASON

and its parameters.prm must hold the entry's `set` line followed by the
line `# not used by this run: REASON`. With --used PATH, the entry must be
neither warned about nor marked (a used entry is never reported).

usage: check_unused.py OUTDIR [PATH=REASON]... [--used PATH]...
"""
import argparse
import os
import re
import sys


def marked_entries(text):
    """{path: mark} of the entries of a parameters.prm, mark "" if none."""
    entries, path, last = {}, [], None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("# not used by this run: ") and last:
            entries[last] = stripped[len("# not used by this run: "):]
            continue
        last = None
        words = stripped.split(None, 1)
        if not words:
            continue
        if words[0] == "subsection":
            path.append(words[1].strip())
        elif words[0] == "end":
            path.pop()
        elif words[0] == "set":
            name = stripped[3:].split("=", 1)[0].strip()
            last = "/".join(path + [name])
            entries[last] = ""
    return entries


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("unused", nargs="*")
    parser.add_argument("--used", action="append", default=[])
    a = parser.parse_args()
    with open(os.path.join(a.outdir, "log.txt")) as f:
        log = f.read()
    with open(os.path.join(a.outdir, "parameters.prm")) as f:
        entries = marked_entries(f.read())
    problems = []
    for item in a.unused:
        path, reason = item.split("=", 1)
        warning = (r"warning: '%s' \(.*\) has no effect on this run: %s"
                   % (re.escape(path), reason))
        if not re.search(warning, log):
            problems.append("no warning '%s' in log.txt" % warning)
        if path not in entries:
            problems.append("'%s' is not in parameters.prm" % path)
        elif not re.fullmatch(reason, entries[path]):
            problems.append("'%s' is marked '%s' in parameters.prm, not "
                            "'# not used by this run: %s'"
                            % (path, entries[path], reason))
    for path in a.used:
        if re.search(r"warning: '%s' \(" % re.escape(path), log):
            problems.append("the used entry '%s' is warned about" % path)
        if entries.get(path):
            problems.append("the used entry '%s' is marked" % path)
    for problem in problems:
        print("FAIL: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
