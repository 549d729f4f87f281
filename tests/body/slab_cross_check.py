#!/usr/bin/python3
"""slab_cross_check.py EXE [--config paper|massless] [--levels N...]
                       [--degree P] [--aspect A] [--reference-cells N]
                       [--min-order Q] [--max-event-steps K]
                       [--min-duration TAU] [--full] [--workdir DIR]

Cross-check of Model = body against Model = slab (Renard 2001): the 2D block
of prm/body_slab_periodic.prm, periodic in x, 2 cells wide, whose data
depend on y only, is the slab of prm/slab.prm.

The slab runs once at a fine reference resolution (--reference-cells, its
CFL 1, a row at every step); the body at joint refinements of h and dt:
N_z = --levels cells over the height (h = H/N_z), cells A h wide
(--aspect; the solution does not depend on A, the stability bound does:
A = 1 square cells, CFL 0.842; A = 16, CFL 0.9997), dt = T/ceil(T/(CFL
h/c2)) with CFL the program's own bound (it refuses a larger step and
prints it; one probe run per degree) rounded down to 3 decimals. For every
level, against the slab interpolated linearly in time at the body's times
t_n, 0 < t_n <= T (at t = 0 the body reports the static pressure of u0,
the slab the state after the jump of its boundary velocity):
  |S - S_ref|_L1        contact pressure (mean_pressure; L1 in time: S
                        jumps at re-contact),
  |v_s - v_ref|_L1, max slip velocity (mean_slip_velocity_1),
  |w - w_ref|_max       normal displacement (mean_gap),
and the orders (pairwise and least squares in 1/N_z). Events: lift-off
(S > 0 -> 0), re-contact (0 -> S > 0), stick onset (v_s -> exactly 0:
stick_fraction 1, the slab's stick), slip onset (stick -> slip in
contact), both series starting in contact at t = 0. Explicit contact
chatters: near a grazing contact and at a stick-slip threshold the body
may switch state for one or a few steps where the slab does not. The
events compared are those of states that last at least --min-duration
(shorter runs are merged into their neighbours, in both series); "raw" is
the number of unfiltered switches of the body. For every kind the distance
is the Hausdorff distance between the body's and the slab's event times,
in steps of the body's dt (an extra or missing event counts: it is then
the distance to the nearest event of the other series). ambiguous: the
body's node-steps where the friction step (52) had several solutions
(Z = m~_i/(A_i dt) <= S L_mu).

Configurations (--config), the same data for both models:
  paper     prm/slab.prm as it is: fig2 law (mu_s 0.8, mu_d 0.5, v_c 0.1),
            surface mass epsilon = 10 kg/m^2;
  massless  epsilon = 0 and a constant friction coefficient 0.5 (the friction
            step is uniquely solvable at every step, L_mu = 0);
  slip-weakening, rate-and-state  prm/slab.prm with a friction law with a
            state (doc/theory.md §8): linear slip weakening (mu_s 0.8, mu_d
            0.5, D_c 10 um), rate and state with the aging law (a 0.01,
            b 0.015, D_c 10 um, f0 0.6, V0 1 m/s, steady at 1 m/s).

Asserts (unless --full): every least-squares order >= --min-order and every
event distance <= --max-event-steps at every level from the second on.
--full prints the whole study instead (no assertions, about 4 minutes):
both configurations, the slab reference at 25600 cells and the slab at
3200, 6400 and 12800 against it (its own error), Q1 on N_z = 50..1600
with square and 16:1 cells, Q2 on 50..400 (square cells), and the 3D
block periodic in x and y (contact id 4, top id 5) against the 2D block
at N_z = 50 with the same dt.
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
    # surface mass, friction law, mu_s, mu_d[, further Friction law entries]
    "paper": (10.0, "fig2", 0.8, 0.5),
    "massless": (0.0, "constant", 0.5, 0.5),
    # Laws with a state (doc/theory.md §8): slip weakening over D_c = 10 um
    # (10 us of sliding at the slab's 1 m/s), and rate and state with the
    # aging law steady at the initial slip rate 1 m/s.
    "slip-weakening": (10.0, "slip-weakening", 0.8, 0.5,
                       {"Critical slip distance": "1e-5"}),
    "rate-and-state": (10.0, "rate-and-state", 0.8, 0.5,
                       {"Direct effect a": "0.01", "Evolution effect b": "0.015",
                        "Critical slip distance": "1e-5", "Reference coefficient f0": "0.6",
                        "Reference slip rate V0": "1", "Initial slip rate": "1"}),
}
KINDS = ["lift-off", "re-contact", "stick", "slip onset"]


def model_overrides(config):
    eps, law, mus, mud = CONFIGS[config][:4]
    entries = {"Law": law, "Static friction coefficient": repr(mus),
               "Dynamic friction coefficient": repr(mud)}
    entries.update(CONFIGS[config][4] if len(CONFIGS[config]) > 4 else {})
    slab = ["--set", "Slab/Surface mass epsilon=%r" % eps]
    body = ["--set", "Body/Contact/Surface mass=%r" % eps]
    for key, value in entries.items():
        slab += ["--set", "Slab/Friction law/%s=%s" % (key, value)]
        body += ["--set", "Body/Contact/Friction law/%s=%s" % (key, value)]
    return slab, body


def run(command):
    """Runs stickslip: (wall seconds, completed process)."""
    start = time.time()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return time.time() - start, done


def read_series(path, body):
    """Rows (t, S, v_s, w, stuck) for 0 < t <= T."""
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


def switches(times, states):
    """Indices where the state changes."""
    return [j for j in range(1, len(states)) if states[j] != states[j - 1]]


def persistent(times, states, tau):
    """The states with every interior run shorter than tau merged into its
    neighbours (shortest first, until none is left)."""
    states = list(states)
    while True:
        cuts = [0] + switches(times, states) + [len(states)]
        runs = [(times[cuts[k + 1]] - times[cuts[k]], k) for k in range(1, len(cuts) - 2)]
        short = [r for r in runs if r[0] < tau]
        if not short:
            return states
        k = min(short)[1]
        for j in range(cuts[k], cuts[k + 1]):
            states[j] = states[cuts[k] - 1]


def events(series, tau):
    """(event times by kind, number of raw switches), from t = 0 in contact,
    not stuck."""
    times = [0.0] + [r[0] for r in series]
    contact = [True] + [r[1] > 0 for r in series]
    stuck = [False] + [r[4] for r in series]
    raw = len(switches(times, contact)) + len(switches(times, stuck))
    contact = persistent(times, contact, tau)
    stuck = [s and c for s, c in zip(persistent(times, stuck, tau), contact)]
    found = {k: [] for k in KINDS}
    for j in switches(times, contact):
        found["re-contact" if contact[j] else "lift-off"].append(times[j])
    for j in switches(times, stuck):
        if stuck[j]:
            found["stick"].append(times[j])
        elif contact[j]:
            found["slip onset"].append(times[j])
    return found, raw


def hausdorff(a, b):
    if not a and not b:
        return 0.0
    if not a or not b:
        return math.inf

    def one_way(x, y):
        worst = 0.0
        for t in x:
            j = bisect.bisect_left(y, t)
            worst = max(worst, min(abs(t - y[k]) for k in (j - 1, j) if 0 <= k < len(y)))
        return worst
    return max(one_way(a, b), one_way(b, a))


class Reference:
    """The slab's series, interpolated linearly in time."""

    def __init__(self, series, tau):
        self.series = series
        self.t = [r[0] for r in series]
        self.values = [[r[q] for r in series] for q in (1, 2, 3)]
        self.tau = tau
        self.events, self.raw = events(series, tau)

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


