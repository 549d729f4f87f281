#!/usr/bin/env python3
"""resume_checks.py STICKSLIP SRC OUT GROUP [--np N]

A resume checks every file it relies on before it changes anything
(doc/running.md, "Checkpoint and restart"). A small run of the body
(tests/body/block.prm to t = 4e-5, snapshots every 2e-5, field output every
5th row, the contact surface at every row) is damaged in one way per case,
then resumed to t = 6e-5. GROUP selects the cases:

  hdf5      Output/Field format = hdf5: the snapshots deleted, or every
            one damaged; history.csv deleted or cut; the
            contact series file (solution/contact_from_00000.h5) deleted,
            cut to 1 kB or with its superblock's version byte changed; a
            volume output's .h5 deleted or replaced by another output's
            (its time then differs); a volume record (.xdmf) deleted; the
            contact mesh file deleted.
  vtu       VTU fields: a listed .pvtu record deleted; a piece (.vtu) of a
            listed record deleted.
  template  the contact series' XDMF template deleted: rebuilt from its
            series file (byte for byte), and the resumed run's history.csv
            is the uninterrupted run's, bitwise; then --resume of the
            complete run (the same final time) says so.

Every refused case must end with exit status 1, a message that names the
damaged file (or history.csv) and says nothing was changed, and leave the
directory byte for byte as it was (every file but the lock file). Exit 0
if every case passes, 1 otherwise.
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

BLOCK = ["tests/body/block.prm", "--quiet", "--set", "Output/Checkpoint interval=2e-5"]
FIRST = ["--set", "Time/Final time=4e-5"]
LATER = ["--set", "Time/Final time=6e-5"]
HDF5 = ["--set", "Output/Field format=hdf5"]


class Failure(Exception):
    pass


def digests(folder):
    """md5 of every file below folder but the lock file."""
    result = {}
    for root, _, files in os.walk(folder):
        for name in files:
            if name == "stickslip.lock":
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                result[os.path.relpath(path, folder)] = hashlib.md5(f.read()).hexdigest()
    return result


class Cases:
    def __init__(self, args):
        self.args = args
        self.passed = 0

    def stickslip(self, words):
        run = subprocess.run(launcher(self.args.np) + [self.args.exe] + words,
                             cwd=self.args.src, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=600)
        return run.returncode, run.stdout

    def first_run(self, name, fields):
        directory = os.path.join(self.args.out, name)
        status, text = self.stickslip(BLOCK + FIRST + fields +
                                      ["--set", "Output/Directory=" + directory])
        if status != 0:
            raise Failure("the run to damage failed (exit %d):\n%s" % (status, text))
        return directory

    def refused(self, original, case, damage, expected, fields):
        """Copy `original`, damage it, resume: exit 1 naming `expected`, the
        directory unchanged."""
        directory = os.path.join(self.args.out, case)
        shutil.rmtree(directory, ignore_errors=True)
        shutil.copytree(original, directory)
        os.remove(os.path.join(directory, "stickslip.lock"))
        damage(directory)
        before = digests(directory)
        status, text = self.stickslip(BLOCK + LATER + fields + ["--resume", directory])
        message = next((line for line in text.splitlines() if "stickslip: error" in line), "")
        if status != 1 or expected not in message or "Nothing was changed" not in message:
            raise Failure("%s: exit %d (expected 1), message without '%s' or 'Nothing was "
                          "changed':\n%s" % (case, status, expected, text))
        if digests(directory) != before:
            raise Failure("%s: the refused resume changed the directory" % case)
        print("ok: %s: exit 1, '%s' named, the directory unchanged\n    %s"
              % (case, expected, message))
        self.passed += 1

    def hdf5(self):
        original = self.first_run("hdf5_run", HDF5)

        def remove(name):
            return lambda d: os.remove(os.path.join(d, name))

        def cut(name, size):
            return lambda d: os.truncate(os.path.join(d, name), size)

        def version_byte(d):
            # Byte 8 of an HDF5 file: the superblock's version.
            with open(os.path.join(d, "solution/contact_from_00000.h5"), "r+b") as f:
                f.seek(8)
                f.write(b"\x07")

        def half(d):
            path = os.path.join(d, "history.csv")
            os.truncate(path, os.path.getsize(path) // 2)

        def other_output(d):
            shutil.copyfile(os.path.join(d, "solution/solution_00002.h5"),
                            os.path.join(d, "solution/solution_00001.h5"))

        def remove_snapshots(d):
            shutil.rmtree(os.path.join(d, "checkpoints"))

        def damage_snapshots(d):
            # Every snapshot's rank file cut: no complete one is left.
            folder = os.path.join(d, "checkpoints")
            for name in os.listdir(folder):
                path = os.path.join(folder, name, "rank_0.bin")
                os.truncate(path, os.path.getsize(path) // 2)

        cases = [
            ("snapshots_deleted", remove_snapshots, "no snapshot to continue from"),
            ("every_snapshot_damaged", damage_snapshots,
             "every snapshot is incomplete or corrupt"),
            ("history_deleted", remove("history.csv"), "history.csv"),
            ("history_cut", half, "history.csv"),
            ("contact_series_deleted", remove("solution/contact_from_00000.h5"),
             "solution/contact_from_00000.h5, which is missing"),
            ("contact_series_cut", cut("solution/contact_from_00000.h5", 1024),
             "solution/contact_from_00000.h5, which cannot be read"),
            ("contact_series_superblock", version_byte,
             "solution/contact_from_00000.h5, which cannot be read"),
            ("volume_file_deleted", remove("solution/solution_00001.h5"),
             "names the HDF5 file solution/solution_00001.h5, which is missing"),
            ("volume_file_of_another_output", other_output,
             "names the HDF5 file solution/solution_00001.h5, whose time is"),
            ("volume_record_deleted", remove("solution/solution_00001.xdmf"),
             "solution/solution_00001.xdmf"),
            ("contact_mesh_deleted", remove("solution/contact_mesh.h5"),
             "needs the HDF5 file solution/contact_mesh.h5, which is missing"),
        ]
        for case, damage, expected in cases:
            self.refused(original, case, damage, expected, HDF5)

    def vtu(self):
        original = self.first_run("vtu_run", [])
        pieces = sorted(n for n in os.listdir(os.path.join(original, "solution"))
                        if n.startswith("contact_00003.") and n.endswith(".vtu"))
        if not pieces:
            raise Failure("no piece of contact output 3 in " + original)
        self.refused(original, "record_deleted",
                     lambda d: os.remove(os.path.join(d, "solution/solution_00001.pvtu")),
                     "solution/solution_00001.pvtu", [])
        self.refused(original, "piece_deleted",
                     lambda d: os.remove(os.path.join(d, "solution", pieces[0])),
                     "names the piece solution/" + pieces[0] + ", which is missing", [])

    def template(self):
        original = self.first_run("template_run", HDF5)
        reference = os.path.join(self.args.out, "uninterrupted")
        status, text = self.stickslip(BLOCK + LATER + HDF5 +
                                      ["--set", "Output/Directory=" + reference])
        if status != 0:
            raise Failure("the uninterrupted run failed:\n" + text)
        name = "solution/contact_from_00000.xdmf.in"
        with open(os.path.join(original, name), "rb") as f:
            kept = f.read()
        directory = os.path.join(self.args.out, "template_deleted")
        shutil.copytree(original, directory)
        os.remove(os.path.join(directory, name))
        status, text = self.stickslip(BLOCK + LATER + HDF5 + ["--resume", directory])
        if status != 0:
            raise Failure("the resume without the template failed (exit %d):\n%s"
                          % (status, text))
        with open(os.path.join(directory, name), "rb") as f:
            if f.read() != kept:
                raise Failure("the rebuilt template differs from the one deleted")
        with open(os.path.join(directory, "history.csv"), "rb") as f, \
                open(os.path.join(reference, "history.csv"), "rb") as g:
            if f.read() != g.read():
                raise Failure("the resumed history.csv differs from the uninterrupted one")
        print("ok: a deleted template is rebuilt byte for byte; history.csv bitwise the "
              "uninterrupted run's")
        self.passed += 1
        self.refused(directory, "complete_run", lambda d: None, "the run is complete", HDF5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("src")
    parser.add_argument("out")
    parser.add_argument("group", choices=["hdf5", "vtu", "template"])
    parser.add_argument("--np", type=int, default=1)
    args = parser.parse_args()
    args.exe, args.out = os.path.abspath(args.exe), os.path.abspath(args.out)
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    cases = Cases(args)
    try:
        getattr(cases, args.group)()
    except (Failure, subprocess.TimeoutExpired) as failure:
        print("FAIL: %s" % failure)
        return 1
    print("PASS: %d cases" % cases.passed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
