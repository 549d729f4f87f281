#!/usr/bin/env python3
"""rank_sweep.py STICKSLIP SRC OUT [--ranks 1,2,3,4] [--only NAME,...]

Every example of prm/ on 1, 2, 3 and 4 MPI ranks (oversubscribed): one
`stickslip --batch` per rank count (the start-up of MPI, deal.II and PETSc
paid once per rank count), each example shortened by the --set options of
SHORTENED below (a few steps; a coarser mesh where the set-up would
dominate). Every run must end with status 0, and its history.csv (and
errors.csv, refinement.csv, optimization.csv where it writes them) must
agree with the 1-rank run's within the example's tolerance (TOLERANCE,
KIND): each value against the scale of its column's family (compare(); as
tests/compare_histories.py, but a column that is round-off in exact
arithmetic, a momentum of a symmetric problem, is measured against its
vector's size, and solver effort is not compared).

Cost (the whole test, measured on 2 cores shared with other work): CPU
(user + system) 78 s, of which about 8, 18, 25 and 33 s on 1, 2, 3 and 4
ranks; wall 232 s at a load of 8.5 (310 s at 11).

The examples are found by globbing prm/*.prm when the test runs: one that is
not in SHORTENED fails the test (say there how to shorten it), as does an
entry of SHORTENED without its file. Exit 0 if every run passes, 1
otherwise.
"""
import argparse
import csv
import glob
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "batch"))
from batch_common import launcher, summary_statuses  # noqa: E402


def s(*pairs):
    """--set options from "Name=value" strings."""
    words = []
    for pair in pairs:
        words += ["--set", pair]
    return words


FINITE_DOF_STUDY = s("Time/Final time=0.01")

# How each example is shortened: a few time steps (and a coarser mesh where
# the example's set-up dominates), its outputs kept.
SHORTENED = {
    "body_3d": s("Time/Final time=1e-5", "Body/Subdivisions=8, 4, 4"),
    "body_cattaneo_mindlin": s("Time/Final time=0.1"),
    "body_fault_tpv3_2d": s("Time/Final time=0.05", "Body/Subdivisions=60, 36"),
    "body_fronts_2d": s("Time/Final time=2e-6", "Body/Subdivisions=40, 20"),
    "body_fronts_rate_state": s("Time/Final time=5e-6"),
    "body_fronts_slip_weakening": s("Time/Final time=5e-6"),
    "body_hertz_2d": s("Time/Final time=0.25"),
    "body_hertz_3d": s("Time/Final time=0.25"),
    "body_indenter_2d": s("Time/Final time=0.25", "Body/Subdivisions=24, 24"),
    "body_kostrov": s("Time/Final time=0.025", "Body/Subdivisions=22, 16"),
    "body_membrane": s("Time/Final time=0.025", "Body/Global refinements=2"),
    "body_signorini_bar": s("Time/Final time=0.05"),
    "body_signorini_implicit": s("Time/Final time=0.5"),
    "body_slab_periodic": s("Time/Final time=4.319654427645788e-07"),
    "body_sliding_block_2d": s("Time/Final time=0.125"),
    "body_sliding_block_3d": s("Time/Final time=0.03125", "Output/Interval=0.015625"),
    "body_slow_pull": s("Time/Final time=16"),
    "body_stick_block": s("Time/Final time=0.1", "Output/Interval=0.05"),
    "chain_beam": s("Chain/Number of masses=1000", "Time/Final time=0.1",
                    "Output/Interval=0.05"),
    "chain_dynamical_clamped": s("Time/Final time=0.02", "Output/Interval=0.01"),
    "chain_dynamical_free": s("Time/Final time=0.02", "Output/Interval=0.01"),
    "chain_quasistatic_clamped": s("Time/Final time=0.1"),
    "chain_quasistatic_free_displacement": s("Time/Final time=0.1"),
    "chain_quasistatic_free_force": s("Time/Final time=0.4"),
    "chain_semidynamical_clamped": s("Time/Final time=0.02", "Output/Interval=0.01"),
    "chain_semidynamical_free": s("Time/Final time=0.02", "Output/Interval=0.01"),
    "gearbox": FINITE_DOF_STUDY,
    "membrane": s("Time/Final time=0.02"),
    "membrane_manufactured": s("Time/Final time=0.0625"),
    "p1": FINITE_DOF_STUDY,
    "p2": s("Time/Final time=1.01"),  # its initial time is 1
    "p3": FINITE_DOF_STUDY,
    "p3g": FINITE_DOF_STUDY,
    "p4": FINITE_DOF_STUDY,
    "p5a": FINITE_DOF_STUDY,
    "p5b": FINITE_DOF_STUDY,
    "p5b_penalty": s("Time/Final time=0.08"),
    "s001": FINITE_DOF_STUDY,
    "slab": s("Time/Final time=1e-6"),
    "slab_convergence": s("Time/Final time=5e-7"),
    "slab_long": s("Time/Final time=1e-5"),
    "spring_slider_rate_state": s("Time/Final time=1", "Output/Interval=0.1"),
    "string": s("Time/Final time=0.01", "Output/Interval=0.005"),
    "string_at_rest": s("Time/Final time=0.01", "Output/Interval=0.005"),
    "string_driven": s("Time/Final time=0.01", "Output/Interval=0.005"),
    "string_manufactured": s("Time/Final time=0.0625"),
    "string_plucked": s("Time/Final time=0.01", "Output/Interval=0.005"),
    "tp1": s("Time/Final time=0.25"),
    "tp1_control": s("Time/Final time=0.25", "Control/Tolerance=1e-2"),
    "tp2": s("Time/Final time=0.2"),
    "tp2_control": s("Time/Final time=0.2", "Control/Tolerance=1e-2"),
    "tp2_springs": s("Time/Final time=0.2"),
}

