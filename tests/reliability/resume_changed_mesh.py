#!/usr/bin/env python3
"""resume_changed_mesh.py STICKSLIP SRC OUT [--np N]

A mesh file changed between a run and its resume is detected on the number
of ranks that wrote the snapshot too (it used to be found only on another
number of ranks, where the unknowns are matched by place). The Hertz
cylinder (prm/body_hertz_2d.prm) on a copy of meshes/cylinder_2d_0.msh runs
to t = 0.75 with snapshots; node 100 of the copy is then moved by 1e-3 (the
field report's case), and --resume to t = 1 on N ranks must end with exit
status 1, a message naming the mesh file, its parameter and the unknown
that moved, and the directory byte for byte as it was (every file but the
lock file). With the node put back, the same resume runs (exit 0): the
check does not refuse an unchanged mesh. Exit 0 if all hold, 1 otherwise.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from kill_resume import launcher  # noqa: E402


def digests(folder):
    result = {}
    for root, _, files in os.walk(folder):
        for name in files:
            if name != "stickslip.lock":
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    result[os.path.relpath(path, folder)] = hashlib.md5(f.read()).hexdigest()
    return result


def move_node(path, node, dx):
    """Move node `node` of the gmsh 2.2 file `path` by dx along x."""
    with open(path) as f:
        lines = f.read().split("\n")
    start = lines.index("$Nodes") + 2
    for i in range(start, lines.index("$EndNodes")):
        words = lines[i].split()
        if words[0] == str(node):
            words[1] = repr(float(words[1]) + dx)
            lines[i] = " ".join(words)
            break
    else:
        raise RuntimeError("no node %d in %s" % (node, path))
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("src")
    parser.add_argument("out")
    parser.add_argument("--np", type=int, default=1)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    mesh = os.path.join(out, "cylinder_copy.msh")
    shutil.copyfile(os.path.join(args.src, "meshes", "cylinder_2d_0.msh"), mesh)
    original = open(mesh).read()
    run_dir = os.path.join(out, "run")
    common = [os.path.join(args.src, "prm", "body_hertz_2d.prm"), "--quiet",
              "--set", "Body/Mesh file=" + mesh,
              "--set", "Output/Checkpoint interval=0.5"]

    def stickslip(words):
        run = subprocess.run(launcher(args.np) + [os.path.abspath(args.exe)] + common + words,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=600)
        return run.returncode, run.stdout

    failures = []
    status, text = stickslip(["--set", "Time/Final time=0.75",
                              "--set", "Output/Directory=" + run_dir])
    if status != 0:
        print(text)
        print("FAIL: the first run failed (exit %d)" % status)
        return 1
    move_node(mesh, 100, 1e-3)
    before = digests(run_dir)
    status, text = stickslip(["--set", "Time/Final time=1", "--resume", run_dir])
    print(text)
    message = next((line for line in text.splitlines() if "stickslip: error" in line), "")
    if status != 1:
        failures.append("the resume on the changed mesh: exit %d, expected 1" % status)
    for expected in ["'%s' (parameter 'Body/Mesh file')" % mesh, "in this mesh",
                     "Nothing was changed"]:
        if expected not in message:
            failures.append("the message does not say: " + expected)
    if digests(run_dir) != before:
        failures.append("the refused resume changed the directory")
    with open(mesh, "w") as f:
        f.write(original)
    status, text = stickslip(["--set", "Time/Final time=1", "--resume", run_dir])
    if status != 0:
        print(text)
        failures.append("the resume on the mesh put back: exit %d, expected 0" % status)
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: on %d rank(s) the moved node is found (exit 1, the mesh file named, "
              "nothing changed); the mesh put back resumes" % args.np)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
