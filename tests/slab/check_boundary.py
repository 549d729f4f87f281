#!/usr/bin/python3
"""check_boundary.py EXE PRM MIN_ORDER_W MIN_ORDER_S MIN_ORDER_V [N...]

Independent check of the slab's contact node (MODELS.md §4.9.1-2). For
t < 2H/c2 the incoming characteristics at z = 0 are known in closed form
from the initial data of boundary.prm (with the reflection at the top for
H < c t < 2H), so the contact node obeys the ODE/inclusions (31)-(34):
    w' = b3+ + reaction, w >= 0 (non-regularized unilateral contact),
    eps v' in G/c1 (bT+ - v) - S mu(|v - v*|) Sgn(v - v*).
This script integrates them by implicit Euler with a step 2^-17 (2H/c2),
written here from scratch, and runs the full scheme (EXE PRM) on the grids
N (default 200 400 800 1600, CFL 0.9). Errors on t <= 2H/c2: normal
displacement w (max norm), contact pressure S (L1 in time: S jumps at
re-contact) and slip velocity (L1 in time). Asserts that every error
decreases and the least-squares orders reach the given minima.
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
    for n in range(1, M + 1):
        t = n * dt
        b3 = b_plus(t, 2)
        w = max(w + dt * b3, 0.0)
        u3t = b3 if (w > 0 or b3 > 0) else 0.0
        S = RHO * C2 * (u3t - b3)
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
    exe, prm = sys.argv[1], sys.argv[2]
    mins = [float(x) for x in sys.argv[3:6]]
    grids = [int(x) for x in sys.argv[6:]] or [200, 400, 800, 1600]
    dtr, _, ws, ss, vs = reference()
    tmp = tempfile.mkdtemp(prefix="slab_boundary_")
    errs = []
    for n in grids:
        out = os.path.join(tmp, "n%d" % n)
        subprocess.run([exe, prm, "--quiet", "--set", "Output/Directory=" + out,
                        "--set", "Output/Overwrite=true",
                        "--set", "Slab/Number of cells=%d" % n,
                        "--set", "Time/Final time=%r" % T], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "history.csv")) as f:
            rows = [r for r in csv.DictReader(f) if float(r["t"]) <= T * (1 + 1e-12)]
        ew = es = ev = 0.0
        for i, r in enumerate(rows):
            t = float(r["t"])
            ew = max(ew, abs(float(r["normal_displacement"]) - interp(dtr, ws, t)))
            if i > 0:
                h = t - float(rows[i - 1]["t"])
                es += h * abs(float(r["contact_pressure"]) - interp(dtr, ss, t))
                ev += h * abs(float(r["slip_velocity_1"]) - interp(dtr, vs, t))
        errs.append((ew, es, ev))
    names = ["normal displacement (max)", "contact pressure (L1)", "slip velocity (L1)"]
    ok = True
    print("N_z    |w - w_ref|max   |S - S_ref|L1    |v_s - v_ref|L1")
    for n, e in zip(grids, errs):
        print("%5d  %.4e       %.4e       %.4e" % ((n,) + e))
    for q in range(3):
        x = [math.log(1.0 / n) for n in grids]
        y = [math.log(e[q]) for e in errs]
        mx, my = sum(x) / len(x), sum(y) / len(y)
        slope = sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)
        pairwise = ["%.2f" % (math.log(errs[j - 1][q] / errs[j][q]) / math.log(grids[j] / grids[j - 1]))
                    for j in range(1, len(grids))]
        decreasing = all(errs[j][q] < errs[j - 1][q] for j in range(1, len(grids)))
        print("%-27s order (least squares) %.3f, pairwise %s, min %.2f" % (names[q], slope, " ".join(pairwise), mins[q]))
        ok = ok and decreasing and slope >= mins[q]
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
