"""Reading a run's field files: the one place the scripts of postprocess/ read
.pvd and .pvtu files, and the VTK Python modules they need.

A run with fields writes OUTPUT_DIR/solution.pvd (and contact.pvd for the
body): a ParaView collection listing, for each output time, a .pvtu record in
OUTPUT_DIR/solution/, itself a list of one .vtu piece per rank. With
Output/Field format = hdf5 the body writes OUTPUT_DIR/solution.xdmf and
contact.xdmf instead: XDMF time series whose grids are the XDMF records
solution/SERIES_KKKKK.xdmf (the volume), or outputs of an HDF5 series file
that holds many of them (the contact surface: solution/contact_from_KKKKK.h5).

  read_pvd(output_dir, name, missing)  [Record(t, path, grid)] in the file's order
  select_record(records, time, index)  the record nearest a time, or by number
  in_window(records, tmin, tmax)       the records with tmin <= t <= tmax
  read_record(record)                  the output as one vtkUnstructuredGrid
  series_values(records, names)        the points and fields of outputs of an
                                       HDF5 series file, read by h5py at once
  read_pvtu(path)                      a record file as one vtkUnstructuredGrid
  point_values(grid, name, path)       a point field as a float numpy array
  require_vtk(program)                 stop with advice when VTK is missing

Every problem (a folder without the .pvd, a file that is not XML, a record
without a numeric time, a listed file that is missing, a piece VTK cannot
read, a field the record does not have) is an Error whose text names the file
and the reason; the scripts print it and exit 1.

VTK's modules: two Debian packages provide the module `vtkmodules` to
/usr/bin/python3: python3-vtk9 (VTK 9.1) and python3-paraview (ParaView 5.11's
VTK 9.2). They conflict because both install
/usr/lib/python3/dist-packages/vtkmodules, so whichever is installed, `import
vtkmodules` is the same line; the scripts use only classes both have (the XML
readers, numpy_support, vtkRenderWindow). ParaView installed otherwise (a
Kitware binary) keeps its vtkmodules inside its own tree: run the script with
that ParaView's pvpython then. require_vtk() turns the bare ImportError into
that advice. read_pvd() and select_record() need no VTK (paraview_view.py uses
them under pvbatch).
"""
import collections
import math
import os
import sys
import xml.etree.ElementTree as ET

ADVICE = ("install Debian's python3-vtk9 or python3-paraview (either gives "
          "/usr/bin/python3 the module vtkmodules; scripts/ensure_dependencies.sh "
          "installs one), or run this script with ParaView's pvpython")

class Record(collections.namedtuple("Record", "t path")):
    """An output: its time t and path, the record's file (.pvtu, .xdmf
    record), or for an output inside an HDF5 series file the series (.xdmf),
    `grid` then its number there (None otherwise). A pair (t, path), as the
    scripts unpack it; read_record() reads either kind."""

    def __new__(cls, t, path, grid=None):
        record = super().__new__(cls, t, path)
        record.grid = grid
        return record


class Error(Exception):
    """A run's file that cannot be read or lacks what is asked, with the reason."""


def require_vtk(program):
    """Exit with status 1 and the advice when vtkmodules cannot be imported."""
    try:
        import vtkmodules.vtkIOXML  # noqa: F401
        import vtkmodules.util.numpy_support  # noqa: F401
    except ImportError as e:
        print(f"{program}: error: VTK's Python modules cannot be imported ({e}): {ADVICE}",
              file=sys.stderr)
        sys.exit(1)


def read_pvd(output_dir, name="solution", missing=None):
    """[Record(t, path)] of OUTPUT_DIR/NAME.pvd, in the order of the file (the
    run appends them in increasing t). `missing` is said after "OUTPUT_DIR has
    no NAME.pvd" (which run writes one). The listed files are not opened here
    (select_record() and in_window() check that the chosen ones exist)."""
    pvd = os.path.join(output_dir, name + ".pvd")
    if not os.path.isdir(output_dir):
        raise Error(f"{output_dir} is not a directory")
    xdmf = os.path.join(output_dir, name + ".xdmf")
    if not os.path.isfile(pvd) and os.path.isfile(xdmf):
        return read_xdmf_series(xdmf)
    if not os.path.isfile(pvd):
        raise Error(f"{output_dir} has no {name}.pvd" + (f": {missing}" if missing else ""))
    try:
        root = ET.parse(pvd).getroot()
    except (OSError, ET.ParseError) as e:
        raise Error(f"cannot read {pvd}: {e}")
    records = []
    for number, ds in enumerate(root.iter("DataSet")):
        try:
            t = float(ds.get("timestep"))
        except (TypeError, ValueError):
            t = math.nan
        if not math.isfinite(t) or not ds.get("file"):
            raise Error(f"{pvd}: data set {number} has no numeric timestep and file "
                        f"(timestep={ds.get('timestep')!r}, file={ds.get('file')!r})")
        records.append(Record(t, os.path.join(os.path.dirname(pvd), ds.get("file"))))
    if not records:
        raise Error(f"{pvd} lists no data sets")
    return records


