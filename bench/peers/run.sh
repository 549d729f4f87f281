#!/usr/bin/env bash
# bench/peers/run.sh: the frictional string of prm/string.prm solved by GetFEM,
# Siconos and stickslip; prints the markdown section of
# bench/sections/70_peers.sh (which installs the peers first). Needs
# python3-getfem, python3-siconos and VTK for Python (/usr/bin/python3).
# Environment: STICKSLIP_EXE (default build/stickslip); PEERS_WORK=DIR keeps
# the runs' JSON files in DIR (default: a temporary directory, removed), and
# PEERS_REUSE=1 then skips the runs whose file is already there.
# About 90 minutes on 2 quiet cores (an hour of it GetFEM at N = 8191).
set -euo pipefail
if [ "${1:-}" = --help ]; then sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
export STICKSLIP_EXE=${STICKSLIP_EXE:-build/stickslip}
# One thread per process: the peers' BLAS would otherwise take both cores.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
py=/usr/bin/python3
peers=bench/peers
if [ -n "${PEERS_WORK:-}" ]; then work=$PEERS_WORK; mkdir -p "$work"
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

reuse() { [ "${PEERS_REUSE:-0}" = 1 ] && [ -f "$work/$1.json" ]; }
stickslip() {  # scheme refinements steps
  reuse "ss_$1_$2_$3" && return
  $py $peers/stickslip_string.py --scheme "$1" --refinements "$2" --steps "$3" \
    --output "$work/ss_$1_$2_$3.json" 2>>"$work/log.txt"
}
getfem() {  # mass cells steps [final time]
  reuse "gf_$1_$2_$3${4:+_$4}" && return
  $py $peers/getfem_string.py --mass "$1" --cells "$2" --steps "$3" --final-time "${4:-4}" \
    --output "$work/gf_$1_$2_$3${4:+_$4}.json" 2>>"$work/log.txt"
}
# Siconos prints a warning per step when a relay solve fails: kept in the log.
siconos() {  # cells steps [final time]
  reuse "sic_$1_$2_${3:-4}" && return
  $py $peers/siconos_string.py --cells "$1" --steps "$2" --final-time "${3:-4}" \
    --output "$work/sic_$1_$2_${3:-4}.json" 2>>"$work/log.txt"
}

# The reference: the centered explicit scheme on 2^15 cells, dt = h/2.
stickslip centered 15 262144
for r in 10 13; do
  cells=$((1 << r))
  # dt = h/2 for the explicit schemes (CFL: dt < h), then finer for Lie.
  stickslip lie $r $((8 * cells)); stickslip lie $r $((32 * cells))
  stickslip centered $r $((8 * cells))
  stickslip centered-implicit $r $((8 * cells)); stickslip centered-implicit $r $((cells))
done
stickslip lie 10 $((128 * 1024))
# The centered scheme's error at N = 1023 stays at its spatial floor (4.6e-6
# for dt = h/4 and h/8): the next mesh, for the comparison at equal accuracy
# with GetFEM's consistent mass.
stickslip centered 11 $((8 * 2048))
# GetFEM: dt = 4 h and h/2 at N = 1023; at N = 8191 the whole run with
# dt = 4 h (8192 steps, the consistent mass: about an hour) and a timing
# probe of 16 steps of dt = h/2 (that whole run would take most of a day).
getfem consistent 1024 1024; getfem lumped 1024 1024
getfem consistent 1024 8192; getfem lumped 1024 8192
getfem consistent 8192 8192
getfem consistent 8192 65536 0.0009765625
# Siconos: the same scheme as GetFEM with the lumped mass (checked below on
# 63 unknowns), but a step costs O(n^3): timing probes of 10 steps.
siconos 64 512; getfem lumped 64 512
siconos 256 2048 0.01953125; siconos 512 4096 0.009765625

