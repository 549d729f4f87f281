#!/usr/bin/env python3
"""run_golden.py: golden regression cases of stickslip (see README.md here).

  run_golden.py test    --exe EXE --out DIR --reference REFDIR CASE...
  run_golden.py update  --exe EXE --out DIR --reference REFDIR CASE...
  run_golden.py measure --exe EXE --out DIR --reference REFDIR CASE...
  run_golden.py spread  DIR_A DIR_B FILE [FILE...]

CASE is the description of one case, as tests/golden/CMakeLists.txt writes it:

  --np N --prm PRM --file F [--file F...] --tolerance SPEC [--tolerance SPEC...]
  [--perturb "Sub/Name=value"...] [-- stickslip options...]

PRM is relative to the source tree (the parent of this script's tests/). A
SPEC is FILE:GROUP[,GROUP...]=TOL, TOL a number (relative, see below)
or +-N (an absolute difference N, for counts that round-off can change). A column's group is its name without a
trailing index (x1, x2 -> x; E1 -> E; friction_force_1 -> friction_force;
but max_b3, diff_pressure_l1 are groups of their own);
the group "*" stands for every column that no other SPEC of the file names.
Every column of every compared file must get a tolerance, and every group a
SPEC names must exist (no silent gaps, no vacuous SPEC).

test: runs stickslip on N ranks into DIR/run (quiet, overwrite), then for
  each FILE compares DIR/run/FILE with REFDIR/FILE: same header, same number
  of rows, empty cells at the same places, and every value within TOL times
  the group's scale (the largest magnitude of the group's columns in the
  reference; TOL itself if that is 0), by numdiff -a THRESHOLD:FIELD on copies
  whose empty cells read "EMPTY" (numdiff merges adjacent separators, which
  would shift the fields). TOL = 0 asks for equality. It then proves the
  tolerances bite: in a copy of the reference, the largest-magnitude value of
  each group scaled by 1 + 1e-3 and by 1.05 must make numdiff fail, and (for
  TOL > 0) every value of the group scaled by 1 + 1e-14 must pass.
update: runs stickslip the same way and copies the FILEs into REFDIR (the
  deliberate act of scripts/update_golden.sh), then runs the same proofs.
measure: runs the case on its N ranks, on 1, 2, 3 ranks, and with each
  --perturb (a 1-ulp change of one input, added as --set on N ranks), and
  prints, per FILE and group, the largest difference from the run on N ranks
  relative to the group scale, beside the tolerance, and the measure of
  compare_histories.py (relative to each column's largest magnitude, the
  iterations left out); SUMMARY lines give the largest of each over the
  rank counts and over the perturbations (doc/reproducibility.md). Without
  --tolerance and REFDIR files, it measures a comparison that is no golden
  case (tests/golden/measure_rank_invariance.sh).
spread: the same table for two existing output directories.

Exit 0 on success, 1 on a failed comparison or proof, 2 on bad usage.
"""
import argparse
import csv
import math
import os
import re
import shutil
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EMPTY = "EMPTY"


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def group_of(name):
    """The column's group: x1 -> x, lambda12 -> lambda, E1 -> E (letters and
    an index), friction_force_2 -> friction_force (an index after '_');
    anything else is its own group (energy, max_b3, diff_pressure_l1)."""
    m = re.fullmatch(r"([A-Za-z]+)[0-9]+", name) or re.fullmatch(r"(.+)_[0-9]+", name)
    return m.group(1) if m else name


