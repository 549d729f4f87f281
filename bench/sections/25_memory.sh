#!/usr/bin/env bash
# Peak memory per unknown of the lumped explicit string (2^20 cells) and of
# the lumped explicit Q1 membrane (1024 x 1024 cells), 1 rank, with the
# assembled and the matrix-free stiffness (String/Stiffness operator), and
# what the matrix-free product costs in time-loop wall time against the
# assembled one; then the consistent-mass string (semismooth Newton, CG on M
# in the elastic step) with both operators assembled or both matrix-free
# (String/Mass operator). Each peak is split into the shared libraries (the
# same run on a tiny mesh), deal.II's mesh and DoF handler alone
# (build/bench/stickslip_mesh_floor, minus its own tiny run) and the rest,
# stickslip's own bytes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
floor_exe=build/bench/stickslip_mesh_floor
refinements=20; dofs=$(( (1 << refinements) + 1 ))
membrane_refinements=10; membrane_dofs=$(( ((1 << membrane_refinements) + 1) ** 2 ))
# The tiny meshes whose runs measure the libraries' share.
tiny_string=4; tiny_membrane=2
string_args=(prm/string.prm --quiet --set "Output/Overwrite=true" --set "Output/Interval=1"
  --set "Output/Field output=false" --set "Time/Time step=2.5e-7" --set "Time/Final time=5e-5")
# The membrane as in section 57 (clamped, unforced: the fused explicit step).
membrane_args=(prm/membrane_manufactured.prm --quiet --set "Output/Overwrite=true"
  --set "Output/Interval=1" --set "Output/Field output=false"
  --set "String/Dirichlet data=0" --set "String/Forcing=0" --set "String/Initial velocity=sin(pi*x)*sin(pi*y)"
  --set "Time/Time step=2.5e-4" --set "Time/Final time=5e-3" --set "Splitting/Friction substeps=1"
  --set "Splitting/Elastic substeps=1" --set "Splitting/Elastic implicitness=0"
  --set "String/Exact displacement=" --set "String/Exact velocity=" --set "String/Exact multiplier=")
consistent_args=(prm/string.prm --quiet --set "Output/Overwrite=true" --set "Output/Interval=1"
  --set "Output/Field output=false" --set "Time/Time step=2.5e-7" --set "Time/Final time=2.5e-6"
  --set "String/Mass=consistent" --set "Friction/Solver=semismooth newton")
floor_kb() { "$floor_exe" "$@" | awk '{print $4}'; }
floor_string=$(floor_kb 1 "$refinements"); floor_string_tiny=$(floor_kb 1 "$tiny_string")
floor_membrane=$(floor_kb 2 "$membrane_refinements"); floor_membrane_tiny=$(floor_kb 2 "$tiny_membrane")
rows=()
for model in string membrane consistent; do
  for operator in assembled matrix-free; do
    case $model in
      string) args=("${string_args[@]}"); r=$refinements; tiny=$tiny_string; n=$dofs
        floor=$floor_string; floor_tiny=$floor_string_tiny ;;
      membrane) args=("${membrane_args[@]}"); r=$membrane_refinements; tiny=$tiny_membrane; n=$membrane_dofs
        floor=$floor_membrane; floor_tiny=$floor_membrane_tiny ;;
      consistent) args=("${consistent_args[@]}" --set "String/Mass operator=$operator"); r=$refinements
        tiny=$tiny_string; n=$dofs; floor=$floor_string; floor_tiny=$floor_string_tiny ;;
    esac
    run=("$exe" "${args[@]}" --set "String/Stiffness operator=$operator")
    out=$( { /usr/bin/time -v "${run[@]}" --set "String/Global refinements=$r" \
      --set "Output/Directory=$work/$model-$operator"; } 2>&1 )
    tiny_out=$( { /usr/bin/time -v "${run[@]}" --set "String/Global refinements=$tiny" \
      --set "Output/Directory=$work/$model-$operator-tiny"; } 2>&1 )
    rows+=("$model" "$operator" "$n" "$(rss_kb <<<"$out")" "$(wall <<<"$out")"
      "$(rss_kb <<<"$tiny_out")" "$floor" "$floor_tiny")
  done
done
python3 - "${rows[@]}" <<'PY'
import os, sys
a = sys.argv[1:]
runs = [(a[i], a[i + 1], int(a[i + 2]), int(a[i + 3]), float(a[i + 4]), int(a[i + 5]), int(a[i + 6]),
         int(a[i + 7])) for i in range(0, len(a), 8)]
