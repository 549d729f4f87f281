"""Shared by the checkers of tests/body/ (check_bar.py, check_sliding.py,
check_energy.py, check_implicit_laws.py, check_one_change.py, ...): run
stickslip with settings, read history.csv and the implicit step's summary in
log.txt, fit lines. Standard library only (/usr/bin/python3)."""
import csv
import math
import os
import re
import subprocess

# The Signorini bar of prm/body_signorini_bar.prm: L = 1, v0 = 1, rho = 1,
# c = sqrt((lambda + 2G)/rho) = 1, T = 3.
BAR_L, BAR_V0, BAR_RHO, BAR_C = 1.0, 1.0, 1.0, 1.0
BAR_FINAL_TIME = 3.0


def run(exe, prm, out, settings):
    """Run EXE PRM into OUT with the --set SETTINGS (a dict); return the rows
    of history.csv as dicts of floats."""
    command = [exe, prm, "--quiet", "--set", "Output/Directory=" + out,
               "--set", "Output/Overwrite=true", "--set", "Output/Field output=false"]
    for key, value in settings.items():
        command += ["--set", "%s=%s" % (key, value)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return read_history(os.path.join(out, "history.csv"))


def read_history(path):
    with open(path, newline="") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


# The counts of the implicit step's summary, in the order ImplicitStep::summary
# (src/models/body/implicit_step.cc) writes them at the end of log.txt.
IMPLICIT_SUMMARY_KEYS = ("steps", "iterations", "max_iterations", "changes", "cg_iterations",
                         "max_cg", "setups", "cycled_steps", "noise_floor_ends")
IMPLICIT_SUMMARY = re.compile(
    r"implicit steps: (\d+), active-set iterations (\d+) \(at most (\d+) in a step\), "
    r"active-set changes (\d+), CG iterations (\d+) \(at most (\d+) in a step\), "
    r"matrix and AMG set-ups (\d+), steps whose active set cycled \(then one change at "
    r"a time\) (\d+), steps ended at the solves' noise (\d+)")
# With a law with a rate: the steps repeated by rule 3' after the limit rule
# did not settle them, and the cycles of those abandoned attempts.
IMPLICIT_REPEATS = re.compile(
    r"steps repeated by the complementarity rule (\d+) \(their first attempts' cycles (\d+)\)")


# The attempts whose sets cycled and were repeated by rule 3' or cut
# (doc/theory.md §7.7, "Against cycling").
IMPLICIT_CYCLED_ATTEMPTS = re.compile(r"attempts that cycled, then repeated or cut (\d+)")


def implicit_summary(out):
    """The implicit step's counts in OUT/log.txt as a dict of ints (keys
    IMPLICIT_SUMMARY_KEYS), or None if the log has no implicit summary."""
    with open(os.path.join(out, "log.txt")) as f:
        text = f.read()
    m = IMPLICIT_SUMMARY.search(text)
    if not m:
        return None
    counts = dict(zip(IMPLICIT_SUMMARY_KEYS, map(int, m.groups())))
    repeats = IMPLICIT_REPEATS.search(text)
    counts["repeated"], counts["abandoned_cycles"] = (
        map(int, repeats.groups()) if repeats else (0, 0))
    cycled = IMPLICIT_CYCLED_ATTEMPTS.search(text)
    counts["cycled_attempts"] = int(cycled.group(1)) if cycled else 0
    return counts


def bar_settings(n, degree=1, dim=2, cfl=0.5):
    """The bar with N cells along the height (h = L/N, a cross-section of 2
    square cells per direction, periodic) and dt = cfl h/c (rounded so that
    it divides T), a row every step. Returns (settings, dt, mass)."""
    h = BAR_L / n
    steps = round(BAR_FINAL_TIME / (cfl * h / BAR_C))
    dt = BAR_FINAL_TIME / steps
    settings = {
        "Output/Interval": "0",
        "Time/Final time": repr(BAR_FINAL_TIME),
        "Time/Time step": repr(dt),
        "Body/Finite element degree": str(degree),
    }
    if dim == 3:
        settings.update({
            "Dimension": "3",
            "Body/Size": "%r, %r, %r" % (2 * h, 2 * h, BAR_L),
            "Body/Subdivisions": "2, 2, %d" % n,
            "Body/Periodic boundary pairs": "0:1:x, 2:3:y",
            "Body/Initial velocity": "0; 0; %r" % -BAR_V0,
            "Body/Contact/Boundary id": "4",
        })
    else:
        settings.update({
            "Body/Size": "%r, %r" % (2 * h, BAR_L),
            "Body/Subdivisions": "2, %d" % n,
            "Body/Initial velocity": "0; %r" % -BAR_V0,
        })
    mass = BAR_RHO * BAR_L * (2 * h) ** (dim - 1)
    return settings, dt, mass


# The sliding block (check_sliding.py, check_energy.py), on top of
# prm/body_signorini_bar.prm (rho = 1, lambda = 0.5, G = 0.25: c2 = 1,
# c1 = 0.5): a column H = 1 high, 0.1 wide, periodic in x (a laterally
# infinite layer), 2 x 20 Q1 cells, under the body force f = rho (a, -g),
# g = a = 0.01, from the static compressed state u0_y = rho g (y^2/2 - H y)/
# (lambda + 2G) (the floor pressure rho g H from t = 0), at rest; friction
# exponential, mu_s = 0.6, mu_d = 0.4, v_c = 0.01. F = m a > mu_s N = 0.6 m g:
# it slides; mu(|s|) -> mu_d once |s| >> v_c, and then the centre of mass
# accelerates with (F - mu_d N)/m = a - mu_d g = 0.006. The uniqueness ratio
# S L_mu/Z = 2 CFL g H (mu_s - mu_d)/(c2 v_c) = 0.16 at dt = 0.02 (h = 0.05):
# no ambiguous friction step.
SLIDE_H, SLIDE_WIDTH, SLIDE_RHO, SLIDE_C1 = 1.0, 0.1, 1.0, 0.5
SLIDE_G, SLIDE_A, SLIDE_MU_S, SLIDE_MU_D, SLIDE_VC = 0.01, 0.01, 0.6, 0.4, 0.01
SLIDE_MASS = SLIDE_RHO * SLIDE_H * SLIDE_WIDTH
SLIDE_ACCELERATION = SLIDE_A - SLIDE_MU_D * SLIDE_G


def sliding_settings(dt, final_time=40.0, direction=None):
    """The sliding layer's settings; with DIRECTION (dx, dy) the 3D layer,
    periodic in x and y, 2 x 2 x 20 cells, pulled along that unit vector of
    the floor plane (its contact boundary 4, the bottom)."""
    modulus = 0.5 + 2 * 0.25  # lambda + 2G of prm/body_signorini_bar.prm
    settings = {
        "Output/Interval": "0",
        "Time/Final time": repr(final_time),
        "Time/Time step": repr(dt),
        "Body/Size": "%r, %r" % (SLIDE_WIDTH, SLIDE_H),
        "Body/Subdivisions": "2, 20",
        "Body/Periodic boundary pairs": "0:1:x",
        "Body/Density": repr(SLIDE_RHO),
        "Body/Lame lambda": "0.5",
        "Body/Shear modulus": "0.25",
        "Body/Initial velocity": "0",
        "Body/Initial displacement": "0; %r*(y^2/2 - %r*y)" % (
            SLIDE_RHO * SLIDE_G / modulus, SLIDE_H),
        "Body/Body force": "%r; %r" % (SLIDE_RHO * SLIDE_A, -SLIDE_RHO * SLIDE_G),
        "Body/Contact/Friction law/Law": "exponential",
        "Body/Contact/Friction law/Static friction coefficient": repr(SLIDE_MU_S),
        "Body/Contact/Friction law/Dynamic friction coefficient": repr(SLIDE_MU_D),
        "Body/Contact/Friction law/Critical slip velocity": repr(SLIDE_VC),
    }
    if direction is None:
        return settings
    dx, dy = direction
    settings.update({
        "Dimension": "3",
        "Body/Size": "%r, %r, %r" % (SLIDE_WIDTH, SLIDE_WIDTH, SLIDE_H),
        "Body/Subdivisions": "2, 2, 20",
        "Body/Periodic boundary pairs": "0:1:x, 2:3:y",
        "Body/Initial displacement": "0; 0; %r*(z^2/2 - %r*z)" % (
            SLIDE_RHO * SLIDE_G / modulus, SLIDE_H),
        "Body/Body force": "%r; %r; %r" % (SLIDE_RHO * SLIDE_A * dx, SLIDE_RHO * SLIDE_A * dy,
                                           -SLIDE_RHO * SLIDE_G),
        "Body/Contact/Boundary id": "4",
    })
    return settings


def line_fit(xs, ys):
    """Least-squares slope and intercept."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def log_order(levels, errors):
    """Least-squares order of errors against 1/levels."""
    return line_fit([math.log(1.0 / n) for n in levels], [math.log(e) for e in errors])[0]
