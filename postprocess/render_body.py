#!/usr/bin/python3
"""Draw one volume output of a Model = body run on its deformed mesh (PNG).

Usage:
  render_body.py OUTPUT_DIR [-o OUT.png] [--time T | --index K] [--field von_mises]
                 [--change-since T0] [--warp FACTOR|auto] [--vmin V] [--vmax V]
                 [--no-contact] [--view ELEV,AZIM] [--size 1400x800]

Reads OUTPUT_DIR/solution.pvd or solution.xdmf (Output/Field format = hdf5;
vtk_python.py), picks the record nearest to --time
(or number --index, Python-style; default the last), reads that .pvtu with
VTK's vtkXMLPUnstructuredGridReader and draws the body displaced by
FACTOR x displacement (--warp, default auto: the largest displacement drawn as
4% of the body's size), coloured by --field (default von_mises; a vector field
such as velocity is drawn by its magnitude, velocity:0 picks a component;
stress_xx, stress_xy, ... are the stress components).  --change-since T0
draws the field minus its value at the record nearest to T0 (the stress a
slip front releases or brings, on top of the static stress of the press).
The colour range is the 0.5-99.5 percentile range of the values (the stress
is singular at the corners of the clamped top), or --vmin/--vmax.

2D: the quads (each split into two triangles) with matplotlib's tripcolor;
below it, when contact.pvd has a record within half a history interval of
the same time, the slip rate along the contact surface at that moment: the
instantaneous slip_rate (it flickers between stick and slip from one step to
the next) and the mean slip rate since the contact record before, from the
nodes' displacement (log scale; stuck nodes on the bottom line).
3D: the outer surface (vtkDataSetSurfaceFilter) as coloured polygons in a
matplotlib 3D view (--view, default 25,-60), drawn back to front.

Offscreen VTK rendering is not available on the project's machines (see
render_membrane.py); this script uses VTK only to read.  Default output:
OUTPUT_DIR/body.png.  Exit 0 on success, 1 on error, 2 on bad usage.  Needs
Debian's python3-vtk9 or python3-paraview, python3-numpy and python3-matplotlib (/usr/bin/python3).
"""
import argparse
import os
import sys

# postprocess/vtk_python.py: the .pvd and .pvtu files of a run
from vtk_python import Error, point_values, read_pvd, read_record, require_vtk, select_record

WARP_FRACTION = 0.04


def parse_args(argv):
    p = argparse.ArgumentParser(description="Draw a Model = body volume output on the "
                                            "deformed mesh.")
    p.add_argument("output_dir")
    p.add_argument("-o", "--output", default=None, help="PNG file (default OUTPUT_DIR/body.png)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--time", type=float, default=None, help="the record nearest to this time")
    g.add_argument("--index", type=int, default=None, help="record number (-1: the last)")
    p.add_argument("--field", default="von_mises",
                   help="point field: a scalar, a vector (its magnitude) or NAME:K (component K)")
    p.add_argument("--change-since", type=float, default=None, metavar="T0",
                   help="draw the change of the field since the record nearest to T0 "
                        "(a slip front's stress drop stands out of the static stress)")
    p.add_argument("--warp", default="auto", help="displacement scale factor, or auto")
    p.add_argument("--vmin", type=float, default=None)
    p.add_argument("--vmax", type=float, default=None)
    p.add_argument("--no-contact", action="store_true", help="2D: no slip-rate panel")
    p.add_argument("--view", default="25,-60", help="3D: elevation,azimuth in degrees")
    p.add_argument("--size", default="1400x800", help="image size WxH in pixels")
    a = p.parse_args(argv)
    try:
        a.width, a.height = (int(s) for s in a.size.lower().split("x"))
        a.elev, a.azim = (float(s) for s in a.view.split(","))
    except ValueError:
        p.error("--size must look like 1400x800 and --view like 25,-60")
    if a.warp != "auto":
        try:
            a.warp = float(a.warp)
        except ValueError:
            p.error("--warp must be a number or auto")
    if a.output is None:
        a.output = os.path.join(a.output_dir, "body.png")
    return a


# --------------------------------------------------------------------------- input
def pvd_records(output_dir, name):
    """[Record(t, path, grid)] of OUTPUT_DIR/NAME.pvd (or .xdmf)."""
    return read_pvd(output_dir, name, "a Model = body run with Output/Field output = true?")


def read(record):
    grid = read_record(record)
    if grid.GetNumberOfCells() == 0:
        raise Error(f"{record.path} has no cells")
    return grid


