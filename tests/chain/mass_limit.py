#!/usr/bin/env python3
"""mass_limit.py STICKSLIP PRM OUTDIR [--epsilons e1,e2,..] [--scheme S]
       [--max-final D] [--min-rate Q] [--np N]

The limit m_1..m_{n-1} -> 0 of Bastien & Lamarque 2009, §3: the dynamical chain with the
masses m_1..m_{n-1} = eps (m_n as in PRM, a semi-dynamical example) against
the semi-dynamical chain of PRM. Runs both with stickslip, then prints, per
eps, the largest difference over the history rows of the displacements x_i,
the velocity of the last (massive) mass and the reactions, relative to the
column's largest magnitude in the semi-dynamical run. Passes when the
difference decreases with eps, is at most D at the smallest eps, and its
observed rate log(d1/dk)/log(e1/ek) between the largest and the smallest eps
is at least Q. Needs two eps values or more and runs with the same rows.
"""
import argparse
import csv
import math
import os
import subprocess
import sys


def run(exe, prm, out, np, extra):
    cmd = ([] if np == 1 else
           ["mpirun", "-np", str(np), "--oversubscribe", "--allow-run-as-root"])
    cmd += [exe, prm, "--quiet", "--set", "Output/Directory=" + out,
            "--set", "Output/Overwrite=true",
            "--set", "Output/Field output=false"]
    for e in extra:
        cmd += ["--set", e]
    subprocess.run(cmd, check=True)
    with open(os.path.join(out, "history.csv"), newline="") as f:
        return list(csv.DictReader(f))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("out")
    p.add_argument("--epsilons", default="1e-1,1e-2,1e-3,1e-4")
    p.add_argument("--scheme", default="strang")
    p.add_argument("--time-step", default="1e-4")
    p.add_argument("--final-time", default="4")
    p.add_argument("--max-final", type=float, default=1e-2)
    p.add_argument("--min-rate", type=float, default=0.4)
    p.add_argument("--np", type=int, default=1)
    a = p.parse_args()

    common = ["Time/Time step=" + a.time_step,
              "Time/Final time=" + a.final_time, "Output/Interval=0.01"]
    semi = run(a.exe, a.prm, os.path.join(a.out, "semi"), a.np,
               common + ["Time/Scheme=implicit euler"])
    n = len([c for c in semi[0] if c.startswith("x")])
    columns = ["x%d" % (i + 1) for i in range(n)] + \
              ["v%d" % n, "reaction_left", "reaction_right"]
    scale = {c: max(abs(float(r[c])) for r in semi) or 1.0 for c in columns}
    # m_n of the semi-dynamical example, read from its parameters.prm.
    m_n = None
    with open(os.path.join(a.out, "semi", "parameters.prm")) as f:
        for line in f:
            if line.strip().startswith("set Masses"):
                m_n = line.split("=", 1)[1].split("#")[0].split(",")[-1].strip()
    epsilons = a.epsilons.split(",")
    if len(epsilons) < 2:
        print("FAIL: --epsilons needs two values or more")
        return 1
    differences = []
    print("  eps        max relative difference (x_i, v_n, reactions)")
    for eps in epsilons:
        dyn = run(a.exe, a.prm, os.path.join(a.out, "eps_" + eps), a.np,
                  common + ["Time/Scheme=" + a.scheme,
                            "Chain/Regime=dynamical",
                            "Chain/Masses=" + ", ".join([eps] * (n - 1) + [m_n])])
        if len(dyn) != len(semi) or len(semi) < 2:
            print("FAIL: eps = %s: %d rows against %d" % (eps, len(dyn), len(semi)))
            return 1
        d = max(abs(float(r[c]) - float(s[c])) / scale[c]
                for r, s in zip(dyn, semi) for c in columns)
        if not math.isfinite(d):
            print("FAIL: eps = %s: non-finite values" % eps)
            return 1
        differences.append(d)
        print("  %-9s  %.4e" % (eps, d))
    e = [float(x) for x in epsilons]
    rate = math.log(differences[0] / differences[-1]) / math.log(e[0] / e[-1])
    print("  observed rate of the difference in eps: %.3f" % rate)
    ok = all(differences[i + 1] < differences[i]
             for i in range(len(differences) - 1))
    if not ok:
        print("FAIL: the difference does not decrease with eps")
        return 1
    if differences[-1] > a.max_final:
        print("FAIL: difference %.3e > %.3e at eps = %s"
              % (differences[-1], a.max_final, epsilons[-1]))
        return 1
    if rate < a.min_rate:
        print("FAIL: rate %.3f < %.3f" % (rate, a.min_rate))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
