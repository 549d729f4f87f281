#!/usr/bin/python3
"""The tolerance study of the spring-slider's adaptive integrator.

    bench/spring_slider_tolerance.py EXE PRM [--tolerances R ...]
        [--reference R] [--workdir DIR] [--set PATH=VALUE ...]
        [--max-error E --at R]

Runs PRM (default prm/spring_slider_rate_state.prm) with Spring
slider/Relative tolerance = Absolute tolerance = each R of --tolerances and
at --reference (a tighter one), and compares the times of the events in events.csv (slip
onsets and the slip-rate maxima above the rupture slip rate, i.e. the slip
events) with the reference run's: the largest relative difference of the
event times, |t - t_ref|/t_ref, and of the periods between consecutive
onsets, |T - T_ref|/T_ref. Prints one line per tolerance, the number of
ARKode steps and the wall time. With --max-error E --at R: fails unless the
run at R has the reference's events and both differences are <= E.
"""
import argparse
import csv
import os
import subprocess
import sys
import time


def run(exe, prm, tolerance, workdir, settings):
    out = os.path.join(workdir, "rtol_%g" % tolerance)
    command = [exe, prm, "--quiet", "--set", "Output/Directory=" + out,
               "--set", "Output/Overwrite=true",
               "--set", "Spring slider/Relative tolerance=%g" % tolerance,
               "--set", "Spring slider/Absolute tolerance=%g" % tolerance]
    for s in settings:
        command += ["--set", s]
    start = time.time()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.time() - start
    if done.returncode != 0:
        sys.exit("spring_slider_tolerance: %s failed:\n%s%s"
                 % (" ".join(command), done.stdout, done.stderr))
    steps = [w for w in done.stdout.split(";") if "steps," in w]
    with open(os.path.join(out, "events.csv")) as f:
        rows = list(csv.DictReader(f))
    onsets = [float(r["t"]) for r in rows if r["event"] == "slip_onset"]
    peaks = [(float(r["t"]), float(r["velocity"])) for r in rows
             if r["event"] == "slip_rate_maximum"]
    return onsets, peaks, wall, (steps[0].strip() if steps else "")


def largest_peaks(onsets, peaks):
    """The largest slip-rate maximum after each onset (the event's peak)."""
    result = []
    for k, t0 in enumerate(onsets):
        t1 = onsets[k + 1] if k + 1 < len(onsets) else float("inf")
        inside = [p for p in peaks if t0 <= p[0] < t1]
        if inside:
            result.append(max(inside, key=lambda p: p[1]))
    return result


def compare(run_events, reference):
    onsets, peaks = run_events
    ref_onsets, ref_peaks = reference
    if len(onsets) != len(ref_onsets):
        return None
    times = onsets + [p[0] for p in largest_peaks(onsets, peaks)]
    ref_times = ref_onsets + [p[0] for p in largest_peaks(ref_onsets, ref_peaks)]
    if len(times) != len(ref_times):
        return None
    event = max(abs(t - r) / r for t, r in zip(times, ref_times))
    periods = [b - a for a, b in zip(onsets, onsets[1:])]
    ref_periods = [b - a for a, b in zip(ref_onsets, ref_onsets[1:])]
    period = max((abs(p - r) / r for p, r in zip(periods, ref_periods)),
                 default=0.0)
    heights = [p[1] for p in largest_peaks(onsets, peaks)]
    ref_heights = [p[1] for p in largest_peaks(ref_onsets, ref_peaks)]
    height = max((abs(h - r) / r for h, r in zip(heights, ref_heights)),
                 default=0.0)
    return event, period, height


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("exe")
    p.add_argument("prm", nargs="?",
                   default=os.path.join(root, "prm", "spring_slider_rate_state.prm"))
    p.add_argument("--tolerances", type=float, nargs="+",
                   default=[1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11])
    p.add_argument("--reference", type=float, default=1e-13)
    p.add_argument("--workdir", default="output/spring_slider_tolerance")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--max-error", type=float)
    p.add_argument("--at", type=float)
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    ref = run(a.exe, a.prm, a.reference, a.workdir, a.set)
    print("reference: relative tolerance %g, %d slip onsets, %d slip-rate "
          "maxima, %.1f s wall; %s" % (a.reference, len(ref[0]), len(ref[1]),
                                       ref[2], ref[3]))
    print("%-10s %-14s %-14s %-14s %-8s %s" % ("rtol", "event times",
                                              "periods", "peak heights",
                                              "wall [s]", "work"))
    results = {}
    for tolerance in a.tolerances:
        onsets, peaks, wall, work = run(a.exe, a.prm, tolerance, a.workdir,
                                        a.set)
        errors = compare((onsets, peaks), ref[:2])
        results[tolerance] = errors
        if errors is None:
            print("%-10g %d onsets against the reference's %d  %.1f %s"
                  % (tolerance, len(onsets), len(ref[0]), wall, work))
        else:
            print("%-10g %-14.2e %-14.2e %-14.2e %-8.1f %s"
                  % ((tolerance,) + errors + (wall, work)))
    if a.max_error is not None:
        errors = results.get(a.at)
        if errors is None or max(errors[:2]) > a.max_error:
            sys.exit("FAIL: at relative tolerance %g the event times differ "
                     "from the reference by %s, allowed %g"
                     % (a.at, errors, a.max_error))
        print("OK")


if __name__ == "__main__":
    main()
