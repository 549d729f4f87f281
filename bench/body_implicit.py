#!/usr/bin/python3
"""bench/body_implicit.py EXE: the body's implicit step (Body/Time scheme =
implicit, doc/body.md) against the explicit one on the blocks of
prm/body_sliding_block_2d.prm and _3d.prm, printed as a section of
BENCHMARKS.md (bench/sections/82_body_implicit.sh).

Per mesh (1 rank, no field output):
- sliding: the block thrown at V0 on the plane with Coulomb friction (every
  contact node slipping), 4 implicit steps at c dt/h = 8: time loop, set-up,
  active-set iterations per step, CG iterations per solve, matrix and
  multigrid set-ups; the explicit scheme (assembled K) over the same
  physical time at c dt/h = 0.5: the ratio of the costs per unit of
  physical time;
- static: one step at c dt/h = 1000 (K + 4/dt^2 M = K to 1e-6), the block
  pressed frictionless: CG iterations of the one solve, the step's time.
The iteration counts are exact; the times are wall times of a shared
machine (the load is printed).
"""
import csv
import os
import re
import subprocess
import sys
import tempfile

EXE = sys.argv[1]
WORK = tempfile.mkdtemp()


def run(prm, dim, n, scheme, cfl, steps, static=False):
    shape = [n, n // 4] if dim == 2 else [n, n // 2, n // 4]
    dt = cfl / float(n)  # the blocks are 1 long: h = 1/n, c1 = 1 m/s
    out = os.path.join(WORK, "run")
    zero = "; ".join(["0"] * dim)
    command = [EXE, prm, "--set", "Output/Directory=" + out,
               "--set", "Output/Overwrite=true", "--set", "Output/Field output=false",
               "--set", "Body/Time scheme=" + scheme,
               "--set", "Body/Linear solver/Preconditioner=multigrid",
               "--set", "Body/Subdivisions=" + ", ".join(map(str, shape)),
               "--set", "Time/Time step=%r" % dt,
               "--set", "Time/Final time=%r" % (steps * dt),
               "--set", "Output/Interval=%r" % (steps * dt),
               "--set", "Body/Contact/Friction law/Normal stress regularization length=0"]
    if static:
        load = "; ".join(["0"] * (dim - 1) + ["-2e-3"])
        command += ["--set", "Body/Initial velocity=" + zero,
                    "--set", "Body/Traction 1/Value=" + load,
                    "--set", "Body/Contact/Friction law/Static friction coefficient=0"]
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    unknowns = int(re.search(r"(\d+) unknowns on", text).group(1))
    loop = float(re.search(r"steps of \S+ s in (\S+) s", text).group(1))
    setup = float(re.search(r"\| set-up\s+\|\s+\d+\s+\|\s+(\S+)s", text).group(1))
    with open(os.path.join(out, "history.csv")) as f:
        last = list(csv.DictReader(f))[-1]
    counts = {k: float(last[k]) for k in ("newton_iterations", "cg_iterations")} \
        if scheme == "implicit" else {}
    sets = re.search(r"matrix and AMG set-ups (\d+)", text)
    counts["assemblies"] = int(sets.group(1)) if sets else 0
    return unknowns, loop, setup, counts


def main():
    load = open("/proc/loadavg").read().split()[0]
    print("## The body's implicit step (Body/Time scheme = implicit)\n")
    print("The blocks of prm/body_sliding_block_2d.prm (n x n/4 cells) and _3d.prm (n x n/2 x n/4), "
          "1 rank, no field output (bench/body_implicit.py). **Sliding**: thrown at V0 with Coulomb "
          "friction, every contact node slipping, 4 implicit steps at c dt/h = 8 (11 times the "
          "explicit bound) against the explicit scheme (assembled K) over the same physical time at "
          "c dt/h = 0.5; cost ratio = implicit time loop / explicit time loop for the same physical "
          "time. **Static**: one step at c dt/h = 1000, the block pressed frictionless: the CG "
          "iterations of the one solve. CG with GAMG and the rigid-body modes (doc/body.md, \"The "
          "implicit step's solver\"), tolerance 1e-12.\n")
    print("| dim | n | unknowns | active-set its per step | CG per solve | set-ups | implicit s per step "
          "| explicit s per step | implicit / explicit, same physical time | static: CG | static: s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    cases = [(2, "prm/body_sliding_block_2d.prm", [128, 256, 512, 1024, 1448]),
             (3, "prm/body_sliding_block_3d.prm", [16, 32, 64])]
    rows = []
    for dim, prm, levels in cases:
        for n in levels:
            unknowns, loop, setup, c = run(prm, dim, n, "implicit", 8.0, 4)
            _, eloop, _, _ = run(prm, dim, n, "explicit", 0.5, 64)
            _, sloop, _, s = run(prm, dim, n, "implicit", 1000.0, 1, static=True)
            row = {"newton": c["newton_iterations"] / 4,
                   "cg": c["cg_iterations"] / c["newton_iterations"],
                   "ratio": loop / eloop, "static_cg": s["cg_iterations"],
                   "static_steps": sloop / (eloop / 64)}
            rows.append(row)
            print("| %d | %d | %d | %.1f | %.1f | %d | %.3g | %.3g | **%.2f** | %d | %.3g |"
                  % (dim, n, unknowns, row["newton"], row["cg"], c["assemblies"], loop / 4,
                     eloop / 64, row["ratio"], row["static_cg"], sloop), flush=True)

    def band(key, form="%.0f"):
        values = [r[key] for r in rows]
        return (form + "-" + form) % (min(values), max(values))
    print("\nRead: the CG iterations per solve (%s sliding, %s static) do not grow with the mesh in "
          "2D or 3D, nor the active-set iterations (%s per sliding step: Coulomb's stick rule with "
          "the finite complementarity constant, doc/theory.md §7.7, one matrix and multigrid set-up "
          "per stick-set change). At c dt/h = 8 a sliding step costs %s explicit steps' time for "
          "the same physical time: the implicit scheme pays where the step can be 100-1000 times "
          "the explicit bound (slow loading; the static column: one step at c dt/h = 1000 costs "
          "the time of %s explicit steps, against 2000 for the same physical time) or without "
          "inertia (quasi-static)." % (band("cg", "%.1f"), band("static_cg"), band("newton", "%.1f"),
                                       band("ratio"), band("static_steps")))
    print("\nLoad average when this section ran: %s (2 cores)." % load)


if __name__ == "__main__":
    main()
