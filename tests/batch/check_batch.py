#!/usr/bin/env python3
"""check_batch.py STICKSLIP SRC OUT CASE [--np N]

Tests of `stickslip --batch` (doc/running.md, "Batch runs"). Every case
writes a batch file under OUT, runs it, and checks what it must do:

  alone      runs of several models, a run that fails (status 2), a bad
             parameter (status 1) and a line that reuses an earlier line's
             directory (status 1) in the middle: every run reports the status
             it has alone, the batch goes on, the exit status is the largest,
             and every finished run's directory holds the same files as the
             same command line run alone, byte for byte (history.csv, field
             files, tables), log.txt and parameters.prm apart from dates and
             timings; the directories of the lines are independent (each
             holds exactly what its run alone writes).
  stdin      `--batch -` on N ranks: rank 0 reads standard input; a run
             failure (status 2) and a bad value (status 1) in the middle are
             collective; the finished runs agree with the same runs alone on N
             ranks.
  malformed  bad lines (a '$' on line 4, an unknown option on line 7, the
             program's name on line 8, a quote never closed on line 9): exit
             status 1, every bad line named by file and line number, no run
             started, nothing written.
  resume     a line with snapshots to t = 1 and a --resume line continuing it
             to t = 2: the history equals an uninterrupted run's.
Exit 0 if the case passes, 1 otherwise (the reason is printed).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from batch_common import (Failure, check_same_directory, launcher, run,  # noqa: E402
                          summary_statuses)

# Short runs of different models and schemes (a few tenths of a second each).
P5B = ["prm/p5b.prm", "--set", "Time/Convergence time steps=", "--set",
       "Time/Time step=1e-2", "--set", "Time/Final time=2"]
STRING = ["prm/string.prm", "--set", "String/Global refinements=5", "--set",
          "Time/Final time=0.5"]
TP1 = ["prm/tp1.prm", "--set", "Time/Final time=1"]
CHAIN = ["prm/chain_dynamical_clamped.prm", "--set", "Time/Final time=1"]
# Status 2: the projection iteration stopped at its limit (a RunError).
FAILS = P5B + ["--set", "Friction/Solver=projection", "--set",
               "Friction/Maximum iterations=1"]
# Status 1: a value out of range (checked by the run, not by the batch).
BAD_VALUE = P5B + ["--set", "Time/Time step=-1"]


def quoted(word):
    """The word as a shell script would write it."""
    if re.fullmatch(r"[\w./=+:,-]+", word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def batch_text(lines):
    return "".join(" ".join(quoted(w) for w in line) + "\n" for line in lines)


def with_directory(words, directory):
    return words + ["--quiet", "--set", "Output/Directory=" + directory,
                    "--set", "Output/Overwrite=true"]


def case_alone(args):
    names = ["p5b", "string", "fails", "p5b_again", "bad_value", "tp1",
             "reused", "chain"]
    commands = [P5B, STRING, FAILS, P5B, BAD_VALUE, TP1, TP1, CHAIN]
    # The 7th line writes into the 6th line's directory.
    directories = [os.path.join(args.out, "batch", n) for n in names]
    directories[6] = directories[5]
    lines = [with_directory(c, d) for c, d in zip(commands, directories)]
    expected = [0, 0, 2, 0, 1, 0, 1, 0]
    batch_file = os.path.join(args.out, "runs.txt")
    with open(batch_file, "w") as f:
        f.write("# parameter study\n\n" + batch_text(lines))
    result = run(launcher(args.np) + [args.exe, "--batch", batch_file], args.src)
    statuses = summary_statuses(result.stdout)
    if statuses != {3 + k: s for k, s in enumerate(expected)}:
        raise Failure("statuses by line %s, expected %s" % (statuses, expected))
    if result.returncode != 2:
        raise Failure("exit status %d, expected 2 (the largest)" % result.returncode)
    if "holds the results of line 8 of this batch" not in result.stderr:
        raise Failure("the reused directory is not refused by name:\n" + result.stderr)
    for name, command, directory, status in zip(names, commands, directories,
                                                expected):
        alone = os.path.join(args.out, "alone", name)
        single = run(launcher(args.np) + [args.exe] + with_directory(command, alone),
                     args.src)
        if single.returncode != (status if name != "reused" else 0):
            raise Failure("%s alone: exit status %d" % (name, single.returncode))
        if status == 0:
            check_same_directory(alone, directory)
    print("PASS: statuses %s, exit status 2, directories identical to the runs alone"
          % expected)


def case_stdin(args):
    names = ["string", "fails", "p5b", "bad_value", "tp1"]
    commands = [STRING, FAILS, P5B, BAD_VALUE, TP1]
    expected = {1: 0, 2: 2, 3: 0, 4: 1, 5: 0}
    directories = [os.path.join(args.out, "batch", n) for n in names]
    text = batch_text([with_directory(c, d) for c, d in zip(commands, directories)])
    result = run(launcher(args.np) + [args.exe, "--batch", "-"], args.src, stdin=text)
    if result.returncode != 2 or summary_statuses(result.stdout) != expected:
        raise Failure("exit status %d, statuses %s, expected 2 and %s\n%s" % (
            result.returncode, summary_statuses(result.stdout), expected,
            result.stderr))
    for k, (name, command, directory) in enumerate(zip(names, commands, directories)):
        if expected[k + 1] != 0:
            continue
        alone = os.path.join(args.out, "alone", name)
        single = run(launcher(args.np) + [args.exe] + with_directory(command, alone),
                     args.src)
        if single.returncode != 0:
            raise Failure("%s alone: exit status %d" % (name, single.returncode))
        check_same_directory(alone, directory)
    print("PASS: %d runs from standard input on %d rank(s): statuses %s, exit "
          "status 2, the finished runs identical to the runs alone"
          % (len(names), args.np, expected))


def case_malformed(args):
    batch_dir = os.path.join(args.out, "batch")
    good = [with_directory(P5B, os.path.join(batch_dir, "run%d" % k)) for k in range(3)]
    text = (batch_text(good[:2]) + "# comment\n"
            + "prm/p5b.prm --set Output/Directory=$HOME/out\n"   # line 4
            + "\n"
            + batch_text(good[2:])                              # line 6
            + "prm/p5b.prm --sett Time/Final time=1\n"          # line 7
            + "build/stickslip prm/p5b.prm\n"                   # line 8
            + "prm/p5b.prm --set 'Time/Final time=1\n"          # line 9: never closed
            + "prm/p5b.prm\n")
    batch_file = os.path.join(args.out, "malformed.txt")
    with open(batch_file, "w") as f:
        f.write(text)
    result = run(launcher(args.np) + [args.exe, "--batch", batch_file], args.src)
    if result.returncode != 1:
        raise Failure("exit status %d, expected 1" % result.returncode)
    where = "batch file '%s'" % batch_file
    for line, reason in [(4, "unquoted '$'"), (7, "unknown option '--sett'"),
                         (8, "only what follows"), (9, "never closed")]:
        if not re.search(re.escape("%s, line %d: " % (where, line)) + ".*" +
                         re.escape(reason), result.stderr):
            raise Failure("line %d (%s) is not named:\n%s" % (line, reason, result.stderr))
    if "4 lines of the" not in result.stderr or "line 1:" in result.stderr:
        raise Failure("wrong lines reported:\n" + result.stderr)
    if "stickslip --batch: line" in result.stdout or os.path.exists(batch_dir):
        raise Failure("a run was started:\n" + result.stdout)
    print("PASS: exit status 1, lines 4, 7, 8, 9 named, nothing run or written")


def case_resume(args):
    first = os.path.join(args.out, "batch", "resumed")
    reference = os.path.join(args.out, "alone", "uninterrupted")
    short = P5B + ["--set", "Time/Final time=1", "--set",
                   "Output/Checkpoint interval=0.25"]
    lines = [with_directory(short, first),
             ["prm/p5b.prm", "--resume", first, "--quiet",
              "--set", "Time/Convergence time steps=", "--set", "Time/Time step=1e-2",
              "--set", "Output/Checkpoint interval=0.25", "--set", "Time/Final time=2"]]
    batch_file = os.path.join(args.out, "resume.txt")
    with open(batch_file, "w") as f:
        f.write(batch_text(lines))
    result = run(launcher(args.np) + [args.exe, "--batch", batch_file], args.src)
    if result.returncode != 0 or summary_statuses(result.stdout) != {1: 0, 2: 0}:
        raise Failure("exit status %d, statuses %s\n%s" % (
            result.returncode, summary_statuses(result.stdout), result.stderr))
    single = run(launcher(args.np) + [args.exe] + with_directory(
        P5B + ["--set", "Output/Checkpoint interval=0.25"], reference), args.src)
    if single.returncode != 0:
        raise Failure("uninterrupted run: exit status %d" % single.returncode)
    check_same_directory(reference, first, files=["history.csv"])
    print("PASS: a --resume line continues an earlier line's run; history.csv "
          "identical to the uninterrupted run's")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("src")
    parser.add_argument("out")
    parser.add_argument("case", choices=["alone", "stdin", "malformed", "resume"])
    parser.add_argument("--np", type=int, default=1)
    args = parser.parse_args()
    args.exe = os.path.abspath(args.exe)
    args.out = os.path.abspath(args.out)
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    try:
        globals()["case_" + args.case](args)
    except Failure as failure:
        print("FAIL:", failure)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
