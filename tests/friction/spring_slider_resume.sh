#!/usr/bin/env bash
# spring_slider_resume.sh EXE SRC OUTDIR
# The adaptive spring-slider resumed (doc/theory.md §8.5): a run to 1500 s
# with snapshots, resumed to 1600 s, against the uninterrupted run to
# 1600 s. events.csv keeps the rows before the snapshot and gets the same
# events after it, their times within 1e-8 relative (CVODE restarts at
# the snapshot: measured 1.1e-11; the tolerance is 1e-10), and the last
# rows of history.csv agree to 1e-6 relative (measured 4e-10 in the
# velocity).
set -euo pipefail
exe=$1; src=$2; out=$3
prm=$src/prm/spring_slider_rate_state.prm
rm -rf "$out"; mkdir -p "$out"
"$exe" "$prm" --quiet --set "Output/Directory=$out/whole" --set "Time/Final time=1600" \
  --set "Output/Checkpoint interval=500" > /dev/null
"$exe" "$prm" --quiet --set "Output/Directory=$out/resumed" --set "Time/Final time=1500" \
  --set "Output/Checkpoint interval=500" > /dev/null
"$exe" "$prm" --quiet --resume "$out/resumed" --set "Output/Directory=$out/resumed" \
  --set "Time/Final time=1600" --set "Output/Checkpoint interval=500" > /dev/null
/usr/bin/python3 - "$out" <<'PY'
import csv, os, sys
out = sys.argv[1]
def rows(run, name):
    with open(os.path.join(out, run, name)) as f:
        return list(csv.DictReader(f))
whole, resumed = rows("whole", "events.csv"), rows("resumed", "events.csv")
print("events: %d uninterrupted, %d resumed" % (len(whole), len(resumed)))
if [r["event"] for r in whole] != [r["event"] for r in resumed] or len(whole) < 4:
    sys.exit("FAIL: the resumed run's events differ")
worst = max(abs(float(a["t"]) - float(b["t"])) / float(a["t"]) for a, b in zip(whole, resumed))
print("largest relative difference of the event times %.2e" % worst)
if worst > 1e-8:
    sys.exit("FAIL: event times beyond 1e-8")
a, b = rows("whole", "history.csv")[-1], rows("resumed", "history.csv")[-1]
if a["t"] != b["t"] or abs(float(a["velocity"]) / float(b["velocity"]) - 1) > 1e-6:
    sys.exit("FAIL: last rows differ: %s %s against %s %s"
             % (a["t"], a["velocity"], b["t"], b["velocity"]))
print("PASS")
PY
