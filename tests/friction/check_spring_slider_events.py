#!/usr/bin/python3
"""check_spring_slider_events.py OUTDIR --min-events N --min-peak-ratio R
       [--max-energy-balance E]

The events of a spring-slider run on rate and state (doc/outputs.md,
events.csv): every slip event is a slip_onset, then at least one
slip_rate_maximum above the rupture slip rate, then an arrest, in time
order and between the rows of history.csv; the onset and arrest rows hold
v = V_r (the rupture slip rate, read from the onset rows) to 1e-6
relative; at least N events; the largest peak in events.csv is at least R
times the largest velocity of history.csv (whose rows miss the peaks); no
empty field in history.csv (the row at t0 included) and |energy_balance|
<= E relative to the load work at the end.
"""
import argparse
import csv
import os
import sys

p = argparse.ArgumentParser()
p.add_argument("outdir")
p.add_argument("--min-events", type=int, required=True)
p.add_argument("--min-peak-ratio", type=float, required=True)
p.add_argument("--max-energy-balance", type=float, default=1e-6)
a = p.parse_args()

with open(os.path.join(a.outdir, "history.csv")) as f:
    history = list(csv.DictReader(f))
with open(os.path.join(a.outdir, "events.csv")) as f:
    events = list(csv.DictReader(f))
failures = []
for row in history:
    empty = [k for k, v in row.items() if v == ""]
    if empty:
        failures.append("history.csv row t = %s has empty fields %s"
                        % (row["t"], empty))
        break
times = [float(r["t"]) for r in events]
if times != sorted(times):
    failures.append("events.csv is not in time order")
if events and not (float(history[0]["t"]) <= times[0]
                   and times[-1] <= float(history[-1]["t"])):
    failures.append("events outside the run's time span")
onsets = [r for r in events if r["event"] == "slip_onset"]
if len(onsets) < a.min_events:
    failures.append("%d slip onsets, expected >= %d" % (len(onsets), a.min_events))
rupture = float(onsets[0]["velocity"]) if onsets else 0.0
state, peaks = "stuck", []
for r in events:
    v = float(r["velocity"])
    if r["event"] in ("slip_onset", "arrest") and abs(v - rupture) > 1e-6 * rupture:
        failures.append("%s at t = %s with v = %g, not V_r = %g"
                        % (r["event"], r["t"], v, rupture))
    if r["event"] == "slip_onset":
        if state != "stuck":
            failures.append("onset at t = %s inside a slip event" % r["t"])
        state = "onset"
    elif r["event"] == "slip_rate_maximum":
        if state == "stuck" or v <= rupture:
            failures.append("maximum at t = %s outside a slip event" % r["t"])
        state = "peak"
        peaks.append(v)
    elif r["event"] == "arrest":
        if state != "peak":
            failures.append("arrest at t = %s without a peak before" % r["t"])
        state = "stuck"
history_peak = max(float(r["velocity"]) for r in history)
event_peak = max(peaks) if peaks else 0.0
print("%d events (%d onsets), largest peak %.4g m/s in events.csv, %.4g m/s in "
      "history.csv (ratio %.1f)" % (len(events), len(onsets), event_peak,
                                     history_peak, event_peak / history_peak))
if event_peak < a.min_peak_ratio * history_peak:
    failures.append("peak ratio %.2f below %g" % (event_peak / history_peak,
                                                  a.min_peak_ratio))
balance = abs(float(history[-1]["energy_balance"]))
work = abs(float(history[-1]["load_work"]))
print("energy balance %.3g J against the load work %.4g J" % (balance, work))
if balance > a.max_energy_balance * work:
    failures.append("energy balance %g beyond %g of the load work"
                    % (balance, a.max_energy_balance))
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("OK")
