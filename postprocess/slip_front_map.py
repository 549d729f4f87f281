#!/usr/bin/python3
"""Space-time map of the slip along the contact surface of a Model = body run.

Usage:
  slip_front_map.py OUTPUT_DIR [-o OUT.png] [--field slip_rate] [--averaged]
                    [--second friction_ratio] [--tmin T] [--tmax T]
                    [--scale auto|log|linear] [--vmin V] [--vmax V]
                    [--across mid|mean|max] [--fronts] [--threshold V] [--dpi N]

Reads OUTPUT_DIR/contact.pvd (vtk_python.py) and every record it lists in
[--tmin, --tmax] (.pvtu files, read with VTK's vtkXMLPUnstructuredGridReader),
or, with Output/Field format = hdf5, contact.xdmf and its records (.xdmf and
.h5 files, read with VTK's vtkXdmf3Reader),
and draws the field --field (default slip_rate) of the contact nodes as a map:
the position along the interface horizontally, the time vertically (upwards),
the colour the value.  A slip front is the slanted edge of a coloured
(slipping) region; its inverse slope is its speed.  The colour scale of
slip_rate is logarithmic by default (white: 0, stuck or separated), of the
other fields linear; state is drawn as three colours (separated, stuck,
slipping).  A second panel beside it, sharing the time axis, shows --second
(default friction_ratio = |tau|/S, the mobilized friction coefficient;
pressure, state, gap, uniqueness_ratio, or none).

--averaged draws instead of the instantaneous slip_rate of the records the
mean slip rate between consecutive records, |u_T(t_k) - u_T(t_k-1)|/(t_k -
t_k-1), from the tangential displacement of the nodes (which is the slip for a
foundation at rest, as in the examples; with Body/Contact/Foundation velocity
it is the speed relative to the ground).  Inside a slipping region single
nodes alternate between stick and slip from one step to the next, which makes
the instantaneous map speckled; the mean over the record interval shows the
fronts.  The records are Float32: the resolution is about 1e-7 of the
displacement over the interval (1e-5 m/s for 0.1 mm in 2 us).

The interface: the nodes of the records (DataOutFaces on Body/Contact/Boundary
id) are located by their reference coordinates; nodes that several faces
share are merged.  The abscissa is the coordinate along which the surface is
longest.  In 3D the surface is two-dimensional: --across mid (default) takes
the row of nodes nearest to the middle of the other in-plane coordinate (the
mid-line y = Ly/2 of a block on the floor z = 0), mean averages over it, max
takes the largest value across it.

--fronts prints the slip events of the map: maximal runs of records in which
some node slips faster than --threshold (default 1e-3 m/s), with the extent
of the slipped region, where the event starts, and the speeds of its fronts:
least-squares fits of position against the first time each node exceeds the
threshold, separately for the nodes on either side of the start.  (A rough
measure: an event in which several fronts run is fitted as one.)

Default output: OUTPUT_DIR/slip_front_map.png.  Figures are written with the
Agg backend to a temporary name and renamed.  Exit 0 on success, 1 on error
(a folder without contact.pvd, a field the records do not have, no record in
the time window), 2 on bad usage.  Needs Debian's python3-vtk9 or python3-paraview, python3-numpy
and python3-matplotlib (run with /usr/bin/python3).
"""
import argparse
import os
import sys

# postprocess/vtk_python.py: the .pvd and .pvtu files of a run
from vtk_python import Error, in_window, point_values, read_pvd, read_record as read_output, \
    require_vtk, series_values