echo "## Peers: GetFEM and Siconos on the frictional string"
echo
echo "The string of \`prm/string.prm\` (doc/theory.md §2: c = 1, g = 2, f = 0, u0 = sin(pi x),"
echo "u1 = 0, fixed ends, T = 4; it is at rest everywhere from t ~ 2.0 on), P1 on 2^10 and 2^13 cells"
echo "(and 2^11 for the comparison at equal accuracy)."
echo "Errors: the final u and v at the run's nodes against stickslip's centered explicit scheme on"
echo "2^15 cells with dt = h/2 (the reference). Loop wall: the time loop only (stickslip's summary,"
echo "the Python loop of the peers); a dof-update is one unknown advanced one step. One thread each;"
echo "the machine is shared (load average below), so single timings may be off by up to 2x."
echo
$py $peers/compare.py "$work"/ss_centered_15_262144.json \
  $(ls "$work"/ss_*_10_*.json "$work"/gf_*_1024_*.json "$work"/ss_*_11_*.json \
       "$work"/ss_*_13_*.json "$work"/gf_consistent_8192_8192.json)
$py - "$work" <<'PY'
import json, sys
w = sys.argv[1]
load = lambda name: json.load(open(f"{w}/{name}.json"))
import numpy as np
sic, gfl = load("sic_64_512_4"), load("gf_lumped_64_512")
same = np.abs(np.array(sic["u"]) - np.array(gfl["u"])).max()
p1, p2 = load("sic_256_2048_0.01953125"), load("sic_512_4096_0.009765625")
s1, s2 = p1["loop_seconds"] / p1["steps"], p2["loop_seconds"] / p2["steps"]
order = np.log(s2 / s1) / np.log(511 / 255)
at1k = s2 * (1023 / 511) ** order
print(f"\n**Siconos** (MoreauJeanOSI, theta = 1/2, lumped mass, one relay problem per step, PGS to 1e-12;"
      f" the relay kept active with `setConstraintActivationThreshold`, since Moreau-Jean otherwise"
      f" drops an interaction whose position-level output is positive, the rule of unilateral contact)"
      f" integrates exactly the GetFEM lumped-mass scheme: on 63 unknowns and 512 steps their final u"
      f" agree to {same:.1e}. Its accuracy is therefore GetFEM's lumped row. But a step costs"
      f" {s1:.2f} s at 255 unknowns and {s2:.2f} s at 511 (10-step probes): it grows as n^{order:.1f},"
      f" as a dense O(n^3) operation every step would (the Delassus matrix H W^-1 H^T of this"
      f" problem is full), about {at1k:.0f} s per step at 1023 unknowns by that law, so the"
      f" N = 10^3 and 10^4 runs were not made.")
PY
$py - "$work" <<'PY'
import json, sys
w = sys.argv[1]
gf = json.load(open(f"{w}/gf_consistent_1024_8192.json"))
per_step = gf["loop_seconds"] / gf["steps"]
big = json.load(open(f"{w}/gf_consistent_8192_65536_0.0009765625.json"))
whole = json.load(open(f"{w}/gf_consistent_8192_8192.json"))
per_step_big = big["loop_seconds"] / big["steps"]
print(f"\n**GetFEM** writes the string in its weak-form language: theta = 1/2 (Crank-Nicolson) for the"
      f" elastic force, the friction impulse implicit at the end-of-step velocity (the same scheme as"
      f" Siconos' Moreau-Jean), the nodal multiplier by the projection equation lam = P(lam + r v)"
      f" solved by GetFEM's Newton (semismooth: an active-set method), consistent or lumped mass."
      f" It is unconditionally stable, so it may take dt >= h, but every step re-assembles and solves"
      f" a sparse system through Python: {1e3 * per_step:.0f} ms per step at 1023 unknowns and"
      f" {1e3 * per_step_big:.0f} ms at 8191 (a {big['steps']}-step probe; the whole dt = 4 h run at"
      f" 8191 unknowns took {whole['loop_seconds']:.0f} s, {1e3 * whole['loop_seconds'] / whole['steps']:.0f} ms"
      f" per step), so the 8191-unknown run at dt = h/2 ({65536} steps,"
      f" ~{65536 * per_step_big / 3600:.1f} h) was not made."
      f" What a user gets by picking a peer: the same physics, an implicit scheme, and the run times"
      f" of the table at the accuracy of the bullets above. stickslip's Lie splitting is the fastest"
      f" step but first order in dt; its centered scheme costs little more per step and is about as"
      f" accurate as the peers' theta = 1/2 at the same dt (the table).")
PY
