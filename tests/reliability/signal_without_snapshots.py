#!/usr/bin/env python3
"""signal_without_snapshots.py STICKSLIP PRM OUT (INT|TERM|HUP|USR1) [stickslip options...]

Ctrl-C (SIGINT), SIGTERM, SIGHUP or SIGUSR1 to a run that takes no snapshots
(the default):
the run stops after the step in progress, exit status 3, with a message
that gives the time reached, the rows history.csv keeps and how to make a
run resumable (Output/Checkpoint interval); history.csv then holds exactly
those rows, whole, and no temporary file (*.tmp.*) is left in OUT.

Nothing is timed: the signal is sent once history.csv has 3 rows, i.e.
while the run is in its time loop, and the script waits for the process to
end. The run must be long enough not to end first (the options given).
Exit 0 if all hold, 1 otherwise.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def rows(path):
    try:
        with open(path) as f:
            return max(0, sum(1 for line in f if line.endswith("\n")) - 1)
    except OSError:
        return 0


def main():
    exe, prm, out, name = sys.argv[1:5]
    options = sys.argv[5:]
    number = getattr(signal, "SIG" + name)
    shutil.rmtree(out, ignore_errors=True)
    # A child of a non-interactive shell may inherit SIGINT (or under nohup
    # SIGHUP) ignored, which stickslip then keeps (POSIX): start it with the
    # default disposition.
    process = subprocess.Popen(
        [exe, prm, "--set", "Output/Directory=" + out] + options,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
        preexec_fn=lambda: signal.signal(number, signal.SIG_DFL))
    history = os.path.join(out, "history.csv")
    while rows(history) < 3 and process.poll() is None:
        time.sleep(0.05)
    if process.poll() is not None:
        print("FAIL: the run ended before it was signalled:\n" + process.stdout.read())
        return 1
    process.send_signal(number)
    output, _ = process.communicate()
    print(output)
    failures = []
    if process.returncode != 3:
        failures.append("exit status %d, expected 3" % process.returncode)
    match = re.search(r"interrupted by SIG%s at step (\d+) \(t = (\S+)\) of a run without "
                      r"snapshots: \S*history\.csv keeps its (\d+) rows, t = \S+ to (\S+?)[,;]"
                      % name, output)
    if not match:
        failures.append("no message with the time reached and the rows kept")
    elif rows(history) != int(match.group(3)):
        failures.append("history.csv has %d rows, the message says %s"
                        % (rows(history), match.group(3)))
    if "cannot be resumed" not in output or "Output/Checkpoint interval" not in output:
        failures.append("the message does not say how to make a run resumable")
    with open(history) as f:
        text = f.read()
    if not text.endswith("\n"):
        failures.append("history.csv ends with a partial row")
    temporary = [os.path.join(root, f) for root, _, files in os.walk(out)
                 for f in files if ".tmp." in f]
    if temporary:
        failures.append("temporary files left: %s" % temporary)
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: SIG%s at step %s (t = %s): exit 3, %s rows kept, no temporary file"
              % (name, match.group(1), match.group(2), match.group(3)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
