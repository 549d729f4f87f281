#!/usr/bin/python3
"""slab_cross_check.py EXE [--config paper|massless] [--levels N...]
                       [--degree P] [--reference-cells N] [--min-order Q]
                       [--max-event-steps K] [--full] [--workdir DIR]

Cross-check of Model = body against Model = slab (seed 003): the 2D block
of prm/body_slab_periodic.prm, periodic in x, 2 cells wide (square cells of
side h = H/N_z), whose data depend on y only, is the slab of prm/slab.prm.

The slab runs once at a fine reference resolution (--reference-cells,
CFL 1, a row at every step); the body runs at joint refinements of h and
dt: N_z = --levels cells over the height, dt = T/ceil(T/(CFL h/c2)) with
CFL the largest stable one, two decimals, below the bound the program
prints when it refuses a larger step (one probe run per degree). For every
level, against the slab interpolated linearly in time at the body's times
t_n, 0 < t_n <= T (at t = 0 the body reports the static pressure of u0, the
slab the state after the jump of the boundary velocity):
  |S - S_ref|_L1        contact pressure (mean_pressure; L1 in time: S
                        jumps at re-contact, seed 003 §7),
  |v_s - v_ref|_L1, max slip velocity (mean_slip_velocity_1),
  |w - w_ref|_max       normal displacement (mean_gap),
observed orders (pairwise and least squares in 1/N_z), and the event times
(lift-off S > 0 -> 0, re-contact 0 -> S > 0, stick onset v_s -> exactly 0,
slip onset stick -> slip in contact): for every kind, the Hausdorff
distance between the body's and the slab's event times, in steps of the
body's dt (so an extra or missing event counts), and the numbers of events.
ambiguous: the body's node-steps where the friction step (52) had several
solutions (Z = m~_i/(A_i dt) <= S L_mu).

Configurations (--config), the same data for both models:
  paper     prm/slab.prm as it is: fig2 law, surface mass epsilon = 10;
  massless  epsilon = 0 and a constant friction coefficient 0.5 (the
            friction step is uniquely solvable for every step, L_mu = 0).

Asserts (unless --full): every least-squares order >= --min-order and every
event distance <= --max-event-steps at the finest level. --full prints the
whole study instead: both configurations, the slab reference at 3200 and
6400 cells (their difference bounds the reference error), p = 1 on
N_z = 50..1600, p = 2 on 50..400, and the 3D block periodic in x and y
(contact id 4, top id 5) against the 2D block at one coarse level.
"""
import argparse
import bisect
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BODY_PRM = os.path.join(SRC, "prm", "body_slab_periodic.prm")
SLAB_PRM = os.path.join(SRC, "prm", "slab.prm")
H, T = 0.05, 1e-4
C2 = math.sqrt((107e9 + 2 * 77e9) / 7800)
CONFIGS = {
    # (surface mass, friction law, mu_s, mu_d)
    "paper": (10.0, "fig2", 0.8, 0.5),
    "massless": (0.0, "constant", 0.5, 0.5),
}
KINDS = ["lift-off", "re-contact", "stick", "slip onset"]


def model_overrides(config):
    eps, law, mus, mud = CONFIGS[config]
    slab = ["--set", "Slab/Surface mass epsilon=%r" % eps, "--set", "Slab/Friction law=" + law,
            "--set", "Slab/Static friction coefficient=%r" % mus,
            "--set", "Slab/Dynamic friction coefficient=%r" % mud]
    body = ["--set", "Body/Contact/Surface mass=%r" % eps, "--set", "Body/Contact/Friction law=" + law,
            "--set", "Body/Contact/Static friction coefficient=%r" % mus,
            "--set", "Body/Contact/Dynamic friction coefficient=%r" % mud]
    return slab, body


def run(command):
    """Runs stickslip; returns (wall seconds, completed process)."""
    start = time.time()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return time.time() - start, done