# The largest difference allowed between a table of N ranks and the 1-rank
# run's, relative to the scale of its column's family (compare()): about 100
# times the largest difference measured on 2, 3 and 4 ranks (in brackets).
# The finite-dof models, the chain, the slab and the spring-slider compute
# the same numbers on any partition (measured: 0; 1.6e-16 in an error of
# p4); the string and membrane differ in the order of their sums (6.5e-15;
# 1.1e-12 in membrane_manufactured's errors); the explicit body too (2.1e-13,
# 1.4e-11 with a periodic slab), and through per-node Newton solves of rate
# laws, slip weakening and the mirror fault a little more (2.0e-9 tpv3,
# 6.9e-10 rate and state, 1.1e-10 Kostrov); the implicit and quasi-static
# body solve with CG (or a direct solver on 1 rank) to a tolerance (6.6e-9
# slow pull, 5.9e-13 Signorini, 4.3e-13 Hertz 3D, 3.4e-13 Cattaneo-Mindlin).
TOLERANCE = {"default": 1e-13, "string": 1e-10, "body": 1e-9,
             "body_solver": 1e-7, "body_implicit": 1e-6}
KIND = {
    "body_3d": "body", "body_fronts_2d": "body", "body_membrane": "body",
    "body_signorini_bar": "body", "body_slab_periodic": "body",
    "body_sliding_block_2d": "body", "body_sliding_block_3d": "body",
    "body_stick_block": "body",
    "body_fault_tpv3_2d": "body_solver", "body_fronts_rate_state": "body_solver",
    "body_fronts_slip_weakening": "body_solver", "body_kostrov": "body_solver",
    "body_cattaneo_mindlin": "body_implicit", "body_hertz_2d": "body_implicit",
    "body_hertz_3d": "body_implicit", "body_indenter_2d": "body_implicit",
    "body_signorini_implicit": "body_implicit",
    "body_slow_pull": "body_implicit",
    "membrane": "string", "membrane_manufactured": "string", "string": "string",
    "string_at_rest": "string", "string_driven": "string",
    "string_manufactured": "string", "string_plucked": "string",
}

TABLES = ["history.csv", "errors.csv", "refinement.csv", "optimization.csv"]

# Columns not compared: what a solver did (its iterations, the changes of an
# active set: 1 rank may use a direct solver where N use CG), and the
# orders of a convergence table, computed from errors compared already (an
# order of errors at round-off is noise).
NOT_COMPARED = re.compile(r"iterations|_changes$|^substeps$|^substep_cuts$|^order_")
ENERGY = re.compile(r"(_energy|_work|^energy_balance|^numerical_dissipation|^energy)$")


def family(name):
    """Columns compared against one scale: the energies and works (the energy
    balance is a difference of them), the components of a vector (momentum_x,
    momentum_y; friction_force_1, friction_force_2). A column that is
    round-off in exact arithmetic (momentum_y of a symmetric problem, 1e-13)
    is then measured against its vector's size, not its own noise."""
    if ENERGY.search(name):
        return "energy"
    return re.sub(r"_([xyz]|\d)$", "", name)


def read_table(path):
    with open(path, newline="") as f:
        return [row for row in csv.reader(f) if row]


