#!/usr/bin/env python3
"""check_stop.py HISTORY.csv --final-time T --quiet-time TA --rupture-rate VR

Friction law/Stop after arrest (doc/theory.md §8.7): the run must end before
its final time T, at the first output time at least TA after the last row
whose max_slip_rate exceeded VR, with no row faster than VR since (the
history is written at every step of that run). Fails when nothing slipped.
"""
import argparse
import csv
import sys

p = argparse.ArgumentParser()
p.add_argument("history")
p.add_argument("--final-time", type=float, required=True)
p.add_argument("--quiet-time", type=float, required=True)
p.add_argument("--rupture-rate", type=float, required=True)
a = p.parse_args()
with open(a.history, newline="") as f:
    rows = [(float(r["t"]), float(r["max_slip_rate"])) for r in csv.DictReader(f)]
slipping = [t for t, v in rows if v > a.rupture_rate]
if not slipping:
    sys.exit("FAIL: no row has max_slip_rate > %g: nothing to check" % a.rupture_rate)
last_slip, end = slipping[-1], rows[-1][0]
dt = rows[-1][0] - rows[-2][0]
print("last slip faster than %g m/s at t = %.7g s; the run ended at t = %.7g s "
      "(final time %g s, quiet time %g s)" % (a.rupture_rate, last_slip, end,
                                              a.final_time, a.quiet_time))
failures = []
if not end < a.final_time - dt / 2:
    failures.append("the run did not stop before its final time")
if not (a.quiet_time - 1e-9 * a.quiet_time <= end - last_slip
        < a.quiet_time + dt * (1 + 1e-6)):
    failures.append("it ended %g s after the last slip, not within one step "
                    "after the quiet time %g s" % (end - last_slip, a.quiet_time))
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("OK")
