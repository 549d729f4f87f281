#!/usr/bin/env python3
"""check_screen_outputs.py SRC STICKSLIP WORK: the screen outputs that
README.md and doc/*.md show are what the program prints.

A shown output is a fenced block with a line "stickslip: ..." (the run's
description) and a line "  output: output/NAME/" where prm/NAME.prm is an
example. Each such example is run as the README says (build/stickslip
prm/NAME.prm, from WORK, a scratch folder in which prm/ and meshes/ are the
repository's), and the block must be the run's screen output from its first
line to its "wrote" line, line by line, with every time in seconds ("wall
0.53 s", "mesh 0.01 s") and the unknown-updates per second masked (they
vary), the progress lines left out, and the timer table after it. A block
may leave lines out where it says so with a line "..." (it must then match
the lines it shows, in order). The README's lines of run.sh and
scripts/build.sh ("stickslip: building in ...", "run.sh: running the example
...") must be lines those scripts print.

Examples that take more than MAX_CPU seconds (doc/example_times.csv) are
not run. Prints every difference; exit 1 if any, 0 otherwise.
"""
import csv
import os
import re
import shutil
import subprocess
import sys

MAX_CPU = 4.0
BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)
OUTPUT = re.compile(r"^  output: output/([\w-]+)/$", re.M)
MASKS = [(re.compile(r"\b\d+(\.\d+)?(e[+-]?\d+)? s\b"), "<t> s"),
         (re.compile(r"\(\S+ unknown-updates per second\)"), "(<rate> unknown-updates per second)"),
         (re.compile(r"\(\S+ interior node-updates/s"), "(<rate> interior node-updates/s")]
PROGRESS = re.compile(r"% done, wall ")
SCRIPT_LINES = {"stickslip: building in ": "scripts/build.sh",
                "run.sh: running the example ": "run.sh"}


def masked(line):
    for pattern, replacement in MASKS:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def shown_blocks(src):
    """(page, line number, block lines, example) of every shown output."""
    pages = ["README.md"] + sorted("doc/" + p for p in os.listdir(os.path.join(src, "doc"))
                                   if p.endswith(".md"))
    for page in pages:
        with open(os.path.join(src, page)) as f:
            text = f.read()
        for match in BLOCK.finditer(text):
            block = match.group(1)
            named = OUTPUT.search(block)
            if not named or not re.search(r"^stickslip: ", block, re.M):
                continue
            example = named.group(1)
            if os.path.isfile(os.path.join(src, "prm", example + ".prm")):
                yield page, text[:match.start()].count("\n") + 2, block.splitlines(), example


def example_cpu(src):
    with open(os.path.join(src, "doc", "example_times.csv")) as f:
        rows = [line for line in f if not line.startswith("#")]
    return {row["file"][:-len(".prm")]: float(row["cpu_s"]) for row in csv.DictReader(rows)}


def screen_output(src, exe, work, example):
    """The lines the run of prm/EXAMPLE.prm prints up to its last "wrote" line."""
    folder = os.path.join(work, example)
    if os.path.exists(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    for name in ("prm", "meshes"):
        os.symlink(os.path.join(src, name), os.path.join(folder, name))
    done = subprocess.run([exe, "prm/%s.prm" % example], cwd=folder, capture_output=True,
                          text=True)
    lines = [line for line in done.stdout.splitlines() if not PROGRESS.search(line)]
    wrote = [i for i, line in enumerate(lines) if line.startswith("  wrote ")]
    end = wrote[-1] if wrote else None
    if done.returncode != 0 or end is None:
        return None, done.stdout + done.stderr
    return lines[:end + 1], None


def compare(shown, printed):
    """The differences of a shown block from the printed lines."""
    start = next(i for i, line in enumerate(shown) if line.startswith("stickslip: ")
                 and not line.startswith("stickslip: building in "))
    body = shown[start:]
    first = next((i for i, line in enumerate(printed) if masked(line) == masked(body[0])), None)
    if first is None:
        return ["its first line is not printed: %s" % body[0]]
    problems, k = [], first
    gap = False
    for line in body:
        if line.strip() == "...":
            gap = True
            continue
        if gap:
            while k < len(printed) and masked(printed[k]) != masked(line):
                k += 1
            gap = False
        if k >= len(printed) or masked(printed[k]) != masked(line):
            problems.append("shows      %s\n    printed    %s"
                            % (line, printed[k] if k < len(printed) else "(nothing)"))
            return problems
        k += 1
    if k != len(printed):
        problems.append("ends before the run's line %s (mark left-out lines with '...')"
                        % printed[k])
    return problems


def script_line_problems(src, shown):
    problems = []
    for line in shown:
        for start, script in SCRIPT_LINES.items():
            if line.startswith(start):
                with open(os.path.join(src, script)) as f:
                    if start.split(" ", 1)[1].strip() not in f.read():
                        problems.append("%s does not print '%s'" % (script, line))
    return problems


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    src, exe, work = (os.path.abspath(a) for a in sys.argv[1:])
    cpu = example_cpu(src)
    printed_of, problems, checked = {}, [], 0
    for page, line_number, shown, example in shown_blocks(src):
        where = "%s, the block at line %d (prm/%s.prm)" % (page, line_number, example)
        if cpu.get(example, float("inf")) > MAX_CPU:
            print("%s: not run (%.3g s of CPU)" % (where, cpu.get(example, float("nan"))))
            continue
        if example not in printed_of:
            printed_of[example] = screen_output(src, exe, work, example)
        printed, failure = printed_of[example]
        if printed is None:
            problems.append("%s: the run failed:\n%s" % (where, failure))
            continue
        checked += 1
        for problem in compare(shown, printed) + script_line_problems(src, shown):
            problems.append("%s: %s" % (where, problem))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("OK: %d shown screen outputs are the program's" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
