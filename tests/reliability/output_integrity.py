#!/usr/bin/env python3
"""output_integrity.py CASE STICKSLIP SRC OUTDIR

The output directory's guarantees, one CASE per ctest test (exit 0/1; 77
when the case cannot run on this machine, which ctest reports as skipped):

  lock          a second run, and a --resume, on a directory in use are
                refused (exit 1, "in use by another stickslip run", the
                directory "given by --resume" for the latter); the
                running job (an endless one) stops on SIGTERM with exit 3.
  final-time    --resume of a complete run (a snapshot at its end) says so
                and how to take it further (exit 1), nothing changes; a
                later Final time continues it from its end, to the
                uninterrupted history; without that snapshot, a Final time
                at or before the newest one is refused (exit 1, naming both
                times).
  meta          a snapshot's meta file edited (a field output pointing out
                of the directory, the history length) fails its checksum:
                the snapshot before it is used, with a warning; both edited:
                an error; a snapshot of the earlier format is refused with
                a clear message.
  history       history.csv changed after the last snapshot (an edited row
                before it) makes --resume refuse, naming the file; rows
                after the snapshot are dropped by a good resume.
  overwrite     Output/Overwrite = true removes the field files of a longer
                earlier run; stale temporaries go too.
  stamp         parameters.prm and log.txt start with the version, the
                libraries, the number of ranks and the date; log.txt holds
                the screen output; stickslip --version prints them; the
                timing summary is printed unless --quiet.
  disk-full     a full disk (a small tmpfs, root only) during field output
                and during a snapshot, on 1 and 2 ranks: exit 2, a message
                naming the file and "No space left on device", no hang, no
                partial file under a final name, history.csv whole rows,
                and the last snapshot resumes to the uninterrupted result;
                the body with HDF5 fields: exit 2, the file named, no
                crash at the end, no temporary file.
  file-size-limit  the same without a mount: a file size limit (ulimit -f)
                below the size of the body's contact series file.
"""
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from kill_anywhere import Failure, check_directory, read_rows  # noqa: E402
from kill_resume import launcher  # noqa: E402


def run(command, timeout=300):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            timeout=timeout)
    return result.returncode, result.stdout.decode()


def expect(condition, message):
    if not condition:
        raise Failure(message)
    print("ok: " + message)


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