def compare(reference_path, other_path):
    """The largest difference between two tables, relative to the scale of
    its column's family (the largest magnitude of the family in both), and
    where; or a description of a structural difference."""
    a, b = read_table(reference_path), read_table(other_path)
    if not a or not b or a[0] != b[0]:
        return None, "the headers differ (or a table is empty)"
    if len(a) != len(b):
        return None, "%d rows against %d" % (len(a) - 1, len(b) - 1)
    header = a[0]
    compared = [j for j, name in enumerate(header)
                if name not in ("t", "dt", "cells") and not NOT_COMPARED.search(name)]
    scale = {}
    for row in a[1:] + b[1:]:
        for j in compared:
            if row[j]:
                key = family(header[j])
                scale[key] = max(scale.get(key, 0.0), abs(float(row[j])))
    worst, where = 0.0, ""
    for i, (ra, rb) in enumerate(zip(a[1:], b[1:]), start=1):
        for j in compared:
            if (ra[j] == "") != (rb[j] == ""):
                return None, "row %d, column %s: empty in one table only" % (i, header[j])
            if ra[j] == "":
                continue
            x, y = float(ra[j]), float(rb[j])
            if not (math.isfinite(x) and math.isfinite(y)):
                return None, "row %d, column %s: %s against %s" % (i, header[j], ra[j], rb[j])
            d = abs(x - y) / max(scale[family(header[j])], 1e-300)
            if d > worst:
                worst, where = d, "row %d, column %s: %s against %s" % (
                    i, header[j], ra[j], rb[j])
    return worst, where


def quote(word):
    return "'" + word.replace("'", "'\\''") + "'"


def run_batch(args, n_ranks, names):
    folder = os.path.join(args.out, "np%d" % n_ranks)
    os.makedirs(folder)
    lines = []
    for name in names:
        words = ["prm/%s.prm" % name, "--quiet"] + SHORTENED[name] + s(
            "Output/Directory=" + os.path.join(folder, name))
        lines.append(" ".join(quote(w) for w in words))
    batch = os.path.join(folder, "batch.txt")
    with open(batch, "w") as f:
        f.write("\n".join(lines) + "\n")
    start = time.monotonic()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(launcher(n_ranks) + [args.exe, "--batch", batch],
                         cwd=args.src, capture_output=True, text=True,
                         timeout=args.timeout)
    seconds = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (seconds, after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime)
    with open(os.path.join(folder, "screen.txt"), "w") as f:
        f.write(run.stdout + run.stderr)
    return run, summary_statuses(run.stdout), seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("src")
    parser.add_argument("out")
    parser.add_argument("--ranks", default="1,2,3,4")
    parser.add_argument("--only", default="")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    args.exe, args.src, args.out = map(os.path.abspath, (args.exe, args.src, args.out))
    failures = []
    found = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.src, "prm", "*.prm")))
    for name in found:
        if name not in SHORTENED:
            failures.append("prm/%s.prm is not in the rank sweep: add how to shorten it to "
                            "SHORTENED in tests/ranks/rank_sweep.py" % name)
    for name in SHORTENED:
        if name not in found:
            failures.append("SHORTENED names %s, but prm/%s.prm does not exist" % (name, name))
    names = [n for n in found if n in SHORTENED]
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    ranks = [int(r) for r in args.ranks.split(",")]
    for n in ranks:
        run, statuses, seconds = run_batch(args, n, names)
        print("%d rank(s): %d runs in %.1f s (CPU %.1f s), exit status %d"
              % (n, len(names), seconds[0], seconds[1], run.returncode))
        for k, name in enumerate(names, start=1):
            if statuses.get(k) != 0:
                failures.append("%s on %d rank(s): status %s" % (name, n, statuses.get(k)))
    for name in names:
        tolerance = TOLERANCE[KIND.get(name, "default")]
        largest = 0.0
        for n in ranks[1:]:
            for table in TABLES:
                reference = os.path.join(args.out, "np%d" % ranks[0], name, table)
                other = os.path.join(args.out, "np%d" % n, name, table)
                if not os.path.exists(reference):
                    continue
                if not os.path.exists(other):
                    failures.append("%s on %d rank(s) wrote no %s" % (name, n, table))
                    continue
                worst, where = compare(reference, other)
                if worst is None or worst > tolerance:
                    failures.append("%s, %s on %d rank(s) against %d: %s%s" % (
                        name, table, n, ranks[0],
                        where, "" if worst is None else
                        " (%.2e of its scale, tolerance %.0e)" % (worst, tolerance)))
                else:
                    largest = max(largest, worst)
        if len(ranks) > 1:
            print("%-36s largest difference %.1e of the scale (tolerance %.0e)"
                  % (name, largest, tolerance))
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: %d examples on %s ranks" % (len(names), args.ranks))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
