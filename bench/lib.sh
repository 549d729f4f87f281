# bench/lib.sh: what the benchmark sections share (sourced, not run).
# Every section measures its own limit (the STREAM-like triad) in the same
# run as its program, so a ratio never mixes two moments of a shared machine.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
exe=${STICKSLIP_EXE:-build/stickslip}
mpi=(mpirun --oversubscribe); [ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)

# The wall time of the time loop from stickslip's summary ("wall 3.39 s").
wall() { grep -o 'wall [0-9.]* s' | head -1 | awk '{print $2}'; }
# The peak resident set (kB) from /usr/bin/time -v.
rss_kb() { grep 'Maximum resident' | awk '{print $NF}'; }
# The elapsed wall clock (s) from /usr/bin/time -v.
elapsed_s() { grep 'Elapsed (wall clock)' | awk '{print $NF}' |
  awk -F: '{s = 0; for (i = 1; i <= NF; ++i) s = 60 * s + $i; print s}'; }
# The triad bandwidth in GB/s: one core alone (triad1) and per core with two
# together (triad2), the best of 3 (STREAM's convention).
best_triad() {
  for _ in 1 2 3; do "$@" build/bench/stickslip_stream_triad | awk '{print $2}'; done | sort -g | tail -1
}
measure_triad() {
  triad1=$(best_triad)
  triad2=$(best_triad "${mpi[@]}" -np 2)
}
# The 1-minute load average, for the sentence every section ends with.
load_average() { awk '{print $1}' /proc/loadavg; }
