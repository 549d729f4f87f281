#!/usr/bin/env python3
"""check_readme.py SRC [--max-lines N] [--ctest CTEST --build DIR]: README.md is
a front door, not a manual, and the numbers it and doc/ state are measured.
It fails when

  - README.md has more than N lines (default 200): details belong in doc/;
  - a file the README names (doc/*.md, doc/*.png, LICENSE, CITATION.cff,
    BENCHMARKS.md, run.sh, test.sh, postprocess/*.py, a prm file) does not
    exist, whether in a link or in backquotes (check_links.py sees links only);
  - a parameter file of prm/ is missing from the README (every example is
    in its table), or a cookbook of doc/cookbook_*.md is not linked;
  - the license is not stated alike in README.md, LICENSE (the LGPL 2.1
    text) and CITATION.cff (LGPL-2.1-or-later);
  - a count of tests stated in README.md or doc/*.md ("about 550 tests") is
    not within COUNT_TOLERANCE of the tests registered in the build folder
    (ctest -N; with --ctest and --build only);
  - a command shown in README.md or doc/*.md writes a picture into doc/
    ("-o doc/..."): the pictures there are tracked files;
  - a time in the README's table of examples ("0.6 s": the CPU seconds of
    the run on 1 rank, what it takes on an idle core; "0.4–0.6 s each" for a
    row of several files, the smallest and the largest) is not the
    measurement recorded in doc/example_times.csv
    (tests/style/time_examples.py writes it) within TIME_TOLERANCE, or an
    example of prm/ has no recorded measurement;
  - an output size stated in README.md or doc/*.md ("body_fronts_2d.prm
    writes 371 MB in 3064 files") is not the recorded one within
    SIZE_TOLERANCE.

The time check compares two files and can never fail by the load of the
machine it runs on; the measurement states its own load (CPU seconds depend
little on it, wall seconds much: hence CPU seconds).

Prints every problem; exit 1 if any."""
import argparse
import os
import re
import subprocess
import sys

# "about N tests": N within 5% (27 tests of about 550), a count stated to
# two significant digits.
COUNT_TOLERANCE = 0.05
TEST_COUNT = re.compile(r"(?<![\w.])(\d{3,})\s+tests\b")

# Times are stated to two significant digits (within 5%); 10%, and 0.05 s
# for runs of a fraction of a second, leave room for a measurement that sits
# on a rounding boundary.
TIME_TOLERANCE = (0.10, 0.05)
SIZE_TOLERANCE = 0.10    # output sizes: stated to 2-3 digits
TIME_CELL = re.compile(r"^(?P<c1>[\d.]+)(?:–(?P<c2>[\d.]+))? s(?: each)?$")
SIZE = re.compile(r"([\w-]+)\.prm`?\s+writes\s+(?:about\s+)?([\d.]+)\s+MB\s+in\s+(?:about\s+)?"
                  r"(\d+)\s+files")

NAMED = re.compile(r"(?<![\w/.-])((?:doc|postprocess|prm|bench|meshes)/[\w./-]+\."
                   r"(?:md|png|py|prm|msh|sh)|LICENSE|CITATION\.cff|BENCHMARKS\.md|"
                   r"run\.sh|test\.sh)")
PRM = re.compile(r"(?<![\w/.-])(?:prm/)?([\w-]+\.prm)\b")


def license_problems(src, readme):
    """The one license, LGPL-2.1-or-later (as deal.II), said the same way
    in the three places a reader or a tool looks for it."""
    out = []
    if "LGPL-2.1-or-later" not in readme:
        out.append("README.md does not state the license LGPL-2.1-or-later")
    try:
        with open(os.path.join(src, "LICENSE"), encoding="utf-8") as f:
            head = f.read(400)
        if "GNU LESSER GENERAL PUBLIC LICENSE" not in head or "Version 2.1" not in head:
            out.append("LICENSE is not the text of the GNU LGPL version 2.1")
        with open(os.path.join(src, "CITATION.cff"), encoding="utf-8") as f:
            cff = f.read()
        if not re.search(r"^license: LGPL-2\.1-or-later$", cff, re.M):
            out.append("CITATION.cff has no line 'license: LGPL-2.1-or-later'")
        if not cff.startswith("cff-version: 1.2.0"):
            out.append("CITATION.cff does not start with 'cff-version: 1.2.0'")
    except OSError as e:
        out.append("cannot read %s" % e.filename)
    return out


def read_record(src):
    """{file: {column: value}} of doc/example_times.csv ('#' lines are its header)."""
    with open(os.path.join(src, "doc", "example_times.csv"), encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if line and not line.startswith("#")]
    columns = lines[0].split(",")
    return {r[0]: dict(zip(columns[1:], (float(v) for v in r[1:])))
            for r in (line.split(",") for line in lines[1:])}


def close(stated, measured, tolerance):
    relative, absolute = tolerance
    return abs(stated - measured) <= relative * measured + absolute