def read_series(path, body):
    """(t, S, v_s, w, stuck) for 0 < t <= T."""
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            t = float(r["t"])
            if t <= 0 or t > T * (1 + 1e-9):
                continue
            if body:
                out.append((t, float(r["mean_pressure"]), float(r["mean_slip_velocity_1"]),
                            float(r["mean_gap"]),
                            float(r["stick_fraction"]) == 1 and float(r["contact_fraction"]) == 1))
            else:
                out.append((t, float(r["contact_pressure"]), float(r["slip_velocity_1"]),
                            float(r["normal_displacement"]), float(r["stick"]) == 1))
    return out


def last_value(path, column):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return float(rows[-1][column])


def events(series):
    """Event times by kind (the first row where the new state holds)."""
    found = {k: [] for k in KINDS}
    for a, b in zip(series, series[1:]):
        if a[1] > 0 and b[1] == 0:
            found["lift-off"].append(b[0])
        if a[1] == 0 and b[1] > 0:
            found["re-contact"].append(b[0])
        if not a[4] and b[4]:
            found["stick"].append(b[0])
        if a[4] and not b[4] and b[1] > 0:
            found["slip onset"].append(b[0])
    return found


def hausdorff(a, b):
    if not a and not b:
        return 0.0
    if not a or not b:
        return math.inf
    def one_way(x, y):
        worst = 0.0
        for t in x:
            j = bisect.bisect_left(y, t)
            near = min(abs(t - y[k]) for k in (j - 1, j) if 0 <= k < len(y))
            worst = max(worst, near)
        return worst
    return max(one_way(a, b), one_way(b, a))


class Reference:
    def __init__(self, series):
        self.t = [r[0] for r in series]
        self.values = [[r[q] for r in series] for q in (1, 2, 3)]
        self.events = events(series)

    def at(self, q, t):
        j = bisect.bisect_left(self.t, t)
        if j <= 0:
            return self.values[q][0]
        if j >= len(self.t):
            return self.values[q][-1]
        w = (t - self.t[j - 1]) / (self.t[j] - self.t[j - 1])
        return (1 - w) * self.values[q][j - 1] + w * self.values[q][j]


def errors(series, ref):
    """|S|_L1, |v_s|_L1, |v_s|_max, |w|_max against the reference."""
    es = ev1 = evm = ew = 0.0
    previous = 0.0
    for r in series:
        h = r[0] - previous
        previous = r[0]
        es += h * abs(r[1] - ref.at(0, r[0]))
        dv = abs(r[2] - ref.at(1, r[0]))
        ev1 += h * dv
        evm = max(evm, dv)
        ew = max(ew, abs(r[3] - ref.at(2, r[0])))
    return es, ev1, evm, ew


def run_slab(exe, cells, config, out):
    slab, _ = model_overrides(config)
    seconds, done = run([exe, SLAB_PRM, "--quiet", "--set", "Slab/Number of cells=%d" % cells,
                         "--set", "Output/Directory=" + out, "--set", "Output/Overwrite=true",
                         "--set", "Output/Field output=false", "--set", "Output/Interval=0"] + slab)
    if done.returncode != 0:
        raise RuntimeError("the slab failed:\n" + done.stdout)
    return seconds, read_series(os.path.join(out, "history.csv"), False)


def body_geometry(n, dim):
    h = H / n
    if dim == 2:
        return ["--set", "Dimension=2", "--set", "Body/Size=%r, %r" % (2 * h, H),
                "--set", "Body/Subdivisions=2, %d" % n]
    return ["--set", "Dimension=3", "--set", "Body/Size=%r, %r, %r" % (2 * h, 2 * h, H),
            "--set", "Body/Subdivisions=2, 2, %d" % n,
            "--set", "Body/Periodic boundary pairs=0:1:x, 2:3:y",
            "--set", "Body/Initial displacement=0; 0; -1e-5*z/0.05",
            "--set", "Body/Initial velocity=0; 0; 2*cos(pi*z/(2*0.05))^2",
            "--set", "Body/Displacement 1/Boundary ids=5",
            "--set", "Body/Displacement 1/Value=0; 0; -1e-5",
            "--set", "Body/Contact/Boundary id=4",
            "--set", "Body/Contact/Foundation velocity=1; 0; 0"]


