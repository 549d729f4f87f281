#!/usr/bin/env python3
"""function_lengths.py [--limit N] [--top K] DIR...

Lengths of the function bodies in the .cc files under DIR (deal.II style:
a definition's body opens with '{' alone on a line, at the indentation of
its signature, and closes with '}' at the same indentation). Prints the K
longest; with --limit, exits 1 if any body is longer than N lines.
"""
import argparse
import os
import re
import sys


def functions(path):
    with open(path) as f:
        lines = f.read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = re.match(r"^( *)\{\s*$", lines[i])
        if m and i > 0 and re.search(r"\)\s*(const)?\s*(override)?\s*$|^\s*:|^\s*,",
                                     lines[i - 1]):
            indent = m.group(1)
            # the signature: the nearest line above at the same indentation
            # that names the function
            j = i - 1
            while j > 0 and not re.match(r"^" + indent + r"[A-Za-z_~].*\(", lines[j]):
                j -= 1
            name = lines[j].strip()
            k = i + 1
            while k < len(lines) and not re.match(r"^" + indent + r"\}", lines[k]):
                k += 1
            found.append((k - i + 1, name, path, j + 1))
            i = k
        i += 1
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--top", type=int, default=10)
    a = parser.parse_args()
    everything = []
    for d in a.dirs:
        for root, _, files in os.walk(d):
            for name in sorted(files):
                if name.endswith(".cc"):
                    everything += functions(os.path.join(root, name))
    everything.sort(reverse=True)
    for length, name, path, line in everything[:a.top]:
        print("%5d  %s:%d  %s" % (length, path, line, name[:70]))
    if a.limit:
        if not everything:
            print("no function found: nothing was checked")
            return 1
        over = [f for f in everything if f[0] > a.limit]
        if over:
            print("%d function(s) longer than %d lines" % (len(over), a.limit))
            return 1
        print("every one of %d functions has at most %d lines" % (len(everything), a.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