def read_xdmf_series(xdmf):
    """[Record(t, path, grid)] of an XDMF time series (Output/Field format =
    hdf5): a grid is the one of the record solution/<grid name>.xdmf, which
    read_pvtu() reads, or (its values a row of a series file, "FILE:/NAME|
    start:stride:count:dims") output number `grid` of the series itself,
    which read_record() reads."""
    try:
        root = ET.parse(xdmf).getroot()
    except (OSError, ET.ParseError) as e:
        raise Error(f"cannot read {xdmf}: {e}")
    collection = root.find("Domain/Grid")
    records = []
    for number, grid in enumerate([] if collection is None else collection.findall("Grid")):
        time = grid.find("Time")
        try:
            t = float(time.get("Value"))
        except (AttributeError, TypeError, ValueError):
            t = math.nan
        if not math.isfinite(t) or not grid.get("Name"):
            raise Error(f"{xdmf}: grid {number} has no numeric time and name")
        rows = [item.text for item in grid.iter("DataItem") if "|" in (item.text or "")]
        if rows:
            record = Record(t, xdmf, number)
            record.series = _series_place(xdmf, grid, rows[0])
            records.append(record)
        else:
            records.append(Record(t, os.path.join(os.path.dirname(xdmf), "solution",
                                                  grid.get("Name") + ".xdmf")))
    if not records:
        raise Error(f"{xdmf} lists no grids")
    return records


def _series_place(xdmf, grid, text):
    """(series file, row, mesh file, dimension) of a grid whose values are row
    `row` of the datasets of an HDF5 series file ("FILE:/NAME|start stride
    count dims"), the mesh's nodes in "MESH:/nodes"; None if the text has
    another form."""
    folder = os.path.dirname(xdmf)
    try:
        location, hyperslab = text.strip().split("|")
        series = os.path.join(folder, location.split(":")[0])
        row = int(hyperslab.split(":")[0].split()[0])
        geometry = grid.find("Geometry")
        mesh = os.path.join(folder, geometry.find("DataItem").text.strip().split(":")[0])
        dimension = len(geometry.get("GeometryType", "XYZ"))
    except (AttributeError, IndexError, ValueError):
        return None
    return series, row, mesh, dimension


def series_values(records, names):
    """For outputs that are rows of HDF5 series files (the body's contact
    surface with Output/Field format = hdf5) and a Python with h5py: the
    nodes (n x 3) and, per record, {name: values (n, or n x 3 for a vector)},
    each field read from each file in one slice instead of one VTK read per
    output (about 30 times faster for the 1501 outputs of
    prm/body_fronts_2d.prm). None when h5py is missing or a record is not
    such a row (then read_record() reads each)."""
    places = [getattr(record, "series", None) for record in records]
    if not records or any(place is None for place in places):
        return None
    try:
        import h5py
        import numpy as np
    except ImportError:
        return None
    meshes = {(place[2], place[3]) for place in places}
    if len(meshes) != 1:
        return None
    mesh, dimension = meshes.pop()
    try:
        with h5py.File(mesh, "r") as f:
            nodes = np.asarray(f["nodes"], dtype=float)
        points = np.zeros((len(nodes), 3))
        points[:, :dimension] = nodes[:, :dimension]
        values = [dict() for _ in records]
        by_file = collections.defaultdict(list)
        for k, place in enumerate(places):
            by_file[place[0]].append((k, place[1]))
        for path, rows in by_file.items():
            with h5py.File(path, "r") as f:
                for name in names:
                    if name not in f:
                        raise Error(f"{path} has no field '{name}'; it has: "
                                    + ", ".join(sorted(k for k in f if k != "time")))
                    lo, hi = min(r for _, r in rows), max(r for _, r in rows)
                    block = np.asarray(f[name][lo:hi + 1], dtype=float)
                    for k, row in rows:
                        data = block[row - lo]
                        values[k][name] = data[:, 0] if data.shape[1] == 1 else data
    except OSError as e:
        raise Error(f"cannot read the HDF5 series of {records[0].path}: {e}")
    return points, values


def _existing(record):
    if not os.path.isfile(record.path):
        raise Error(f"{record.path} (listed in the .pvd at t = {record.t:g}) does not exist")
    return record