def body_geometry(n, dim, aspect):
    h = H / n
    w = 2 * aspect * h
    if dim == 2:
        return ["--set", "Dimension=2", "--set", "Body/Size=%r, %r" % (w, H),
                "--set", "Body/Subdivisions=2, %d" % n]
    return ["--set", "Dimension=3", "--set", "Body/Size=%r, %r, %r" % (w, w, H),
            "--set", "Body/Subdivisions=2, 2, %d" % n,
            "--set", "Body/Periodic boundary pairs=0:1:x, 2:3:y",
            "--set", "Body/Initial displacement=0; 0; -1e-5*z/0.05",
            "--set", "Body/Initial velocity=0; 0; 2*cos(pi*z/(2*0.05))^2",
            "--set", "Body/Displacement 1/Boundary ids=5",
            "--set", "Body/Displacement 1/Value=0; 0; -1e-5",
            "--set", "Body/Contact/Boundary id=4",
            "--set", "Body/Contact/Foundation velocity=1; 0; 0"]


def body_command(exe, level, dt, config, out):
    n, degree, dim, aspect = level
    _, body = model_overrides(config)
    return ([exe, BODY_PRM, "--quiet", "--set", "Output/Directory=" + out,
             "--set", "Output/Overwrite=true", "--set", "Output/Interval=0",
             "--set", "Body/Finite element degree=%d" % degree,
             "--set", "Time/Time step=%r" % dt] + body_geometry(n, dim, aspect) + body)


