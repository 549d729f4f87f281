#!/usr/bin/python3
"""check_implicit_stability.py EXE PRM OUTDIR [--cells N] [--gravity G]
                               [--final-time T] [--ratios R...]
                               [--spectral-radius RHO...]
                               [--max-energy-error E...] [--max-balance B]
                               [--min-impacts K]

The implicit scheme at steps 10 to 100 times the explicit bound, over many
contact events: the Signorini bar of prm/body_signorini_bar.prm (L = 1,
c = 1, rho = 1, v0 = 1, frictionless, 2 cells across, periodic) under the
gravity G (Body force = 0; -rho G), so that it bounces: contact for about
2L/c, a flight of about 2 v0/G, and again. N = --cells cells along the
height. The explicit bound dt_e is the program's own (it refuses a larger
step and prints it); the runs take dt = T/ceil(T/(R dt_e)) for every
step ratio R and every rho_inf (1: Newmark's average acceleration, the
scheme conserves the energy of the linear problem between the contact
events; < 1: the generalized-alpha method, which removes the energy
numerical_dissipation books), and the explicit scheme at 0.9 dt_e beside
them.

The exact problem keeps the mechanical energy: kinetic + elastic -
data_work (the gravity's work) = E0. Measured for every run:
  E(T)      (kinetic + elastic - data_work)/E0 - 1 at T, the energy error;
  max |e|   the largest |E(t)/E0 - 1| over the rows;
  max e     the largest E(t)/E0 - 1 (> 0: energy gained);
  impact    impact_work/E0 (the contact's work at the steps that close or
            open a node: the scheme's energy error in the events);
  num.      numerical_dissipation/E0;
  balance   max |energy_balance|/E0 (the linear solver's residual: the
            works booked against the energies);
  impacts   the number of contact closures (contact_fraction 0 -> > 0);
  Newton    the largest active-set iterations of a step, CG per solve.
Asserts, for every rho_inf and R (the lists --max-energy-error and
--max-gain in the order of the runs: every R of the first rho_inf, then of
the next): max |e| and max e below their bounds, balance
below --max-balance, at least --min-impacts impacts. Exit 0 if all hold.
"""
import argparse
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import BAR_C, BAR_L, BAR_RHO, BAR_V0, read_history  # noqa: E402


def command(exe, prm, out, values):
    result = [exe, prm, "--quiet", "--set", "Output/Directory=" + out,
              "--set", "Output/Overwrite=true", "--set", "Output/Field output=false"]
    for key, value in values.items():
        result += ["--set", "%s=%s" % (key, value)]
    return result


def settings(n, gravity, final_time, dt):
    h = BAR_L / n
    return {
        "Output/Interval": "0",
        "Time/Final time": repr(final_time),
        "Time/Time step": repr(dt),
        "Body/Size": "%r, %r" % (2 * h, BAR_L),
        "Body/Subdivisions": "2, %d" % n,
        "Body/Initial velocity": "0; %r" % -BAR_V0,
        "Body/Body force": "0; %r" % (-BAR_RHO * gravity),
    }


