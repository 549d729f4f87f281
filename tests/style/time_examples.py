#!/usr/bin/env python3
"""time_examples.py [--build DIR] [--repeat N] [--output CSV] [NAME.prm ...]:
measure the examples of prm/ as the README's table of examples states them,
and record the measurement in doc/example_times.csv (the file the test
style_readme_front_door checks the README's times and output sizes against).

Each file runs as `build/stickslip prm/NAME.prm` on 1 rank, from the
repository's top folder, into a folder of its own under a temporary
directory (Output/Directory and Output/Overwrite set), --repeat times (default
3). Recorded per file: the smallest wall-clock time and the smallest CPU time
(user + system, of the process and what it waited for: os.wait4) over the
repeats, the size and number of files of its output folder, the share of
the wall time the run's own timer gives to its "output" section, and the
largest 1-minute load average seen while it ran. The smallest of a few
repeats is the least disturbed by other jobs; CPU seconds are more stable
than wall seconds on a shared machine. The header lines (starting with '#')
say when, where and at which load the measurement was made.

Run it on a machine as quiet as you can get (`uptime`), then update the
README's times from the printed table (check_readme.py says which cells
disagree with the file). On a shared machine, --realtime CORE (root only)
runs the examples on core CORE alone at a real-time priority (SCHED_FIFO):
the other jobs move to the other cores, and the times are those of an idle
core within a few percent (p1.prm at load 6: 0.72 s wall, 0.59 s CPU, against
2.0 s and 0.81 s without it)."""
import argparse
import datetime
import glob
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

COLUMNS = ["file", "wall_s", "cpu_s", "output_mb", "output_files", "output_share",
           "max_load"]


def folder_size(path):
    total, count = 0, 0
    for root, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(root, name))
            count += 1
    return total, count


def output_share(screen):
    """The 'output' row of deal.II's TimerOutput table: its share of the wall time."""
    m = re.search(r"^\|\s*(?:time loop: )?output\s*\|\s*\d+\s*\|\s*[0-9.e+-]+s\s*\|\s*([0-9.]+)%", screen, re.M)
    return float(m.group(1)) / 100 if m else float("nan")


def run_once(exe, prm, directory):
    """(wall s, CPU s, the screen, the largest load average seen)."""
    command = [exe, prm, "--set", f"Output/Directory={directory}",
               "--set", "Output/Overwrite=true"]
    start = time.monotonic()
    with tempfile.TemporaryFile(mode="w+") as screen:
        process = subprocess.Popen(command, stdout=screen, stderr=subprocess.STDOUT)
        load = os.getloadavg()[0]
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            load = max(load, os.getloadavg()[0])
            time.sleep(0.05)
        wall = time.monotonic() - start
        screen.seek(0)
        text = screen.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"time_examples: {' '.join(command)} exited with {code}:\n{text[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, text, load


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*", help="prm/NAME.prm (default: every file of prm/)")
    p.add_argument("--build", default="build")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--output", default="doc/example_times.csv")
    p.add_argument("--realtime", type=int, metavar="CORE",
                   help="run on this core at real-time priority (root only)")
    a = p.parse_args()
    if a.realtime is not None:   # inherited by every run started from here
        os.sched_setaffinity(0, {a.realtime})
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.chdir(root)
    exe = os.path.abspath(os.path.join(a.build, "stickslip"))
    files = a.files or sorted(glob.glob("prm/*.prm"))
    # a SIGTERM leaves through the finally below: no scratch folder left behind
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(f"time_examples: signal {number}"))
    scratch = tempfile.mkdtemp(prefix="time_examples.")
    rows, load_before = [], os.getloadavg()[0]
    try:
        for prm in files:
            name = os.path.basename(prm)
            walls, cpus, loads = [], [], []
            for k in range(a.repeat):
                directory = os.path.join(scratch, f"{name[:-4]}_{k}")
                wall, cpu, screen, load = run_once(exe, prm, directory)
                walls.append(wall)
                cpus.append(cpu)
                loads.append(load)
                if k + 1 < a.repeat:
                    shutil.rmtree(directory)
            size, count = folder_size(directory)
            rows.append([name, f"{min(walls):.3g}", f"{min(cpus):.3g}", f"{size / 1e6:.3g}",
                         str(count), f"{output_share(screen):.2f}", f"{max(loads):.2f}"])
            shutil.rmtree(directory)
            print(" ".join(f"{c}={v}" for c, v in zip(COLUMNS, rows[-1])), flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    header = [
        f"# measured {datetime.date.today().isoformat()} by tests/style/time_examples.py "
        f"--repeat {a.repeat}"
        + (f" --realtime {a.realtime}" if a.realtime is not None else "")
        + f" on {platform.node()} ({os.cpu_count()} cores)",
        f"# load average (1 min) {load_before:.2f} at the start, at most "
        f"{max(float(r[-1]) for r in rows):.2f} during a run",
        "# " + (version.strip().splitlines() or ["?"])[0],
        "# wall_s, cpu_s: the smallest of the repeats (cpu = user + system); output_mb,",
        "# output_files: the run's output folder; output_share: the run's timer, output",
        "# section over the whole wall time; max_load: the largest load during its repeats"]
    if a.files and os.path.exists(a.output):   # some files again: merge into the record
        with open(a.output) as f:
            lines = f.read().splitlines()
        old_header = [line for line in lines if line.startswith("#")]
        old_rows = [line.split(",") for line in lines[len(old_header) + 1:] if line]
        names = {r[0] for r in rows}
        rows = sorted([r for r in old_rows if r[0] not in names] + rows)
        header = old_header + [f"# re-measured {', '.join(sorted(names))}: " + h[2:]
                               for h in header[:2]]
    out = a.output
    with open(out, "w") as f:
        f.write("\n".join(header) + "\n" + ",".join(COLUMNS) + "\n")
        for r in rows:
            f.write(",".join(r) + "\n")
    print(f"time_examples: wrote {out}")


if __name__ == "__main__":
    main()