def body_command(exe, n, degree, dim, dt, config, out):
    _, body = model_overrides(config)
    return ([exe, BODY_PRM, "--quiet", "--set", "Output/Directory=" + out,
             "--set", "Output/Overwrite=true", "--set", "Output/Interval=0",
             "--set", "Body/Finite element degree=%d" % degree, "--set", "Time/Time step=%r" % dt]
            + body_geometry(n, dim) + body)


def stable_cfl(exe, degree, dim, config, work):
    """The largest stable CFL (dt c2/h) by the program's own bound, two decimals."""
    n = 50
    h = H / n
    _, done = run(body_command(exe, n, degree, dim, T / 10, config, os.path.join(work, "probe")))
    m = re.search(r"stable for dt <= 2/sqrt\(lambda_max\(M\^-1 K\)\) = ([0-9.eE+-]+) s", done.stdout)
    if done.returncode == 0 or not m:
        raise RuntimeError("no stability bound in:\n" + done.stdout)
    return math.floor(float(m.group(1)) * C2 / h * 100) / 100


def run_body(exe, n, degree, dim, cfl, config, out):
    dt = T / math.ceil(T / (cfl * H / n / C2) - 1e-9)
    seconds, done = run(body_command(exe, n, degree, dim, dt, config, out))
    if done.returncode != 0:
        raise RuntimeError("the body failed:\n" + done.stdout)
    history = os.path.join(out, "history.csv")
    return dt, seconds, read_series(history, True), last_value(history, "ambiguous_nodes")


def fit(levels, values):
    x = [math.log(1.0 / n) for n in levels]
    y = [math.log(v) for v in values]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((u - mx) * (v - my) for u, v in zip(x, y)) / sum((u - mx) ** 2 for u in x)


def study(exe, config, levels, degree, ref, work, label):
    """The table of one degree; returns (orders, event distances at the finest level)."""
    cfl = stable_cfl(exe, degree, 2, config, work)
    print("\n%s: Q%d, square cells, CFL %.2f (dt c2/h; the largest stable, two decimals)"
          % (label, degree, cfl))
    print("  N_z      dt         |S|L1      |v_s|L1    |v_s|max   |w|max     "
          "events: max |dt_body - dt_slab|/dt (lift-off re-contact stick slip)  "
          "#events body/slab  ambiguous  wall")
    rows = []
    for n in levels:
        dt, seconds, series, ambiguous = run_body(exe, n, degree, 2, cfl, config,
                                                  os.path.join(work, "%s_q%d_n%d" % (config, degree, n)))
        e = errors(series, ref)
        ev = events(series)
        dist = [hausdorff(ev[k], ref.events[k]) / dt for k in KINDS]
        counts = "/".join("%d:%d" % (len(ev[k]), len(ref.events[k])) for k in KINDS)
        rows.append((n, dt, e, dist))
        print("  %-5d  %.3e  %.3e  %.3e  %.3e  %.3e  %s  %s  %9d  %.1fs"
              % ((n, dt) + e + (" ".join("%6.0f" % d for d in dist), counts, ambiguous, seconds)))
    names = ["|S|L1", "|v_s|L1", "|v_s|max", "|w|max"]
    orders = []
    for q in range(4):
        values = [r[2][q] for r in rows]
        pairwise = ["%.2f" % (math.log(values[j - 1] / values[j]) / math.log(levels[j] / levels[j - 1]))
                    for j in range(1, len(levels))]
        orders.append(fit(levels, values))
        print("  order %-9s least squares %5.2f, pairwise %s" % (names[q], orders[-1], " ".join(pairwise)))
    return orders, rows[-1][3]


