#!/usr/bin/python3
"""Check the VTU output of a stickslip run (used by ctest).

Usage:
  check_vtu.py OUTPUT_DIR --cells N --degree P --dim D
               [--fields displacement,velocity,multiplier,stick]
               [--vectors velocity,strain,displacement] [--ranks R]

OUTPUT_DIR/solution.pvd (a ParaView collection written by deal.II) is parsed
with xml.etree; every .pvtu it lists must exist.  The LAST .pvtu listed is read
with VTK's own parallel reader (vtkXMLPUnstructuredGridReader) and checked:

  * points == N * (P+1)^D and cells == N * P^D: deal.II's DataOut writes each
    mesh cell as its own patch of (P+1)^D points, subdivided into P^D linear
    VTK cells (checked on real output: 2D, 64 cells, P = 2 gives 576 points and
    256 quads; 1D, 256 cells, P = 2 gives 768 points and 512 lines);
  * every VTK cell is a line (D = 1), quad (D = 2) or hexahedron (D = 3);
  * every requested point-data array exists, is scalar (--fields) or a
    3-component vector (--vectors), has one tuple per point and only finite
    values; `stick`, when requested, is 0 or 1;
  * with --ranks R: the .pvtu references exactly R pieces, each piece file
    exists, and the `subdomain` array exists with integer values in [0, R-1].
    deal.II writes cell vectors added to DataOut as POINT data (constant over
    each patch), so `subdomain` is looked up in the cell data first and then in
    the point data; the summary says where it was found;
  * if the piece carries deal.II's TIME field data, it matches the .pvd
    timestep of that .pvtu.

Prints a summary and PASS or FAIL; exits 0 on PASS, 1 on FAIL (2 on bad usage).
Needs Debian's python3-vtk9 or python3-paraview, and python3-numpy (run with /usr/bin/python3).
"""
import argparse
import math
import os
import sys
import xml.etree.ElementTree as ET

VTK_LINE, VTK_QUAD, VTK_HEXAHEDRON = 3, 9, 12
CELL_TYPE = {1: (VTK_LINE, "line"), 2: (VTK_QUAD, "quad"), 3: (VTK_HEXAHEDRON, "hexahedron")}


class Checker:
    def __init__(self):
        self.failures = 0

    def ok(self, msg):
        print(f"  ok    {msg}")

    def fail(self, msg):
        print(f"  FAIL  {msg}")
        self.failures += 1

    def check(self, cond, msg):
        (self.ok if cond else self.fail)(msg)
        return cond


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Check the solution.pvd / .pvtu / .vtu output of stickslip.")
    p.add_argument("output_dir")
    p.add_argument("--cells", type=int, required=True, help="number of active mesh cells N")
    p.add_argument("--degree", type=int, required=True, help="finite element degree P")
    p.add_argument("--dim", type=int, required=True, choices=(1, 2, 3), help="space dimension D")
    p.add_argument("--fields", default="displacement,velocity,multiplier,stick",
                   help="comma-separated point-data arrays that must exist")
    p.add_argument("--vectors", default="",
                   help="comma-separated point-data arrays that must exist as "
                        "3-component vectors (the slab's velocity, strain, displacement)")
    p.add_argument("--ranks", type=int, default=None, help="number of MPI ranks R")
    a = p.parse_args(argv)
    if a.cells < 1 or a.degree < 1 or (a.ranks is not None and a.ranks < 1):
        p.error("--cells, --degree and --ranks must be positive")
    a.fields = [f.strip() for f in a.fields.split(",") if f.strip()]
    a.vectors = [f.strip() for f in a.vectors.split(",") if f.strip()]
    return a


def read_pvd(path, c):
    """Return [(timestep or None, file name), ...] in document order."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        c.fail(f"cannot parse {path}: {e}")
        return []
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        c.fail(f"{path}: not a VTKFile of type Collection")
        return []
    entries = []
    for ds in root.iter("DataSet"):
        t = ds.get("timestep")
        try:
            t = float(t) if t is not None else None
        except ValueError:
            t = None
        entries.append((t, ds.get("file")))
    return entries


def pvtu_pieces(path, c):
    """Piece Source names listed in a .pvtu (parsed with xml.etree)."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        c.fail(f"cannot parse {path}: {e}")
        return None
    return [p.get("Source") for p in root.iter("Piece")]


