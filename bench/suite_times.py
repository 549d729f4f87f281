#!/usr/bin/env python3
"""Where the test suite's time goes, from a build directory after ./test.sh.

    python3 bench/suite_times.py BUILD_DIR [--stages FILE...] [--slowest N]
                                 [--costs FILE]

Prints Markdown: the stages (FILE: lines "NAME WALL CPU" of scripts/timed.sh,
by default BUILD_DIR/test_times.txt), ctest's time by group and the N
slowest tests. A test's time is ctest's, of its last run
(Testing/Temporary/LastTest.log: run the whole suite first); its group is its first label,
else the folder of tests/ that registers it, else (tests/CMakeLists.txt
itself) the first word of its name. "rank-s" weighs each test's time by its
PROCESSORS (the ranks or jobs it runs), the share of the cores it holds.
--costs FILE writes the times in ctest's CTestCostData.txt form (./test.sh
gives them to a build directory that has none: tests/ctest_costs.txt).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys


def read_stages(files):
    stages = []
    for name in files:
        if not os.path.exists(name):
            continue
        with open(name) as f:
            for line in f:
                words = line.split()
                if len(words) == 3:
                    stages.append((words[0], float(words[1]), float(words[2])))
    return stages


def read_costs(build):
    """name -> seconds of the last ctest run (Testing/Temporary/LastTest.log;
    ctest's own averages, CTestCostData.txt, if that log lists no test)."""
    costs = {}
    name = None
    test_line = re.compile(r"^[0-9]+/[0-9]+ Test: (.+)$")
    time_line = re.compile(r"^Test time = +([0-9.]+) sec")
    with open(os.path.join(build, "Testing", "Temporary", "LastTest.log"),
              errors="replace") as f:
        for line in f:
            match = test_line.match(line)
            if match:
                name = match.group(1).strip()
                continue
            match = time_line.match(line)
            if match and name is not None:
                costs[name] = float(match.group(1))
                name = None
    if not costs:
        with open(os.path.join(build, "Testing", "Temporary", "CTestCostData.txt")) as f:
            for line in f:
                words = line.split()
                if words == ["---"]:
                    break
                if len(words) == 3:
                    costs[words[0]] = float(words[2])
    return costs


def read_tests(build):
    """name -> (group, processors) from ctest's JSON description."""
    text = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                          capture_output=True, text=True).stdout
    data = json.loads(text)
    nodes = data["backtraceGraph"]["nodes"]
    files = data["backtraceGraph"]["files"]
    tests = {}
    for test in data["tests"]:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        labels = props.get("LABELS", [])
        if labels:
            group = labels[0]
        else:
            # The first file up the call chain that is not tests/CMakeLists.txt
            # (whose functions the folders call).
            group = None
            node = test.get("backtrace")
            while node is not None:
                path = files[nodes[node]["file"]]
                if not path.endswith("/tests/CMakeLists.txt") and "/tests/" in path:
                    rel = path.split("/tests/", 1)[1]
                    group = os.path.dirname(rel) or os.path.splitext(rel)[0]
                    break
                node = nodes[node].get("parent")
            if group is None:
                group = test["name"].split("_")[0].split(".")[0]
        tests[test["name"]] = (group, int(props.get("PROCESSORS", 1)))
    return tests


def minutes(seconds):
    return "%d:%02d" % (seconds // 60, round(seconds) % 60) if seconds >= 60 else "%.0f s" % seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--stages", nargs="*", default=None)
    parser.add_argument("--slowest", type=int, default=20)
    parser.add_argument("--costs", help="write the times in CTestCostData.txt form")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    stages = read_stages(args.stages if args.stages is not None
                         else [os.path.join(build, "test_times.txt")])
    costs = read_costs(build)
    tests = read_tests(build)
    if args.costs:
        with open(args.costs, "w") as f:
            for name, seconds in sorted(costs.items()):
                if name in tests:
                    f.write("%s 1 %.1f\n" % (name, seconds))
            f.write("---\n")

    if stages:
        print("| stage | wall | CPU (user + system) |")
        print("|---|---:|---:|")
        for name, wall, cpu in stages:
            print("| %s | %s | %s |" % (name, minutes(wall), minutes(cpu)))
        print("| **total** | **%s** | **%s** |" % (minutes(sum(s[1] for s in stages)),
                                                   minutes(sum(s[2] for s in stages))))
        print()

    groups = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for name, seconds in costs.items():
        group, procs = tests.get(name, ("(not registered now)", 1))
        groups[group][0] += 1
        groups[group][1] += seconds
        groups[group][2] += seconds * procs
    total = sum(g[1] for g in groups.values())
    total_ranks = sum(g[2] for g in groups.values())
    print("| tests by group | tests | time (sum) | rank-s | share of rank-s |")
    print("|---|---:|---:|---:|---:|")
    for group, (count, seconds, ranks) in sorted(groups.items(), key=lambda g: -g[1][2]):
        print("| %s | %d | %s | %.0f | %.1f%% |" % (group, count, minutes(seconds), ranks,
                                                  100 * ranks / total_ranks))
    print("| **all** | **%d** | **%s** | **%.0f** | |" % (len(costs), minutes(total), total_ranks))
    print()
    print("| %d slowest tests | group | ranks | time |" % args.slowest)
    print("|---|---|---:|---:|")
    for name, seconds in sorted(costs.items(), key=lambda c: -c[1])[:args.slowest]:
        group, procs = tests.get(name, ("?", 1))
        print("| %s | %s | %d | %.1f s |" % (name, group, procs, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