def compare_3d(exe, config, n, work, ref):
    """The 3D block periodic in x and y against the 2D block, same N_z and dt."""
    cfl = min(stable_cfl(exe, 1, 3, config, work), stable_cfl(exe, 1, 2, config, work))
    out = {}
    for dim in (2, 3):
        dt, seconds, series, ambiguous = run_body(exe, n, 1, dim, cfl, config,
                                                  os.path.join(work, "%s_%dd_n%d" % (config, dim, n)))
        out[dim] = (series, seconds, ambiguous)
    a, b = out[2][0], out[3][0]
    diff = [max(abs(x[q] - y[q]) for x, y in zip(a, b)) for q in (1, 2, 3)]
    same_events = events(a) == events(b)
    print("\n%s: 3D block (2 x 2 x %d cells, periodic in x and y) against 2D (2 x %d), Q1, CFL %.2f, dt %.3e"
          % (config, n, n, cfl, dt))
    print("  max |3D - 2D|: S %.3e Pa, v_s %.3e m/s, w %.3e m; same event times: %s; "
          "ambiguous 2D %d, 3D %d; wall 2D %.1fs, 3D %.1fs"
          % (diff[0], diff[1], diff[2], same_events, out[2][2], out[3][2], out[2][1], out[3][1]))
    print("  3D against the slab: |S|L1 %.3e, |v_s|L1 %.3e, |v_s|max %.3e, |w|max %.3e"
          % errors(b, ref))
    return diff, same_events


def reference(exe, cells, config, work):
    seconds, series = run_slab(exe, cells, config, os.path.join(work, "slab_%s_%d" % (config, cells)))
    ref = Reference(series)
    print("slab reference (%s): %d cells, CFL 1, dt %.3e, wall %.1fs; events %s"
          % (config, cells, series[1][0] - series[0][0], seconds,
             ", ".join("%s %d" % (k, len(ref.events[k])) for k in KINDS)))
    return ref, series


def full(exe, work):
    for config in ("paper", "massless"):
        print("\n=== configuration %s: surface mass %g, %s, mu_s %g, mu_d %g" % ((config,) + CONFIGS[config]))
        ref, _ = reference(exe, 6400, config, work)
        _, coarse = reference(exe, 3200, config, work)
        print("slab 3200 against 6400: |S|L1 %.3e, |v_s|L1 %.3e, |v_s|max %.3e, |w|max %.3e"
              % errors(coarse, ref))
        study(exe, config, [50, 100, 200, 400, 800, 1600], 1, ref, work, config)
        study(exe, config, [50, 100, 200, 400], 2, ref, work, config)
        compare_3d(exe, config, 50, work, ref)
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("--config", choices=sorted(CONFIGS), default="massless")
    p.add_argument("--levels", type=int, nargs="+", default=[50, 100, 200, 400, 800])
    p.add_argument("--degree", type=int, default=1)
    p.add_argument("--reference-cells", type=int, default=3200)
    p.add_argument("--min-order", type=float, default=0.5)
    p.add_argument("--max-event-steps", type=float, default=10)
    p.add_argument("--full", action="store_true")
    p.add_argument("--workdir")
    a = p.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="body_slab_")
    os.makedirs(work, exist_ok=True)
    try:
        if a.full:
            return full(a.exe, work)
        if len(a.levels) < 2:
            print("FAIL: an order needs two levels or more")
            return 1
        ref, _ = reference(a.exe, a.reference_cells, a.config, work)
        orders, dist = study(a.exe, a.config, a.levels, a.degree, ref, work, a.config)
        ok = all(q >= a.min_order for q in orders)
        print("least-squares orders >= %.2f: %s" % (a.min_order, ok))
        good = all(d <= a.max_event_steps for d in dist)
        print("event times within %g steps at N_z = %d: %s" % (a.max_event_steps, a.levels[-1], good))
        print("PASS" if ok and good else "FAIL")
        return 0 if ok and good else 1
    finally:
        if not a.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