def point_field(grid, spec, path):
    """The values of NAME, |NAME| (a vector) or NAME:K at the points."""
    import numpy as np
    name, _, comp = spec.partition(":")
    v = point_values(grid, name, path)
    if v.ndim == 1:
        if comp:
            raise Error(f"'{name}' is a scalar: no component {comp}")
        label = name
    elif comp:
        try:
            v, label = v[:, int(comp)], f"{name}[{int(comp)}]"
        except (ValueError, IndexError):
            raise Error(f"'{name}' has {v.shape[1]} components: no component '{comp}'")
    else:
        v, label = np.linalg.norm(v, axis=1), f"|{name}|"
    return v, label


def displacement(grid, path):
    d = point_values(grid, "displacement", path)
    if d.ndim != 2 or d.shape[1] != 3:
        raise Error(f"{path} has no vector field 'displacement'")
    return d


def length_unit(size):
    """(factor, name) of the length axes: metres for a body of 0.5 m or more
    (the body is in SI units; a unit square drawn as 1000 mm reads badly),
    millimetres below, micrometres below 0.5 mm."""
    if size >= 0.5:
        return 1.0, "m"
    if size >= 5e-4:
        return 1e3, "mm"
    return 1e6, "µm"


def length_text(value):
    """A length with the unit that fits it: "86 µm", "1.3 mm", "0.2 m"."""
    factor, unit = length_unit(abs(value))
    return f"{value * factor:.3g} {unit}"


def warp_words(scale):
    """What the warp does to the displacement, in the axis label."""
    if scale == 1:
        return "the displacement at its true size"
    return f"the displacement drawn x {scale:.3g}" + (", magnified" if scale > 1
                                                       else ", reduced")


def warp_factor(a, pts, disp):
    import numpy as np
    size = float(np.ptp(pts, 0).max()) or 1.0
    if a.warp != "auto":
        return a.warp
    dmax = float(np.linalg.norm(disp, axis=1).max())
    return WARP_FRACTION * size / dmax if dmax > 0 else 0.0


def contact_profile(output_dir, t, interval_guess):
    """The contact surface at the record of contact.pvd nearest to t (None if there is
    none within half a history interval): (x, instantaneous slip rate, mean slip rate
    since the record before (None for the first), t of the record)."""
    import numpy as np
    from vtkmodules.util.numpy_support import vtk_to_numpy
    try:
        records = pvd_records(output_dir, "contact")
    except Error:
        return None
    k = min(range(len(records)), key=lambda i: abs(records[i].t - t))
    tc = records[k].t
    if abs(tc - t) > 0.5 * interval_guess + 1e-15 or not os.path.isfile(records[k].path):
        return None

    def nodes(record):
        grid = read(record)
        pd = grid.GetPointData()
        if pd.GetArray("slip_rate") is None or pd.GetArray("displacement") is None:
            return None
        x = vtk_to_numpy(grid.GetPoints().GetData())[:, 0].astype(float)
        key, first = np.unique(np.round(x * 1e9), return_index=True)   # merge shared nodes
        return (x[first], vtk_to_numpy(pd.GetArray("slip_rate")).astype(float)[first],
                vtk_to_numpy(pd.GetArray("displacement")).astype(float)[first, 0])

    now = nodes(records[k])
    if now is None:
        return None
    mean = None
    if k > 0 and os.path.isfile(records[k - 1].path):
        before = nodes(records[k - 1])
        if before is not None and len(before[0]) == len(now[0]) and tc > records[k - 1].t:
            mean = np.abs(now[2] - before[2]) / (tc - records[k - 1].t)
    return now[0], now[1], mean, tc


# --------------------------------------------------------------------------- drawing
def norm_of(values, a):
    """Colour range: --vmin/--vmax, else the 0.5 and 99.5 percentiles (a corner
    singularity of the stress would otherwise take the whole scale); extend arrows
    where values lie outside."""
    import numpy as np
    from matplotlib import colors
    lo = a.vmin if a.vmin is not None else float(np.percentile(values, 0.5))
    hi = a.vmax if a.vmax is not None else float(np.percentile(values, 99.5))
    if hi <= lo:
        lo, hi = float(values.min()), float(values.max())
    if hi <= lo:
        hi = lo + (abs(lo) if lo != 0 else 1.0)
    below, above = bool((values < lo).any()), bool((values > hi).any())
    extend = "both" if below and above else "min" if below else "max" if above else "neither"
    return colors.Normalize(lo, hi), extend


