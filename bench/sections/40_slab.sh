#!/usr/bin/env bash
# The slab (Model = slab): the interior transport kernel
# (bench/slab_transport.cc) and the full application (contact node included)
# on 2^22 cells, 1 and 2 ranks, against the bandwidth limit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
measure_triad
slab_k1=$(build/bench/stickslip_slab_transport)
slab_k2=$("${mpi[@]}" -np 2 build/bench/stickslip_slab_transport)
slab_args=(prm/slab_long.prm --quiet --set "Output/Overwrite=true" --set "Output/Interval=1"
  --set "Slab/Number of cells=4194304" --set "Time/Final time=1.2e-10")
slab_a1=$("$exe" "${slab_args[@]}" --set "Output/Directory=$work/a1")
slab_a2=$("${mpi[@]}" -np 2 "$exe" "${slab_args[@]}" --set "Output/Directory=$work/a2")
slab_rate() { grep -o '([0-9.e+]* interior node-updates/s per rank)' | tr -d '(' | awk '{print $1}'; }
python3 - "$triad1" "$triad2" "$slab_k1" "$slab_k2" "$(slab_rate <<<"$slab_a1")" "$(slab_rate <<<"$slab_a2")" <<'PY'
import sys
triad1, triad2 = float(sys.argv[1]), float(sys.argv[2])
def rates(text):
    return {l.split()[0]: float(l.split()[1]) for l in text.splitlines() if l.startswith("slab_")}
k1, k2 = rates(sys.argv[3]), rates(sys.argv[4])
a1, a2 = float(sys.argv[5]), float(sys.argv[6])
B = 96
print("## Slab: interior transport of the characteristics (Model = slab)\n")
print("4194305 nodes, CFL 0.9. A node-update advances b+ and b- (3 components each) one step: at least"
      " %d B of memory traffic (read 6 doubles, write 6). The limit is the triad bandwidth / %d B;"
      " with 2 ranks, the 2-core triad per core." % (B, B))
print("The contact node lives on rank 0 and needs no communication; ranks exchange one ghost node"
      " with each neighbour per step (MPI_Sendrecv) and never synchronize globally, so the"
      " boundary work (a few hundred flops per step) does not serialize the ranks.\n")
print("| run | ranks | node-updates/s per core | fraction of the bandwidth limit |")
print("|---|---|---|---|")
for name, label in (("slab_upwind_updates_per_s_per_rank", "kernel, upwind (42)-(43)"),
                    ("slab_lax_wendroff_updates_per_s_per_rank", "kernel, Lax-Wendroff")):
    print("| %s | 1 | %.3g | **%.0f%%** |" % (label, k1[name], 100 * k1[name] * B / (triad1 * 1e9)))
    print("| %s | 2 | %.3g | %.0f%% |" % (label, k2[name], 100 * k2[name] * B / (triad2 * 1e9)))
print("| full run (prm/slab_long.prm, upwind, contact/friction node, 59 steps) | 1 | %.3g | %.0f%% |" % (a1, 100 * a1 * B / (triad1 * 1e9)))
print("| full run, same | 2 | %.3g | %.0f%% |" % (a2, 100 * a2 * B / (triad2 * 1e9)))
PY
echo; echo "Load average when this section ran: $(load_average) (2 cores): on a shared machine the ratios move by tens of per cent between runs."
