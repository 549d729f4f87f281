#!/usr/bin/python3
"""Render one time step of a 2D membrane output of stickslip to a PNG.

Usage:
  render_membrane.py OUTPUT_DIR [-o OUT.png] [--field stick] [--warp displacement]
                     [--index -1] [--backend auto|vtk|matplotlib] [--size 1200x800]

Reads OUTPUT_DIR/solution.pvd (vtk_python.py), picks data set number --index
(Python-style: -1 is the last one), reads that .pvtu with VTK's own reader,
warps the 2D mesh by the scalar point field --warp (default displacement; max
warp = 0.3 x the larger side of the domain's bounding box), colours it by the
scalar point field --field (default stick: two colours, stick and slip; any
other field, e.g. velocity or displacement, on the viridis scale) and writes a
PNG (default OUTPUT_DIR/membrane.png, at least 800x600) with a colour bar and
the time (the .pvd's timestep attribute) in the title.  stick is 0 on the
clamped (Dirichlet) nodes, which carry no friction: a clamped edge shows as a
thin slipping rim.

Two rendering paths:
  vtk         vtkWarpScalar + vtkRenderWindow with SetOffScreenRendering(1),
              vtkWindowToImageFilter, vtkPNGWriter.
  matplotlib  fallback: the quads (each split into two triangles) drawn as a
              warped 3D surface (Poly3DCollection, one colour per triangle)
              beside a tripcolor map (top view).
--backend auto (default) uses the VTK path when the VTK build can render
offscreen here, else the matplotlib one.  Debian's python3-vtk9 (VTK 9.1) has
only the X11 OpenGL window (vtkXOpenGLRenderWindow, no EGL/OSMesa), which
cannot render offscreen without an X server and abort()s the process when
there is none, so auto mode (1) skips VTK outright when that window class has
no DISPLAY, and (2) otherwise renders with VTK in a child process and falls
back to matplotlib if that child fails.  On the project's machines (no X
server) the path actually used is therefore the matplotlib fallback; under
`xvfb-run -a` (Debian package xvfb) it is VTK. The script prints which one it
used and writes it into the image's footer.

Exit 0 on success, 1 on error (2 on bad usage).  Needs Debian's python3-vtk9
or python3-paraview, python3-numpy and python3-matplotlib (/usr/bin/python3).
"""
import argparse
import math
import os
import subprocess
import sys

# postprocess/vtk_python.py: the .pvd and .pvtu files of a run
from vtk_python import Error, point_array_names, point_values, read_pvd, read_pvtu, \
    require_vtk, select_record

WARP_FRACTION = 0.3
MIN_W, MIN_H = 800, 600


def parse_args(argv):
    p = argparse.ArgumentParser(description="Render a 2D stickslip membrane output to PNG.")
    p.add_argument("output_dir")
    p.add_argument("-o", "--output", default=None, help="PNG file (default OUTPUT_DIR/membrane.png)")
    p.add_argument("--field", default="stick",
                   help="scalar point field of the colour (default stick)")
    p.add_argument("--warp", default="displacement",
                   help="scalar point field of the warp (default displacement)")
    p.add_argument("--index", type=int, default=-1, help="data set of solution.pvd (default -1: last)")
    p.add_argument("--backend", choices=("auto", "vtk", "matplotlib"), default="auto")
    p.add_argument("--size", default="1200x800", help="image size WxH, at least 800x600")
    a = p.parse_args(argv)
    try:
        w, h = (int(s) for s in a.size.lower().split("x"))
    except ValueError:
        p.error("--size must look like 1200x800")
    a.width, a.height = max(w, MIN_W), max(h, MIN_H)
    if a.output is None:
        a.output = os.path.join(a.output_dir, "membrane.png")
    return a


# --------------------------------------------------------------------------- input
def select_dataset(output_dir, index):
    """Return (time, path of the .pvtu) of data set `index` of solution.pvd."""
    return select_record(read_pvd(output_dir, "solution"), index=index)