def draw_2d(fig, a, grid, path, t, values, label, disp, scale, pvd_times):
    import numpy as np
    import matplotlib.tri as mtri
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkCommonDataModel import VTK_QUAD
    pts = vtk_to_numpy(grid.GetPoints().GetData()).astype(float)
    conn = vtk_to_numpy(grid.GetCells().GetConnectivityArray()).astype(np.int64)
    offs = vtk_to_numpy(grid.GetCells().GetOffsetsArray()).astype(np.int64)
    ctype = vtk_to_numpy(grid.GetCellTypesArray())
    if not (ctype == VTK_QUAD).all():
        raise Error(f"{path}: expected the quads of a 2D body")
    q = offs[:-1]
    p0, p1, p2, p3 = (conn[q + k] for k in range(4))
    tris = np.concatenate([np.stack([p0, p1, p2], 1), np.stack([p0, p2, p3], 1)])
    unit_factor, unit = length_unit(float(np.ptp(pts[:, :2], 0).max()))
    xy = (pts + scale * disp)[:, :2] * unit_factor
    tri = mtri.Triangulation(xy[:, 0], xy[:, 1], tris)
    interval = np.median(np.diff(pvd_times)) if len(pvd_times) > 1 else float("inf")
    profile = None if a.no_contact else contact_profile(a.output_dir, t, interval)
    (x0, y0), (x1, y1) = xy.min(0), xy.max(0)
    floor_y = pts[:, 1].min() * unit_factor
    pad = 0.03 * max(x1 - x0, y1 - y0)
    if profile is not None:
        ax = fig.add_axes([0.07, 0.36, 0.80, 0.56])
        axc = fig.add_axes([0.07, 0.08, 0.80, 0.20])
    else:
        ax = fig.add_axes([0.07, 0.10, 0.80, 0.80])
    norm, extend = norm_of(values, a)
    pc = ax.tripcolor(tri, values, shading="gouraud", cmap="viridis", norm=norm)
    cax = fig.add_axes([0.89, ax.get_position().y0, 0.02, ax.get_position().height])
    fig.colorbar(pc, cax=cax, label=label, extend=extend)
    has_floor = any(os.path.isfile(os.path.join(a.output_dir, "contact" + extension))
                    for extension in (".pvd", ".xdmf"))
    penetration = 0.0
    if has_floor:                                 # not for a membrane on its plane
        ax.axhline(floor_y, color="0.3", lw=2.0)  # the floor (reference position)
        # Below the floor by the true displacement: a compliant contact law
        # lets the body in; the warp magnifies that too.
        penetration = max(0.0, pts[:, 1].min() - float((pts[:, 1] + disp[:, 1]).min()))
    else:
        floor_y = y0
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(min(y0, floor_y) - pad, y1 + pad)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_ylabel(f"y [{unit}]")
    ax.set_xlabel(f"x [{unit}] (the deformed shape: {warp_words(scale)})")
    if penetration * scale * unit_factor > 0.005 * (y1 - y0):
        ax.set_title(f"drawn {length_text(penetration * scale)} inside the floor: the "
                     f"contact law's penetration of {length_text(penetration)}, drawn "
                     f"x {scale:.3g} with the displacement", fontsize=9)
    if profile is not None:
        xc, rate, mean, tc = profile
        top = max(float(rate.max()), float(mean.max()) if mean is not None else 0.0)
        floor = max(top * 1e-4, 1e-8)
        axc.semilogy(xc * unit_factor, np.maximum(rate, floor), color="0.6", lw=0.6,
                     label="slip_rate at t (flickers between stick and slip)")
        if mean is not None:
            axc.semilogy(xc * unit_factor, np.maximum(mean, floor), color="C3", lw=1.5,
                         label="mean slip rate since the record before")
        axc.set_ylim(floor, max(top * 2, floor * 10))
        axc.set_xlim(pts[:, 0].min() * unit_factor - pad, pts[:, 0].max() * unit_factor + pad)
        axc.set_ylabel("slip rate [m/s]")
        axc.set_xlabel(f"x [{unit}] (reference position)")
        axc.grid(True, which="major", alpha=0.3)
        axc.legend(loc="upper left", fontsize=8, framealpha=0.8)
        axc.set_title(f"contact surface at t = {tc:.6g} s; stuck nodes on "
                      "the bottom line", fontsize=9)
    return ax