AVERAGED = "mean slip rate between records"


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Space-time map of the slip rate (or another contact field) of a "
                    "Model = body run, from contact.pvd.")
    p.add_argument("output_dir")
    p.add_argument("-o", "--output", default=None,
                   help="PNG file (default OUTPUT_DIR/slip_front_map.png)")
    p.add_argument("--field", default="slip_rate", help="scalar of the map (default slip_rate)")
    p.add_argument("--second", default="friction_ratio",
                   help="scalar of a second panel, or none (default friction_ratio)")
    p.add_argument("--tmin", type=float, default=None, help="first time drawn")
    p.add_argument("--tmax", type=float, default=None, help="last time drawn")
    p.add_argument("--scale", choices=("auto", "log", "linear"), default="auto",
                   help="colour scale of the first panel (auto: log for slip_rate)")
    p.add_argument("--vmin", type=float, default=None, help="lower end of the colour scale")
    p.add_argument("--vmax", type=float, default=None, help="upper end of the colour scale")
    p.add_argument("--across", choices=("mid", "mean", "max"), default="mid",
                   help="3D: the mid-line (default), the mean or the max across the surface")
    p.add_argument("--threshold", type=float, default=1e-3,
                   help="slip rate [m/s] above which a node counts as slipping (--fronts)")
    p.add_argument("--averaged", action="store_true",
                   help="first panel: the mean slip rate between consecutive records, from "
                        "the nodes' tangential displacement (foundation at rest)")
    p.add_argument("--fronts", action="store_true", help="print the slip events and front speeds")
    p.add_argument("--dpi", type=int, default=110)
    a = p.parse_args(argv)
    if a.second.lower() == "none":
        a.second = None
    if a.output is None:
        a.output = os.path.join(a.output_dir, "slip_front_map.png")
    if a.averaged and a.field != "slip_rate":
        p.error("--averaged replaces the slip rate: use it with --field slip_rate")
    if a.tmin is not None and a.tmax is not None and a.tmax <= a.tmin:
        p.error("--tmax must be larger than --tmin")
    return a


# --------------------------------------------------------------------------- input
def list_records(output_dir, tmin, tmax):
    """[Record(t, path, grid)] of contact.pvd (or contact.xdmf) within [tmin, tmax],
    sorted by t."""
    records = in_window(read_pvd(output_dir, "contact",
                                 "not the output of a Model = body run with a contact "
                                 "boundary (Body/Contact/Boundary id) and Output/Field "
                                 "output = true"), tmin, tmax)
    if not records:
        raise Error(f"{output_dir}/contact.pvd lists no record in the time window")
    return records


class Interface:
    """The contact nodes of the first record: the abscissa and how to reduce a field."""

    def __init__(self, points, across):
        import numpy as np
        lo, hi = points.min(0), points.max(0)
        extent = hi - lo
        size = float(extent.max()) or 1.0
        order = np.argsort(-extent)          # longest first
        self.axis = int(order[0])
        self.names = "xyz"
        tol = 1e-9 * size
        key_x = np.round((points[:, self.axis] - lo[self.axis]) / tol).astype(np.int64)
        self.x_values, self.ix = np.unique(key_x, return_inverse=True)
        self.x = lo[self.axis] + self.x_values * tol
        self.nx = len(self.x)
        self.across = None
        self.surface = extent[order[1]] > 1e-6 * size       # 3D: a surface, not a line
        self.n_points = len(points)
        if self.surface:
            self.across = int(order[1])
            key_y = np.round((points[:, self.across] - lo[self.across]) / tol).astype(np.int64)
            y_values, self.iy = np.unique(key_y, return_inverse=True)
            y = lo[self.across] + y_values * tol
            self.ny = len(y)
            middle = 0.5 * (lo[self.across] + hi[self.across])
            self.mid_index = int(np.argmin(np.abs(y - middle)))
            self.mid_y = float(y[self.mid_index])
        self.mode = across
        self.key = np.round(points / tol).astype(np.int64)

    def description(self):
        a = self.names[self.axis]
        if not self.surface:
            return f"along {a} ({self.nx} nodes)"
        b = self.names[self.across]
        if self.mode == "mid":
            return f"along {a} on the mid-line {b} = {self.mid_y:.4g} m ({self.nx} nodes)"
        return f"along {a}, {self.mode} over {b} ({self.nx} x {self.ny} nodes)"

    def grid(self, values):
        """Values at the nodes of a record (duplicates merged) -> (nx, ny) array, NaN where
        no node is (ny = 1 for a line)."""
        import numpy as np
        ny = self.ny if self.surface else 1
        flat = self.ix * ny + (self.iy if self.surface else 0)
        total = np.bincount(flat, weights=values, minlength=self.nx * ny)
        count = np.bincount(flat, minlength=self.nx * ny)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (total / count).reshape(self.nx, ny)

    def collapse(self, grid):
        """(nx, ny) -> one value per abscissa (--across)."""
        import numpy as np
        if not self.surface:
            return grid[:, 0]
        if self.mode == "mid":
            return grid[:, self.mid_index]
        if self.mode == "max":
            return np.nanmax(grid, axis=1)
        return np.nanmean(grid, axis=1)

    def reduce(self, values):
        return self.collapse(self.grid(values))

    def tangential_axes(self, points):
        """The in-plane coordinate axes of a flat, axis-aligned contact surface."""
        import numpy as np
        axes = [self.axis] + ([self.across] if self.surface else [])
        size = float(np.ptp(points, 0).max()) or 1.0
        dims = 3 if self.surface else 2
        for k in range(dims):
            if k not in axes and np.ptp(points[:, k]) > 1e-6 * size:
                raise Error("--averaged needs a flat contact surface normal to a coordinate "
                            "axis (the block meshes' faces)")
        return axes


