#!/usr/bin/python3
"""check_cycles.py HISTORY_CSV MIN_CYCLES MAX_FINAL_SPREAD

Approach to a nearly periodic stick-slip motion (Renard 2001, §7.2): the
periods between successive stick onsets at the contact boundary must be at
least MIN_CYCLES, their relative spread (standard deviation / mean) in the
last third of the run at most MAX_FINAL_SPREAD and at most half of that of
the first third.
"""
import csv
import sys

path, min_cycles, max_spread = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
with open(path) as f:
    rows = [(float(r["t"]), float(r["stick"])) for r in csv.DictReader(f)]
onsets = [rows[i][0] for i in range(1, len(rows)) if rows[i][1] > 0.5 and rows[i - 1][1] < 0.5]
periods = [b - a for a, b in zip(onsets, onsets[1:])]
if len(periods) < max(min_cycles, 6):
    print("FAIL: %d stick-slip cycles, fewer than %d" % (len(periods), min_cycles))
    sys.exit(1)


def spread(p):
    m = sum(p) / len(p)
    return m, (sum((x - m) ** 2 for x in p) / len(p)) ** 0.5 / m


k = len(periods) // 3
m1, s1 = spread(periods[:k])
m3, s3 = spread(periods[-k:])
print("%d cycles; period first third %.5g s (spread %.4f), last third %.5g s (spread %.4f)"
      % (len(periods), m1, s1, m3, s3))
ok = s3 <= max_spread and s3 <= 0.5 * s1
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
