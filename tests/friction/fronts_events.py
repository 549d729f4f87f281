#!/usr/bin/python3
"""fronts_events.py EXE PRM --meshes N1 N2 [--final-time T] [--min-fraction F]
       [--max-start REL] [--max-extent CELLS] [--workdir DIR]

The large slip events of a body example (Model = body, 2D) agree between two
meshes: PRM is run as it is except Body/Subdivisions (scaled to N cells
along the interface, the height with it) and Time/Time step (scaled with
them: the same CFL number), the final time (--final-time) and the outputs
(contact.pvd every 2 us, no volume records). postprocess/slip_front_map.py
--averaged --fronts finds the slip events of every run (maximal runs of
records in which some node slips faster than 1e-3 m/s, from the mean slip
rate between records) with their start time t0 and the slipped stretch
xmin..xmax. The large ones (over >= --min-fraction of the interface) must
be as many on both meshes, and paired in order of time:
  |t0_1 - t0_2| <= --max-start * t0,
  |xmin_1 - xmin_2|, |xmax_1 - xmax_2| <= --max-extent cells of the coarser
mesh. The smaller events are printed, not compared (they differ between
meshes). Exit 0 and OK if all hold, else FAIL with the differences.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fronts import read_prm_value  # noqa: E402  (the same directory)

EVENT = re.compile(r"^\s+\d+: t = (\S+) \.\. (\S+) s, starts at x = (\S+) m, "
                   r"slipped x = (\S+) \.\. (\S+) m \((\d+)% of the interface\)")


def run_mesh(a, cells_x):
    cells = [int(c) for c in read_prm_value(a.prm, "Subdivisions").split(",")]
    scale = cells_x / cells[0]
    dt = float(read_prm_value(a.prm, "Time step")) / scale
    n_steps = int(round(a.final_time / dt))
    out = os.path.join(a.workdir, "mesh_%d" % cells_x)
    command = [a.exe, a.prm, "--quiet", "--set", "Output/Directory=" + out,
               "--set", "Output/Overwrite=true", "--set", "Output/Field output=true",
               "--set", "Time/Time step=%r" % dt,
               "--set", "Time/Final time=%r" % (n_steps * dt),
               "--set", "Output/Interval=2e-6",
               "--set", "Body/Subdivisions=%d, %d" % (cells_x, round(cells[1] * scale)),
               "--set", "Output/Field output every=1000000",
               "--set", "Output/Contact output every=1"]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    if done.returncode != 0:
        sys.exit("FAIL: %d cells exited with %d:\n%s" % (cells_x, done.returncode, done.stdout))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                          "postprocess", "slip_front_map.py")
    done = subprocess.run([sys.executable, script, out, "--averaged", "--fronts",
                           "-o", os.path.join(out, "map.png")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    if done.returncode != 0:
        sys.exit("FAIL: slip_front_map.py on %s exited with %d:\n%s"
                 % (out, done.returncode, done.stdout))
    events = []
    print("%d cells along x, dt = %.4g s:" % (cells_x, dt))
    for line in done.stdout.splitlines():
        m = EVENT.match(line)
        if m:
            print(line)
            t0, t1, x0, xmin, xmax = (float(v) for v in m.groups()[:5])
            events.append({"t0": t0, "t1": t1, "xmin": xmin, "xmax": xmax,
                           "fraction": int(m.group(6)) / 100})
    return events


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("--meshes", type=int, nargs=2, required=True)
    p.add_argument("--final-time", type=float, required=True)
    p.add_argument("--min-fraction", type=float, default=0.4)
    p.add_argument("--max-start", type=float, default=0.005)
    p.add_argument("--max-extent", type=float, default=2)
    p.add_argument("--workdir", required=True)
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    length = float(read_prm_value(a.prm, "Size").split(",")[0])
    h = length / min(a.meshes)
    large = []
    for cells_x in a.meshes:
        large.append([e for e in run_mesh(a, cells_x) if e["fraction"] >= a.min_fraction])
    failures = []
    if len(large[0]) != len(large[1]) or not large[0]:
        failures.append("large events (>= %.0f%% of the interface): %d on %d cells, "
                        "%d on %d cells" % (100 * a.min_fraction, len(large[0]), a.meshes[0],
                                            len(large[1]), a.meshes[1]))
    for e, f in zip(large[0], large[1]):
        start = abs(e["t0"] - f["t0"]) / e["t0"]
        extent = max(abs(e["xmin"] - f["xmin"]), abs(e["xmax"] - f["xmax"])) / h
        print("large event at t0 = %.6g / %.6g s: start differs by %.3g%%, extent "
              "%.4g..%.4g / %.4g..%.4g m differs by %.2f cells of %.4g m"
              % (e["t0"], f["t0"], 100 * start, e["xmin"], e["xmax"], f["xmin"], f["xmax"],
                 extent, h))
        if start > a.max_start:
            failures.append("start %.6g / %.6g s differs by %.3g%% > %.3g%%"
                            % (e["t0"], f["t0"], 100 * start, 100 * a.max_start))
        if extent > a.max_extent:
            failures.append("extent at t0 = %.6g s differs by %.2f > %g cells"
                            % (e["t0"], extent, a.max_extent))
    if failures:
        sys.exit("FAIL: " + "; ".join(failures))
    print("OK")


if __name__ == "__main__":
    main()
