#!/usr/bin/env python3
"""check_script_modes.py SRC: every script under postprocess/ that starts
with a shebang ("#!") is executable, so that the direct calls of
postprocess/README.md (postprocess/chain_response.py RUN/history.csv) run
instead of stopping with "Permission denied" (exit 126). The modules that
the scripts import (vtk_python.py, kostrov.py) and the ParaView script
(paraview_view.py, run by pvbatch) have no shebang and are not checked.

The mode is the one git records (git ls-files -s: 100755) when SRC is a git
work tree, else the file's own execute bit. Prints every offender with the
command that fixes it; exit 1 if any, 0 otherwise.
"""
import os
import subprocess
import sys


def recorded_modes(src):
    """{path: mode} of the tracked files under postprocess/, or None outside
    a git work tree (a copy of the sources)."""
    try:
        listing = subprocess.run(["git", "-C", src, "ls-files", "-s", "postprocess"],
                                 capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    modes = {}
    for line in listing.splitlines():
        info, _, path = line.partition("\t")
        modes[path] = info.split()[0]
    return modes or None


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    src = sys.argv[1]
    modes = recorded_modes(src)
    folder = os.path.join(src, "postprocess")
    problems, checked = [], 0
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not name.endswith(".py") or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            if f.read(2) != b"#!":
                continue
        checked += 1
        relative = "postprocess/" + name
        if modes is not None:
            if relative not in modes:
                continue  # not tracked: not part of the repository
            if modes[relative] != "100755":
                problems.append("%s: git records mode %s, not 100755 (git update-index "
                                "--chmod=+x %s)" % (relative, modes[relative], relative))
        elif not os.access(path, os.X_OK):
            problems.append("%s: not executable (chmod +x %s)" % (relative, relative))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("OK: the %d scripts of postprocess/ with a shebang are executable" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