def select_record(records, time=None, index=None):
    """The record nearest to `time`, else number `index` (Python style, default
    -1: the last); its file must exist."""
    if time is not None:
        return _existing(min(records, key=lambda r: abs(r.t - time)))
    k = -1 if index is None else index
    if not -len(records) <= k < len(records):
        raise Error(f"record number {k} out of range: the .pvd lists {len(records)} records")
    return _existing(records[k])


def in_window(records, tmin=None, tmax=None):
    """The records with tmin <= t <= tmax (None: no bound), sorted by t; their
    files must exist."""
    chosen = [r for r in records
              if (tmin is None or r.t >= tmin) and (tmax is None or r.t <= tmax)]
    return [_existing(r) for r in sorted(chosen, key=lambda r: r.t)]


def read_record(record):
    """The output of `record` (read_pvd()) as one vtkUnstructuredGrid:
    read_pvtu() of its file, or its grid of an XDMF series."""
    if record.grid is None:
        return read_pvtu(record.path)
    try:
        import vtkmodules.vtkIOXdmf3  # noqa: F401
    except ImportError:
        return _read_xdmf_record_by_h5py(record.path, record.grid)
    return read_xdmf_grid(record.path, record.t)


_series_readers = {}


def read_xdmf_grid(xdmf, t):
    """The grid at time `t` of the XDMF time series `xdmf`, as
    read_xdmf_record() returns a record (one reader per series, kept: it
    parses the series once for all its outputs)."""
    from vtkmodules.vtkIOXdmf3 import vtkXdmf3Reader
    reader = _series_readers.get(xdmf)
    if reader is None:
        reader = vtkXdmf3Reader()
        reader.SetFileName(xdmf)
        reader.UpdateInformation()
        _series_readers[xdmf] = reader
    return _checked_copy(reader, lambda: reader.UpdateTimeStep(t),
                         f"{xdmf} at t = {t:g}")


def read_pvtu(path):
    """The .pvtu record at `path` (its .vtu pieces joined) as a
    vtkUnstructuredGrid; an Error when VTK reports one or the grid has no points."""
    from vtkmodules.vtkCommonCore import vtkCommand
    from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader
    if path.endswith(".xdmf"):
        return read_xdmf_record(path)
    errors = []
    reader = vtkXMLPUnstructuredGridReader()
    reader.AddObserver(vtkCommand.ErrorEvent, lambda caller, event: errors.append(event))
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if errors or grid is None or grid.GetNumberOfPoints() == 0:
        raise Error(f"VTK could not read {path} (a missing or truncated piece?) "
                    "or it has no points")
    return grid


def read_xdmf_record(path):
    """One XDMF record (SERIES_KKKKK.xdmf and its HDF5 files) as a
    vtkUnstructuredGrid, its cell fields (the body's stress) also as point
    fields averaged over the cells around each node, as point_values() reads
    them. Read by VTK's XDMF3 reader (python3-paraview), or, where this VTK
    has none (Debian's python3-vtk9), from the HDF5 files by h5py."""
    try:
        from vtkmodules.vtkIOXdmf3 import vtkXdmf3Reader
    except ImportError:
        return _read_xdmf_record_by_h5py(path)
    reader = vtkXdmf3Reader()
    reader.SetFileName(path)
    return _checked_copy(reader, reader.Update, path)


# XDMF's topology types of the body's records and VTK's cell types.
_CELL_TYPES = {"Quadrilateral": 9, "Hexahedron": 12, "Polyline": 3}