def read_record(record, fields):
    """Points and the named scalar point fields of one output (numpy arrays)."""
    from vtkmodules.util.numpy_support import vtk_to_numpy
    grid = read_output(record)
    path = record.path
    out = {}
    for name in fields:
        out[name] = point_values(grid, name, path, finite=False)
        if out[name].ndim != 1 and name != "displacement":
            raise Error(f"field '{name}' of {path} has {out[name].shape[1]} "
                        "components; choose a scalar")
    return vtk_to_numpy(grid.GetPoints().GetData()).astype(float), out


def build_maps(records, fields, across, averaged=False):
    """times, Interface, {field: array (n_times, n_x)}; with averaged also
    AVERAGED: the mean slip rate between consecutive records (n_times - 1 rows, at the
    midpoints of the intervals, returned as the times of that map)."""
    import numpy as np
    interface = None
    times, rows = [], {f: [] for f in fields}
    tangential, previous = [], None
    wanted = fields + (["displacement"] if averaged else [])
    batch = series_values(records, wanted)
    for number, record in enumerate(records):
        t, path = record.t, record.path
        if batch is not None:
            points, values = batch[0], batch[1][number]
        else:
            points, values = read_record(record, wanted)
        if interface is None or len(points) != interface.n_points or not np.array_equal(
                np.round(points / (1e-9 * (float(np.ptp(points, 0).max()) or 1.0))).astype(
                    np.int64), interface.key):
            # the first record, or another partition (a run resumed on other ranks)
            nx = interface.nx if interface is not None else None
            interface = Interface(points, across)
            if nx is not None and interface.nx != nx:
                raise Error(f"{path}: the contact nodes differ from those of the first record")
            axes = interface.tangential_axes(points) if averaged else []
        times.append(t)
        for f in fields:
            r = interface.reduce(values[f])
            if not np.isfinite(r).all():
                raise Error(f"{path}: field '{f}' has non-finite values")
            rows[f].append(r)
        if averaged:
            u = np.stack([interface.grid(values["displacement"][:, k]) for k in axes])
            if previous is not None:
                if not t > previous[0]:
                    raise Error(f"{path}: two records at t = {t}: cannot average between them")
                rate = np.sqrt(((u - previous[1]) ** 2).sum(0)) / (t - previous[0])
                tangential.append(interface.collapse(rate))
            previous = (t, u)
    maps = {f: np.array(rows[f]) for f in fields}
    times = np.array(times)
    if averaged:
        if len(times) < 2:
            raise Error("--averaged needs at least two records")
        maps[AVERAGED] = np.array(tangential)
        if not np.isfinite(maps[AVERAGED]).all():
            raise Error("the displacement of the contact nodes is not finite")
    return times, interface, maps


