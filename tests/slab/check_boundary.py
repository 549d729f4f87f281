#!/usr/bin/python3
"""check_boundary.py EXE PRM [--order-w P] [--order-s P] [--order-v P]
                   [--max-error-s E] [--grids N...] [--set "Sub/Name=value"]...

Independent check of the slab's contact node (doc/theory.md §4.9.1-2). For
t < 2H/c2 the incoming characteristics at z = 0 are known in closed form
from the initial data of boundary.prm (with the reflection at the top for
H < c t < 2H), so the contact node obeys the ODE/inclusions (31)-(34):
    w' = b3+ + reaction, w >= 0 (non-regularized unilateral contact),
    eps v' in G/c1 (bT+ - v) - S mu(|v - v*|) Sgn(v - v*).
This script integrates them with a step 2^-17 (2H/c2), written here from
scratch (normal: the Skorokhod reflection of the trapezoidal integral of
b3+; tangential: implicit Euler with the exact scalar solve), and runs the full scheme (EXE PRM) on the grids
N (default 200 400 800 1600; CFL number and theta as in PRM or --set).
Errors on t <= 0.98 (2H/c2): normal
displacement w (max norm), contact pressure S (L1 in time: S jumps at
re-contact) and slip velocity (L1 in time). Asserts that every error
decreases and the least-squares orders reach the given minima; with
--max-error-s the pressure error must instead stay below E on every grid
(at CFL 1 with theta = 1/2 it is at round-off level: nothing to order).
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

H, D, VSTAR, EPS = 0.05, 1e-5, 1.0, 10.0
LAM, G, RHO = 107e9, 77e9, 7800.0
C1, C2 = math.sqrt(G / RHO), math.sqrt((LAM + 2 * G) / RHO)
MUS, MUD, VC = 0.8, 0.5, 1.0
T = 2 * H / C2


def mu(s):
    return MUD + (MUS - MUD) * math.exp(-s / VC)


def b_plus(t, k):
    """Incoming characteristic at z = 0 (k = 0: x1, k = 2: x3)."""
    c = C1 if k == 0 else C2
    def u1(z):
        return 0.5 * math.sin(math.pi * z / H) ** 2 if k == 0 else 2 * math.cos(math.pi * z / (2 * H)) ** 2
    du0 = 0.0 if k == 0 else -D / H
    z = c * t
    if z <= H:
        return u1(z) + c * du0
    z = 2 * H - z            # reflected at the top: b+ = -b-
    return -(u1(z) - c * du0)


def reference(M=2 ** 17):
    dt = T / M
    g = RHO * C1
    w, v = 0.0, 0.5 * math.sin(0.0) ** 2  # u^1(0) = 0 in x1, contact closed
    ts, ws, ss, vs = [0.0], [0.0], [RHO * C2 * C2 * D / H], [v - VSTAR]
    X, lowest, b_old = 0.0, 0.0, b_plus(0.0, 2)
    for n in range(1, M + 1):
        t = n * dt
        b3 = b_plus(t, 2)
        # Normal: Skorokhod reflection w = X + max(0, max_s -X(s)) of
        # X = w(0) + int b3+ (trapezoidal rule, second order in dt).
        X += 0.5 * dt * (b_old + b3)
        b_old = b3
        lowest = max(lowest, -X)
        w = X + lowest
        S = RHO * C2 * max(0.0, -b3) if w == 0 else 0.0
        a = EPS / dt + g
        r = EPS / dt * v + g * b_plus(t, 0) - a * VSTAR
        if abs(r) <= S * MUS:
            s = 0.0
        else:
            lo, hi = 0.0, abs(r) / a
            for _ in range(200):
                mid = 0.5 * (lo + hi)
                if a * mid + S * mu(mid) < abs(r):
                    lo = mid
                else:
                    hi = mid
                if hi - lo <= 1e-16 * hi:
                    break
            s = math.copysign(0.5 * (lo + hi), r)
        v = VSTAR + s
        ts.append(t); ws.append(w); ss.append(S); vs.append(s)
    return dt, ts, ws, ss, vs


def interp(dt, values, t):
    x = t / dt
    j = min(int(x), len(values) - 2)
    f = x - j
    return (1 - f) * values[j] + f * values[j + 1]


def main():
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("--order-w", type=float, default=0.9)
    p.add_argument("--order-s", type=float, default=0.45)
    p.add_argument("--order-v", type=float, default=0.8)
    p.add_argument("--max-error-s", type=float)
    p.add_argument("--grids", type=int, nargs="+", default=[200, 400, 800, 1600])
    p.add_argument("--set", action="append", default=[])
    a = p.parse_args()
    grids = a.grids
    if len(grids) < 2:
        print("FAIL: an order needs two grids or more")
        return 1
    mins = [a.order_w, a.order_s, a.order_v]
    dtr, _, ws, ss, vs = reference()
    tmp = tempfile.mkdtemp(prefix="slab_boundary_")
    errs = []
    overrides = []
    for x in a.set:
        overrides += ["--set", x]
    for n in grids:
        out = os.path.join(tmp, "n%d" % n)
        subprocess.run([a.exe, a.prm, "--quiet", "--set", "Output/Directory=" + out,
                        "--set", "Output/Overwrite=true",
                        "--set", "Slab/Number of cells=%d" % n,
                        "--set", "Time/Final time=%r" % T] + overrides,
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "history.csv")) as f:
            # t < 2H/c2, away from the last steps: at t = 2H/c2 the jump that
            # the release of the contact at t = 0 sends up comes back.
            rows = [r for r in csv.DictReader(f) if float(r["t"]) <= 0.98 * T]
        ew = es = ev = 0.0
        for i, r in enumerate(rows):
            t = float(r["t"])
            ew = max(ew, abs(float(r["normal_displacement"]) - interp(dtr, ws, t)))
            if i > 0:
                h = t - float(rows[i - 1]["t"])
                es += h * abs(float(r["contact_pressure"]) - interp(dtr, ss, t))
                ev += h * abs(float(r["slip_velocity_1"]) - interp(dtr, vs, t))
        if len(rows) < 2 or not all(math.isfinite(e) for e in (ew, es, ev)):
            print("FAIL: N = %d: %d rows, errors %s" % (n, len(rows), (ew, es, ev)))
            return 1
        errs.append((ew, es, ev))
    names = ["normal displacement (max)", "contact pressure (L1)", "slip velocity (L1)"]
    ok = True
    print("settings: %s" % (" ".join(a.set) or "as in " + a.prm))
    print("N_z    |w - w_ref|max   |S - S_ref|L1    |v_s - v_ref|L1")
    for n, e in zip(grids, errs):
        print("%5d  %.4e       %.4e       %.4e" % ((n,) + e))
    for q in range(3):
        if q == 1 and a.max_error_s is not None:
            good = all(e[1] <= a.max_error_s for e in errs)
            print("%-27s below %.3g on every grid: %s" % (names[q], a.max_error_s, good))
            ok = ok and good
            continue
        x = [math.log(1.0 / n) for n in grids]
        y = [math.log(e[q]) for e in errs]
        mx, my = sum(x) / len(x), sum(y) / len(y)
        slope = sum((u - mx) * (v - my) for u, v in zip(x, y)) / sum((u - mx) ** 2 for u in x)
        pairwise = ["%.2f" % (math.log(errs[j - 1][q] / errs[j][q]) / math.log(grids[j] / grids[j - 1]))
                    for j in range(1, len(grids))]
        decreasing = all(errs[j][q] < errs[j - 1][q] for j in range(1, len(grids)))
        print("%-27s order (least squares) %.3f, pairwise %s, min %.2f" % (names[q], slope, " ".join(pairwise), mins[q]))
        ok = ok and decreasing and slope >= mins[q]
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
