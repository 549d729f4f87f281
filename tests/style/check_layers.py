#!/usr/bin/env python3
"""check_layers.py SRC_DIR

The includes of stickslip point down: a file of a folder (floor) of src/
includes only files of its own floor or of floors below it (doc/
developers.md), and no header forward-declares a class of a floor above it
to get round that. Prints every violation; exit 1 if there is one.
"""
import os
import re
import sys

FLOORS = ["base", "linear_algebra", "friction", "time", "models", "drivers", "control"]

# Classes of each floor that a lower floor could be tempted to forward-declare.
def classes_by_floor(src):
    owners = {}
    for floor in FLOORS:
        for root, _, files in os.walk(os.path.join(src, floor)):
            for name in files:
                if name.endswith(".h"):
                    with open(os.path.join(root, name)) as f:
                        for m in re.finditer(r"^\s*class\s+(\w+)\s*(?::|\{|$)", f.read(), re.M):
                            owners.setdefault(m.group(1), floor)
    return owners


def main():
    src = sys.argv[1]
    owners = classes_by_floor(src)
    problems, checked = [], 0
    for floor in FLOORS:
        for root, _, files in os.walk(os.path.join(src, floor)):
            for name in files:
                path = os.path.join(root, name)
                with open(path) as f:
                    text = f.read()
                for m in re.finditer(r"#include <(\w+)/", text):
                    checked += 1
                    target = m.group(1)
                    if target in FLOORS and FLOORS.index(target) > FLOORS.index(floor):
                        problems.append("%s includes <%s/...> (floor %s above %s)"
                                        % (path, target, target, floor))
                for m in re.finditer(r"^\s*class\s+(\w+)\s*;", text, re.M):
                    owner = owners.get(m.group(1))
                    if owner and FLOORS.index(owner) > FLOORS.index(floor):
                        problems.append("%s forward-declares %s of floor %s"
                                        % (path, m.group(1), owner))
    for p in problems:
        print(p)
    if checked == 0:
        print("no include found: wrong source folder?")
        return 1
    print("%d includes checked, %d pointing up" % (checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