def time_problems(src, readme, record):
    """The README's table of examples against the recorded CPU seconds."""
    out, seen = [], set()
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3:
            continue
        names = PRM.findall(cells[0])
        if not names:
            continue
        m = TIME_CELL.match(cells[-1])
        if not m:
            out.append(f"README.md: the time of {', '.join(names)} is '{cells[-1]}', not "
                       "'C s' or 'C1–C2 s each' (CPU seconds)")
            continue
        seen.update(names)
        missing = [n for n in names if n not in record]
        if missing:
            out.append(f"doc/example_times.csv has no measurement of {', '.join(missing)}: "
                       "run tests/style/time_examples.py prm/" + " prm/".join(missing))
            continue
        measured = sorted(record[n]["cpu_s"] for n in names)
        stated = (float(m["c1"]), float(m["c2"] or m["c1"]))
        if not (close(stated[0], measured[0], TIME_TOLERANCE)
                and close(stated[1], measured[-1], TIME_TOLERANCE)):
            want = f"{measured[0]:.2g}" + (f"–{measured[-1]:.2g}" if len(names) > 1 else "")
            out.append(f"README.md: {', '.join(names)}: stated {cells[-1]!r}, measured "
                       f"{want} s of CPU (doc/example_times.csv)")
    for name in sorted(set(record) - seen):
        if os.path.exists(os.path.join(src, "prm", name)):
            out.append(f"README.md: no time for {name}, which doc/example_times.csv measured")
    return out


def size_problems(texts, record):
    out = []
    for where, text in texts.items():
        for name, mb, files in SIZE.findall(text):
            row = record.get(name + ".prm")
            if row is None:
                out.append(f"{where}: {name}.prm: no measured output size")
            elif not (abs(float(mb) - row["output_mb"]) <= SIZE_TOLERANCE * row["output_mb"]
                      and abs(int(files) - row["output_files"]) <=
                      SIZE_TOLERANCE * row["output_files"]):
                out.append(f"{where}: {name}.prm writes {mb} MB in {files} files, measured "
                           f"{row['output_mb']:.3g} MB in {row['output_files']:.0f} files")
    return out


def registered_tests(ctest, build):
    listing = subprocess.run([ctest, "-N"], cwd=build, capture_output=True, text=True).stdout
    m = re.search(r"Total Tests: (\d+)", listing)
    if not m:
        raise SystemExit(f"check_readme: no 'Total Tests' in the output of {ctest} -N in {build}")
    return int(m.group(1))


def count_problems(texts, n_tests):
    out = []
    for where, text in texts.items():
        for stated in TEST_COUNT.findall(text):
            if abs(int(stated) - n_tests) > COUNT_TOLERANCE * n_tests:
                out.append(f"{where}: '{stated} tests', but {n_tests} are registered "
                           f"(ctest -N); write about {round(n_tests, -1)}")
    return out


def doc_picture_problems(texts):
    return [f"{where}: a command writes into doc/ ({m.group(0)}): write the picture "
            "elsewhere (doc/*.png are tracked files)"
            for where, text in texts.items() for m in re.finditer(r"-o\s+doc/\S+", text)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("src")
    parser.add_argument("--max-lines", type=int, default=200)
    parser.add_argument("--ctest", help="the ctest program (with --build: check test counts)")
    parser.add_argument("--build", help="the build folder whose tests are counted")
    args = parser.parse_args()
    with open(os.path.join(args.src, "README.md"), encoding="utf-8") as f:
        text = f.read()
    problems = []
    lines = text.count("\n")
    if lines > args.max_lines:
        problems.append("README.md has %d lines, more than %d: move the details "
                        "to doc/ and link them" % (lines, args.max_lines))
    for name in sorted(set(NAMED.findall(text))):
        if not os.path.exists(os.path.join(args.src, name)):
            problems.append("README.md names %s, which does not exist" % name)
    named_prm = set(PRM.findall(text))
    for name in sorted(os.listdir(os.path.join(args.src, "prm"))):
        if name.endswith(".prm") and name not in named_prm:
            problems.append("prm/%s is not in the README's table of examples" % name)
    for name in sorted(os.listdir(os.path.join(args.src, "doc"))):
        if name.startswith("cookbook_") and "doc/" + name not in text:
            problems.append("doc/%s is not linked from README.md" % name)
    problems += license_problems(args.src, text)
    texts = {"README.md": text}
    for name in sorted(os.listdir(os.path.join(args.src, "doc"))):
        if name.endswith(".md"):
            with open(os.path.join(args.src, "doc", name), encoding="utf-8") as f:
                texts["doc/" + name] = f.read()
    problems += doc_picture_problems(texts)
    record = read_record(args.src)
    problems += time_problems(args.src, text, record)
    problems += size_problems(texts, record)
    if args.ctest and args.build:
        problems += count_problems(texts, registered_tests(args.ctest, args.build))
    for p in problems:
        print(p)
    print("FAIL" if problems else "OK: README.md has %d lines, names only files "
          "that exist, every example and every cookbook; the license stated alike; "
          "the examples' times and output sizes as measured; no command writing into "
          "doc/%s" % (
              lines, ", the test counts as registered" if args.ctest else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
