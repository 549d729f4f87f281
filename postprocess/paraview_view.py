"""The standard ParaView view of a stickslip run, saved as a PNG.

Run by ParaView's Python (pvbatch or pvpython), not by plain python3:

    pvbatch postprocess/paraview_view.py RUN_DIR [-o OUT.png] [--time T]
            [--field NAME] [--size 1200x800]

Debian's ParaView (python3-paraview) renders only through X11: without a
display run it as `xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" pvbatch postprocess/paraview_view.py RUN_DIR`
(Debian package xvfb); the script stops with that advice when DISPLAY is unset
and the ParaView build needs X.

Opens the record of RUN_DIR/solution.pvd nearest to --time (default: the
last; the .pvd is read by postprocess/vtk_python.py), finds the model
('Model' and 'Dimension' in RUN_DIR/parameters.prm, else the fields and the
mesh) and sets its view:

  string    the string warped across by its displacement u (at most 0.3 x
            its length), coloured by stick (slip / stick), as a thick line;
  membrane  the membrane warped by u (z, at most 0.3 x its size), coloured
            by stick, seen from above at an angle;
  chain     the masses (points) and the springs between them, warped across
            by their displacements, coloured by stick;
  slab      the slab (its depth z drawn along x) warped across by the
            tangential displacement u_1 and coloured by the tangential
            velocity v_1 (scalar fields displacement_1.. or 3-component
            vectors displacement, velocity: both are accepted);
  body      the body warped by its displacement vector (the largest drawn as
            4% of its size) and coloured by the von Mises stress, over the
            0.5-99.5 percentile range of its values (the stress is singular
            at the corners of a clamped edge): a body at rest has a stress
            field but no velocity (|velocity| of body_membrane at rest is
            1e-38 everywhere, a uniform picture).

--field NAME colours by another point field instead (a vector by its
magnitude; a body: e.g. velocity to see slip fronts run). The title gives the
model, the time, the warp factor and the colour; the line printed on success
the colour's range. Default output: RUN_DIR/paraview.png (written to a
temporary name and renamed). Exit 0 on success, 1 on error (with a message
saying why).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# postprocess/vtk_python.py: the .pvd and .pvtu files of a run
from vtk_python import Error, point_values, read_pvd, read_pvtu, select_record  # noqa: E402

WARP_FRACTION = 0.3       # string, membrane, chain, slab: the largest warp / size
BODY_WARP_FRACTION = 0.04  # body: as postprocess/render_body.py
STICK_RGB = [0.0, 0.93, 0.45, 0.13, 1.0, 0.16, 0.40, 0.70]  # slip, stick (as render_membrane)
PERCENTILES = (0.5, 99.5)  # the colour range of a body's field (as render_body.py)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="paraview_view.py",
                                description="Standard ParaView view of a stickslip run.")
    p.add_argument("run_dir", help="output directory of a run (holds solution.pvd)")
    p.add_argument("-o", "--output", help="PNG file (default RUN_DIR/paraview.png)")
    p.add_argument("--time", type=float, help="time of the record (default: the last)")
    p.add_argument("--field", help="colour by this point field (a vector: its magnitude) "
                                   "instead of the model's default")
    p.add_argument("--size", default="1200x800", help="image size WxH (default 1200x800)")
    a = p.parse_args(argv)
    try:
        a.width, a.height = (int(s) for s in a.size.lower().split("x"))
    except ValueError:
        p.error("--size must look like 1200x800")
    if a.output is None:
        a.output = os.path.join(a.run_dir, "paraview.png")
    return a


def top_level_settings(run_dir):
    """{'Model': ..., 'Dimension': ...} from parameters.prm (outside subsections)."""
    settings, depth = {}, 0
    path = os.path.join(run_dir, "parameters.prm")
    if not os.path.isfile(path):
        return settings
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("subsection"):
                depth += 1
            elif line == "end":
                depth -= 1
            elif depth == 0:
                m = re.match(r"set\s+(\w+)\s*=\s*(\S+)", line)
                if m:
                    settings[m.group(1)] = m.group(2)
    return settings


def check_display():
    """Refuse early (instead of an abort() inside VTK) when X11 is needed but absent."""
    if os.environ.get("DISPLAY") or not sys.platform.startswith("linux"):
        return
    from paraview.modules.vtkRemotingViews import vtkPVRenderingCapabilitiesInformation
    info = vtkPVRenderingCapabilitiesInformation()
    info.CopyFromObject(None)
    if not info.Supports(vtkPVRenderingCapabilitiesInformation.HEADLESS_RENDERING):
        raise Error("this ParaView renders through X11 only (no EGL/OSMesa) and DISPLAY is "
                    "not set: run it as 'xvfb-run -a -s \"-screen 0 1280x1024x24 -noreset\" "
                    "pvbatch paraview_view.py ...' (Debian package xvfb; -noreset: "
                    "postprocess/README.md)")


def point_arrays(source):
    """{name: number of components} of the reader's point data."""
    info = source.PointData
    return {name: info[name].GetNumberOfComponents() for name in info.keys()}


