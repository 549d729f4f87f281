#!/usr/bin/env python3
"""quiet_example.py STICKSLIP SRC PRM OUT [--np N] [stickslip options...]

A shipped example runs clean: run from the repository root SRC as a user
would (relative mesh paths as written in PRM), into OUT, with the options
given (tests shorten the slow examples by Time/Final time only), it must
exit with status 0 and print no warning and no alarm in capitals: no line
with "warning" (any case), "FAILS", "FAILED" or "ERROR" on the screen or in
log.txt. An expected condition is explained in plain words instead
(doc/running.md). Exit 0 if so, 1 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys

ALARM = re.compile(r"warning|\bFAIL(S|ED)?\b|\bERROR\b", re.IGNORECASE)
CAPITALS = re.compile(r"\bFAIL(S|ED)?\b|\bERROR\b")


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 1
    exe, src, prm, out = sys.argv[1:5]
    rest = sys.argv[5:]
    np = 1
    if rest[:1] == ["--np"]:
        np, rest = int(rest[1]), rest[2:]
    launcher = []
    if np > 1:
        launcher = ["mpirun", "-np", str(np), "--oversubscribe"]
        if os.geteuid() == 0:
            launcher.append("--allow-run-as-root")
    shutil.rmtree(out, ignore_errors=True)
    command = launcher + [exe, prm, "--set", "Output/Directory=" + out] + rest
    print("running:", " ".join(command))
    run = subprocess.run(command, cwd=src, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True)
    text = run.stdout
    log = os.path.join(out, "log.txt")
    if os.path.exists(log):
        text += open(log).read()
    alarms = [line for line in text.splitlines()
              if re.search(r"warning", line, re.IGNORECASE) or CAPITALS.search(line)]
    print(run.stdout)
    failures = []
    if run.returncode != 0:
        failures.append("exit status %d" % run.returncode)
    for line in dict.fromkeys(alarms):
        failures.append("alarm printed: " + line.strip())
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: %s ran clean (exit 0, no warning)" % prm)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
