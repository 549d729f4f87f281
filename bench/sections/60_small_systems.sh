#!/usr/bin/env bash
# Small systems (issue 17): start-up of a serial run and time steps per
# second of finite-dof systems (d = 3 and d = 100) against the 1e5 target.
# Prints one markdown section; STICKSLIP_EXE (default build/stickslip).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
exe=${STICKSLIP_EXE:-build/stickslip}
floor=${STICKSLIP_FLOOR_EXE:-build/bench/stickslip_startup_floor}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# Best wall time (s) of 5 runs of a command.
best_wall() {
  local best=1e9 t
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f %e -o "$work/time" "$@" >/dev/null 2>&1
    t=$(cat "$work/time"); best=$(python3 -c "print(min($best, $t))")
  done
  echo "$best"
}
# The user's own settings win: these reproduce Open MPI's defaults (Debian's
# openmpi-mca-params.conf: pml = ^ucx), i.e. the start-up before stickslip
# chose the singleton settings itself.
old_env=(env OMPI_MCA_ess_singleton_isolated=0 OMPI_MCA_pml=^ucx)
printf 'set Model = ode\n' >"$work/tiny.prm"
run_args=(--set "Output/Overwrite=true" --set "Output/Directory=$work/out")

version_new=$(best_wall "$exe" --version)
version_old=$(best_wall "${old_env[@]}" "$exe" --version)
tiny_new=$(best_wall "$exe" "$work/tiny.prm" "${run_args[@]}")
tiny_old=$(best_wall "${old_env[@]}" "$exe" "$work/tiny.prm" "${run_args[@]}")
tp1_new=$(best_wall "$exe" prm/tp1.prm "${run_args[@]}")
floor_link=$(best_wall "$floor")
floor_mpi=$(best_wall env OMPI_MCA_pml=ob1 "$floor" --mpi)

# Steps per second of the time loop ("N steps, ... wall T s"), best of 3.
steps_per_second() {
  for _ in 1 2 3; do
    "$exe" "$@" "${run_args[@]}" |
      grep -o '[0-9]* steps, .*wall [0-9.e+-]* s' | head -1 |
      awk '{print $1 / $(NF - 1)}'
  done | sort -g | tail -1
}
# p5b: Lie, P = 10 friction solves (semismooth Newton, non-diagonal M) and
# Q = 2 elastic substeps per step, d = 3, one run at dt = 1e-4 (40000 steps).
p5b=$(steps_per_second prm/p5b.prm --set "Time/Convergence time steps=" \
  --set "Time/Time step=1e-4")
# TP1: the centered scheme, fixed point, d = 3, dt = 1.25e-3 (4000 steps).
tp1=$(steps_per_second prm/tp1.prm --set "Time/Time step=1.25e-3")

# d = 100: a chain of 100 unit masses with a consistent (tridiagonal) mass
# matrix M = tridiag(1/6, 2/3, 1/6), springs A = 100 tridiag(-1, 2, -1),
# Coulomb friction c_i = 1, forcing 2 sin(2 pi t + i/10).
python3 - "$work/d100.prm" <<'PY'
import sys
d = 100
def tridiagonal(a, b):
    rows = []
    for i in range(d):
        row = ["0"] * d
        row[i] = b
        if i > 0: row[i - 1] = a
        if i < d - 1: row[i + 1] = a
        rows.append(", ".join(row))
    return "; ".join(rows)
with open(sys.argv[1], "w") as out:
    out.write("set Model = ode\n")
    out.write("subsection Time\n  set Final time = 1\n  set Time step = 1e-3\n"
              "  set Scheme = lie\nend\n")
    out.write("subsection Splitting\n  set Friction substeps = 10\n"
              "  set Elastic substeps = 2\n  set Elastic implicitness = 0.25\nend\n")
    out.write("subsection Friction\n  set Solver = semismooth newton\nend\n")
    out.write("subsection ODE\n")
    out.write("  set Mass matrix = %s\n" % tridiagonal("1/6", "2/3"))
    out.write("  set Stiffness matrix = %s\n" % tridiagonal("-100", "200"))
    out.write("  set Friction coefficients = %s\n" % ", ".join(["1"] * d))
    out.write("  set Initial displacement = %s\n" % ", ".join(["0"] * d))
    out.write("  set Initial velocity = %s\n" % ", ".join(["0"] * d))
    out.write("  set Forcing = %s\n" % "; ".join(
        "2*sin(2*pi*t + %g)" % (i / 10) for i in range(d)))
    out.write("end\n")