def read_grid(path, fields):
    """Read a .pvtu with VTK; return an unstructured grid with `fields` as point data."""
    grid = read_pvtu(path)
    for field in fields:
        grid = point_field(grid, field, path)
    # A membrane: quads (or triangles) in the z = 0 plane.
    from vtkmodules.vtkCommonDataModel import VTK_QUAD, VTK_TRIANGLE
    from vtkmodules.util.numpy_support import vtk_to_numpy
    types = set(vtk_to_numpy(grid.GetCellTypesArray()).tolist())
    if not types or not types <= {VTK_QUAD, VTK_TRIANGLE}:
        raise Error(f"{path} is not a 2D membrane output (VTK cell types {sorted(types)}; "
                    "want quads)")
    return grid


def point_field(grid, field, path):
    """`grid` with `field` as a scalar point array (cell data averaged to points)."""
    if grid.GetPointData().GetArray(field) is None:
        if grid.GetCellData().GetArray(field) is None:
            raise Error(f"no field '{field}' in {path} (point data: "
                        f"{', '.join(point_array_names(grid))})")
        from vtkmodules.vtkFiltersCore import vtkCellDataToPointData
        c2p = vtkCellDataToPointData()
        c2p.SetInputData(grid)
        c2p.PassCellDataOn()
        c2p.Update()
        grid = c2p.GetOutput()
    arr = grid.GetPointData().GetArray(field)
    if arr.GetNumberOfComponents() != 1:
        raise Error(f"field '{field}' has {arr.GetNumberOfComponents()} components; need a scalar")
    return grid


def values(grid, field):
    """The point field as a float numpy array; refuses non-finite values."""
    return point_values(grid, field, "the record drawn")


def geometry(grid, field, warp):
    """Domain size, colour field range, colour range, and the warp scale factor."""
    x0, x1, y0, y1, _, _ = grid.GetBounds()
    size = max(x1 - x0, y1 - y0) or 1.0
    w = values(grid, warp)
    wmax = float(abs(w).max())
    scale = WARP_FRACTION * size / wmax if wmax > 0 else 0.0
    f = values(grid, field)
    fmin, fmax = float(f.min()), float(f.max())
    amax = max(abs(fmin), abs(fmax))
    if field == "stick":    # a 0/1 flag: always the two colours
        return size, (fmin, fmax), (0.0, 1.0), scale
    if fmax - fmin <= 1e-14 * max(1.0, amax):   # constant field: a non-empty colour range
        pad = 0.5 * amax if amax > 0 else 1.0
        crange = (fmin - pad, fmax + pad)
    else:
        crange = (fmin, fmax)
    return size, (fmin, fmax), crange, scale


def title_text(field, warp, t, pvtu):
    ts = f"t = {t:g}" if t is not None else "t = ?"
    return f"{field} on the mesh warped by {warp}, {ts}   ({os.path.basename(pvtu)})"


STICK_COLOURS = ((0.93, 0.45, 0.13), (0.16, 0.40, 0.70))   # slip (0), stick (1)


def colour_map(field):
    """The matplotlib colour map of `field`: two colours for stick, else viridis."""
    import matplotlib
    from matplotlib.colors import ListedColormap
    if field == "stick":
        return ListedColormap(STICK_COLOURS, name="stick")
    return matplotlib.colormaps["viridis"] if hasattr(matplotlib, "colormaps") \
        else matplotlib.cm.get_cmap("viridis")


def write_atomically(out, write):
    """Call write(tmp_name) and rename to `out` (PNG suffix kept for VTK/matplotlib)."""
    d = os.path.dirname(os.path.abspath(out))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(out)}.{os.getpid()}.tmp.png")
    try:
        write(tmp)
        if not os.path.isfile(tmp) or os.path.getsize(tmp) == 0:
            raise Error("the renderer wrote no image")
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


# --------------------------------------------------------------------------- VTK path
def vtk_can_render_offscreen():
    """(bool, reason): False where VTK would certainly fail (X-only build, no DISPLAY)."""
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL factory)
    from vtkmodules.vtkRenderingCore import vtkRenderWindow
    cls = vtkRenderWindow().GetClassName()
    if cls == "vtkXOpenGLRenderWindow" and not os.environ.get("DISPLAY"):
        return False, ("this VTK build renders only through X11 (vtkXOpenGLRenderWindow, "
                       "no EGL/OSMesa) and DISPLAY is not set")
    return True, cls