def stable_cfl(exe, degree, dim, aspect, config, work):
    """The program's stability bound as dt c2/h, rounded down to 3 decimals."""
    n = 50
    _, done = run(body_command(exe, (n, degree, dim, aspect), T / 10, config,
                               os.path.join(work, "probe")))
    m = re.search(r"stable for dt <= 2/sqrt\(lambda_max\(M\^-1 K\)\) = ([0-9.eE+-]+) s",
                  done.stdout)
    if done.returncode == 0 or not m:
        raise RuntimeError("no stability bound in:\n" + done.stdout)
    return math.floor(float(m.group(1)) * C2 / (H / n) * 1000) / 1000


def run_body(exe, level, cfl, config, work):
    n = level[0]
    dt = T / math.ceil(T / (cfl * H / n / C2) - 1e-9)
    out = os.path.join(work, "%s_q%d_%dd_a%g_n%d" % ((config,) + level[1:] + (n,)))
    seconds, done = run(body_command(exe, level, dt, config, out))
    if done.returncode != 0:
        raise RuntimeError("the body failed:\n" + done.stdout)
    history = os.path.join(out, "history.csv")
    return dt, seconds, read_series(history, True), int(last_value(history, "ambiguous_nodes"))


def fit(levels, values):
    x = [math.log(1.0 / n) for n in levels]
    y = [math.log(v) if v > 0 else -745.0 for v in values]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((u - mx) * (v - my) for u, v in zip(x, y)) / sum((u - mx) ** 2 for u in x)


def study(exe, config, levels, degree, aspect, ref, work):
    """One table; returns (least-squares orders, event distances per level)."""
    cfl = stable_cfl(exe, degree, 2, aspect, config, work)
    print("\n%s, Q%d, cells %g h x h (2 across), CFL %.3f (the largest stable, 3 decimals); "
          "events of states lasting >= %.2g s" % (config, degree, aspect, cfl, ref.tau))
    print("  N_z   dt         |S|L1      |v_s|L1    |v_s|max   |w|max     "
          "event distance [steps]     events body:slab   raw   ambiguous  wall")
    print("  %59s lift re-c stick slip" % "")
    rows = []
    for n in levels:
        dt, seconds, series, ambiguous = run_body(exe, (n, degree, 2, aspect), cfl, config, work)
        e = errors(series, ref)
        ev, raw = events(series, ref.tau)
        dist = [hausdorff(ev[k], ref.events[k]) / dt for k in KINDS]
        counts = " ".join("%d:%d" % (len(ev[k]), len(ref.events[k])) for k in KINDS)
        rows.append((n, dt, e, dist))
        print("  %-5d %.3e  %.3e  %.3e  %.3e  %.3e  %s  %-17s %4d  %9d  %5.1fs"
              % ((n, dt) + e + (" ".join("%4.0f" % d for d in dist), counts, raw, ambiguous,
                                 seconds)))
    names = ["|S|L1", "|v_s|L1", "|v_s|max", "|w|max"]
    orders = []
    for q in range(4):
        values = [r[2][q] for r in rows]
        pairwise = " ".join("%5.2f" % (math.log(values[j - 1] / values[j])
                                       / math.log(levels[j] / levels[j - 1]))
                            for j in range(1, len(levels)))
        orders.append(fit(levels, values))
        print("  order %-9s least squares %5.2f, pairwise %s" % (names[q], orders[-1], pairwise))
    return orders, [r[3] for r in rows]


def compare_3d(exe, config, n, ref, work):
    """The 3D block periodic in x and y against the 2D block, same N_z and dt."""
    cfl = min(stable_cfl(exe, 1, 3, 1, config, work), stable_cfl(exe, 1, 2, 1, config, work))
    out = {}
    for dim in (2, 3):
        dt, seconds, series, ambiguous = run_body(exe, (n, 1, dim, 1), cfl, config, work)
        out[dim] = (series, seconds, ambiguous)
    a, b = out[2][0], out[3][0]
    diff = [max(abs(x[q] - y[q]) for x, y in zip(a, b)) for q in (1, 2, 3)]
    same = [x[4] for x in a] == [y[4] for y in b] and [x[1] > 0 for x in a] == [y[1] > 0 for y in b]
    print("\n%s, 3D block (2 x 2 x %d cells, periodic in x and y) against 2D (2 x %d), Q1, "
          "CFL %.3f, dt %.3e" % (config, n, n, cfl, dt))
    print("  max |3D - 2D| over the steps: S %.3e Pa, v_s %.3e m/s, w %.3e m; same contact and "
          "stick states at every step: %s" % (diff[0], diff[1], diff[2], same))
    print("  ambiguous 2D %d, 3D %d; wall 2D %.1fs, 3D %.1fs"
          % (out[2][2], out[3][2], out[2][1], out[3][1]))
    print("  3D against the slab: |S|L1 %.3e, |v_s|L1 %.3e, |v_s|max %.3e, |w|max %.3e"
          % errors(b, ref))
    return diff, same