def read_table(path):
    """Header and rows (lists of strings) of a CSV file."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        fail("cannot read %s: %s" % (path, e))
    rows = [r for r in rows if r]
    if not rows:
        fail("%s is empty (no header)" % path)
    header, data = rows[0], rows[1:]
    if not data:
        fail("%s has a header but no data rows" % path)
    for i, row in enumerate(data, start=2):
        if len(row) != len(header):
            fail("%s, line %d: %d fields, the header has %d"
                 % (path, i, len(row), len(header)))
        for name, cell in zip(header, row):
            if cell.strip() == "":
                continue
            try:
                value = float(cell)
            except ValueError:
                fail("%s, line %d, column %s: '%s' is not a number"
                     % (path, i, name, cell))
            if not math.isfinite(value):
                fail("%s, line %d, column %s: %s" % (path, i, name, cell))
    return header, data


def group_scales(header, data):
    scales = {}
    for j, name in enumerate(header):
        g = group_of(name)
        column = [abs(float(r[j])) for r in data if r[j].strip() != ""]
        scales[g] = max([scales.get(g, 0.0)] + column)
    return scales


class Tolerance:
    """TOL (relative to the group scale) or +-N (an absolute difference N,
    for counts such as iterations that round-off can change by one)."""

    def __init__(self, text):
        self.absolute = text.startswith("+-")
        self.value = float(text[2:] if self.absolute else text)
        if not (self.value >= 0 and math.isfinite(self.value)):
            raise ValueError("negative or not finite")

    def threshold(self, scale):
        if self.absolute or scale == 0:
            return self.value
        return self.value * scale

    def __str__(self):
        return ("+-%g" % self.value) if self.absolute else ("%.0e" % self.value)


def parse_tolerances(specs, files):
    """{file: [(groups, Tolerance)]} from FILE:GROUP[,GROUP]=TOL strings."""
    result = {f: [] for f in files}
    for spec in specs:
        m = re.fullmatch(r"([^:]+):([^=]+)=(.+)", spec)
        if not m:
            usage("bad --tolerance '%s' (FILE:GROUP[,GROUP...]=TOL)" % spec)
        name, groups, tol = m.group(1), m.group(2).split(","), m.group(3)
        if name not in result:
            usage("--tolerance '%s' names %s, not one of the --file's" % (spec, name))
        try:
            tol = Tolerance(tol)
        except ValueError as e:
            usage("--tolerance '%s': %s" % (spec, e))
        result[name].append(([g.strip() for g in groups if g.strip()], tol))
    return result


def column_tolerances(path, header, specs):
    """Tolerance of every column; fails on an uncovered column or a SPEC
    group that matches no column."""
    groups = [group_of(n) for n in header]
    explicit, default = {}, None
    for names, tol in specs:
        for g in names:
            if g == "*":
                default = tol
            elif g not in groups:
                fail("the tolerance of group '%s' matches no column of %s "
                     "(groups: %s)" % (g, path, ", ".join(dict.fromkeys(groups))))
            else:
                explicit[g] = tol
    tols = []
    for name, g in zip(header, groups):
        tol = explicit.get(g, default)
        if tol is None:
            fail("column %s of %s has no tolerance (add a --tolerance for "
                 "group '%s' or '*')" % (name, path, g))
        tols.append(tol)
    return tols


def thresholds(header, tols, scales):
    return [tol.threshold(scales[group_of(name)]) for name, tol in zip(header, tols)]


def write_normalized(path, header, data):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for row in data:
            w.writerow([c if c.strip() != "" else EMPTY for c in row])


def numdiff(a, b, thr, quiet=False):
    """Exit status of numdiff comparing the normalized files a and b with
    the absolute threshold thr[j] for field j + 1 (numdiff counts from 1)."""
    command = ["numdiff", "-s", ",\n"]
    for j, t in enumerate(thr):
        if t > 0:
            command += ["-a", "%.17g:%d" % (t, j + 1)]
    command += [a, b]
    p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode not in (0, 1):
        fail("numdiff failed (%d): %s\n%s" % (p.returncode, " ".join(command), p.stdout))
    if not quiet and p.returncode != 0:
        lines = p.stdout.splitlines()
        print("\n".join(lines[:60]))
        if len(lines) > 60:
            print("... (%d more lines of numdiff output)" % (len(lines) - 60))
    return p.returncode


def differences(header, ref, new, scales):
    """Per group: (largest |difference|, scale, where)."""
    result = {}
    for j, name in enumerate(header):
        g = group_of(name)
        worst, _, where = result.get(g, (0.0, None, None))
        for i, (ra, rb) in enumerate(zip(ref, new)):
            if ra[j].strip() == "" or rb[j].strip() == "":
                continue
            d = abs(float(ra[j]) - float(rb[j]))
            if d > worst:
                worst, where = d, "%s row %d" % (name, i + 1)
        result[g] = (worst, scales[g], where)
    return result


def relative(d, scale):
    return d / scale if scale > 0 else d


def compare(file, ref_path, new_path, specs, work, label="output"):
    """Compares one file; returns True if within the tolerances."""
    ref_header, ref = read_table(ref_path)
    header, new = read_table(new_path)
    if header != ref_header:
        print("FAIL: %s: header differs from the reference:\n  reference: %s\n  %s: %s"
              % (file, ",".join(ref_header), label, ",".join(header)))
        return False
    if len(new) != len(ref):
        print("FAIL: %s: %d data rows, the reference has %d" % (file, len(new), len(ref)))
        return False
    tols = column_tolerances(file, header, specs)
    scales = group_scales(header, ref)
    thr = thresholds(header, tols, scales)
    a = os.path.join(work, "reference." + file)
    b = os.path.join(work, label + "." + file)
    write_normalized(a, header, ref)
    write_normalized(b, header, new)
    status = numdiff(a, b, thr)
    diffs = differences(header, ref, new, scales)
    tol_of = {group_of(n): t for n, t in zip(header, tols)}
    print("%s: %d rows x %d columns; largest difference per group, relative to "
          "the group's scale (tolerance):" % (file, len(ref), len(header)))
    own_ok = True
    for g, (d, scale, where) in diffs.items():
        rel = relative(d, scale)
        ok = d <= tol_of[g].threshold(scale)
        own_ok = own_ok and ok
        print("  %-28s %.3e (%s)  scale %.6g%s%s" % (g, rel, tol_of[g], scale,
              "" if where is None else "  at " + where, "" if ok else "  <-- FAIL"))
    if (status == 0) != own_ok:
        print("FAIL: numdiff (exit %d) and the table above disagree" % status)
        return False
    if status != 0:
        print("FAIL: %s differs from the reference beyond the tolerances" % file)
        return False
    return True


def perturbed(rows, cells, factor):
    out = [list(r) for r in rows]
    for i, j in cells:
        out[i][j] = "%.17g" % (float(out[i][j]) * factor)
    return out


def prove(file, ref_path, specs, work):
    """The tolerances detect a change of each group's largest value by 1e-3
    and by 5% (by N + 1 for a +-N tolerance) and accept a 1e-14 relative
    change of all the group's values."""
    header, ref = read_table(ref_path)
    tols = column_tolerances(file, header, specs)
    scales = group_scales(header, ref)
    thr = thresholds(header, tols, scales)
    a = os.path.join(work, "reference." + file)
    write_normalized(a, header, ref)
    b = os.path.join(work, "perturbed." + file)
    failures, n = [], 0
    for g in dict.fromkeys(group_of(name) for name in header):
        columns = [j for j, name in enumerate(header) if group_of(name) == g]
        cells = [(i, j) for j in columns for i in range(len(ref)) if ref[i][j].strip() != ""]
        if scales[g] == 0:
            continue  # an all-zero group: no relative change to make
        i, j = max(cells, key=lambda c: abs(float(ref[c[0]][c[1]])))
        tol = tols[j]
        value = float(ref[i][j])
        if tol.absolute:
            changes = [("+%g" % (tol.value + 1), (value + tol.value + 1) / value)]
        else:
            changes = [("1e-3", 1 + 1e-3), ("5%", 1.05)]
        for label, factor in changes:
            write_normalized(b, header, perturbed(ref, [(i, j)], factor))
            n += 1
            if numdiff(a, b, thr, quiet=True) == 0:
                failures.append("a change by %s of %s row %d (%s) passes"
                                % (label, header[j], i + 1, ref[i][j]))
        if tol.value > 0:
            write_normalized(b, header, perturbed(ref, cells, 1 + 1e-14))
            n += 1
            if numdiff(a, b, thr, quiet=True) != 0:
                failures.append("a 1e-14 relative change of group %s fails" % g)
    for f in failures:
        print("FAIL: %s: %s" % (file, f))
    if not failures:
        print("%s: %d proofs: a 1e-3 and a 5%% change of each group's largest value "
              "(N + 1 for a +-N count) fail, a 1e-14 relative change passes" % (file, n))
    return not failures


