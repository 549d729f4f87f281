#!/usr/bin/python3
"""bench/slow_pull.py EXE: the slow pull of prm/body_slow_pull.prm (implicit
generalized alpha with adaptive steps, doc/body.md "Slow pull") on refined
blocks, against the explicit scheme for the same physical time, printed as
a section of BENCHMARKS.md (bench/sections/83_slow_pull.sh).

Per mesh (8 x 2 to 32 x 8 cells, 1 rank, no field output, T = 2500 s: the
loading phase and four stick-slip cycles): the implicit run's time loop,
substeps, active-set iterations per substep, CG iterations per solve,
matrix and multigrid set-ups, and its period against the 1-dof block with
the same law (postprocess/slow_pull.py). The explicit scheme cannot run
the example (the pull spring is the implicit schemes'), and 2500 s take
10^6-10^7 of its steps: its cost is estimated as the number of steps at its
stability bound (read from its refusal of a larger step) times its time per
step measured on the same block, spring removed, over 20000 steps.
"""
import os
import re
import subprocess
import sys
import tempfile

EXE = sys.argv[1]
PRM = "prm/body_slow_pull.prm"
WORK = tempfile.mkdtemp()
FINAL = 2500.0


def stickslip(settings, check=True):
    command = [EXE, PRM, "--set", "Output/Overwrite=true", "--set", "Output/Field output=false"]
    for key, value in settings.items():
        command += ["--set", "%s=%s" % (key, value)]
    return subprocess.run(command, check=check, capture_output=True, text=True)


def implicit(cells):
    out = os.path.join(WORK, "implicit")
    text = stickslip({"Output/Directory": out, "Body/Subdivisions": cells}).stdout
    loop = float(re.search(r"steps of \S+ s in (\S+) s", text).group(1))
    m = re.search(r"implicit steps: (\d+), active-set iterations (\d+).*CG iterations (\d+)"
                  r".*matrix and AMG set-ups (\d+)", text)
    steps, iterations, cg, setups = (int(g) for g in m.groups())
    unknowns = int(re.search(r"(\d+) unknowns on", text).group(1))
    check = subprocess.run(
        ["/usr/bin/python3", "postprocess/slow_pull.py", out, "--stiffness", "1e-3",
         "--velocity", "1e-3", "--mass", "0.25", "--normal", "1e-3", "--mu-s", "0.6",
         "--mu-d", "0.4", "--critical-velocity", "1e-3", "--no-plot"],
        capture_output=True, text=True).stdout
    events = int(re.search(r"(\d+) slip events", check).group(1))
    period = re.search(r"relative error (\S+) \(bound \S+\), lowest", check)
    return unknowns, loop, steps, iterations, cg, setups, events, \
        float(period.group(1)) if period else float("nan")


def explicit(cells):
    base = {"Output/Directory": os.path.join(WORK, "explicit"), "Body/Subdivisions": cells,
            "Body/Time scheme": "explicit", "Body/Spectral radius at infinity": "1",
            "Body/Pull spring/Boundary id": "none",
            "Body/Adaptive time steps/Enabled": "false"}
    refusal = stickslip({**base, "Time/Time step": "1", "Time/Final time": "1"}, check=False)
    bound = float(re.search(r"stable for dt <= .*? = (\S+) s", refusal.stderr).group(1))
    dt = 0.99 * bound
    steps = 20000
    text = stickslip({**base, "Time/Time step": repr(dt), "Time/Final time": repr(steps * dt),
                      "Output/Interval": repr(steps * dt)}).stdout
    loop = float(re.search(r"steps of \S+ s in (\S+) s", text).group(1))
    return bound, loop / steps


def main():
    print("## The slow pull: implicit adaptive steps against the explicit scheme\n")
    print(__doc__.split("\n\n")[1].replace("\n", " ") + "\n")
    print("| cells | unknowns | implicit: substeps | active-set its per substep | CG per "
          "solve | set-ups | time loop [s] | slips | period error vs 1-dof | explicit: "
          "stability bound [s] | steps for T | s per step | estimated time [s] | "
          "explicit / implicit time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for cells in ("8, 2", "16, 4", "32, 8"):
        unknowns, loop, steps, its, cg, setups, events, period = implicit(cells)
        bound, per_step = explicit(cells)
        n_explicit = FINAL / bound
        estimate = n_explicit * per_step
        print("| %s | %d | %d | %.2f | %.1f | %d | %.3g | %d | %.2e | %.3g | %.3g | %.3g | "
              "%.3g | **%.2f** |" % (cells.replace(", ", " x "), unknowns, steps, its / steps,
                                     cg / its, setups, loop, events, period, bound,
                                     n_explicit, per_step, estimate, estimate / loop))
    with open("/proc/loadavg") as f:
        print("\nLoad average when this section ran: %s (2 cores)." % f.read().split()[0])


if __name__ == "__main__":
    main()
