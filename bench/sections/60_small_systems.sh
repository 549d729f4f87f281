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
# Instructions per time step of the time loop (callgrind, independent of the
# load): the loop's count over a short run divided by its steps; "" without
# valgrind.
instructions_per_step() {
  local n=$1; shift
  command -v valgrind >/dev/null || { echo ""; return; }
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    --toggle-collect='*RunLoop::Run::loop*' "$exe" "$@" "${run_args[@]}" \
    >/dev/null 2>&1
  callgrind_annotate "$work/callgrind.out" 2>/dev/null |
    awk -v n="$n" '/PROGRAM TOTALS/ && !found {gsub(",", "", $1); print $1 / n; found = 1}'
}  # (awk reads to the end: an early exit would kill callgrind_annotate by SIGPIPE)
# Where the last callgrind run's loop went: the inclusive instructions per
# step of each function named ("" without valgrind), comma-separated.
inclusive_per_step() {  # steps name...
  local n=$1; shift
  [ -f "$work/callgrind.out" ] || { echo ""; return; }
  local table; table=$(callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null)
  local name counts=()
  for name in "$@"; do
    counts+=("$(awk -v n="$n" -v name="$name" \
      'index($0, name) && !found {gsub(",", "", $1); print $1 / n; found = 1}' <<<"$table")")
  done
  (IFS=,; echo "${counts[*]}")
}

