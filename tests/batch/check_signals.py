#!/usr/bin/env python3
"""check_signals.py STICKSLIP SRC OUT CASE

SIGTERM during a batch (one rank; doc/running.md, "Batch runs"). The second
of three lines is a long run; the signal is sent once its history.csv
exists, i.e. while it runs:

  snapshot     the long run takes snapshots: it writes one and ends with
               status 3, the batch stops there (the third line is not run,
               the summary says so) and exits with status 3.
  no-snapshot  the long run takes no snapshots (the first line did): it
               stops at the end of its step as it does alone, status 3, with
               the message of a run without snapshots (the rows kept, how to
               make a run resumable), and the batch stops there with exit
               status 3 (the third line is not run). A handler of the first
               run that let the signal be forgotten would let it run on to
               its end instead.
Nothing here is timed: the script waits for files and for the process's end.
Exit 0 if the case passes, 1 otherwise.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from batch_common import Failure, summary_statuses  # noqa: E402

SHORT = ["prm/tp1.prm", "--set", "Time/Final time=0.5"]
# About 8e5 centered steps of TP1: many seconds, long enough to be signalled.
LONG = ["prm/tp1.prm", "--set", "Time/Final time=1e4", "--set",
        "Output/Interval=100"]
SNAPSHOTS = ["--set", "Output/Checkpoint interval=1000"]


def line(words, directory):
    return " ".join("'%s'" % w for w in words + [
        "--quiet", "--set", "Output/Directory=" + directory,
        "--set", "Output/Overwrite=true"]) + "\n"


def wait_for(path, process, limit=300):
    """Until `path` exists (the run has started); fails if the batch ended."""
    start = time.monotonic()
    while not os.path.exists(path):
        if process.poll() is not None:
            raise Failure("the batch ended (status %d) before %s appeared"
                          % (process.returncode, path))
        if time.monotonic() - start > limit:
            raise Failure("%s did not appear" % path)
        time.sleep(0.05)


def run_and_signal(args, lines, directories):
    batch_file = os.path.join(args.out, "batch.txt")
    with open(batch_file, "w") as f:
        f.write("".join(line(w, d) for w, d in zip(lines, directories)))
    process = subprocess.Popen([args.exe, "--batch", batch_file], cwd=args.src,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        wait_for(os.path.join(directories[1], "history.csv"), process)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    if os.path.exists(directories[2]):
        raise Failure("the line after the signal was run")
    return process.returncode, stdout, stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("src")
    parser.add_argument("out")
    parser.add_argument("case", choices=["snapshot", "no-snapshot"])
    args = parser.parse_args()
    args.exe, args.out = os.path.abspath(args.exe), os.path.abspath(args.out)
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    directories = [os.path.join(args.out, n) for n in ("first", "long", "third")]
    try:
        if args.case == "snapshot":
            status, stdout, stderr = run_and_signal(
                args, [SHORT, LONG + SNAPSHOTS, SHORT], directories)
            if status != 3 or summary_statuses(stdout) != {1: 0, 2: 3}:
                raise Failure("exit status %d, statuses %s\n%s%s" % (
                    status, summary_statuses(stdout), stdout, stderr))
            if "interrupted by SIGTERM" not in stderr or "1 not run (line 3)" not in stdout:
                raise Failure("the interruption or the summary is missing:\n"
                              + stdout + stderr)
            if not os.path.isdir(os.path.join(directories[1], "checkpoints")):
                raise Failure("no snapshot written")
            print("PASS: the signalled run wrote a snapshot, status 3; the batch "
                  "stopped with exit status 3, line 3 not run")
        else:
            status, stdout, stderr = run_and_signal(
                args, [SHORT + SNAPSHOTS, LONG, SHORT], directories)
            if status != 3 or summary_statuses(stdout) != {1: 0, 2: 3}:
                raise Failure("the run without snapshots was not stopped by SIGTERM "
                              "(exit status %d, statuses %s):\n%s%s"
                              % (status, summary_statuses(stdout), stdout, stderr))
            if ("interrupted by SIGTERM" not in stderr or "run without snapshots" not in stderr
                    or "1 not run (line 3)" not in stdout):
                raise Failure("the interruption or the summary is missing:\n"
                              + stdout + stderr)
            print("PASS: after a run with snapshots, a run without them stops at the "
                  "end of its step with status 3, as alone; the batch stopped there")
    except Failure as failure:
        print("FAIL:", failure)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