def reference(exe, cells, config, tau, work):
    seconds, series = run_slab(exe, cells, config, os.path.join(work, "slab_%s_%d" % (config, cells)))
    ref = Reference(series, tau)
    print("slab (%s): %d cells, CFL 1, dt %.3e, wall %.1fs; events %s; raw switches %d"
          % (config, cells, series[1][0] - series[0][0], seconds,
             ", ".join("%s %d" % (k, len(ref.events[k])) for k in KINDS), ref.raw))
    return ref


def full(exe, tau, work):
    for config in ("paper", "massless"):
        print("\n=== %s: surface mass %g, %s, mu_s %g, mu_d %g" % ((config,) + CONFIGS[config][:4]))
        ref = reference(exe, 25600, config, tau, work)
        for cells in (3200, 6400, 12800):
            coarse = reference(exe, cells, config, tau, work)
            print("  against 25600: |S|L1 %.3e, |v_s|L1 %.3e, |v_s|max %.3e, |w|max %.3e; "
                  % errors(coarse.series, ref) + "event distance [steps of %d] %s" % (cells, " ".join(
                      "%.0f" % (hausdorff(coarse.events[k], ref.events[k]) /
                                (coarse.t[1] - coarse.t[0])) for k in KINDS)))
        for aspect in (1, 16):
            study(exe, config, [50, 100, 200, 400, 800, 1600], 1, aspect, ref, work)
        study(exe, config, [50, 100, 200, 400], 2, 1, ref, work)
        compare_3d(exe, config, 50, ref, work)
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("--config", choices=sorted(CONFIGS), default="massless")
    p.add_argument("--levels", type=int, nargs="+", default=[50, 100, 200, 400, 800])
    p.add_argument("--degree", type=int, default=1)
    p.add_argument("--aspect", type=float, default=1)
    p.add_argument("--reference-cells", type=int, default=6400)
    p.add_argument("--assert", dest="checked", choices=["all", "normal"], default="all")
    p.add_argument("--events-from", type=int, default=0)
    p.add_argument("--min-order", type=float, default=0.5)
    p.add_argument("--max-event-steps", type=float, default=10)
    p.add_argument("--min-duration", type=float, default=2e-7)
    p.add_argument("--full", action="store_true")
    p.add_argument("--workdir")
    a = p.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="body_slab_")
    os.makedirs(work, exist_ok=True)
    try:
        if a.full:
            return full(a.exe, a.min_duration, work)
        if len(a.levels) < 2:
            print("FAIL: an order needs two levels or more")
            return 1
        ref = reference(a.exe, a.reference_cells, a.config, a.min_duration, work)
        orders, dist = study(a.exe, a.config, a.levels, a.degree, a.aspect, ref, work)
        # normal: S, w, lift-off and re-contact only (they do not depend on
        # the friction in 1D).
        quantities = [0, 1, 2, 3] if a.checked == "all" else [0, 3]
        kinds = [0, 1, 2, 3] if a.checked == "all" else [0, 1]
        ok = all(orders[q] >= a.min_order for q in quantities)
        print("least-squares orders of %s >= %.2f: %s"
              % ("all" if a.checked == "all" else "S and w", a.min_order, ok))
        first = a.events_from or a.levels[1]
        checked = [d for n, d in zip(a.levels, dist) if n >= first]
        worst = max(d[k] for d in checked for k in kinds) if checked else math.inf
        good = worst <= a.max_event_steps
        print("%s event distances from N_z = %d on: at most %.0f steps (allowed %g): %s"
              % ("all" if a.checked == "all" else "normal", first, worst, a.max_event_steps, good))
        print("PASS" if ok and good else "FAIL")
        return 0 if ok and good else 1
    finally:
        if not a.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
