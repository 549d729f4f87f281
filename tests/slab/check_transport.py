#!/usr/bin/python3
"""Checks of the slab's interior transport (doc/theory.md §4.9.4).

exact OUTDIR
    At CFL number 1 with c1 = c2 (lambda = -G), after any number of steps,
    the final profile must equal the initial one transported by whole grid
    shifts, reflected at the top (u_t = 0: b+ = -b-), at the closed contact
    (b3- = -b3+) and at the free tangential boundary (bT- = bT+): this
    script applies those index shifts to profile-initial.csv (no arithmetic)
    and compares with profile-final.csv to round-off.

order EXE PRM SCHEME MIN MAX [N...]
    Runs the bump of transport.prm at CFL 0.8 with physical wave speeds on
    the grids N (default 200 400 800 1600) for t = 0.3 H/c2 (the bump never
    reaches a boundary), measures the max-norm error of u_t and u_,3 against
    the exact translation of the analytic data, and asserts the observed
    orders between successive grids lie in [MIN, MAX].
"""
import csv
import math
import os
import subprocess
import sys
import tempfile


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def exact(outdir):
    p0 = read_csv(os.path.join(outdir, "profile-initial.csv"))
    p1 = read_csv(os.path.join(outdir, "profile-final.csv"))
    hist = read_csv(os.path.join(outdir, "history.csv"))
    n_steps = len(hist["t"]) - 1
    if n_steps < 1:
        print("FAIL: no time step: nothing was transported")
        return 1
    z = p0["z"]
    n = len(z) - 1
    c = [None] * 3
    # c_k from u_,3 and b: we only need b+- up to a common factor per
    # component, so work with (u_t, c u_,3) where c is read from the
    # parameters file.
    prm = open(os.path.join(outdir, "parameters.prm")).read()
    def get(name):
        # Only the top level of "subsection Slab": other models' subsections
        # (Body) have parameters of the same names.
        depth, in_slab = 0, False
        for line in prm.splitlines():
            s = line.strip()
            if s.startswith("subsection "):
                depth += 1
                if depth == 1:
                    in_slab = s.split(None, 1)[1].strip() == "Slab"
            elif s == "end":
                depth -= 1
                if depth == 0:
                    in_slab = False
            elif in_slab and depth == 1 and s.startswith("set " + name) \
                    and "=" in s:
                return float(s.split("=", 1)[1].split("#")[0])
        raise SystemExit("parameter Slab/%s not found" % name)
    lam, G, rho = get("Lambda"), get("Shear modulus"), get("Density")
    c = [math.sqrt(G / rho)] * 2 + [math.sqrt((lam + 2 * G) / rho)]
    worst = 0.0
    scale = 0.0
    for k in range(3):
        v0, g0 = p0["velocity_%d" % (k + 1)], p0["strain_%d" % (k + 1)]
        bp = [v0[i] + c[k] * g0[i] for i in range(n + 1)]
        bm = [v0[i] - c[k] * g0[i] for i in range(n + 1)]
        for _ in range(n_steps):
            nbp = bp[1:] + [None]
            nbm = [None] + bm[:-1]
            nbp[n] = -nbm[n]                       # top: u_t = 0
            nbm[0] = -nbp[0] if k == 2 else nbp[0]  # closed contact / free
            bp, bm = nbp, nbm
        v1, g1 = p1["velocity_%d" % (k + 1)], p1["strain_%d" % (k + 1)]
        for i in range(n + 1):
            ve, ge = 0.5 * (bp[i] + bm[i]), 0.5 * (bp[i] - bm[i]) / c[k]
            scale = max(scale, abs(ve), abs(c[k] * ge))
            worst = max(worst, abs(v1[i] - ve), c[k] * abs(g1[i] - ge))
    rel = worst / scale if scale > 0 else float("nan")
    print("exact transport at CFL 1: %d steps, %d cells, max |difference| "
          "%.3e (relative %.3e)" % (n_steps, n, worst, rel))
    if not rel < 1e-12:
        print("FAIL: not exact to round-off")
        return 1
    # the contact must have stayed closed (else the test is void)
    if max(hist["normal_displacement"][1:]) != 0 or min(hist["contact_pressure"]) <= 0:
        print("FAIL: the contact opened; the test data are wrong")
        return 1
    print("PASS")
    return 0


def order(exe, prm, scheme, lo, hi, grids):
    H, w, zc = 0.05, 0.003125, 0.025
    lam, G, rho = 107e9, 77e9, 7800.0
    c = [math.sqrt(G / rho)] * 2 + [math.sqrt((lam + 2 * G) / rho)]
    A = [1e-7, -2e-7, 1e-7]
    B = [0.02, 0.01, -0.03]
    D = 1e-4
    def f(z):
        return math.exp(-((z - zc) / w) ** 2)
    def df(z):
        return -2 * (z - zc) / w ** 2 * f(z)
    def u1(z, k):
        return B[k] * f(z)
    def du0(z, k):
        return A[k] * df(z) - (D / H if k == 2 else 0.0)
    errors = []
    tmp = tempfile.mkdtemp(prefix="slab_order_")
    T = 0.3 * H / c[2]
    for n in grids:
        out = os.path.join(tmp, "n%d" % n)
        subprocess.run([exe, prm, "--quiet", "--set", "Output/Directory=" + out,
                        "--set", "Output/Overwrite=true", "--set", "Slab/CFL number=0.8",
                        "--set", "Slab/Number of cells=%d" % n,
                        "--set", "Slab/Interior scheme=" + scheme,
                        "--set", "Time/Final time=%r" % T], check=True,
                       stdout=subprocess.DEVNULL)
        p = read_csv(os.path.join(out, "profile-final.csv"))
        t = read_csv(os.path.join(out, "history.csv"))["t"][-1]
        err = 0.0
        for k in range(3):
            for i, z in enumerate(p["z"]):
                # b+(t,z) = b0+(z + c t), b-(t,z) = b0-(z - c t)
                zp, zm = z + c[k] * t, z - c[k] * t
                bp = u1(zp, k) + c[k] * du0(zp, k)
                bm = u1(zm, k) - c[k] * du0(zm, k)
                ve = 0.5 * (bp + bm)
                ge = 0.5 * (bp - bm) / c[k]
                err = max(err, abs(p["velocity_%d" % (k + 1)][i] - ve),
                          c[k] * abs(p["strain_%d" % (k + 1)][i] - ge))
        errors.append(err)
    ok = True
    print("%s, CFL 0.8: N_z, max error of (u_t, c u_,3), observed order" % scheme)
    for j, n in enumerate(grids):
        if j == 0:
            print("  %5d  %.4e" % (n, errors[j]))
            continue
        p = math.log(errors[j - 1] / errors[j]) / math.log(grids[j] / grids[j - 1])
        print("  %5d  %.4e  %.3f" % (n, errors[j], p))
        ok = ok and lo <= p <= hi
    print("PASS" if ok else "FAIL: order outside [%g, %g]" % (lo, hi))
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "exact":
        sys.exit(exact(sys.argv[2]))
    exe, prm, scheme, lo, hi = sys.argv[2:7]
    grids = [int(x) for x in sys.argv[7:]] or [200, 400, 800, 1600]
    if len(grids) < 2:
        print("FAIL: an order needs two grids or more")
        sys.exit(1)
    sys.exit(order(exe, prm, scheme, float(lo), float(hi), grids))