def build_vtk_scene(renderer, grid, field, warp_field, t, pvtu, width, height):
    """Warped, coloured membrane + colour bar + title in `renderer`."""
    import matplotlib
    from vtkmodules.vtkCommonDataModel import vtkDataObject
    from vtkmodules.vtkCommonCore import vtkLookupTable
    from vtkmodules.vtkFiltersGeneral import vtkWarpScalar
    from vtkmodules.vtkFiltersGeometry import vtkDataSetSurfaceFilter
    from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper, vtkTextActor
    from vtkmodules.vtkRenderingAnnotation import vtkScalarBarActor

    size, (fmin, fmax), crange, scale = geometry(grid, field, warp_field)
    surface = vtkDataSetSurfaceFilter()
    surface.SetInputData(grid)
    warp = vtkWarpScalar()
    warp.SetInputConnection(surface.GetOutputPort())
    warp.SetInputArrayToProcess(0, 0, 0, vtkDataObject.FIELD_ASSOCIATION_POINTS, warp_field)
    warp.SetNormal(0.0, 0.0, 1.0)
    warp.UseNormalOn()
    warp.SetScaleFactor(scale)

    lut = vtkLookupTable()   # the matplotlib path's colours
    cmap = colour_map(field)
    n = 2 if field == "stick" else 256
    lut.SetNumberOfTableValues(n)
    for i in range(n):
        r, g, b, _ = cmap(i / (n - 1.0))
        lut.SetTableValue(i, r, g, b, 1.0)
    lut.SetTableRange(*crange)
    lut.Build()

    mapper = vtkPolyDataMapper()
    mapper.SetInputConnection(warp.GetOutputPort())
    mapper.SetScalarModeToUsePointFieldData()
    mapper.SelectColorArray(field)
    mapper.SetLookupTable(lut)
    mapper.SetScalarRange(*crange)
    mapper.ScalarVisibilityOn()
    actor = vtkActor()
    actor.SetMapper(mapper)
    prop = actor.GetProperty()     # mostly ambient: keep the colours readable
    prop.SetAmbient(0.55)
    prop.SetDiffuse(0.5)
    prop.SetSpecular(0.0)
    if grid.GetNumberOfCells() <= 20000:
        actor.GetProperty().EdgeVisibilityOn()
        actor.GetProperty().SetEdgeColor(0.15, 0.15, 0.15)
        actor.GetProperty().SetLineWidth(0.5)
    renderer.AddActor(actor)

    bar = vtkScalarBarActor()
    bar.SetLookupTable(lut)
    bar.SetTitle(field)
    bar.SetNumberOfLabels(2 if field == "stick" else 5)
    bar.SetLabelFormat("%-#8.3g")
    bar.SetPosition(0.85, 0.10)
    bar.SetWidth(0.09)
    bar.SetHeight(0.76)
    bar.UnconstrainedFontSizeOn()
    bar.SetVerticalTitleSeparation(8)
    for tp, fs in ((bar.GetTitleTextProperty(), 18), (bar.GetLabelTextProperty(), 15)):
        tp.SetColor(0, 0, 0)
        tp.SetFontSize(max(fs, height * fs // 800))
        tp.BoldOff()
        tp.ItalicOff()
        tp.ShadowOff()
    renderer.AddActor2D(bar)

    title = vtkTextActor()
    title.SetInput(title_text(field, warp_field, t, pvtu))
    tp = title.GetTextProperty()
    tp.SetFontSize(max(18, height // 32))
    tp.SetColor(0, 0, 0)
    tp.SetJustificationToCentered()
    tp.SetVerticalJustificationToTop()
    title.SetPosition(width / 2, height - 12)
    renderer.AddActor2D(title)

    foot = vtkTextActor()
    foot.SetInput(f"{field} in [{fmin:.4g}, {fmax:.4g}], warp x{scale:.3g} {warp_field} "
                  f"(max {WARP_FRACTION:g} x domain size); rendered with VTK offscreen")
    foot.GetTextProperty().SetFontSize(max(11, height // 60))
    foot.GetTextProperty().SetColor(0.3, 0.3, 0.3)
    foot.SetPosition(10, 8)
    renderer.AddActor2D(foot)

    renderer.SetBackground(1, 1, 1)
    # The matplotlib path's view: azimuth -60 degrees, elevation 30, z up.
    warp.Update()
    bx = warp.GetOutput().GetBounds()
    centre = [(bx[0] + bx[1]) / 2, (bx[2] + bx[3]) / 2, (bx[4] + bx[5]) / 2]
    az, el = math.radians(-60.0), math.radians(30.0)
    view = (math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el))
    cam = renderer.GetActiveCamera()
    cam.SetFocalPoint(*centre)
    cam.SetPosition(*(c + 3 * size * v for c, v in zip(centre, view)))
    cam.SetViewUp(0.0, 0.0, 1.0)
    renderer.ResetCamera()
    cam.Zoom(1.2)
    cam.SetWindowCenter(0.12, 0.0)   # shift the membrane left, clear of the colour bar


def render_vtk(grid, field, warp_field, t, pvtu, out, width, height, window=None):
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401
    import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text)
    import vtkmodules.vtkInteractionStyle  # noqa: F401
    from vtkmodules.vtkIOImage import vtkPNGWriter
    from vtkmodules.vtkRenderingCore import vtkRenderer, vtkRenderWindow, vtkWindowToImageFilter

    if window is None:      # (a test may pass a window with a context of its own)
        window = vtkRenderWindow()
        window.SetOffScreenRendering(1)
    window.SetSize(width, height)
    renderer = vtkRenderer()
    window.AddRenderer(renderer)
    build_vtk_scene(renderer, grid, field, warp_field, t, pvtu, width, height)
    window.Render()

    def write(tmp):
        grab = vtkWindowToImageFilter()
        grab.SetInput(window)
        grab.ReadFrontBufferOff()
        grab.Update()
        png = vtkPNGWriter()
        png.SetFileName(tmp)
        png.SetInputConnection(grab.GetOutputPort())
        png.Write()
    write_atomically(out, write)
    window.Finalize()


# --------------------------------------------------------------------------- matplotlib path
def triangles(grid):
    """(points, triangles, cell outlines): each quad split into two triangles."""
    import numpy as np
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkCommonDataModel import VTK_QUAD
    pts = vtk_to_numpy(grid.GetPoints().GetData()).astype(float)
    conn = vtk_to_numpy(grid.GetCells().GetConnectivityArray()).astype(np.int64)
    offs = vtk_to_numpy(grid.GetCells().GetOffsetsArray()).astype(np.int64)
    quads = vtk_to_numpy(grid.GetCellTypesArray()) == VTK_QUAD
    start = offs[:-1]
    q0 = start[quads]
    t0 = start[~quads]
    a, b, c, d = (conn[q0 + k] for k in range(4))
    tris = np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1),
                           np.stack([conn[t0], conn[t0 + 1], conn[t0 + 2]], 1)])
    outlines = [np.stack([a, b, c, d, a], 1),
                np.stack([conn[t0], conn[t0 + 1], conn[t0 + 2], conn[t0]], 1)]
    return pts, tris, outlines


def draw_warped(ax3, pts, tris, z, face_colours, ntri):
    """The warped surface as a Poly3DCollection with one colour per triangle."""
    import numpy as np
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    verts = np.stack([pts[tris][:, :, 0], pts[tris][:, :, 1], z[tris]], axis=2)
    # painter's order from the view direction (azim -60, elev 30), far first
    az, el = np.radians(-60.0), np.radians(30.0)
    view = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
    order = np.argsort(verts.mean(axis=1) @ view)
    poly = Poly3DCollection(verts[order], facecolors=face_colours[order],
                            linewidths=0.15 if ntri <= 2000 else 0.0,
                            edgecolors=(0.15, 0.15, 0.15, 0.5) if ntri <= 2000 else "none")
    ax3.add_collection3d(poly)


def render_matplotlib(grid, field, warp_field, t, pvtu, out, width, height, note):
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.tri as mtri
    from matplotlib import colors
    from matplotlib.collections import LineCollection

    size, (fmin, fmax), crange, scale = geometry(grid, field, warp_field)
    pts, tris, outlines = triangles(grid)
    f = values(grid, field)
    z = values(grid, warp_field) * scale
    tri = mtri.Triangulation(pts[:, 0], pts[:, 1], tris)
    norm = colors.Normalize(*crange)
    cmap = colour_map(field)
    ntri = len(tris)
    # one colour per triangle: the mean of its nodes (stick: the majority)
    face_colours = cmap(norm(f[tris].mean(axis=1)))

    dpi = 100.0 * min(width / 1200.0, height / 800.0)   # same layout at any size
    fig = plt.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    ax3 = fig.add_axes([-0.02, 0.06, 0.56, 0.84], projection="3d")
    draw_warped(ax3, pts, tris, z, face_colours, ntri)
    x0, x1, y0, y1, _, _ = grid.GetBounds()
    zlim = WARP_FRACTION * size
    ax3.set_xlim(x0, x1)
    ax3.set_ylim(y0, y1)
    ax3.set_zlim(-zlim, zlim)
    try:
        ax3.set_box_aspect((x1 - x0, y1 - y0, 2 * zlim))
    except AttributeError:
        pass
    ax3.view_init(elev=30, azim=-60)
    ax3.set_xlabel("x")
    ax3.set_ylabel("y")
    ax3.set_zticklabels([])   # warped units; the colour bar gives the values
    ax3.set_title(f"warped: z = {scale:.3g} x {warp_field} (max |z| = {WARP_FRACTION:g} x "
                  "domain size)" if scale > 0 else f"{warp_field} = 0: not warped",
                  fontsize=10)

    ax2 = fig.add_axes([0.585, 0.12, 0.30, 0.72])
    if field == "stick":
        pc = ax2.tripcolor(tri, facecolors=f[tris].mean(axis=1), shading="flat",
                           cmap=cmap, norm=norm)
    else:
        pc = ax2.tripcolor(tri, f, shading="gouraud", cmap=cmap, norm=norm)
    if ntri <= 20000:
        # cell outlines (each quad once, not its diagonal)
        segs = [pts[v, :2] for o in outlines for v in o]
        ax2.add_collection(LineCollection(segs, colors=(0.1, 0.1, 0.1, 0.35), linewidths=0.3))
    ax2.set_aspect("equal")
    ax2.set_xlim(x0, x1)
    ax2.set_ylim(y0, y1)
    ax2.set_xlabel("x")
    ax2.set_ylabel("y")
    ax2.set_title("top view", fontsize=10)
    cax = fig.add_axes([0.91, 0.12, 0.02, 0.72])
    bar = fig.colorbar(pc, cax=cax, label=field)
    if field == "stick":
        bar.set_ticks([0.25, 0.75])
        bar.set_ticklabels(["slip (0)", "stick (1)"])

    fig.suptitle(title_text(field, warp_field, t, pvtu), fontsize=14)
    fig.text(0.01, 0.01, f"{field} in [{fmin:.4g}, {fmax:.4g}], {grid.GetNumberOfCells()} "
             f"VTK cells; rendered with matplotlib ({note})", fontsize=8, color="0.35")
    write_atomically(out, lambda tmp: fig.savefig(tmp, dpi=dpi))
    plt.close(fig)


# --------------------------------------------------------------------------- main
def main(argv):
    a = parse_args(argv)
    require_vtk("render_membrane")
    try:
        t, pvtu = select_dataset(a.output_dir, a.index)
        grid = read_grid(pvtu, (a.field, a.warp))
        if a.backend == "vtk":
            render_vtk(grid, a.field, a.warp, t, pvtu, a.output, a.width, a.height)
            used = "VTK offscreen"
        elif a.backend == "matplotlib":
            render_matplotlib(grid, a.field, a.warp, t, pvtu, a.output, a.width, a.height,
                              "--backend matplotlib")
            used = "matplotlib (--backend matplotlib)"
        else:
            ok, why = vtk_can_render_offscreen()
            if ok:
                # VTK may still abort() (e.g. unreachable X server): try it in a child.
                cmd = [sys.executable, os.path.abspath(__file__), a.output_dir,
                       "-o", a.output, "--field", a.field, "--warp", a.warp,
                       "--index", str(a.index),
                       "--backend", "vtk", "--size", f"{a.width}x{a.height}"]
                try:
                    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       timeout=300)
                    ok = r.returncode == 0
                    why = f"VTK child exited with {r.returncode}"
                except subprocess.TimeoutExpired:
                    ok, why = False, "VTK child timed out"
            if ok:
                used = "VTK offscreen"
            else:
                render_matplotlib(grid, a.field, a.warp, t, pvtu, a.output, a.width,
                                  a.height, "fallback: VTK cannot render offscreen here")
                used = f"matplotlib fallback ({why})"
    except Error as e:
        print(f"render_membrane: error: {e}", file=sys.stderr)
        return 1
    print(f"render_membrane: wrote {a.output} ({a.field} warped by {a.warp}, t = {t}; {used})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
