#!/usr/bin/python3
"""check_invariants.py HISTORY_CSV [--non-regularized] [--monotone] [--min-stick F] [--min-slip F]

Invariants of a slab run (doc/theory.md §4.9.5), at every row of history.csv:
  S >= 0; non-regularized contact: w >= 0 and S w = 0;
  |friction force| <= mu(|v_s|) S (friction_bound) up to 1e-12 relative, with
  equality when slipping; stick (column 'stick') exactly when the slip velocity
  is zero; --monotone: max |b3| never exceeds its initial value (Prop. 4,
  upwind with theta = 1). --min-stick/--min-slip: fraction of rows stuck /
  slipping at least F (so that the checks are not vacuous). At least two
rows and finite values are required (a nan compares false with every bound).
"""
import argparse
import csv
import math
import sys

p = argparse.ArgumentParser()
p.add_argument("history")
p.add_argument("--non-regularized", action="store_true")
p.add_argument("--monotone", action="store_true")
p.add_argument("--min-stick", type=float, default=0.0)
p.add_argument("--min-slip", type=float, default=0.0)
a = p.parse_args()
with open(a.history) as f:
    rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
if len(rows) < 2 or not all(math.isfinite(v) for r in rows for v in r.values()):
    print("FAIL: %d rows or non-finite values in %s" % (len(rows), a.history))
    sys.exit(1)
bad = []
scale_s = max(r["contact_pressure"] for r in rows) or 1.0
n_stick = n_slip = 0
for i, r in enumerate(rows):
    S, w = r["contact_pressure"], r["normal_displacement"]
    f = math.hypot(r["friction_force_1"], r["friction_force_2"])
    bound = r["friction_bound"]
    slip = math.hypot(r["slip_velocity_1"], r["slip_velocity_2"])
    if S < 0:
        bad.append("row %d: S = %g < 0" % (i, S))
    if a.non_regularized and (w < 0 or S * w != 0):
        bad.append("row %d: w = %g, S = %g violate w >= 0, S w = 0" % (i, w, S))
    if i > 0 and f > bound + 1e-12 * scale_s:
        bad.append("row %d: |f| = %.17g > mu S = %.17g" % (i, f, bound))
    if i > 0 and slip > 0 and abs(f - bound) > 1e-9 * scale_s:
        bad.append("row %d: slipping but |f| = %.17g != mu S = %.17g" % (i, f, bound))
    if (r["stick"] == 1) != (slip == 0):
        bad.append("row %d: stick = %d but slip velocity = %g" % (i, r["stick"], slip))
    if a.monotone and r["max_b3"] > rows[0]["max_b3"] * (1 + 1e-13):
        bad.append("row %d: max |b3| = %g > initial %g (Prop. 4)" % (i, r["max_b3"], rows[0]["max_b3"]))
    n_stick += r["stick"] == 1
    n_slip += slip > 0
fs, fl = n_stick / len(rows), n_slip / len(rows)
print("%d rows: stick %.1f%%, slip %.1f%%, min S %.6g, max |f|/(mu S) checked" % (len(rows), 100 * fs, 100 * fl, min(r["contact_pressure"] for r in rows)))
if fs < a.min_stick or fl < a.min_slip:
    bad.append("stick fraction %.3f / slip fraction %.3f below the required %.3f / %.3f" % (fs, fl, a.min_stick, a.min_slip))
for b in bad[:10]:
    print("FAIL:", b)
print("FAIL (%d violations)" % len(bad) if bad else "PASS")
sys.exit(1 if bad else 0)