def draw_3d(fig, a, grid, path, values, label, disp, scale):
    import numpy as np
    from matplotlib import cm
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
    from vtkmodules.vtkFiltersGeometry import vtkDataSetSurfaceFilter
    work = grid.NewInstance()
    work.DeepCopy(grid)
    arr = numpy_to_vtk(values, deep=1)
    arr.SetName("__shown")
    work.GetPointData().AddArray(arr)
    surf = vtkDataSetSurfaceFilter()
    surf.SetInputData(work)
    surf.Update()
    poly = surf.GetOutput()
    pts = vtk_to_numpy(poly.GetPoints().GetData()).astype(float)
    d = vtk_to_numpy(poly.GetPointData().GetArray("displacement")).astype(float)
    f = vtk_to_numpy(poly.GetPointData().GetArray("__shown")).astype(float)
    conn = vtk_to_numpy(poly.GetPolys().GetConnectivityArray()).astype(np.int64)
    offs = vtk_to_numpy(poly.GetPolys().GetOffsetsArray()).astype(np.int64)
    unit_factor, unit = length_unit(float(np.ptp(pts, 0).max()))
    xyz = (pts + scale * d) * unit_factor
    polys = [conn[offs[i]:offs[i + 1]] for i in range(len(offs) - 1)]
    verts = [xyz[p] for p in polys]
    face_values = np.array([f[p].mean() for p in polys])
    norm, extend = norm_of(f, a)
    ax = fig.add_axes([0.0, 0.04, 0.86, 0.88], projection="3d")
    coll = Poly3DCollection(verts, facecolors=cm.viridis(norm(face_values)),
                            edgecolors=(0, 0, 0, 0.15) if len(polys) < 20000 else "none",
                            linewidths=0.2)
    ax.add_collection3d(coll)
    lo, hi = xyz.min(0), xyz.max(0)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    try:
        ax.set_box_aspect(tuple(np.maximum(hi - lo, 1e-9)))
    except AttributeError:
        pass
    ax.view_init(elev=a.elev, azim=a.azim)
    ax.set_xlabel(f"x [{unit}]")
    ax.set_ylabel(f"y [{unit}]")
    ax.set_zlabel(f"z [{unit}]")
    ax.set_title(f"the deformed shape: {warp_words(scale)}", fontsize=9)
    cax = fig.add_axes([0.88, 0.15, 0.02, 0.66])
    sm = cm.ScalarMappable(norm=norm, cmap="viridis")
    sm.set_array(f)
    fig.colorbar(sm, cax=cax, label=label, extend=extend)
    return ax


def main(argv):
    a = parse_args(argv)
    require_vtk("render_body")
    try:
        import numpy as np
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from vtkmodules.util.numpy_support import vtk_to_numpy
        records = pvd_records(a.output_dir, "solution")
        record = select_record(records, a.time, a.index)
        t, path = record.t, record.path
        grid = read(record)
        values, label = point_field(grid, a.field, path)
        if a.change_since is not None:
            record0 = select_record(records, a.change_since)
            t0, path0 = record0.t, record0.path
            if record0 == record:
                raise Error(f"--change-since {a.change_since:g} selects the same record as "
                            f"the one drawn (t = {t:g}); the volume records are at "
                            + ", ".join(f"{r.t:g}" for r in records[:8])
                            + (", ..." if len(records) > 8 else ""))
            grid0 = read(record0)
            values0, _ = point_field(grid0, a.field, path0)
            if grid0.GetNumberOfPoints() != grid.GetNumberOfPoints() or not np.array_equal(
                    vtk_to_numpy(grid0.GetPoints().GetData()),
                    vtk_to_numpy(grid.GetPoints().GetData())):
                raise Error(f"{path0} and {path} have different points (another partition?)")
            values = values - values0
            label = f"{label}(t) - {label}({t0:g} s)"
        disp = displacement(grid, path)
        pts = vtk_to_numpy(grid.GetPoints().GetData()).astype(float)
        scale = warp_factor(a, pts, disp)
        three_d = float(np.ptp(pts[:, 2])) > 0
        dpi = 100.0
        fig = plt.figure(figsize=(a.width / dpi, a.height / dpi), dpi=dpi)
        if three_d:
            draw_3d(fig, a, grid, path, values, label, disp, scale)
        else:
            draw_2d(fig, a, grid, path, t, values, label, disp, scale,
                    [r[0] for r in records])
        fig.suptitle(f"{label} at t = {t:.6g} s, displacement x {scale:.3g}   "
                     f"({os.path.basename(path)})", fontsize=12)
        fig.text(0.01, 0.01, f"{label}: range [{values.min():.4g}, {values.max():.4g}]; "
                 f"{grid.GetNumberOfCells()} cells; drawn with matplotlib from the field files",
                 fontsize=8, color="0.35")
        d = os.path.dirname(os.path.abspath(a.output))
        os.makedirs(d, exist_ok=True)
        tmp = os.path.join(d, f".{os.path.basename(a.output)}.{os.getpid()}.tmp.png")
        try:
            fig.savefig(tmp, dpi=dpi)
            os.replace(tmp, a.output)
        finally:
            plt.close(fig)
            if os.path.exists(tmp):
                os.remove(tmp)
    except Error as e:
        print(f"render_body: error: {e}", file=sys.stderr)
        return 1
    print(f"render_body: wrote {a.output} ({label}, t = {t:g}, warp x{scale:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
