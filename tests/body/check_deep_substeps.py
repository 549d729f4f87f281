#!/usr/bin/python3
"""check_deep_substeps.py EXE PRM OUTDIR [--tolerance T] [--max-balance B]

Body/Adaptive time steps at the deepest level allowed, Minimum time step =
Time step/2^40 (the substeps are numbered in units of Time step/2^40; with
32-bit counts, from 2^32 on, the substeps ran at t = inf). PRM is
prm/body_signorini_implicit.prm (the bar falling on the floor), to T = 1,
Maximum active-set iterations = 1. Asserts:

  1. the step-function body force "0; t < 0.5 ? -0.5 : 0" gives the same
     history.csv at Minimum time step = dt/2^40 as at dt/2^31 (the deepest
     that was right before), every value within T times its column's
     largest magnitude (compare_histories.py), and |energy_balance| <= B
     times the largest kinetic + elastic energy of the run;
  2. the body force "0; -0.5*t" (it stopped with "data_work is -nan"):
     exit 0, every value finite, the state's columns within --ramp-tolerance
     of the dt/2^31 run's (the first step is cut to the finest substep,
     31 or 40 times: the two runs resolve the contact change differently)
     and |energy_balance| <= --ramp-max-balance of the largest energy;
  3. Minimum time step = dt/2^40 * 0.99 (below the cap) is refused before
     anything is written, with the message naming the parameter and the
     smallest value allowed;
  4. the bar to T = 3 at dt/2^40: the release (t = 2) needs 2 active-set
     iterations at any step, so the substep is cut 40 times and the run
     stops (exit status 2) with the run error naming a finite time in the
     step from 2 to 2.1 and the smallest substep dt/2^40.
Exit 0 if all hold.
"""
import argparse
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from body_runs import read_history  # noqa: E402

DT = 0.1  # Time/Time step of the prm
# The ramp's first step is cut to the finest substep (31 or 40 cuts): the
# deeper cuts place the contact change within a shorter substep, so the two
# runs differ by the discretization, not by round-off; the state's columns
# are compared (impact_work, 0 at dt/2^31 and 2e-22 at dt/2^40, and the
# substep counts differ by construction).
RAMP_COLUMNS = ("kinetic_energy,elastic_energy,data_work,momentum,normal_force,"
                "mean_pressure,contact_fraction,mean_gap")


def command(a, out, minimum, force, final_time=1):
    words = [a.exe, a.prm, "--quiet", "--set", "Output/Directory=" + out,
             "--set", "Output/Overwrite=true", "--set", "Output/Field output=false",
             "--set", "Time/Final time=%g" % final_time,
             "--set", "Body/Adaptive time steps/Enabled=true",
             "--set", "Body/Adaptive time steps/Minimum time step=%r" % minimum,
             "--set", "Body/Linear solver/Maximum active-set iterations=1"]
    if force:
        words += ["--set", "Body/Body force=" + force]
    return words


def run(a, name, minimum, force, final_time=1):
    out = os.path.join(a.outdir, name)
    p = subprocess.run(command(a, out, minimum, force, final_time),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout, out


def same_history(a, force, name, tolerance, max_balance, columns=None):
    failures = []
    runs = {}
    for levels in (31, 40):
        status, output, out = run(a, "%s_2^%d" % (name, levels), DT / 2**levels, force)
        if status != 0:
            return ["%s at dt/2^%d: exit status %d: %s" % (name, levels, status, output)]
        runs[levels] = out
    compare = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(HERE), "compare_histories.py"),
         os.path.join(runs[31], "history.csv"), os.path.join(runs[40], "history.csv"),
         "--tolerance", repr(tolerance)] + (["--columns", columns] if columns else []),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("%s, dt/2^40 against dt/2^31: %s" % (name, compare.stdout.strip()))
    if compare.returncode != 0:
        failures.append("%s: the histories differ" % name)
    rows = read_history(os.path.join(runs[40], "history.csv"))
    scale = max(r["kinetic_energy"] + r["elastic_energy"] for r in rows)
    balance = max(abs(r["energy_balance"]) for r in rows) / scale
    print("%s: max |energy_balance| / max(kinetic + elastic) = %.3e (bound %.1e)"
          % (name, balance, max_balance))
    if not balance <= max_balance:
        failures.append("%s: energy_balance %.3e > %.1e" % (name, balance, max_balance))
    if not all(math.isfinite(v) for r in rows for v in r.values()):
        failures.append("%s: a value of history.csv is not finite" % name)
    return failures


def refused_below_cap(a):
    out = os.path.join(a.outdir, "below_cap")
    status, output, _ = run(a, "below_cap", DT / 2**40 * 0.99, None)
    print("below the cap: exit status %d: %s" % (status, output.strip()))
    expected = ("parameter 'Body/Adaptive time steps/Minimum time step' "
                "\\(set on the command line by --set\\) has the value '[0-9.e-]+', but the "
                "substeps are Time/Time step/2\\^l with at most 40 halvings: the "
                "smallest allowed is Time/Time step/2\\^40 = 9.09494701773e-14 s \\(Time/Time step = 0.1 s\\)")
    if status != 1 or not re.search(expected, output):
        return ["below the cap: not refused with /%s/" % expected]
    if os.path.exists(os.path.join(out, "history.csv")):
        return ["below the cap: history.csv written"]
    return []


def stop_at_finite_time(a):
    status, output, _ = run(a, "stop_at_depth", DT / 2**40, None, final_time=3)
    print("release at dt/2^40: exit status %d: %s" % (status, output.strip()))
    m = re.search(r"at t = ([^ ]+) with the smallest substep ([^ ]+) ", output)
    if status != 2 or not m:
        return ["release at dt/2^40: no run error naming the time and the substep"]
    t, substep = float(m.group(1)), float(m.group(2))
    if not (2 <= t < 2.1 and abs(substep - DT / 2**40) <= 1e-12 * DT / 2**40):
        return ["release at dt/2^40: stopped at t = %r with the substep %r" % (t, substep)]
    return []


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--tolerance", type=float, default=1e-12)
    p.add_argument("--max-balance", type=float, default=1e-12)
    p.add_argument("--ramp-tolerance", type=float, default=5e-3)
    p.add_argument("--ramp-max-balance", type=float, default=1e-11)
    a = p.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    failures = same_history(a, "0; t < 0.5 ? -0.5 : 0", "step_force",
                            a.tolerance, a.max_balance)
    failures += same_history(a, "0; -0.5*t", "ramp_force", a.ramp_tolerance,
                             a.ramp_max_balance, RAMP_COLUMNS)
    failures += refused_below_cap(a)
    failures += stop_at_finite_time(a)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