# d = 100: a chain of 100 unit masses with a consistent (tridiagonal) mass
# matrix M = tridiag(1/6, 2/3, 1/6), springs A = 100 tridiag(-1, 2, -1),
# Coulomb friction c_i = 1, forcing 2 sin(2 pi t + i/10); 10000 steps.
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
    out.write("subsection Time\n  set Final time = 10\n  set Time step = 1e-3\n"
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
    out.write("subsection Output\n  set Interval = 0.01\nend\n")
PY

# The cases: name, steps of the wall-clock run, steps of the callgrind run,
# arguments (the callgrind run shortens the wall-clock one by its last two).
p5b=(prm/p5b.prm --set "Time/Convergence time steps=" --set "Time/Time step=1e-4")
no_exact=(--set "ODE/Exact displacement=" --set "ODE/Exact velocity="
          --set "ODE/Exact multiplier=")
tp1=(prm/tp1.prm --set "Time/Time step=1.25e-3")
centered=(--set "Time/Scheme=centered")
ssn=(--set "Centered scheme/Multiplier solver=friction solver")
rows=()
measure() {
  local name=$1 d=$2 n=$3 n_short=$4 final=$5; shift 5
  local rate ipc
  rate=$(steps_per_second "$@")
  ipc=$(instructions_per_step "$n_short" "$@" --set "Time/Final time=$final")
  rows+=("$name|$d|$rate|$ipc")
}
measure "p5b, Lie, P = 10 semismooth Newton solves + Q = 2 elastic sub-steps, dt = 1e-4, errors against the exact solution at every step" \
  3 40000 4000 0.4 "${p5b[@]}"
measure "p5b as above without the exact solution (no error measurement)" \
  3 40000 4000 0.4 "${p5b[@]}" "${no_exact[@]}"
measure "TP1, centered, fixed point, dt = 1.25e-3, a history row every step (the prm's Output/Interval = 0)" \
  3 4000 4000 5 "${tp1[@]}"
tp1_split=$(inclusive_per_step 4000 'CenteredIntegrator::advance(' 'RunLoop::Run::write_outputs(')
measure "TP1 as above, a history row every 100 steps (Output/Interval = 0.125), T = 250 (200000 steps: the loop takes tenths of a second)" \
  3 200000 4000 5 "${tp1[@]}" --set "Output/Interval=0.125" --set "Time/Final time=250"
measure "chain of 100 masses, consistent (tridiagonal) M, Lie P = 10, Q = 2, semismooth Newton" \
  100 10000 500 0.5 "$work/d100.prm"
measure "the same chain, centered scheme, fixed point" \
  100 10000 500 0.5 "$work/d100.prm" "${centered[@]}"
measure "the same chain, centered scheme, semismooth Newton multiplier" \
  100 10000 500 0.5 "$work/d100.prm" "${centered[@]}" "${ssn[@]}"
chain_split=$(inclusive_per_step 500 'RunLoop::Run::loop(' 'ReplicatedSemismoothNewton::solve(' \
  'TimeFunction::values(' 'RunLoop::Run::write_outputs(')
measure "the same, a history row every 1000 steps (Output/Interval = 1)" \
  100 10000 500 0.5 "$work/d100.prm" "${centered[@]}" "${ssn[@]}" --set "Output/Interval=1"

python3 - "$version_new" "$version_old" "$tiny_new" "$tiny_old" "$tp1_new" \
  "$floor_link" "$floor_mpi" "$(awk '{print $1}' /proc/loadavg)" "$tp1_split" "$chain_split" \
  "${rows[@]}" <<'PY'
import sys
(version_new, version_old, tiny_new, tiny_old, tp1_new, floor_link,
 floor_mpi) = map(float, sys.argv[1:8])
load = sys.argv[8]
tp1_split = [float(x) for x in sys.argv[9].split(",") if x]
chain_split = [float(x) for x in sys.argv[10].split(",") if x]
rows = [row.split("|") for row in sys.argv[11:]]
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
print("| time steps per second (time loop, best of 3) | d | steps/s | instructions per step (callgrind) | 1e5 target |")
print("|---|---|---|---|---|")
for name, d, rate, instructions in rows:
    rate = float(rate)
    status = ("met (%.1fx)" % (rate / target) if rate >= target else
              "missed: %.0f%% of it" % (100 * rate / target))
    count = "%.3g" % float(instructions) if instructions else "(no valgrind)"
    print("| %s | %s | %.3g | %s | %s |" % (name, d, rate, count, status))
print("\nThe systems of at most 128 unknowns of the finite-dof models take the whole time step on")
print("plain arrays replicated on every rank (the step kernels instantiated for `ReplicatedSystem`):")
print("the state is read once at the start of a step and written once at its end, instead of a")
print("PETSc operation (array access, state and log bookkeeping) per vector operation; the friction")
print("sub-steps use the semismooth Newton iteration with Cholesky factors of M restricted to the")
print("unstuck rows, banded for the chain (O(d) per solve and per new stick/slip set instead of")
print("O(d^2) and O(d^3)), the elastic sub-steps the banded factor of M + alpha tau^2 A; the forcing")
print("is evaluated once per sub-step time for all components, its constant components once.")
print("Instruction counts are of the time loop over a shortened run (p5b 4000 steps, TP1 4000,")
print("chain 500), history rows and error measurement included as in the wall-clock runs.")
print("\nThe d = 100 chain is an ODE model (`Model = ode`) written by this script (M = tridiag(1/6,")
print("2/3, 1/6), A = 100 tridiag(-1, 2, -1), c_i = 1, f_i = 2 sin(2 pi t + i/10), dt = 1e-3,")
print("a history row every 10 steps). Its Lie step evaluates the forcing at 10 sub-step times:")
print("1000 sines per step, by muParser, which alone bound it well below 1e5 steps/s; the")
print("centered scheme evaluates it once per step.")
print("\nA history row costs far more than a small system's step: every number is written in the")
print("shortest decimal that reads back to the same double (`std::to_chars`), and the energies")
print("and the stick fraction it holds are computed for it. The rows with fewer history rows")
print("show the time steps themselves.")
if len(tp1_split) == 2 and len(chain_split) == 4:
    loop, newton, forcing, output = chain_split
    print("By callgrind (the runs of the table): TP1's centered step is %.2g instructions and its"
          " history row %.2g; of the d = 100 centered step with semismooth Newton (%.2g"
          " instructions), the Newton solve takes %.0f%%, muParser evaluating the 100 sines %.0f%%"
          " and the rows every 10 steps %.0f%%."
          % (tp1_split[0], tp1_split[1], loop, 100 * newton / loop, 100 * forcing / loop,
             100 * output / loop))
print("Load average during the run: %s (2 cores)." % load)
PY