PY
d100_lie=$(steps_per_second "$work/d100.prm")
d100_centered=$(steps_per_second "$work/d100.prm" --set "Time/Scheme=centered")

python3 - "$version_new" "$version_old" "$tiny_new" "$tiny_old" "$tp1_new" \
  "$floor_link" "$floor_mpi" "$p5b" "$tp1" "$d100_lie" "$d100_centered" \
  "$(awk '{print $1}' /proc/loadavg)" <<'PY'
import sys
(version_new, version_old, tiny_new, tiny_old, tp1_new, floor_link, floor_mpi,
 p5b, tp1, d100_lie, d100_centered) = map(float, sys.argv[1:12])
load = sys.argv[12]
print("## Small systems: start-up and steps per second\n")
print("A serial run started without mpirun sets `OMPI_MCA_pml=ob1` for itself (doc/running.md):")
print("Open MPI starts with the ob1 messaging layer instead of initialising UCX. \"Before\" sets")
print("Open MPI's defaults explicitly (Debian's `pml = ^ucx`), as the user may, which is how")
print("stickslip started until then. (`ess_singleton_isolated`, which saves the fork of `orted`,")
print("is not used: singletons started at the same moment then fail in MPI_Init.) Wall time, best of 5.\n")
print("| start-up | before | now | target |")
print("|---|---|---|---|")
print("| `stickslip --version` | %.2f s | %.2f s | |" % (version_old, version_new))
print("| `set Model = ode` (d = 1, 1000 Lie steps, P = 10) | %.2f s | %.2f s | < 0.2 s |"
      % (tiny_old, tiny_new))
print("| `prm/tp1.prm` (d = 3, centered, 400 steps) | | %.2f s | < 0.2 s |" % tp1_new)
print("| floor: do-nothing program linked to deal.II (%s) | | %.2f s | |"
      % ("`build/bench/stickslip_startup_floor`", floor_link))
print("| floor + MPI_Init/Finalize (singleton settings) | | %.2f s | |\n" % floor_mpi)
print("The floor is the dynamic linker: a program that only names one deal.II function loads")
print("deal.II's 200 shared libraries (PETSc, Trilinos, MUMPS, OpenBLAS, ...) and resolves about")
print("330 000 relocations (`LD_DEBUG=statistics`: 97% of the loader's time is relocation, and")
print("`perf` puts three quarters of stickslip's start-up in `do_lookup_x`). stickslip itself adds")
print("%.2f s to it for a whole tiny run. Where the floor exceeds 0.2 s, the target is out of reach"
      % max(0.0, tiny_new - floor_link))
print("for any program linked to this deal.II; only a build with fewer (or static) libraries would")
print("go lower. All these times grow with the machine's load (below).\n")
target = 1e5
print("| time steps per second (time loop, best of 3) | d | steps/s | of the 1e5 target |")
print("|---|---|---|---|")
rows = [("p5b, Lie, P = 10 semismooth Newton solves + Q = 2 elastic substeps per step, dt = 1e-4", 3, p5b),
        ("TP1, centered, fixed point, dt = 1.25e-3", 3, tp1),
        ("chain of 100 masses, consistent (tridiagonal) M, Lie P = 10, Q = 2, semismooth Newton", 100, d100_lie),
        ("the same chain, centered scheme (fixed point)", 100, d100_centered)]
for name, d, rate in rows:
    print("| %s | %d | %.3g | %.0f%% |" % (name, d, rate, 100 * rate / target))
print("\nThe d = 100 chain is an ODE model (`Model = ode`) written by this script (M = tridiag(1/6,")
print("2/3, 1/6), A = 100 tridiag(-1, 2, -1), c_i = 1, f_i = 2 sin(2 pi t + i/10)); its friction")
print("steps and elastic solves take the replicated dense path (Cholesky factors on plain arrays; the")
print("friction step keeps the factors of its last 24 stick/slip sets). Load average during the run:")
print("%s (2 cores). Instruction counts (callgrind, independent of the load) per Lie step of the d = 100" % load)
print("chain, with a history row every step: 8.7e6 before these changes (Jacobi-CG friction solves, MUMPS")
print("elastic solves, 1.3e6 of it output), 2.8e6 now.\n")
PY