label = {"string": "string 1D, P1 lumped, 200 steps", "membrane": "membrane 2D, Q1 lumped, 20 steps",
         "consistent": "string 1D, P1 consistent, 10 steps (M and A)"}
target = 300
print("## Peak memory per unknown\n")
print("Peak RSS of the whole process divided by the number of unknowns, 1 rank (the gross figure:"
      " libraries included), and what it is made of: the shared libraries (the peak of the same run on"
      " a tiny mesh, 2^4 cells or 4 x 4 cells), deal.II's mesh and DoF handler alone"
      " (`build/bench/stickslip_mesh_floor`: the same mesh built by stickslip's own make_string_grid()"
      " and numbered by the same FE_Q(1), nothing else; its peak minus its tiny run's) and the rest,"
      " stickslip's own bytes (operators, vectors, the time scheme's work arrays). String/Stiffness"
      " operator = matrix-free applies A by deal.II's MatrixFree cell loop instead of a PETSc matrix;"
      " in the consistent-mass rows String/Mass operator is set alike (M by the same cells with 1/c^2"
      " at the quadrature points; its solves by CG with the diagonal instead of CG with algebraic"
      " multigrid).\n")
print("| run | operators | unknowns | peak RSS | **bytes per unknown** | libraries | deal.II mesh + DoFs |"
      " stickslip's own | time loop | time loop / assembled |")
print("|---|---|---|---|---|---|---|---|---|---|")
base, per_unknown = {}, {}
for model, operator, n, rss, loop, tiny, floor, floor_tiny in runs:
    if operator == "assembled":
        base[model] = loop
    gross = rss * 1024 / n
    libraries = tiny * 1024 / n
    mesh = max(0, floor - floor_tiny) * 1024 / n
    own = gross - libraries - mesh
    per_unknown[(model, operator)] = (gross, libraries, mesh, own)
    print("| %s | %s | %d | %.0f MB | **%.0f** | %.0f | %.0f | %.0f | %.2f s | %.2fx |"
          % (label[model], operator, n, rss / 1024, gross, libraries, mesh, own, loop, loop / base[model]))
judged = [(m, o) for m in ("string", "membrane") for o in ("assembled", "matrix-free")]
verdicts = []
for m, o in judged:
    gross = per_unknown[(m, o)][0]
    verdicts.append("%s %s %.0f B: %s" % (m, o, gross, "met" if gross <= target else
                                          "**missed** by %.0f B (%.2fx)" % (gross - target, gross / target)))
all_met = all(per_unknown[j][0] <= target for j in judged)
print("\nTarget (issue 17): at most %d B of peak RSS per unknown for the lumped explicit string and"
      " membrane at 2^20 unknowns, judged on the gross figure (the bold column, libraries included):"
      " %s. %s" % (target, "; ".join(verdicts), "**Met.**" if all_met else "**Missed.**"))
for m in ("string", "membrane"):
    gross, libraries, mesh, own = per_unknown[(m, "assembled")]
    floor = libraries + mesh
    print("\n- %s: the libraries (%.0f B) and deal.II's mesh and DoF handler (%.0f B) alone come to %.0f B"
          " per unknown, %s the target before stickslip holds a byte; stickslip's own share (assembled"
          " operator) is %.0f B per unknown."
          % (m.capitalize(), libraries, mesh, floor,
             "above" if floor > target else "%.0f B below" % (target - floor), own))
print("\nWhat stickslip's own bytes are (massif, doc/cookbook_string_membrane.md): the state (x, v,"
      " lambda, stick), 1/m's diagonal and the friction weights, the initial data, the fused step's two"
      " vectors and one work vector (8 B each), and the assembled A (for P1 in 1D about 52 B: values,"
      " column indices and PETSc's row arrays; a 9-point row in 2D about 130 B). Without SIMD in this"
      " deal.II (VectorizedArray of width 1) the matrix-free cell loop is compute-bound, and for P1/Q1"
      " its cell data and the two vectors it copies through are about as large as the matrix it"
      " replaces. With a consistent mass the matrix-free pair removes two sparse matrices (M and A), the"
      " algebraic-multigrid hierarchy of the elastic step's solver and the matrix copy it solves with.")
print("\nLoad average when this section ran: %.1f (2 cores); the memory figures do not depend on it."
      % os.getloadavg()[0])
PY