def explicit_bound(exe, prm, out, n, gravity, final_time):
    """The program's stability bound of the explicit scheme, in seconds."""
    done = subprocess.run(command(exe, prm, out, settings(n, gravity, final_time,
                                                          final_time / 10)),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    m = re.search(r"stable for dt <= 2/sqrt\(lambda_max\(M\^-1 K\)\) = ([0-9.eE+-]+) s",
                  done.stdout)
    if done.returncode == 0 or not m:
        raise RuntimeError("no stability bound in:\n" + done.stdout)
    return float(m.group(1))


def measure(rows):
    e0 = rows[0]["kinetic_energy"] + rows[0]["elastic_energy"]
    errors = [(r["kinetic_energy"] + r["elastic_energy"] - r["data_work"]) / e0 - 1 for r in rows]
    impacts = sum(1 for a, b in zip(rows, rows[1:])
                  if a["contact_fraction"] == 0 and b["contact_fraction"] > 0)
    last = rows[-1]
    m = {
        "end": errors[-1],
        "max": max(abs(e) for e in errors),
        "gain": max(errors),
        "impact": last["impact_work"] / e0,
        "numerical": last.get("numerical_dissipation", 0.0) / e0,
        "balance": max(abs(r["energy_balance"]) for r in rows) / e0,
        "impacts": impacts,
        "steps": len(rows) - 1,
    }
    if "newton_iterations" in last:
        m["newton"] = "%d" % last["max_newton_iterations"]
        m["cg"] = "%.1f" % (last["cg_iterations"] / max(last["newton_iterations"], 1))
    else:
        m["newton"] = m["cg"] = "-"
    return m


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--cells", type=int, default=100)
    p.add_argument("--gravity", type=float, default=0.25)
    p.add_argument("--final-time", type=float, default=50)
    p.add_argument("--ratios", type=float, nargs="+", default=[10, 30, 100])
    p.add_argument("--spectral-radius", type=float, nargs="+", default=[1.0, 0.5])
    p.add_argument("--max-energy-error", type=float, nargs="+")
    p.add_argument("--max-gain", type=float, nargs="+")
    p.add_argument("--max-balance", type=float)
    p.add_argument("--min-impacts", type=int)
    a = p.parse_args()
    n, g, final = a.cells, a.gravity, a.final_time
    bound = explicit_bound(a.exe, a.prm, os.path.join(a.outdir, "probe"), n, g, final)
    h = BAR_L / n
    print("bouncing bar: N = %d, gravity %g (flight 2 v0/g = %g, contact about 2L/c = %g), "
          "T = %g; explicit bound dt_e = %.4g = %.3f h/c"
          % (n, g, 2 * BAR_V0 / g, 2 * BAR_L / BAR_C, final, bound, bound * BAR_C / h))
    print("  %-8s %-6s %-7s %-6s %-10s %-9s %-10s %-10s %-9s %-9s %-7s %-6s %s" % (
        "scheme", "R", "c dt/h", "steps", "E(T)", "max |e|", "max e", "impact", "num.",
        "balance", "impacts", "Newton", "CG/solve"))
    ok = True
    runs = [("explicit", 1.0, 0.9)] + [("implicit", rho, r) for rho in a.spectral_radius
                                       for r in a.ratios]
    for scheme, rho, ratio in runs:
        dt = final / math.ceil(final / (ratio * bound) - 1e-9)
        values = settings(n, g, final, dt)
        values["Body/Time scheme"] = scheme
        name = "%s_R%g" % (scheme, ratio)
        if scheme == "implicit":
            values["Body/Spectral radius at infinity"] = repr(rho)
            name += "_rho%g" % rho
        out = os.path.join(a.outdir, name)
        subprocess.run(command(a.exe, a.prm, out, values), check=True,
                       stdout=subprocess.DEVNULL)
        m = measure(read_history(os.path.join(out, "history.csv")))
        label = "explicit" if scheme == "explicit" else "rho %g" % rho
        print("  %-8s %-6g %-7.3g %-6d %+.3e %.3e %+.3e %+.3e %.3e %.2e %-7d %-6s %s" % (
            label, ratio, dt * BAR_C / h, m["steps"], m["end"], m["max"], m["gain"], m["impact"],
            m["numerical"], m["balance"], m["impacts"], m["newton"], m["cg"]))
        if scheme != "implicit":
            continue
        j = a.spectral_radius.index(rho) * len(a.ratios) + a.ratios.index(ratio)
        if a.max_energy_error and not m["max"] <= a.max_energy_error[j]:
            print("FAIL: rho %g, R %g: max |e| %.3e above %g" % (rho, ratio, m["max"],
                                                                a.max_energy_error[j]))
            ok = False
        if a.max_gain and not m["gain"] <= a.max_gain[j]:
            print("FAIL: rho %g, R %g: max e %.3e above %g" % (rho, ratio, m["gain"],
                                                              a.max_gain[j]))
            ok = False
        if a.max_balance is not None and not m["balance"] <= a.max_balance:
            print("FAIL: rho %g, R %g: balance %.2e above %g" % (rho, ratio, m["balance"],
                                                                a.max_balance))
            ok = False
        if a.min_impacts is not None and m["impacts"] < a.min_impacts:
            print("FAIL: rho %g, R %g: %d impacts, fewer than %d" % (rho, ratio, m["impacts"],
                                                                    a.min_impacts))
            ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
