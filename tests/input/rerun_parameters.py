#!/usr/bin/env python3
"""Every example of prm/, rerun from its run's parameters.prm, gives the same run.

doc/outputs.md says a run's parameters.prm is a parameter file that runs it
again. For every example (shortened: Time/Final time cut to ten of its
largest steps, or to twenty output intervals of a slab, which chooses its own
step; a history row every step and no field files, so that the whole test
costs two batch runs), the example is run, then its parameters.prm with
only another Output/Directory. Checked: the example sets nothing its run
does not use (no warning of an unused entry or subsection); the rerun prints
no warning (the listing holds only the subsections the model reads); history.csv and the
study tables (errors.csv, refinement.csv, optimization.csv) are identical
byte for byte; original.prm beside parameters.prm is the example file,
verbatim, after a header that records the --set options.

usage: rerun_parameters.py EXE REPOSITORY OUTDIR [--exclude a.prm,b.prm]
(run from REPOSITORY: examples name their mesh files relative to it)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

TABLES = ["history.csv", "errors.csv", "refinement.csv", "optimization.csv"]


def value(text, name):
    match = re.search(r"^[ \t]*set[ \t]+%s[ \t]*=[ \t]*([^#\n]*)" % re.escape(name), text,
                      re.M)
    return match.group(1).strip() if match else None


def numbers(text):
    return [float(x) for x in text.split(",") if x.strip()] if text else []


def short_final_time(text):
    """A final time of a few steps that every step of the example divides."""
    t0 = float(value(text, "Initial time") or 0)
    final = float(value(text, "Final time") or 1)
    cfl = float(value(text, "CFL number") or 0)
    if cfl > 0:
        interval = float(value(text, "Interval") or (final - t0) / 100)
        return repr(t0 + min(final - t0, 20 * interval))
    steps = numbers(value(text, "Convergence time steps"))
    step = max(steps) if steps else float(value(text, "Time step") or 1e-3)
    return repr(t0 + min(final - t0, 10 * step))


def batch(exe, lines, path):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    done = subprocess.run([exe, "--batch", path], capture_output=True,
                          text=True)
    return done.returncode, done.stdout + done.stderr


def read(path):
    with open(path, "rb") as f:
        return f.read()


def check(example, text, first, second, settings):
    """The problems of one example's two runs (empty: none)."""
    problems = []
    for name in TABLES:
        a, b = os.path.join(first, name), os.path.join(second, name)
        if os.path.exists(a) != os.path.exists(b):
            problems.append(name + " written by one run only")
        elif os.path.exists(a) and read(a) != read(b):
            problems.append(name + " differs")
    if not os.path.exists(os.path.join(first, "history.csv")):
        problems.append("no history.csv")
    # An example sets only what its run uses (issue 53).
    first_log = os.path.join(first, "log.txt")
    if os.path.exists(first_log):
        unused = [l for l in read(first_log).decode().splitlines()
                  if "has no effect on this run" in l or "ignores subsection" in l
                  or "times through included files" in l]
        if unused:
            problems.append("the example sets what its run does not use: %s"
                            % unused)
    log = os.path.join(second, "log.txt")
    if os.path.exists(log):
        warnings = [l for l in read(log).decode().splitlines()
                    if "warning" in l]
        if warnings:
            problems.append("the rerun warns: %s" % warnings)
    else:
        problems.append("no log.txt in the rerun")
    original = os.path.join(first, "original.prm")
    if not os.path.exists(original):
        problems.append("no original.prm")
    else:
        copy = read(original).decode()
        header = copy[:len(copy) - len(text)]
        if not copy.endswith(text):
            problems.append("original.prm is not the example verbatim")
        elif example not in header or any(
                "--set \"%s\"" % s not in header for s in settings):
            problems.append("original.prm's header does not name the file "
                            "and every --set")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("repository")
    parser.add_argument("outdir")
    parser.add_argument("--exclude", default="")
    a = parser.parse_args()
    os.chdir(a.repository)
    shutil.rmtree(a.outdir, ignore_errors=True)
    os.makedirs(a.outdir)
    excluded = set(x for x in a.exclude.split(",") if x)
    examples = sorted(f for f in os.listdir("prm")
                      if f.endswith(".prm") and f not in excluded)
    texts, settings, first, second = {}, {}, [], []
    for example in examples:
        name = example[:-4]
        with open(os.path.join("prm", example)) as f:
            texts[name] = f.read()
        settings[name] = ["Time/Final time=" + short_final_time(texts[name]),
                          "Output/Interval=0", "Output/Field output=false",
                          "Output/Overwrite=true"]
        out = os.path.join(a.outdir, name)
        first.append("prm/%s %s --set \"Output/Directory=%s/first\"" % (
            example, " ".join("--set \"%s\"" % s for s in settings[name]), out))
        second.append("%s/first/parameters.prm --set "
                      "\"Output/Directory=%s/second\"" % (out, out))
    for label, lines in (("first", first), ("second", second)):
        status, screen = batch(a.exe, lines,
                               os.path.join(a.outdir, label + ".batch"))
        if status != 0:
            print(screen[-3000:])
            print("FAIL: the %s batch ended with exit status %d" % (label,
                                                                  status))
            return 1
    failures = 0
    for example in examples:
        name = example[:-4]
        out = os.path.join(a.outdir, name)
        problems = check("prm/" + example, texts[name],
                         os.path.join(out, "first"),
                         os.path.join(out, "second"), settings[name])
        print("%-40s %s" % (example, "FAIL" if problems else "ok"))
        for problem in problems:
            print("    " + problem)
        failures += bool(problems)
    print("%d of %d examples rerun identically from parameters.prm"
          % (len(examples) - failures, len(examples)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
