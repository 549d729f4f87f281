#!/usr/bin/python3
"""check_refinement.py REFINEMENT_CSV

The successive-refinement table of a slab study (Renard 2001, §7.1 style): the
differences between consecutive runs (slip velocity and normal displacement
in L1 in time, normal displacement in max norm, contact pressure in L1 in
time) must decrease at every refinement, and the last one must be at most
half the first. The max-norm slip-velocity difference of the paper's Fig. 3
is printed and must have halved from the first to the last refinement (it
is not monotone: a steep slip onset shifted by one step dominates it).
At least three refinements; a nan fails every comparison.
"""
import csv
import sys

with open(sys.argv[1]) as f:
    rows = list(csv.DictReader(f))[1:]
if len(rows) < 3:
    print("FAIL: %d refinements in %s, at least 3 needed" % (len(rows), sys.argv[1]))
    sys.exit(1)
ok = True
for col in ["diff_slip_velocity_l1", "diff_normal_displacement_max", "diff_pressure_l1",
            "diff_slip_velocity_max"]:
    v = [float(r[col]) for r in rows]
    dec = v[-1] <= 0.5 * v[0]
    if col != "diff_slip_velocity_max":
        dec = dec and all(b < a for a, b in zip(v, v[1:]))
    print("%-30s %s  %s" % (col, " ".join("%.4e" % x for x in v), "decreasing" if dec else "NOT decreasing"))
    ok = ok and dec
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