class Case:
    def __init__(self, exe, src, out):
        self.exe, self.src, self.out = exe, src, out
        self.p3 = [os.path.join(src, "prm", "p3.prm"), "--set",
                   "Time/Convergence time steps="]
        self.membrane = [os.path.join(src, "prm", "membrane.prm"), "--set",
                         "String/Mesh file=" + os.path.join(src, "meshes", "membrane.msh")]
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)

    def stickslip(self, arguments, np_=1, timeout=300):
        return run(launcher(np_) + [self.exe] + arguments, timeout)

    # ------------------------------------------------------------------
    def lock(self):
        d = os.path.join(self.out, "run")
        # The first run must still hold the directory when the others start,
        # whatever the machine's speed: it is given 2e8 steps (p3 runs them
        # at about 1e5 per second) and is stopped by SIGTERM once the checks
        # are done, so nothing here depends on how long a run takes.
        endless = ["--set", "Time/Time step=2e-5", "--set", "Time/Final time=4000"]
        first = subprocess.Popen(
            [self.exe] + self.p3 + ["--quiet"] + endless +
            ["--set", "Output/Checkpoint interval=1",
             "--set", "Output/Directory=" + d],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        while not os.path.exists(os.path.join(d, "history.csv")):
            if first.poll() is not None:
                raise Failure("the first run ended early: " + first.stdout.read().decode())
            time.sleep(0.05)
        status, text = self.stickslip(self.p3 + ["--set", "Output/Overwrite=true",
                                                 "--set", "Output/Directory=" + d])
        expect(status == 1 and "is in use by another stickslip run" in text,
               "a second run into the directory is refused (exit %d)" % status)
        status, text = self.stickslip(self.p3 + endless + ["--resume", d])
        expect(status == 1 and "is in use by another stickslip run" in text and
               "(given by --resume)" in text,
               "a --resume of the running job is refused, the directory named as given by "
               "--resume (exit %d)" % status)
        expect(first.poll() is None, "the first run was still running during the checks")
        first.send_signal(signal.SIGTERM)
        expect(first.wait(timeout=600) == 3,
               "the running job stops on SIGTERM after a snapshot (exit 3)")
        status, _ = self.stickslip(self.p3 + ["--quiet", "--set", "Output/Overwrite=true",
                                              "--set", "Output/Directory=" + d])
        expect(status == 0, "after it, the directory can be used again")

    # ------------------------------------------------------------------
    def final_time(self):
        d = os.path.join(self.out, "run")
        model = self.membrane + ["--set", "Output/Field output=false"]
        status, _ = self.stickslip(model + [
            "--quiet", "--set", "Time/Final time=3", "--set", "Output/Checkpoint interval=1",
            "--set", "Output/Directory=" + d])
        expect(status == 0, "the run to t = 3 with snapshots at 1, 2 and its end completes")
        before = digests(d)
        for final in ["3", "2"]:
            status, text = self.stickslip(model + ["--set", "Time/Final time=" + final,
                                                   "--resume", d])
            expect(status == 1 and "the run is complete: it reached its final time, "
                   "t = 3 (step 1500), and 'Time/Final time' = " + final + " is not later"
                   in text and 'Time/Final time=6"' in text,
                   "--resume of the complete run with Final time = %s says it is complete "
                   "and how to take it further" % final)
            expect(digests(d) == before, "nothing in the directory changed")
        further = os.path.join(self.out, "further")
        shutil.copytree(d, further)
        os.remove(os.path.join(further, "stickslip.lock"))
        status, text = self.stickslip(model + ["--quiet", "--set", "Time/Final time=3.5",
                                               "--resume", further])
        reference = os.path.join(self.out, "reference")
        self.stickslip(model + ["--quiet", "--set", "Time/Final time=3.5",
                                "--set", "Output/Directory=" + reference])
        with open(os.path.join(further, "history.csv"), "rb") as f, \
                open(os.path.join(reference, "history.csv"), "rb") as g:
            same = f.read() == g.read()
        expect(status == 0 and "resumed at step 1500" in text and same,
               "a later Final time takes the complete run further from its end, to the "
               "uninterrupted run's history.csv (bitwise)")
        # Without the snapshot at its end (a run stopped after t = 2).
        shutil.rmtree(os.path.join(d, "checkpoints", "snapshot_000001500"))
        before = digests(d)
        for final in ["2", "1.5"]:
            status, text = self.stickslip(model + ["--set", "Time/Final time=" + final,
                                                   "--resume", d])
            expect(status == 1 and "newest snapshot is at t = 2" in text and
                   "'Time/Final time' = " + final + " is not later" in text,
                   "--resume with Final time = %s is refused naming both times" % final)
            expect(digests(d) == before, "nothing in the directory changed")
        status, text = self.stickslip(model + ["--quiet", "--set", "Time/Final time=3.5",
                                               "--resume", d])
        expect(status == 0 and "resumed at step 1000" in text,
               "--resume with a later Final time continues from t = 2")

    # ------------------------------------------------------------------
    def snapshot_run(self, name):
        d = os.path.join(self.out, name)
        status, _ = self.stickslip(self.membrane + [
            "--quiet", "--set", "Time/Final time=1", "--set", "Output/Checkpoint interval=0.2",
            "--set", "Output/Directory=" + d])
        expect(status == 0, "run %s with snapshots completes" % name)
        folder = os.path.join(d, "checkpoints")
        return d, [os.path.join(folder, n) for n in sorted(os.listdir(folder))]

    def edit(self, path, old, new):
        with open(path) as f:
            text = f.read()
        if old not in text:
            raise Failure("'%s' not in %s" % (old, path))
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))

    def meta(self):
        resume = self.membrane + ["--set", "Time/Final time=1", "--resume"]
        d, snaps = self.snapshot_run("pvd_entry")
        meta = os.path.join(snaps[-1], "meta")
        self.edit(meta, "solution/solution_00020.pvtu", "../../../../etc/passwd")
        status, text = self.stickslip(resume + [d])
        expect(status == 0 and "meta file fails its checksum); trying the one before it" in text,
               "a field output edited to leave the directory: the older snapshot is used")
        with open(os.path.join(d, "solution.pvd")) as f:
            expect("passwd" not in f.read(), "solution.pvd lists no file outside the directory")

        d, snaps = self.snapshot_run("both_edited")
        for s in snaps:
            self.edit(os.path.join(s, "meta"), "history_bytes ", "history_bytes 1")
        before = digests(d)
        status, text = self.stickslip(resume + [d])
        expect(status == 1 and "no complete snapshot to resume from" in text,
               "both snapshots edited: a clear error (exit %d)" % status)
        expect(digests(d) == before, "nothing in the directory changed")

        d, snaps = self.snapshot_run("old_format")
        for s in snaps:
            self.edit(os.path.join(s, "meta"), "format 2\n", "")
        status, text = self.stickslip(resume + [d])
        expect(status == 1 and "earlier version of stickslip" in text,
               "a snapshot of the earlier format is refused with a clear message")

    # ------------------------------------------------------------------
    def history(self):
        d, _ = self.snapshot_run("edited_history")
        reference = read_rows(os.path.join(d, "history.csv"))
        path = os.path.join(d, "history.csv")
        with open(path) as f:
            lines = f.readlines()
        lines[3] = lines[3].replace(",", ",9", 1)
        with open(path, "w") as f:
            f.writelines(lines)
        before = digests(d)
        status, text = self.stickslip(self.membrane + ["--set", "Time/Final time=1.2",
                                                       "--resume", d])
        expect(status == 1 and "history.csv written before the snapshot have been "
               "changed" in text, "an edited row before the snapshot: --resume refused")
        expect(digests(d) == before, "nothing in the directory changed")

        # A run killed after its snapshot at t = 0.8 (the one at its end
        # taken away), with rows after it.
        d, snapshots = self.snapshot_run("appended_rows")
        shutil.rmtree(snapshots[-1])
        with open(os.path.join(d, "history.csv"), "a") as f:
            f.write("99,1,2,3,4,5\n")
        status, text = self.stickslip(self.membrane + [
            "--quiet", "--set", "Time/Final time=1", "--resume", d])
        rows = read_rows(os.path.join(d, "history.csv"))
        expect(status == 0 and rows == reference,
               "rows after the snapshot are dropped and computed again")

    # ------------------------------------------------------------------
    def overwrite(self):
        d = os.path.join(self.out, "run")
        common = self.membrane + ["--quiet", "--set", "Output/Directory=" + d]
        expect(self.stickslip(common + ["--set", "Time/Final time=1"])[0] == 0,
               "a long run writes 51 field outputs")
        leftover = os.path.join(d, "solution", "solution_00003.0.vtu.tmp.12345")
        open(leftover, "w").close()
        status, _ = self.stickslip(common + ["--set", "Time/Final time=0.2",
                                             "--set", "Output/Overwrite=true"])
        files = sorted(os.listdir(os.path.join(d, "solution")))
        expect(status == 0 and len(files) == 22 and files[-1] == "solution_00010.pvtu",
               "a shorter run with Overwrite = true leaves only its own 11 outputs "
               "(%d files, last %s)" % (len(files), files[-1]))

    # ------------------------------------------------------------------
    def stamp(self):
        d = os.path.join(self.out, "run")
        status, text = self.stickslip(self.p3 + ["--set", "Output/Directory=" + d], np_=2)
        expect(status == 0, "a run on 2 ranks completes")
        expect("Total wallclock time elapsed since start" in text and
               "time loop" in text, "the timing summary is printed")
        _, version = self.stickslip(["--version"])
        for name in ["parameters.prm", "log.txt"]:
            with open(os.path.join(d, name)) as f:
                head = [f.readline() for _ in range(3)]
            expect(head[0].startswith("# stickslip ") and "deal.II" in head[1] and
                   ("PETSc" in head[1] or "Trilinos" in head[1]),
                   "%s starts with the version and the libraries" % name)
            expect("2 MPI ranks" in head[2] and " UTC" in head[2],
                   "%s names the number of ranks and the date" % name)
            expect(head[0][len("# stickslip "):].strip() in version,
                   "stickslip --version prints the same version")
        with open(os.path.join(d, "log.txt")) as f:
            log = f.read()
        expect("errors (discrete L2 in time" in log and "wrote " in log,
               "log.txt holds the screen output")
        status, text = self.stickslip(self.p3 + ["--quiet", "--set", "Output/Overwrite=true",
                                                 "--set", "Output/Directory=" + d])
        expect(status == 0 and "Total wallclock" not in text, "--quiet suppresses it")

    # ------------------------------------------------------------------
    def disk_full(self):
        mount = os.path.join(self.out, "small_disk")
        os.makedirs(mount)
        if os.geteuid() != 0 or subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", mount],
                stderr=subprocess.DEVNULL).returncode != 0:
            print("cannot mount a small tmpfs here (root and mount needed): skipped")
            return 77
        try:
            for np_ in [1, 2]:
                self.fill_during(mount, np_, "field output",
                                 ["--set", "Output/Interval=0.004"])
                self.fill_during(mount, np_, "snapshot",
                                 ["--set", "Output/Field output=false",
                                  "--set", "Output/Checkpoint interval=0.01"])
                self.fill_with_hdf5(mount, np_)
        finally:
            subprocess.run(["umount", mount])
        return 0

    def expect_clean_failure(self, d, status, text, what):
        """Exit 2 (not a crash in MPI_Finalize, not a hang), the file and the
        reason printed once, no temporary file left, history.csv whole rows."""
        left = [os.path.join(root, n) for root, _, names in os.walk(d)
                for n in names if ".tmp." in n]
        expect(status == 2 and "cannot write the file" in text and
               text.count("stickslip: run failed") == 1 and not left,
               "%s: exit 2 (was 139, a segfault in MPI_Finalize), the file named once, no "
               "temporary file left (exit %d, left %s)" % (what, status, left))
        with open(os.path.join(d, "history.csv"), "rb") as f:
            expect(f.read().endswith(b"\n"), "%s: history.csv ends with a whole row" % what)

    def fill_with_hdf5(self, mount, np_):
        # The body's HDF5 fields at every row: the volume files fill the disk
        # (HDF5 1.10 cannot close a file whose metadata it failed to write).
        d = os.path.join(mount, "hdf5")
        shutil.rmtree(d, ignore_errors=True)
        status, text = self.stickslip(
            [os.path.join(self.src, "tests", "body", "block.prm"), "--quiet",
             "--set", "Output/Field format=hdf5", "--set", "Output/Field output every=1",
             "--set", "Output/Directory=" + d], np_, timeout=120)
        self.expect_clean_failure(d, status, text,
                                  "disk full with HDF5 fields on %d rank(s)" % np_)
        expect("No space left on device" in text, "the reason is the full disk")
        shutil.rmtree(d, ignore_errors=True)

    def file_size_limit(self):
        # A file size limit (ulimit -f, SIGXFSZ ignored so that a write past
        # it fails with EFBIG instead of killing the process) stands for a
        # full disk where no small file system can be mounted: the contact
        # series file (665 kB laid out) is refused before HDF5 starts it;
        # without the check HDF5 would fail to close it and crash at exit.
        d = os.path.join(self.out, "run")
        command = " ".join("'%s'" % w for w in [
            self.exe, os.path.join(self.src, "tests", "body", "block.prm"), "--quiet",
            "--set", "Output/Field format=hdf5", "--set", "Output/Directory=" + d])
        # Under mpirun: a singleton's own start (PMIx) writes files past such
        # a limit.
        mpirun = ["mpirun", "-np", "1"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
        status, text = run(mpirun + ["bash", "-c", "ulimit -f 300 && trap '' XFSZ && exec " +
                                     command], timeout=120)
        print(text)
        self.expect_clean_failure(d, status, text, "a file size limit of 300 kB")
        expect("above this process's file size limit of 307200 bytes (ulimit -f)" in text,
               "the message names the limit")
        return 0

    def fill_during(self, mount, np_, what, settings):
        d = os.path.join(mount, "run")
        shutil.rmtree(d, ignore_errors=True)
        model = self.membrane + ["--quiet", "--set", "Time/Final time=0.5"] + settings
        snapshots = ["--set", "Output/Checkpoint interval=" +
                     ("0.5" if what == "field output" else "0.01")]
        reference = os.path.join(self.out, "reference_%s_np%d" % (what[0], np_))
        status, _ = self.stickslip(model + ["--set", "Output/Overwrite=true",
                                            "--set", "Output/Directory=" + reference], np_)
        expect(status == 0, "the reference run on a large disk completes")
        reference_rows = read_rows(os.path.join(reference, "history.csv"))
        status, text = self.stickslip(model + snapshots + ["--set", "Output/Directory=" + d],
                                      np_, timeout=120)
        expect(status == 2 and "No space left on device" in text and
               "cannot write the " in text and text.count("stickslip: run failed") == 1,
               "disk full during %s on %d rank(s): exit 2, the file and the reason, "
               "printed once (exit %d)" % (what, np_, status))
        rows = check_directory(d, reference_rows, 1e-10)
        expect(True, "no partial file under a final name; history.csv holds %d whole "
               "rows of the uninterrupted run" % rows)
        folder = os.path.join(d, "checkpoints")
        if os.path.isdir(folder) and any(not n.endswith(".tmp") for n in os.listdir(folder)):
            moved = os.path.join(self.out, "moved_%s_np%d" % (what[0], np_))
            shutil.rmtree(moved, ignore_errors=True)
            shutil.copytree(d, moved)
            os.remove(os.path.join(moved, "stickslip.lock"))
            status, _ = self.stickslip(model + snapshots + ["--resume", moved], np_)
            rows = read_rows(os.path.join(moved, "history.csv"))
            expect(status == 0 and len(rows) == len(reference_rows),
                   "the last snapshot, copied to a larger disk, resumes to the end")
            check_directory(moved, reference_rows, 1e-10)
        shutil.rmtree(d, ignore_errors=True)


def main():
    case, exe, src, out = sys.argv[1:5]
    c = Case(exe, src, out)
    method = getattr(c, case.replace("-", "_"))
    try:
        status = method()
    except (Failure, subprocess.TimeoutExpired) as failure:
        print("FAIL: %s" % failure)
        return 1
    if status == 77:
        return 77
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