def detect_model(run_dir, arrays, bounds):
    """'string', 'membrane', 'chain', 'slab' or 'body'."""
    settings = top_level_settings(run_dir)
    model = settings.get("Model")
    flat = bounds[3] - bounds[2] == 0 and bounds[5] - bounds[4] == 0
    if model == "string":
        return "string" if settings.get("Dimension", "1") == "1" and flat else "membrane"
    if model in ("chain", "slab", "body"):
        return model
    if model is not None:
        raise Error(f"Model = {model} writes no solution.pvd view this script knows "
                    "(string, membrane, chain, slab, body)")
    if "displacement_1" in arrays or ("strain" in arrays and flat):
        return "slab"
    if arrays.get("displacement") == 3:
        return "body"
    if "friction_force" in arrays:
        return "chain"
    if "stick" in arrays:
        return "string" if flat else "membrane"
    raise Error(f"cannot tell the model: no parameters.prm in {run_dir} and point fields "
                f"{sorted(arrays)}")


def component(source, arrays, name, index, result):
    """A scalar array `result`: name_<index+1> (scalar fields) or name[index] (vector)."""
    from paraview import simple
    if f"{name}_{index + 1}" in arrays:
        expression = f"{name}_{index + 1}"
    elif arrays.get(name, 0) > index:
        expression = f"{name}_{'XYZ'[index]}"
    elif arrays.get(name) == 1 and index == 0:
        expression = name
    else:
        raise Error(f"no field {name}_{index + 1} or {name} with {index + 1} components "
                    f"(point fields: {sorted(arrays)})")
    calc = simple.Calculator(Input=source)
    calc.AttributeType = "Point Data"
    calc.ResultArrayName = result
    calc.Function = expression
    return calc


def data_range(source, name, t):
    source.UpdatePipeline(t)
    lo, hi = source.PointData[name].GetRange(-1 if
                                             source.PointData[name].GetNumberOfComponents() > 1
                                             else 0)
    return lo, hi


def warp_across(source, name, size, t, normal):
    """WarpByScalar along `normal`, the largest |value| drawn as WARP_FRACTION x size."""
    from paraview import simple
    lo, hi = data_range(source, name, t)
    amax = max(abs(lo), abs(hi))
    factor = WARP_FRACTION * size / amax if amax > 0 else 0.0
    warp = simple.WarpByScalar(Input=source)
    warp.Scalars = ["POINTS", name]
    warp.Normal = normal
    warp.UseNormal = 1
    warp.ScaleFactor = factor
    return warp, factor


def colour_by_stick(display, view):
    from paraview import simple
    simple.ColorBy(display, ("POINTS", "stick"))
    lut = simple.GetColorTransferFunction("stick")
    lut.RGBPoints = STICK_RGB
    lut.Discretize = 1
    lut.NumberOfTableValues = 2
    lut.RescaleOnVisibilityChange = 0
    lut.AutomaticRescaleRangeMode = "Never"
    lut.RescaleTransferFunction(0.0, 1.0)
    display.SetScalarBarVisibility(view, True)
    bar = simple.GetScalarBar(lut, view)
    bar.Title = "stick (1) / slip (0)"
    bar.ComponentTitle = ""
    bar.DrawTickLabels = 0
    bar.RangeLabelFormat = "%.0f"
    return "colour stick"


def colour_by(display, view, name, component_mode=None):
    """Colour by a field of the pipeline over its whole range (slab: v_1)."""
    from paraview import simple
    simple.ColorBy(display, ("POINTS", name, component_mode) if component_mode
                   else ("POINTS", name))
    display.RescaleTransferFunctionToDataRange(True, False)
    display.SetScalarBarVisibility(view, True)
    return f"colour {name}"


