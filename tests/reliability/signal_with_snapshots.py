#!/usr/bin/env python3
"""signal_with_snapshots.py STICKSLIP SRC OUT NAME [--np N] [--inherited-ignored]

SIGHUP and SIGUSR1 (Slurm's --signal default) stop a run as SIGTERM does
(doc/running.md, "Signals"): P3 with snapshots, an endless final time, gets
signal NAME once history.csv has 3 rows; it must stop after the step in
progress with exit status 3 and the message "interrupted by SIG<NAME> at
step N (t = T): a snapshot of this state is in ...; continue with --resume
...", and --resume to T + 0.5 must finish (exit 0) from that step. With
--np N the signal goes to mpirun, which passes it on to the ranks.

--inherited-ignored: the run starts with NAME ignored (nohup ignores
SIGHUP); NAME must then leave it running, and a SIGTERM after it stops it
(exit 3, "SIGTERM"). Nothing is timed: the script waits for rows and for the
end of the process. Exit 0 if all hold, 1 otherwise.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from kill_resume import launcher  # noqa: E402


def rows(path):
    try:
        with open(path) as f:
            return max(0, sum(1 for line in f if line.endswith("\n")) - 1)
    except OSError:
        return 0


def wait_for_rows(process, history, n):
    while rows(history) < n:
        if process.poll() is not None:
            raise RuntimeError("the run ended before it was signalled:\n" +
                               process.stdout.read())
        time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("src")
    parser.add_argument("out")
    parser.add_argument("name", choices=["HUP", "USR1"])
    parser.add_argument("--np", type=int, default=1)
    parser.add_argument("--inherited-ignored", action="store_true")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    number = getattr(signal, "SIG" + args.name)
    run_dir = os.path.join(out, "run")
    p3 = [os.path.abspath(args.exe), os.path.join(args.src, "prm", "p3.prm"),
          "--set", "Time/Convergence time steps=", "--set", "Time/Time step=2e-5",
          "--set", "Output/Checkpoint interval=1"]

    def start():
        # The signal's disposition as the test wants it in the child (a
        # shell may have left it ignored, or not).
        disposition = signal.SIG_IGN if args.inherited_ignored else signal.SIG_DFL
        return subprocess.Popen(
            launcher(args.np) + p3 + ["--set", "Time/Final time=4000",
                                      "--set", "Output/Directory=" + run_dir],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            preexec_fn=lambda: signal.signal(number, disposition))

    failures = []
    process = start()
    history = os.path.join(run_dir, "history.csv")
    try:
        wait_for_rows(process, history, 3)
        process.send_signal(number)
        expected = args.name
        if args.inherited_ignored:
            # Still running rows later: then SIGTERM.
            wait_for_rows(process, history, rows(history) + 3)
            process.send_signal(signal.SIGTERM)
            expected = "TERM"
        output, _ = process.communicate(timeout=600)
    finally:
        if process.poll() is None:
            process.kill()
    print(output)
    match = re.search(r"interrupted by SIG%s at step (\d+) \(t = (\S+)\): a snapshot of this "
                      r"state is in \S+; continue with --resume" % expected, output)
    if process.returncode != 3:
        failures.append("exit status %d, expected 3" % process.returncode)
    if not match:
        failures.append("no message 'interrupted by SIG%s ... continue with --resume'"
                        % expected)
    else:
        later = float(match.group(2)) + 0.5
        run = subprocess.run(launcher(args.np) + p3 + ["--set", "Time/Final time=%g" % later,
                                                       "--resume", run_dir],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=600)
        print(run.stdout)
        if run.returncode != 0 or "resumed at step " + match.group(1) not in run.stdout:
            failures.append("the resume to t = %g: exit %d, expected 0 from step %s"
                            % (later, run.returncode, match.group(1)))
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: SIG%s%s: exit 3 after a snapshot at step %s, resumed to the end"
              % (args.name, " (inherited ignored, then SIGTERM)"
                 if args.inherited_ignored else "", match.group(1)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