def _read_xdmf_record_by_h5py(path, number=None):
    """read_xdmf_record() without VTK's XDMF reader: the mesh, the point and
    the cell fields of the record's HDF5 datasets ("FILE:/NAME"), or, for
    grid `number` of a series (contact.xdmf), the rows of its series file
    ("FILE:/NAME|start stride count dims")."""
    try:
        import h5py
        import numpy as np
        from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray
        from vtkmodules.vtkCommonCore import vtkPoints
        from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkUnstructuredGrid
    except ImportError:
        raise Error(f"{path}: reading an HDF5 record needs VTK's XDMF3 reader "
                    "(python3-paraview) or h5py (python3-h5py)")
    folder = os.path.dirname(path)

    def dataset(item):
        location, _, hyperslab = (item.text or "").strip().partition("|")
        if ":" not in location:
            raise Error(f"{path}: {location} is not an HDF5 dataset")
        name, _, inside = location.partition(":")
        with h5py.File(os.path.join(folder, name), "r") as f:
            data = f[inside.lstrip("/")]
            if not hyperslab:
                return np.asarray(data)
            row = int(hyperslab.split(":")[0].split()[0])  # one row of the series
            return np.asarray(data[row])

    try:
        grid_xml = ET.parse(path).getroot().find("Domain/Grid")
        if number is not None:
            grid_xml = grid_xml.findall("Grid")[number]
        geometry = grid_xml.find("Geometry")
        topology = grid_xml.find("Topology")
        nodes = dataset(geometry.find("DataItem")).astype(float)
        cells = dataset(topology.find("DataItem")).astype(np.int64)
        cell_type = _CELL_TYPES[topology.get("TopologyType")]
        attributes = [(a.get("Name"), a.get("Center"), dataset(a.find("DataItem")))
                      for a in grid_xml.findall("Attribute")]
    except (OSError, ET.ParseError, AttributeError, KeyError) as e:
        raise Error(f"cannot read {path} and its HDF5 files: {e}")
    points = np.zeros((len(nodes), 3))
    points[:, :nodes.shape[1]] = nodes
    grid = vtkUnstructuredGrid()
    vtk_points = vtkPoints()
    vtk_points.SetData(numpy_to_vtk(points, deep=1))
    grid.SetPoints(vtk_points)
    per_cell = cells.shape[1]
    offsets = np.arange(0, per_cell * (len(cells) + 1), per_cell, dtype=np.int64)
    cell_array = vtkCellArray()
    cell_array.SetData(numpy_to_vtkIdTypeArray(offsets, deep=1),
                       numpy_to_vtkIdTypeArray(cells.ravel().copy(), deep=1))
    grid.SetCells(cell_type, cell_array)
    for name, center, values in attributes:
        values = values.astype(float)
        if values.ndim == 2 and values.shape[1] == 1:
            values = values[:, 0]
        array = numpy_to_vtk(np.ascontiguousarray(values), deep=1)
        array.SetName(name)
        (grid.GetPointData() if center == "Node" else grid.GetCellData()).AddArray(array)
    return _checked_copy(_Ready(grid), lambda: None, path)


class _Ready:
    """A grid already read, in the shape of a reader for _checked_copy()."""

    def __init__(self, grid):
        self.grid = grid

    def AddObserver(self, *args):
        return 0

    def RemoveObserver(self, *args):
        pass

    def GetOutputDataObject(self, port):
        return self.grid


def _checked_copy(reader, update, what):
    """The grid `reader` gives after `update()`, copied, with its cell fields
    also as point fields averaged over the cells around each node; an Error
    naming `what` when VTK reports one or the grid has no points."""
    from vtkmodules.vtkCommonCore import vtkCommand
    from vtkmodules.vtkFiltersCore import vtkCellDataToPointData
    errors = []
    observer = reader.AddObserver(vtkCommand.ErrorEvent,
                                  lambda caller, event: errors.append(event))
    update()
    reader.RemoveObserver(observer)
    grid = reader.GetOutputDataObject(0)
    if errors or grid is None or not hasattr(grid, "GetPoints") or \
            grid.GetNumberOfPoints() == 0:
        raise Error(f"VTK could not read {what} (a missing HDF5 file?) or it has no points")
    # A copy: the reader's arrays may point into memory the reader frees with
    # itself (their values were garbage, and a later access crashed).
    copy = grid.NewInstance()
    copy.DeepCopy(grid)
    grid = copy
    if grid.GetCellData().GetNumberOfArrays() > 0:
        to_points = vtkCellDataToPointData()
        to_points.SetInputData(grid)
        to_points.PassCellDataOn()
        to_points.Update()
        point_data = grid.GetPointData()
        averaged = to_points.GetOutput().GetPointData()
        for i in range(averaged.GetNumberOfArrays()):
            if point_data.GetArray(averaged.GetArrayName(i)) is None:
                point_data.AddArray(averaged.GetArray(i))
    return grid


def point_array_names(grid):
    data = grid.GetPointData()
    return [data.GetArrayName(i) for i in range(data.GetNumberOfArrays())]


def point_values(grid, name, path, finite=True):
    """Point field `name` of `grid` as a float numpy array (n, or n x components);
    an Error naming the fields there are when it is missing, or (finite) when a
    value is not finite."""
    import numpy as np
    from vtkmodules.util.numpy_support import vtk_to_numpy
    array = grid.GetPointData().GetArray(name)
    if array is None:
        raise Error(f"no point field '{name}' in {path} (point fields: "
                    f"{', '.join(point_array_names(grid))})")
    values = vtk_to_numpy(array).astype(float)
    if finite and not np.isfinite(values).all():
        raise Error(f"point field '{name}' of {path} has values that are not finite")
    return values