def field_range(path, name):
    """(lo, hi, label, is vector): the PERCENTILES range of the point field `name`
    of the record at `path` (a vector: of its magnitude), read by vtk_python.py."""
    import numpy as np
    values = point_values(read_pvtu(path), name, path)
    vector = values.ndim == 2
    if vector:
        values = np.linalg.norm(values, axis=1)
    lo, hi = (float(v) for v in np.percentile(values, PERCENTILES))
    if hi <= lo:
        lo, hi = float(values.min()), float(values.max())
    if hi <= lo:                    # a constant field: a non-empty range around it
        hi = lo + (abs(lo) if lo != 0 else 1.0)
    return lo, hi, (f"{name} magnitude" if vector else name), vector


def colour_by_field(display, view, path, name):
    """Colour by the file's point field `name` over its PERCENTILES range."""
    from paraview import simple
    lo, hi, label, vector = field_range(path, name)
    simple.ColorBy(display, ("POINTS", name, "Magnitude") if vector else ("POINTS", name))
    lut = simple.GetColorTransferFunction(name)
    lut.RescaleOnVisibilityChange = 0
    lut.AutomaticRescaleRangeMode = "Never"
    lut.RescaleTransferFunction(lo, hi)
    display.SetScalarBarVisibility(view, True)
    bar = simple.GetScalarBar(lut, view)
    bar.Title = label
    bar.ComponentTitle = ""
    bar.RangeLabelFormat = "%-#.3g"
    return f"colour {label} from {lo:.3g} to {hi:.3g}"


def view_line(reader, view, model, arrays, bounds, t, record, field):
    """string, chain, slab: a line warped across (y) in a 2D view."""
    from paraview import simple
    size = (bounds[1] - bounds[0]) or 1.0
    if model == "slab":
        scalar = component(reader, arrays, "displacement", 0, "u_1")
        colour = component(scalar, arrays, "velocity", 0, "v_1")
        warp, factor = warp_across(colour, "u_1", size, t, [0, 1, 0])
        label = "u_1"
    else:
        warp, factor = warp_across(reader, "displacement", size, t, [0, 1, 0])
        label = "u"
    display = simple.Show(warp, view)
    display.SetRepresentationType("Surface")
    display.LineWidth = 4.0
    if field:
        colour = colour_by_field(display, view, record.path, field)
    elif model == "slab":
        colour = colour_by(display, view, "v_1")
    else:
        colour = colour_by_stick(display, view)
    if model == "chain":
        # a second representation needs a second proxy: Show(warp) again
        # would return the line's own
        points = simple.Show(simple.MergeBlocks(Input=warp), view)
        points.SetRepresentationType("Points")
        points.PointSize = 14.0
        points.RenderPointsAsSpheres = 1
        if field:
            colour_by_field(points, view, record.path, field)
        else:
            colour_by_stick(points, view)
    view.InteractionMode = "2D"
    return f"{label} warped across x {factor:.3g}; {colour}"


