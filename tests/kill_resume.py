#!/usr/bin/env python3
"""kill_resume.py STICKSLIP PRM OUTDIR [--np N] [--resume-np M] [--kills K]
                 [--corrupt] [--sigterm] [--seed S] [--set S]...
                 [--identical FILE]...

Checkpoint/restart test: runs PRM uninterrupted (the reference), then again
with snapshots (Output/Checkpoint interval, given with --set), killing it with
SIGKILL K times at random moments after a new snapshot appeared and resuming
it with --resume each time (on M ranks), until it completes. --corrupt
damages the newest snapshot before one resume (the previous one must be used,
with a warning); --sigterm ends one attempt with SIGTERM instead (exit status
3, a final snapshot). The final history.csv must equal the reference to 1e-12
relative, and every --identical FILE (e.g. optimization.csv of a control
search) must equal the reference byte for byte. Exit 0/1.
"""
import argparse
import filecmp
import os
import random
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def launcher(np_):
    if np_ <= 1:
        return []
    command = ["mpirun", "-np", str(np_), "--oversubscribe"]
    if os.geteuid() == 0:
        command.append("--allow-run-as-root")
    return command


def snapshots(out):
    folder = os.path.join(out, "checkpoints")
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder)
                  if n.startswith("snapshot_") and not n.endswith(".tmp"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("prm")
    parser.add_argument("out")
    parser.add_argument("--np", type=int, default=1)
    parser.add_argument("--resume-np", type=int, default=0)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--corrupt", action="store_true")
    parser.add_argument("--sigterm", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--identical", action="append", default=[])
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sets = []
    for s in args.set:
        sets += ["--set", s]
    resume_np = args.resume_np or args.np

    reference = os.path.join(args.out, "reference")
    run = os.path.join(args.out, "interrupted")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    base = [args.exe, args.prm, "--quiet", "--set", "Output/Overwrite=true"] + sets
    subprocess.run(launcher(args.np) + base + ["--set", "Output/Directory=" + reference],
                   check=True, stdout=subprocess.DEVNULL)

    first = launcher(args.np) + base + ["--set", "Output/Directory=" + run]
    again = launcher(resume_np) + base + ["--resume", run]
    attempts, kills, corrupted, terminated = 0, 0, False, False
    command = first
    while True:
        attempts += 1
        if attempts > 4 * args.kills + 8:
            print("FAIL: the run does not complete")
            return 1
        seen = snapshots(run)
        process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT,
                                   start_new_session=True)
        interrupt = kills < args.kills or (args.sigterm and not terminated)
        if interrupt:
            # Wait for a new snapshot, then a random moment more.
            while process.poll() is None and snapshots(run) == seen:
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.3))
            if process.poll() is None:
                if kills < args.kills:
                    os.killpg(process.pid, signal.SIGKILL)
                    kills += 1
                    print("attempt %d: killed (SIGKILL) after %s"
                          % (attempts, snapshots(run)[-1:]))
                else:
                    os.killpg(process.pid, signal.SIGTERM)
                    terminated = True
        output, _ = process.communicate()
        output = output.decode()
        if terminated and process.returncode == 3:
            if "interrupted by SIGTERM" not in output:
                print(output)
                print("FAIL: SIGTERM without its message")
                return 1
            print("attempt %d: SIGTERM, exit 3, %s" % (attempts, snapshots(run)[-1:]))
            terminated = "done"
        elif process.returncode == 0:
            if "resumed" not in output and command is again:
                print(output)
                print("FAIL: completed without resuming")
                return 1
            print("attempt %d: completed" % attempts)
            break
        elif process.returncode not in (-9, 137) and kills == 0:
            print(output)
            print("FAIL: exit status %d" % process.returncode)
            return 1
        if not snapshots(run):
            command = first  # killed before the first snapshot: start over
            continue
        if args.corrupt and not corrupted and len(snapshots(run)) >= 2:
            newest = os.path.join(run, "checkpoints", snapshots(run)[-1], "rank_0.bin")
            with open(newest, "r+b") as f:
                f.seek(40)
                f.write(b"\xff\xfe\xfd\xfc")
            corrupted = True
            print("corrupted", newest)
            probe = subprocess.run(again, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
            text = probe.stdout.decode()
            if "is incomplete or corrupt" not in text or probe.returncode != 0:
                print(text)
                print("FAIL: the corrupt snapshot was not skipped with a warning")
                return 1
            print("resumed past the corrupt snapshot with a warning: completed")
            break
        command = again

    compare = subprocess.run([sys.executable, os.path.join(HERE, "compare_histories.py"),
                              os.path.join(reference, "history.csv"),
                              os.path.join(run, "history.csv"), "--tolerance", "1e-12"])
    if compare.returncode != 0:
        return 1
    for name in args.identical:
        if not filecmp.cmp(os.path.join(reference, name), os.path.join(run, name),
                           shallow=False):
            print("FAIL: %s differs from the uninterrupted run's" % name)
            return 1
        print("%s identical to the uninterrupted run's" % name)
    print("%d kills%s%s, history equal to the uninterrupted run: PASS"
          % (kills, ", 1 corrupt snapshot" if corrupted else "",
             ", 1 SIGTERM" if terminated else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