# --------------------------------------------------------------------------- analysis
def find_events(times, x, rate, threshold):
    """Slip events: maximal runs of records with max slip rate > threshold."""
    import numpy as np
    slipping = rate > threshold
    active = slipping.any(1)
    events = []
    i, n = 0, len(times)
    while i < n:
        if not active[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and active[j + 1]:
            j += 1
        block = slipping[i:j + 1]
        reached = block.any(0)
        first = np.where(reached, block.argmax(0), -1)   # first record slipping, per node
        ev = {"i0": i, "i1": j, "t0": times[i], "t1": times[j],
              "fraction": reached.mean(), "xmin": x[reached].min(), "xmax": x[reached].max(),
              "peak": float(rate[i:j + 1].max()), "fronts": []}
        start = np.where(first == 0)[0]
        x0 = float(x[start].mean()) if len(start) else float(x[reached][np.argmin(first[reached])])
        t_first = np.where(reached, times[i + np.maximum(first, 0)], np.nan)
        ev["x0"] = x0
        for sign in (+1, -1):
            sel = reached & (sign * (x - x0) > 0)
            if sel.sum() >= 3:
                tx, xx = t_first[sel], x[sel]
                if np.ptp(tx) > 0:
                    slope = np.polyfit(tx, xx, 1)[0]    # dx/dt
                    ev["fronts"].append((sign, float(slope), float(xx.min()), float(xx.max()),
                                         float(tx.min()), float(tx.max())))
        events.append(ev)
        i = j + 1
    return events


def print_events(events, threshold):
    print(f"slip events (records with a node above {threshold:g} m/s):")
    if not events:
        print("  none")
    for k, e in enumerate(events, 1):
        print(f"  {k}: t = {e['t0']:.6g} .. {e['t1']:.6g} s, starts at x = {e['x0']:.4g} m, "
              f"slipped x = {e['xmin']:.4g} .. {e['xmax']:.4g} m "
              f"({100 * e['fraction']:.0f}% of the interface), peak {e['peak']:.3g} m/s")
        for sign, speed, xa, xb, ta, tb in e["fronts"]:
            print(f"       front towards {'+' if sign > 0 else '-'}x: {speed:+.4g} m/s "
                  f"(x {xa:.4g}..{xb:.4g} m reached at t {ta:.6g}..{tb:.6g} s)")


# --------------------------------------------------------------------------- drawing
def time_unit(times):
    """The unit in which the run's times read from 1 to 1000: µs for the
    fronts of a laboratory block, s for a 6 s fault."""
    span = max(abs(times[-1]), abs(times[0]))
    for factor, name in ((1e6, "µs"), (1e3, "ms"), (1.0, "s")):
        if span * factor < 1e3:
            return factor, name
    return 1.0, "s"


def length_unit(x):
    """mm for a laboratory interface, m from 1 m, km for a fault longer
    than 100 m."""
    span = x.max() - x.min()
    return (1e-3, "km") if span > 100 else (1.0, "m") if span >= 1 else (1e3, "mm")


def edges(c):
    """Cell edges around the centres c (non-uniform spacing allowed)."""
    import numpy as np
    if len(c) == 1:
        return np.array([c[0] - 0.5, c[0] + 0.5])
    mid = 0.5 * (c[1:] + c[:-1])
    return np.concatenate([[2 * c[0] - mid[0]], mid, [2 * c[-1] - mid[-1]]])


def colormap(name):
    import matplotlib
    cmap = matplotlib.colormaps[name] if hasattr(matplotlib, "colormaps") \
        else matplotlib.cm.get_cmap(name)
    return cmap.copy()


def draw_panel(fig, ax, cax, x_mm, t_s, data, name, log, vmin, vmax):
    import numpy as np
    from matplotlib import colors
    ticks, ticklabels = None, None
    if name == "state":        # categorical: 0 separated, 1 stuck, 2 slipping
        cmap = colors.ListedColormap(["#bbbbbb", "#2c7fb8", "#f03b20"])
        norm = colors.BoundaryNorm([-0.5, 0.5, 1.5, 2.5], 3)
        shown, extend = data, "neither"
        ticks, ticklabels = [0, 1, 2], ["separated", "stuck", "slipping"]
    elif log:
        cmap = colormap("inferno_r")
        finite_max = float(np.max(data)) if data.size else 1.0
        hi = vmax if vmax is not None else (finite_max if finite_max > 0 else 1.0)
        lo = vmin if vmin is not None else hi * 1e-4
        lo = min(lo, hi * 0.999)
        norm = colors.LogNorm(lo, hi, clip=False)
        cmap.set_under("white")
        shown = np.ma.masked_less_equal(data, 0.0).filled(lo * 1e-3)
        extend = "both" if (data > hi).any() else "min"
    else:
        cmap = colormap("viridis")
        lo = vmin if vmin is not None else float(np.min(data))
        hi = vmax if vmax is not None else float(np.max(data))
        if hi <= lo:
            hi = lo + (abs(lo) if lo != 0 else 1.0)
        norm = colors.Normalize(lo, hi)
        shown = data
        extend = "neither"
    uniform = (len(t_s) < 3 or np.ptp(np.diff(t_s)) <= 1e-6 * abs(t_s[-1] - t_s[0])) and \
        (len(x_mm) < 3 or np.ptp(np.diff(x_mm)) <= 1e-6 * abs(x_mm[-1] - x_mm[0]))
    if uniform:
        ex, et = edges(x_mm), edges(t_s)
        im = ax.imshow(shown, origin="lower", aspect="auto", cmap=cmap, norm=norm,
                       extent=(ex[0], ex[-1], et[0], et[-1]), interpolation="nearest")
    else:
        im = ax.pcolormesh(edges(x_mm), edges(t_s), shown, cmap=cmap, norm=norm,
                           shading="flat", rasterized=True)
    bar = fig.colorbar(im, cax=cax, extend=extend, ticks=ticks,
                       label=None if ticks else name + (" [m/s], log scale" if log else ""))
    if ticklabels:
        bar.ax.set_yticklabels(ticklabels, rotation=90, va="center")
    return im


UNITS = {"slip_rate": " [m/s]", "pressure": " [Pa]", "gap": " [m]", AVERAGED: " [m/s]"}


def draw(a, times, interface, maps, first, first_times):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    factor, unit = time_unit(times)
    x_factor, x_unit = length_unit(interface.x)
    x_mm = interface.x * x_factor
    log = a.scale == "log" or (a.scale == "auto" and a.field == "slip_rate")
    two = a.second is not None
    fig = plt.figure(figsize=(12.0 if two else 7.5, 7.0))
    if two:
        ax1 = fig.add_axes([0.07, 0.10, 0.34, 0.78])
        cax1 = fig.add_axes([0.42, 0.10, 0.012, 0.78])
        ax2 = fig.add_axes([0.55, 0.10, 0.34, 0.78], sharey=ax1)
        cax2 = fig.add_axes([0.90, 0.10, 0.012, 0.78])
    else:
        ax1 = fig.add_axes([0.11, 0.10, 0.68, 0.78])
        cax1 = fig.add_axes([0.81, 0.10, 0.025, 0.78])
    draw_panel(fig, ax1, cax1, x_mm, first_times * factor, maps[first], first, log,
               a.vmin, a.vmax)
    a_name = interface.names[interface.axis]
    ax1.set_xlabel(f"{a_name} [{x_unit}]")
    ax1.set_ylabel(f"t [{unit}]")
    ax1.set_title(first + UNITS.get(first, ""), fontsize=11)
    if two:
        second = maps[a.second]
        vmin = vmax = None
        if a.second == "friction_ratio":
            vmin, vmax = 0.0, max(float(second.max()), 1e-12)
        draw_panel(fig, ax2, cax2, x_mm, times * factor, second, a.second, False, vmin, vmax)
        ax2.set_xlabel(f"{a_name} [{x_unit}]")
        ax2.set_title(a.second + UNITS.get(a.second, ""), fontsize=11)
        plt.setp(ax2.get_yticklabels(), visible=False)
    fig.suptitle(f"{os.path.basename(os.path.normpath(a.output_dir))}: contact surface "
                 f"{interface.description()}, {len(times)} records, "
                 f"t = {times[0]:.4g} .. {times[-1]:.4g} s", fontsize=11)
    note = f"{first}: max {maps[first].max():.4g}"
    if log:
        note += "; white: 0 (stuck or separated)"
    if first == AVERAGED:
        note += ("; |u_T(t_k) - u_T(t_k-1)|/(t_k - t_k-1) of the nodes' tangential "
                 "displacement (relative to a foundation at rest)")
    fig.text(0.01, 0.01, note, fontsize=8, color="0.35")
    d = os.path.dirname(os.path.abspath(a.output))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(a.output)}.{os.getpid()}.tmp.png")
    try:
        fig.savefig(tmp, dpi=a.dpi)
        os.replace(tmp, a.output)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)


def main(argv):
    a = parse_args(argv)
    require_vtk("slip_front_map")
    try:
        records = list_records(a.output_dir, a.tmin, a.tmax)
        fields = [a.field] + ([a.second] if a.second and a.second != a.field else [])
        if a.fronts and not a.averaged and "slip_rate" not in fields:
            fields.append("slip_rate")
        times, interface, maps = build_maps(records, fields, a.across, a.averaged)
        first, first_times = a.field, times
        if a.averaged:
            first, first_times = AVERAGED, 0.5 * (times[1:] + times[:-1])
        if a.fronts:
            rate = maps[AVERAGED] if a.averaged else maps["slip_rate"]
            print_events(find_events(first_times, interface.x, rate, a.threshold),
                         a.threshold)
        draw(a, times, interface, maps, first, first_times)
    except Error as e:
        print(f"slip_front_map: error: {e}", file=sys.stderr)
        return 1
    print(f"slip_front_map: wrote {a.output} ({first}"
          + (f" and {a.second}" if a.second else "")
          + f", {len(times)} records, {interface.description()})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