def usage(message):
    print("run_golden.py: " + message, file=sys.stderr)
    sys.exit(2)


def parse_case(mode, argv):
    if "--" in argv:
        k = argv.index("--")
        argv, extra = argv[:k], argv[k + 1:]
    else:
        extra = []
    p = argparse.ArgumentParser(prog="run_golden.py MODE")
    p.add_argument("--exe", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--reference", required=True)
    p.add_argument("--np", type=int, required=True)
    p.add_argument("--prm", required=True)
    p.add_argument("--file", action="append", required=True)
    p.add_argument("--tolerance", action="append", default=[])
    p.add_argument("--perturb", action="append", default=[])
    args = p.parse_args(argv)
    args.extra = [w.replace("@SEMI@", ";") for w in extra]
    args.perturb = [w.replace("@SEMI@", ";") for w in args.perturb]
    args.specs = parse_tolerances(args.tolerance, args.file)
    if not args.tolerance and mode == "measure":
        args.specs = None  # measuring a comparison that is no golden case
        return args
    for f in args.file:
        if not args.specs[f]:
            usage("no --tolerance for %s" % f)
    return args


def run(args, out, np_, extra=()):
    launcher = []
    if np_ > 1:
        launcher = ["mpirun", "-np", str(np_), "--oversubscribe"]
        if os.geteuid() == 0:
            launcher.append("--allow-run-as-root")
    prm = args.prm if os.path.isabs(args.prm) else os.path.join(SRC, args.prm)
    command = launcher + [args.exe, prm, "--quiet",
                          "--set", "Output/Directory=" + out,
                          "--set", "Output/Overwrite=true"] + args.extra + list(extra)
    print("$ " + " ".join("'%s'" % w if (" " in w or ";" in w) else w for w in command))
    sys.stdout.flush()
    if subprocess.run(command, stdin=subprocess.DEVNULL).returncode != 0:
        fail("stickslip exited with an error")
    for f in args.file:
        if not os.path.isfile(os.path.join(out, f)):
            fail("the run wrote no %s" % f)


def mode_test(args, update):
    os.makedirs(args.out, exist_ok=True)
    out = os.path.join(args.out, "run")
    work = os.path.join(args.out, "numdiff")
    os.makedirs(work, exist_ok=True)
    run(args, out, args.np)
    ok = True
    if update:
        os.makedirs(args.reference, exist_ok=True)
        for f in args.file:
            shutil.copyfile(os.path.join(out, f), os.path.join(args.reference, f))
            print("updated %s" % os.path.join(args.reference, f))
    for f in args.file:
        ref = os.path.join(args.reference, f)
        if not os.path.isfile(ref):
            fail("no reference %s (scripts/update_golden.sh creates it)" % ref)
        ok = compare(f, ref, os.path.join(out, f), args.specs[f], work) and ok
        ok = prove(f, ref, args.specs[f], work) and ok
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def column_metric(header, a, b):
    """compare_histories.py's measure: the largest difference relative to
    the column's largest magnitude in a, over every column but iterations."""
    worst = 0.0
    for j, name in enumerate(header):
        if name == "iterations":
            continue
        scale = max([abs(float(r[j])) for r in a if r[j].strip() != ""] + [0.0])
        for ra, rb in zip(a, b):
            if ra[j].strip() != "" and rb[j].strip() != "":
                worst = max(worst, abs(float(ra[j]) - float(rb[j])) / max(scale, 1e-300))
    return worst


def spread_table(dir_a, dir_b, files, specs=None, title=""):
    """Per file and group, the largest difference between the runs relative
    to the group scale of dir_a, and the compare_histories.py measure
    (key (file, "column metric")); returns {(file, group): relative}."""
    result = {}
    for f in files:
        ha, a = read_table(os.path.join(dir_a, f))
        hb, b = read_table(os.path.join(dir_b, f))
        if ha != hb or len(a) != len(b):
            print("  %s %s: different header or row count (%d, %d rows)" % (title, f, len(a), len(b)))
            result[(f, "*structure*")] = float("inf")
            continue
        scales = group_scales(ha, a)
        tol_of = {}
        if specs is not None:
            tol_of = {group_of(n): t for n, t in zip(ha, column_tolerances(f, ha, specs[f]))}
        cells = []
        for g, (d, scale, where) in differences(ha, a, b, scales).items():
            rel = relative(d, scale)
            result[(f, g)] = rel
            cells.append("%s %.1e%s" % (g, rel, " (tol %s)" % tol_of[g] if g in tol_of else ""))
        result[(f, "column metric")] = column_metric(ha, a, b)
        print("  %-14s %-16s per column (compare_histories.py) %.1e | per group: %s"
              % (title, f, result[(f, "column metric")], "; ".join(cells)))
    return result


def mode_measure(args):
    os.makedirs(args.out, exist_ok=True)
    base = os.path.join(args.out, "np%d" % args.np)
    run(args, base, args.np)
    print("differences from the run on %d rank(s), relative to the group scale:" % args.np)
    if all(os.path.isfile(os.path.join(args.reference, f)) for f in args.file):
        spread_table(args.reference, base, args.file, args.specs, "stored reference")
    worst_np, worst_ulp = {}, {}
    for np_ in (1, 2, 3):
        if np_ == args.np:
            continue
        out = os.path.join(args.out, "np%d" % np_)
        run(args, out, np_)
        for key, rel in spread_table(base, out, args.file, args.specs, "np%d" % np_).items():
            worst_np[key] = max(worst_np.get(key, 0.0), rel)
    for k, p in enumerate(args.perturb):
        out = os.path.join(args.out, "perturb%d" % (k + 1))
        run(args, out, args.np, ["--set", p])
        print("  perturbation %d: %s" % (k + 1, p))
        for key, rel in spread_table(base, out, args.file, args.specs, "ulp %d" % (k + 1)).items():
            worst_ulp[key] = max(worst_ulp.get(key, 0.0), rel)
    print("SUMMARY largest spread (np 1, 2, 3 | 1-ulp perturbations):")
    for key in worst_np or worst_ulp:
        print("SUMMARY   %-16s %-28s %.1e | %.1e" % (key[0], key[1], worst_np.get(key, 0.0),
                                                  worst_ulp.get(key, 0.0)))
    return 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) >= 2 else 2
    mode, argv = sys.argv[1], sys.argv[2:]
    if shutil.which("numdiff") is None:
        usage("numdiff is not installed (Debian package numdiff)")
    if mode == "spread":
        if len(argv) < 3:
            usage("spread DIR_A DIR_B FILE [FILE...]")
        spread_table(argv[0], argv[1], argv[2:])
        return 0
    if mode not in ("test", "update", "measure"):
        usage("unknown mode '%s' (test, update, measure, spread)" % mode)
    args = parse_case(mode, argv)
    if mode == "measure":
        return mode_measure(args)
    return mode_test(args, mode == "update")


if __name__ == "__main__":
    sys.exit(main())