def main(argv):
    a = parse_args(argv)
    # Imported here so that --help works without VTK.
    import numpy as np
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    os.pardir, "postprocess"))
    from vtk_python import require_vtk  # python3-vtk9 or python3-paraview
    require_vtk("check_vtu")
    from vtkmodules.vtkCommonCore import vtkCommand
    from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader
    from vtkmodules.util.numpy_support import vtk_to_numpy

    c = Checker()
    d = a.output_dir
    pvd = os.path.join(d, "solution.pvd")
    print(f"check_vtu: {d}  (N = {a.cells}, P = {a.degree}, D = {a.dim}"
          + (f", R = {a.ranks}" if a.ranks is not None else "") + ")")

    # --- the collection ------------------------------------------------------
    if not c.check(os.path.isfile(pvd), f"{pvd} exists"):
        print("FAIL")
        return 1
    entries = read_pvd(pvd, c)
    if not c.check(len(entries) > 0, f"solution.pvd lists {len(entries)} data set(s)"):
        print("FAIL")
        return 1
    missing = [f for _, f in entries if not f or not os.path.isfile(os.path.join(d, f))]
    c.check(not missing, "every .pvtu listed in solution.pvd exists"
            + (f" (missing: {', '.join(map(str, missing[:5]))}"
               + (", ..." if len(missing) > 5 else "") + ")" if missing else ""))
    times = [t for t, _ in entries if t is not None]
    if len(times) == len(entries):
        c.check(all(t1 >= t0 for t0, t1 in zip(times, times[1:])),
                f"timesteps non-decreasing ({times[0]:g} .. {times[-1]:g})")
    t_last, last = entries[-1]
    last_path = os.path.join(d, last or "")
    print(f"  last data set: {last} (timestep {t_last})")
    if not os.path.isfile(last_path):
        print("FAIL")
        return 1

    # --- the pieces ---------------------------------------------------------
    pieces = pvtu_pieces(last_path, c)
    if pieces is None:
        print("FAIL")
        return 1
    base = os.path.dirname(last_path)
    missing = [p for p in pieces if not p or not os.path.isfile(os.path.join(base, p))]
    c.check(len(pieces) > 0 and not missing,
            f"{len(pieces)} piece(s) referenced, all exist"
            + (f" (missing: {', '.join(map(str, missing))})" if missing else ""))
    if a.ranks is not None:
        c.check(len(pieces) == a.ranks, f"number of pieces {len(pieces)} == ranks {a.ranks}")

    # --- read with VTK ------------------------------------------------------
    errors = []
    reader = vtkXMLPUnstructuredGridReader()
    reader.AddObserver(vtkCommand.ErrorEvent, lambda obj, ev: errors.append(ev))
    reader.SetFileName(last_path)
    reader.Update()
    grid = reader.GetOutput()
    if not c.check(not errors and grid is not None,
                   "VTK read the .pvtu without errors"):
        print("FAIL")
        return 1

    n_pts, n_cells = grid.GetNumberOfPoints(), grid.GetNumberOfCells()
    exp_pts = a.cells * (a.degree + 1) ** a.dim
    exp_cells = a.cells * a.degree ** a.dim
    c.check(n_pts == exp_pts,
            f"points {n_pts} == N*(P+1)^D = {a.cells}*{a.degree + 1}^{a.dim} = {exp_pts}")
    c.check(n_cells == exp_cells,
            f"cells {n_cells} == N*P^D = {a.cells}*{a.degree}^{a.dim} = {exp_cells}")
    if n_cells > 0:
        try:
            types = vtk_to_numpy(grid.GetCellTypesArray())
        except (AttributeError, TypeError):
            types = np.array([grid.GetCellType(i) for i in range(n_cells)])
        want, name = CELL_TYPE[a.dim]
        bad = np.unique(types[types != want])
        c.check(bad.size == 0, f"all cells are VTK {name}s (type {want})"
                + (f"; other types found: {bad.tolist()}" if bad.size else ""))

    pd, cd = grid.GetPointData(), grid.GetCellData()
    names_p = [pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays())]
    names_c = [cd.GetArrayName(i) for i in range(cd.GetNumberOfArrays())]
    print(f"  point data: {', '.join(names_p) or '(none)'}")
    print(f"  cell data:  {', '.join(names_c) or '(none)'}")

    for f in a.fields + a.vectors:
        arr = pd.GetArray(f)
        if not c.check(arr is not None, f"point array '{f}' exists"):
            continue
        v = vtk_to_numpy(arr)
        nt, nc = arr.GetNumberOfTuples(), arr.GetNumberOfComponents()
        want_nc = 3 if f in a.vectors else 1
        c.check(nt == n_pts and nc == want_nc,
                f"'{f}': {nt} tuple(s) x {nc} component(s) (want {n_pts} x {want_nc})")
        finite = np.isfinite(v)
        if c.check(bool(finite.all()), f"'{f}': all values finite"
                   + ("" if finite.all() else f" ({int((~finite).sum())} not)")) and v.size:
            print(f"          range [{v.min():.6g}, {v.max():.6g}]")
            if f == "stick":
                c.check(bool(np.isin(v, (0.0, 1.0)).all()), "'stick': values in {0, 1}")

    # --- subdomain -------------------------------------------------------------
    where, sub = None, None
    if cd.GetArray("subdomain") is not None:
        where, sub = "cell", cd.GetArray("subdomain")
    elif pd.GetArray("subdomain") is not None:
        where, sub = "point", pd.GetArray("subdomain")
    if a.ranks is not None:
        if c.check(sub is not None, "array 'subdomain' exists"
                   + (f" (as {where} data)" if sub is not None else "")):
            s = vtk_to_numpy(sub)
            want = n_cells if where == "cell" else n_pts
            c.check(s.size == want, f"'subdomain': {s.size} value(s) (want {want})")
            good = bool(np.isfinite(s).all()) and bool((s == np.round(s)).all()) \
                and bool((s >= 0).all()) and bool((s <= a.ranks - 1).all())
            vals = np.unique(s[np.isfinite(s)]).astype(int).tolist() if s.size else []
            c.check(good, f"'subdomain': integer values in [0, {a.ranks - 1}] "
                    f"(found {vals[:10]}{' ...' if len(vals) > 10 else ''})")
            if good and len(vals) != a.ranks:
                print(f"  note  only {len(vals)} of {a.ranks} ranks own cells")
    elif sub is not None:
        print(f"  'subdomain' present as {where} data (not checked: no --ranks)")

    # --- time stamp -------------------------------------------------------
    fd = grid.GetFieldData()
    tarr = fd.GetArray("TIME") if fd is not None else None
    if tarr is not None and tarr.GetNumberOfTuples() > 0 and t_last is not None:
        t_vtu = tarr.GetValue(0)
        c.check(math.isclose(t_vtu, t_last, rel_tol=1e-5, abs_tol=1e-6),
                f"TIME field {t_vtu:g} matches .pvd timestep {t_last:g}")

    print("PASS" if c.failures == 0 else f"FAIL ({c.failures} check(s) failed)")
    return 0 if c.failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
