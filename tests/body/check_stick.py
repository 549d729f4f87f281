#!/usr/bin/python3
"""check_stick.py HISTORY [--from-time T] [--min-rows N] [--max-drift D]
                         [--min-friction-ratio R] [--expect-slip]

Stick is exact (prm/body_stick_block.prm): a block pressed on the floor and
then sheared sideways by its clamped top, below the friction threshold
everywhere, stays stuck: the tangential displacement of every contact node
keeps its initial value. The explicit scheme's nodal friction step sets a
stuck node's velocity to v_T = v_* exactly and u^{n+1} = u^n + dt v^{n+1/2},
so the column max_tangential_displacement (the largest |u_T - u0_T| over the
contact nodes) must be 0 in every row, bit for bit (--max-drift, default 0).
The Lie splitting of the string model, by contrast, moves a stuck state by
O(dt^2) per step.

Checks, on every row (history.csv with a row every step):
  max_tangential_displacement <= --max-drift;
  from --from-time on (the compression wave has reached the floor):
  contact_fraction = 1 and stick_fraction = 1;
  and that the shear is real: |friction_force_1|/normal_force at the last
  row >= --min-friction-ratio (the mean friction coefficient mobilized).
With --expect-slip the opposite (a control run with mu_s below the corner
demand): some row has stick_fraction < 1 and max_tangential_displacement > 0,
so the check above can see slip.
Fails with fewer than --min-rows rows.

Measured (prm/body_stick_block.prm, 20 x 10 Q1 cells, dt = 0.01, 10^4
steps, 0.8 s of CPU): max_tangential_displacement = 0 exactly in all 10001
rows; contact_fraction = stick_fraction = 1 for t >= 0.11; at the end
normal_force = 1.733e-3, friction_force_1 = -4.277e-4 (ratio 0.247, the
estimate G s/((lambda + 2G) d) = 0.25). The corners need more: mu_s = 0.6
sticks everywhere, with 0.5 a corner node slips at t = 65.2 (drift 1.0e-6),
with 0.4 the edges slip from t = 0.61 on during the compression (drift
3.4e-5, stick_fraction down to 0.725), with 0.2 drift 7.0e-4. So mu_s = 1
has a margin of about 1.7 over the largest nodal |f|/S.
"""
import argparse
import csv
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("history")
    p.add_argument("--from-time", type=float, default=0.5)
    p.add_argument("--min-rows", type=int, default=10001)
    p.add_argument("--max-drift", type=float, default=0.0)
    p.add_argument("--min-friction-ratio", type=float, default=0.0)
    p.add_argument("--expect-slip", action="store_true")
    a = p.parse_args()
    with open(a.history, newline="") as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    if len(rows) < a.min_rows:
        print("FAIL: %d rows of history.csv, at least %d needed" % (len(rows), a.min_rows))
        return 1
    late = [r for r in rows if r["t"] >= a.from_time]
    if not late:
        print("FAIL: no row at t >= %g" % a.from_time)
        return 1
    drift = max(r["max_tangential_displacement"] for r in rows)
    worst_row = max(rows, key=lambda r: r["max_tangential_displacement"])
    least_stick = min(r["stick_fraction"] for r in late)
    least_contact = min(r["contact_fraction"] for r in late)
    last = rows[-1]
    ratio = abs(last["friction_force_1"]) / last["normal_force"] if last["normal_force"] > 0 else 0.0
    print("%d rows; largest max_tangential_displacement %.3e (at t = %g); from t = %g: "
          "least contact_fraction %.6f, least stick_fraction %.6f; at t = %g: normal_force "
          "%.4e, friction_force_1 %.4e, |f|/N %.4f" % (
              len(rows), drift, worst_row["t"], a.from_time, least_contact, least_stick,
              last["t"], last["normal_force"], last["friction_force_1"], ratio))
    if a.expect_slip:
        ok = drift > 0 and least_stick < 1
        print("slip expected (drift > 0 and stick_fraction < 1): %s" % ("PASS" if ok else "FAIL"))
        return 0 if ok else 1
    ok = True
    if not drift <= a.max_drift:
        print("FAIL: a contact node slid by %.3e > %.3e" % (drift, a.max_drift))
        ok = False
    if not (least_stick == 1 and least_contact == 1):
        print("FAIL: not in full contact and stuck from t = %g on" % a.from_time)
        ok = False
    if not ratio >= a.min_friction_ratio:
        print("FAIL: |friction_force_1|/normal_force %.4f < %.4f: the block is not sheared"
              % (ratio, a.min_friction_ratio))
        ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