def view_membrane(reader, view, arrays, bounds, t, record, field):
    from paraview import simple
    size = max(bounds[1] - bounds[0], bounds[3] - bounds[2]) or 1.0
    warp, factor = warp_across(reader, "displacement", size, t, [0, 0, 1])
    display = simple.Show(warp, view)
    display.SetRepresentationType("Surface With Edges")
    display.EdgeColor = [0.15, 0.15, 0.15]
    colour = colour_by_field(display, view, record.path, field) if field \
        else colour_by_stick(display, view)
    view.CameraPosition = [bounds[0] - 1.2 * size, bounds[2] - 1.6 * size, 1.6 * size]
    view.CameraFocalPoint = [(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2, 0.0]
    view.CameraViewUp = [0, 0, 1]
    return f"u warped x {factor:.3g}; {colour}"


def view_body(reader, view, arrays, bounds, t, record, field):
    from paraview import simple
    if arrays.get("displacement") != 3 or "von_mises" not in arrays:
        raise Error(f"a body run writes the vector displacement and the von_mises stress; "
                    f"point fields: {sorted(arrays)}")
    size = max(bounds[1] - bounds[0], bounds[3] - bounds[2], bounds[5] - bounds[4]) or 1.0
    lo, hi = data_range(reader, "displacement", t)
    factor = BODY_WARP_FRACTION * size / hi if hi > 0 else 0.0
    warp = simple.WarpByVector(Input=reader)
    warp.Vectors = ["POINTS", "displacement"]
    warp.ScaleFactor = factor
    display = simple.Show(warp, view)
    display.SetRepresentationType("Surface")
    colour = colour_by_field(display, view, record.path, field or "von_mises")
    if bounds[5] - bounds[4] == 0:
        view.InteractionMode = "2D"
    else:
        view.CameraPosition = [bounds[1] + 1.5 * size, bounds[2] - 2.0 * size, 1.5 * size]
        view.CameraFocalPoint = [(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2,
                                 (bounds[4] + bounds[5]) / 2]
        view.CameraViewUp = [0, 0, 1]
    return f"displacement warped x {factor:.3g}; {colour}"


def style_bars(view):
    for bar in view.Representations:
        if bar.GetXMLName() == "ScalarBarWidgetRepresentation":
            bar.TitleColor = [0, 0, 0]
            bar.LabelColor = [0, 0, 0]
            bar.TitleFontSize = 20
            bar.LabelFontSize = 18
            bar.ScalarBarLength = 0.5
            bar.ScalarBarThickness = 24


def render(a):
    """Draw and save the view; return (model, t, what the view shows)."""
    from paraview import simple
    record = select_record(read_pvd(a.run_dir, "solution", "the run wrote no fields "
                                    "(Output/Field output = false, or a model without "
                                    "fields)"), a.time)
    check_display()
    if record.path.endswith(".xdmf"):
        # Output/Field format = hdf5: the record's grid, its cell fields (the
        # body's stress) averaged to the nodes like the VTU's point fields.
        reader = simple.CellDatatoPointData(
            Input=simple.Xdmf3ReaderS(FileName=[os.path.abspath(record.path)]))
        reader.PassCellData = 1
    else:
        reader = simple.XMLPartitionedUnstructuredGridReader(
            FileName=[os.path.abspath(record.path)])
    t = record.t
    reader.UpdatePipeline()
    arrays = point_arrays(reader)
    bounds = reader.GetDataInformation().GetBounds()
    model = detect_model(a.run_dir, arrays, bounds)

    view = simple.CreateView("RenderView")
    view.ViewSize = [a.width, a.height]
    view.Background = [1, 1, 1]
    try:
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    view.OrientationAxesVisibility = 0
    if model in ("string", "chain", "slab"):
        note = view_line(reader, view, model, arrays, bounds, t, record, a.field)
    elif model == "membrane":
        note = view_membrane(reader, view, arrays, bounds, t, record, a.field)
    else:
        note = view_body(reader, view, arrays, bounds, t, record, a.field)
    title = simple.Text(Text=f"{model}, t = {t:g}: {note}")
    text = simple.Show(title, view)
    text.WindowLocation = "Upper Center"
    text.FontSize = 22
    text.Color = [0, 0, 0]
    style_bars(view)
    if model in ("string", "chain", "slab"):
        view.ResetCamera()
        view.CameraPosition = [view.CameraFocalPoint[0], view.CameraFocalPoint[1], 10.0]
        view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    simple.Render(view)
    out = os.path.abspath(a.output)
    tmp = os.path.join(os.path.dirname(out), f".{os.path.basename(out)}.{os.getpid()}.png")
    simple.SaveScreenshot(tmp, view, ImageResolution=[a.width, a.height])
    if not os.path.isfile(tmp) or os.path.getsize(tmp) == 0:
        raise Error("ParaView wrote no image")
    os.replace(tmp, out)
    return model, t, note


def main(argv):
    a = parse_args(argv)
    try:
        import paraview.simple  # noqa: F401
    except ImportError as e:
        print(f"paraview_view: error: cannot import paraview.simple ({e}): run this script "
              "with ParaView's pvbatch or pvpython; Debian: apt-get install paraview "
              "python3-paraview (pvbatch without python3-paraview cannot run it)",
              file=sys.stderr)
        return 1
    try:
        model, t, note = render(a)
    except Error as e:
        print(f"paraview_view: error: {e}", file=sys.stderr)
        return 1
    print(f"paraview_view: wrote {a.output} ({model}, t = {t:g}: {note})")
    return 0


if __name__ == "__main__":
    # pvbatch turns any SystemExit, sys.exit(0) included, into exit status 1:
    # leave normally on success.
    status = main(sys.argv[1:])
    if status:
        sys.exit(status)
