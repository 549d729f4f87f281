#!/usr/bin/env python3
"""fuzz_inputs.py STICKSLIP PRM_DIR WORK_DIR [--cases N] [--seed S]
                  [--timeout SECONDS] [--jobs J] [--np-every K] [--part K/N]
                  [--times FILE]

Mutates the parameter files of PRM_DIR (numbers to 0, negative, huge, tiny,
nan, inf; names misspelled; lines dropped, duplicated or truncated; random
bytes) and runs stickslip on each mutant. Every run must either succeed
(exit 0) or fail cleanly: exit status 1 or 2 with a 'stickslip:' message.
A signal (segfault, abort), another exit status, a sanitizer report, or a
run still going after the timeout is a failure. Every K-th case runs on 2
MPI ranks. Deterministic for a given seed. Prints a summary and the failing
cases (with the mutant saved in WORK_DIR/failures); exit 0/1. With
--part K/N only the cases whose index is K modulo N run (the same mutants).
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

NUMBER = re.compile(r"(?<![A-Za-z_])[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
REPLACEMENTS = ["0", "-1", "-0.5", "1e300", "-1e300", "1e-300", "nan", "inf",
                "-inf", "4294967296", "1e12", "3.7", "", "abc", "1,2,3", "2*"]


def mutate(text, rng):
    lines = text.split("\n")
    kind = rng.choice(["number", "number", "number", "name", "drop",
                       "duplicate", "truncate", "bytes", "value"])
    set_lines = [i for i, l in enumerate(lines) if l.strip().startswith("set ")]
    if kind == "number":
        candidates = [(i, m) for i in set_lines
                      for m in NUMBER.finditer(lines[i].split("=", 1)[-1])]
        if candidates:
            i, m = rng.choice(candidates)
            head, value = lines[i].split("=", 1)
            value = value[:m.start()] + rng.choice(REPLACEMENTS) + value[m.end():]
            lines[i] = head + "=" + value
            return "\n".join(lines), "number in line %d" % (i + 1)
    if kind == "value" and set_lines:
        i = rng.choice(set_lines)
        head = lines[i].split("=", 1)[0]
        lines[i] = head + "= " + rng.choice(REPLACEMENTS)
        return "\n".join(lines), "value of line %d" % (i + 1)
    if kind == "name" and set_lines:
        i = rng.choice(set_lines)
        line = lines[i]
        j = rng.randrange(4, max(5, line.find("=")))
        lines[i] = line[:j] + line[j + 1:]
        return "\n".join(lines), "name in line %d" % (i + 1)
    if kind == "drop" and lines:
        i = rng.randrange(len(lines))
        del lines[i]
        return "\n".join(lines), "dropped line %d" % (i + 1)
    if kind == "duplicate" and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return "\n".join(lines), "duplicated line %d" % (i + 1)
    if kind == "truncate":
        cut = rng.randrange(len(text) + 1)
        return text[:cut], "truncated at byte %d" % cut
    data = bytearray(text.encode())
    for _ in range(rng.randrange(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return data.decode("latin-1"), "random bytes"


def run_case(args, index, prm_name, mutant, description):
    case_dir = os.path.join(args.work, "case%04d" % index)
    os.makedirs(case_dir, exist_ok=True)
    prm = os.path.join(case_dir, "input.prm")
    with open(prm, "w", encoding="latin-1") as f:
        f.write(mutant)
    # No field files, and a bound on the control searches: the fuzz is
    # about clean failure, not long runs.
    command = [args.exe, prm, "--quiet",
               "--set", "Output/Directory=" + os.path.join(case_dir, "out"),
               "--set", "Output/Overwrite=true",
               "--set", "Output/Field output=false",
               "--set", "Control/Maximum simplexes=20"]
    if args.np_every and index % args.np_every == 0:
        launcher = ["mpirun", "-np", "2", "--oversubscribe"]
        if os.geteuid() == 0:
            launcher.append("--allow-run-as-root")
        command = launcher + command
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=args.timeout)
        status = process.returncode
    except subprocess.TimeoutExpired:
        # mpirun and its ranks (each rank has a process group of its own).
        os.killpg(process.pid, signal.SIGKILL)
        subprocess.run(["pkill", "-KILL", "-s", str(process.pid)])
        output, _ = process.communicate()
        status = None
    seconds = time.monotonic() - start
    output = output.decode("latin-1")
    verdict = "ok"
    if status is None:
        verdict = "timeout"
    elif status < 0 or status not in (0, 1, 2):
        verdict = "crash (status %s)" % status
    elif "Sanitizer" in output or "runtime error:" in output:
        verdict = "sanitizer report"
    elif status != 0 and "stickslip:" not in output:
        verdict = "failure without a message"
    if verdict == "ok":
        shutil.rmtree(case_dir, ignore_errors=True)
    return index, prm_name, description, status, verdict, output, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("prm_dir")
    parser.add_argument("work")
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--np-every", type=int, default=10)
    parser.add_argument("--exclude", default="")
    # FILE: every case's time (index, parameter file, exit status, seconds).
    parser.add_argument("--times", default="")
    # K/N: run only the cases whose index is K modulo N (the same mutants as
    # the whole sweep), so that a sweep can be split over tests that each
    # take one core.
    parser.add_argument("--part", default="0/1")
    args = parser.parse_args()
    part, n_parts = (int(k) for k in args.part.split("/"))

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    excluded = set(filter(None, args.exclude.split(",")))
    files = sorted(f for f in os.listdir(args.prm_dir)
                   if f.endswith(".prm") and f not in excluded)
    if not files or args.cases < 1:
        print("FAIL: no parameter file in %s or no case to run" % args.prm_dir)
        return 1
    rng = random.Random(args.seed)
    cases = []
    for index in range(args.cases):
        name = files[index % len(files)]
        with open(os.path.join(args.prm_dir, name), encoding="latin-1") as f:
            text = f.read()
        # Absolute mesh paths, so that a mutant in another folder finds them.
        # (prm/ names them as ../meshes/, next to the parameter file).
        text = re.sub(r"(\.\./)?meshes/", os.path.join(
            os.path.dirname(os.path.abspath(args.prm_dir)), "meshes") + "/", text)
        mutant, description = mutate(text, rng)
        if index % n_parts == part:
            cases.append((index, name, mutant, description))

    counts = {}
    failures = []
    times = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_case, args, *case) for case in cases]
        for future in concurrent.futures.as_completed(futures):
            index, name, description, status, verdict, output, seconds = future.result()
            times.append((seconds, index, name, status))
            key = verdict if verdict != "ok" else "exit %d" % status
            counts[key] = counts.get(key, 0) + 1
            if verdict != "ok":
                failures.append((index, name, description, verdict, output))

    print("%d cases over %d parameter files: %s" % (
        len(cases), len(files),
        ", ".join("%s: %d" % kv for kv in sorted(counts.items()))))
    # Where the time goes: the slowest cases (a mutant that is accepted runs
    # its file's whole example).
    times.sort(reverse=True)
    if args.times:
        with open(args.times, "w") as f:
            for t, i, n, s in times:
                f.write("%d %s %s %.2f\n" % (i, n, s, t))
    print("%.1f s in all; slowest: %s" % (sum(t[0] for t in times), ", ".join(
        "case %d (%s, exit %s) %.1f s" % (i, n, s, t) for t, i, n, s in times[:5])))
    for index, name, description, verdict, output in sorted(failures):
        print("FAIL case %d (%s, %s): %s\n%s" % (
            index, name, description, verdict,
            "\n".join(output.strip().split("\n")[-6:])))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
