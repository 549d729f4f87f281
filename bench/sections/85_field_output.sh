#!/usr/bin/env bash
# The cost of one field write (issue 33, item 2): deal.II's VTU writer (what
# every model writes), its HDF5 + XDMF writer, and stickslip's own writer of
# the nodal values (Output/Field format = hdf5), against the file system's
# floor measured in the same run (bench/field_output_formats.cc), for the
# body's volume fields (displacement, velocity, a cell scalar) at about 10^6
# unknowns in 2D and 3D, on 1 and 2 ranks.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
exe=build/bench/stickslip_field_output_formats
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
{
  for np in 1 2; do
    "${mpi[@]}" -np $np $exe 2 700 3 "$scratch/out"
    "${mpi[@]}" -np $np $exe 3 70 3 "$scratch/out"
  done
} > "$scratch/lines.txt"
python3 - "$scratch/lines.txt" "$(uptime | sed 's/.*load average: //')" <<'PY'
import re, sys
rows = []
for line in open(sys.argv[1]):
    m = re.match(r"(\dD)\s+(\d+) unknowns (\d) ranks\s+(.+?)\s+([\d.]+) s/write"
                 r"(?:\s+([\d.]+) MB/write\s+([\d.]+) s and\s+([\d.]+) MB)?", line)
    if m:
        rows.append(m.groups())
print("## Field output: one write of the body's volume fields\n")
print("VTU and HDF5 + XDMF as deal.II writes them, and stickslip's HDF5 writer of the "
      "nodal values (`HDF5 direct`, Output/Field format = hdf5; its numbering of the "
      "nodes and mesh file are written once per run) (`bench/field_output_formats.cc`), "
      "about 10^6 unknowns, the smallest of 3 writes; the floor is one `fwrite` of as many "
      "bytes as the uncompressed VTU, from the same process. `build_patches` is paid "
      "before either writer. Load average at the end: %s.\n" % sys.argv[2])
print("| case | ranks | step | s per write | MB per write | s per 10^6 unknowns |")
print("|---|---|---|---|---|---|")
for dim, n, ranks, what, s, mb, s_per, mb_per in rows:
    print("| %s, %s unknowns | %s | %s | %s | %s | %s |" % (
        dim, n, ranks, what, s, mb or "", s_per or ""))
seconds = {}
for dim, n, ranks, what, s, *_ in rows:
    seconds.setdefault((dim, ranks), {})[what.strip()] = float(s)
print("\nRatios in the same run (per case: 2D/3D, 1/2 ranks):\n")
for (dim, ranks), t in seconds.items():
    print("- %s, %s rank(s): VTU (zlib best_speed) %.0fx the floor, plus build_patches "
          "%.1fx the VTU write; deal.II's HDF5 path %.1fx VTU, %.0f%% of it in the vertex "
          "filter; the HDF5 file alone %.1fx the floor" % (
              dim, ranks, t["VTU, zlib best_speed"] / t["floor: fwrite of those bytes"],
              t["build_patches (all formats)"] / t["VTU, zlib best_speed"],
              t["HDF5+XDMF, mesh every write"] / t["VTU, zlib best_speed"],
              100 * min(1, t["of which: vertex filter"] / t["HDF5+XDMF, mesh every write"]),
              t["of which: HDF5 file"] / t["floor: fwrite of those bytes"]))
print("\nstickslip's HDF5 writer (Output/Field format = hdf5) in the same runs:\n")
for (dim, ranks), t in seconds.items():
    vtu = t["VTU, zlib best_speed"] + t["build_patches (all formats)"]
    print("- %s, %s rank(s): double %.4f s per write, %.1fx the floor, %.0fx faster than "
          "VTU with its build_patches; single %.4f s; the numbering and mesh, once, %.4f s" % (
              dim, ranks, t["HDF5 direct, double"],
              t["HDF5 direct, double"] / t["floor: fwrite of those bytes"],
              vtu / t["HDF5 direct, double"], t["HDF5 direct, single"],
              t["HDF5 direct: nodes + mesh, once"]))
print("\nSo neither deal.II writer is near what the disk allows: the time goes into "
      "building patches and formatting (VTU) or merging vertices (HDF5), not into "
      "bytes. A writer of the nodal values themselves (the mesh once per series, each "
      "output the owned values as one HDF5 hyperslab, an XDMF record listing them) "
      "skips all three: the rows `HDF5 direct` above.")
PY
