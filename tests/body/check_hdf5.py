"""check_hdf5.py (run by pvpython) HDF5DIR [--vtu VTUDIR [--contact]]
                 [--same-as DIR2]
                 [--tolerance T] [--steps N] [--ranks R]

Checks the HDF5 + XDMF field output of a run (Output/Field format = hdf5)
as ParaView reads it:
- HDF5DIR/solution.xdmf parses (Python's xml) and every HDF5 file its data
  items name exists in HDF5DIR/solution, with each grid's record
  (solution/<grid name>.xdmf); it lists N steps (--steps);
- ParaView's XDMF3 reader (Xdmf3ReaderS) reads every step: the points, the
  cells, the nodal arrays displacement and velocity and the cell arrays of
  the stress components, von_mises and subdomain, of the sizes the XDMF
  names (a dataset that is missing or too short fails here); the subdomain
  holds the ranks 0, ..., R-1 (--ranks, default 1), each with cells;
- --vtu VTUDIR, the same run with Field format = vtu on one rank: at every
  step, at every node, displacement and velocity equal the VTU's values
  (VTU stores 32-bit floats: single-precision HDF5 values must equal them
  exactly, double ones to within a float's rounding, 2^-24 relative to the
  field's largest value); in every cell (matched by its centre) each
  stress field equals the mean of the VTU's values at the cell's vertices,
  to a float's rounding of the VTU's values, 2^-24 relative to the field's
  largest value (2^-23 for single precision: the HDF5 value rounded once
  more), and 1e-12 of the largest stress for the round-off of two
  evaluations of the gradient in double; with R = 1 the subdomain equals
  the VTU's;
- --contact (with --vtu): the contact surface, HDF5DIR/contact.xdmf as
  ParaView's XDMF3 reader reads it, against VTUDIR/contact.pvd: the same
  times, the same points in the same order (each face's nodes, face by
  face; to a float's rounding, 2^-24 of the largest coordinate: VTU stores
  points as 32-bit floats, the HDF5 mesh as doubles) and every nodal field
  exactly equal: both are written from deal.II's patches, whose data are
  32-bit floats, so the doubles and singles of the HDF5 file hold the same
  values the VTU holds (measured difference: 0);
- --same-as DIR2, the same run on another number of ranks: the same mesh
  file bytes, the same points and cells in the same order, and nodal and
  stress values equal to T relative to each field's largest value.
Exit 0/1.
"""
import argparse
import filecmp
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
import paraview.simple as pv
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader

FIELDS = ("displacement", "velocity")
STRESS = {2: ("stress_xx", "stress_xy", "stress_yy", "stress_zz", "von_mises"),
          3: ("stress_xx", "stress_xy", "stress_xz", "stress_yy", "stress_yz",
              "stress_zz", "von_mises")}


class Failure(Exception):
    pass


def xdmf_steps(out):
    """[(time, record, {data item source: dimensions})] of solution.xdmf."""
    path = os.path.join(out, "solution.xdmf")
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise Failure("%s does not parse: %s" % (path, e))
    collection = root.find("Domain/Grid")
    if collection is None or collection.get("CollectionType") != "Temporal":
        raise Failure("%s holds no temporal collection" % path)
    steps = []
    for grid in collection.findall("Grid"):
        items = {}
        for item in grid.iter("DataItem"):
            file_name, dataset = item.text.strip().split(":")
            if not os.path.isfile(os.path.join(out, file_name)):
                raise Failure("%s names %s, which does not exist"
                              % (path, file_name))
            items[item.text.strip()] = [int(n) for n in item.get("Dimensions").split()]
        record = os.path.join("solution", grid.get("Name") + ".xdmf")
        if not os.path.isfile(os.path.join(out, record)):
            raise Failure("%s: the record %s does not exist" % (path, record))
        steps.append((float(grid.find("Time").get("Value")), record, items))
    return steps


def cell_names(data):
    return STRESS[3 if data.GetCellType(0) == 12 else 2]  # 12: VTK_HEXAHEDRON


def arrays_of(data, t, point_names, cell_names):
    """Points, cells (one row per cell) and the named arrays of @p data."""
    # Copies: the arrays go with the data object ParaView reuses.
    points = np.array(vtk_to_numpy(data.GetPoints().GetData()))
    arrays = {}
    for names, values in ((point_names, data.GetPointData()),
                          (cell_names, data.GetCellData())):
        for name in names:
            array = values.GetArray(name)
            if array is None:
                raise Failure("no array %s at t = %g" % (name, t))
            arrays[name] = np.array(vtk_to_numpy(array))
    cells = np.array(vtk_to_numpy(data.GetCells().GetConnectivityArray()))
    cells = cells.reshape(data.GetNumberOfCells(), -1)
    return points, cells, arrays


def fetch(reader, t):
    reader.UpdatePipeline(t)
    data = servermanager.Fetch(reader)
    return arrays_of(data, t, FIELDS, cell_names(data) + ("subdomain",))


def hdf5_steps(out, expected_steps, ranks):
    steps = xdmf_steps(out)
    if expected_steps is not None and len(steps) != expected_steps:
        raise Failure("solution.xdmf lists %d steps, expected %d"
                      % (len(steps), expected_steps))
    reader = pv.Xdmf3ReaderS(FileName=[os.path.join(out, "solution.xdmf")])
    reader.UpdatePipelineInformation()
    result = []
    for t, record, items in steps:
        points, cells, arrays = fetch(reader, t)
        sizes = {source.split(":/")[1]: dims for source, dims in items.items()}
        if points.shape[0] != sizes["nodes"][0]:
            raise Failure("t = %g: %d points read, the XDMF names %d"
                          % (t, points.shape[0], sizes["nodes"][0]))
        if cells.size != sizes["cells"][0] * sizes["cells"][1]:
            raise Failure("t = %g: %d cell corners read, the XDMF names %d"
                          % (t, cells.size, sizes["cells"][0] * sizes["cells"][1]))
        for name in arrays:
            shape = list(arrays[name].shape) + [1] * (2 - arrays[name].ndim)
            if shape != sizes[name]:
                raise Failure("t = %g: %s has shape %s, the XDMF names %s"
                              % (t, name, arrays[name].shape, sizes[name]))
        subdomains = set(arrays["subdomain"].tolist())
        if subdomains != set(range(ranks)):
            raise Failure("t = %g: subdomains %s, expected the ranks 0-%d"
                          % (t, sorted(subdomains), ranks - 1))
        result.append((t, points, cells, arrays))
    return result


def pvd_datasets(out, series):
    """(t, VTK data set) of each output the series OUT/SERIES lists."""
    root = ET.parse(os.path.join(out, series)).getroot()
    for dataset in root.iter("DataSet"):
        reader = vtkXMLPUnstructuredGridReader()
        reader.SetFileName(os.path.join(out, dataset.get("file")))
        reader.Update()
        yield float(dataset.get("timestep")), reader.GetOutput()


def vtu_steps(out):
    # DataOut writes cell data as values at each cell's vertices.
    return [(t,) + arrays_of(data, t, FIELDS + cell_names(data) + ("subdomain",), ())
            for t, data in pvd_datasets(out, "solution.pvd")]


def single_precision(out):
    text = open(os.path.join(out, "solution.xdmf")).read()
    return 'Precision="4"' in text


def matching_cells(points, cells, points_vtu, cells_vtu, t):
    """For each VTU cell, the row of the HDF5 cell of the same centre."""
    centres = points[cells].astype(np.float64).mean(axis=1)
    centres_vtu = points_vtu[cells_vtu].astype(np.float64).mean(axis=1)
    # Distinct centres are half a linear cell apart; the VTU's points are
    # 32-bit floats: 1e-6 of the mesh's size tells them apart.
    allowed = 1e-6 * np.abs(points).max()
    rows = np.empty(len(centres_vtu), dtype=np.int64)
    for first in range(0, len(centres_vtu), 256):
        chunk = centres_vtu[first:first + 256]
        distance = np.abs(chunk[:, None, :] - centres[None, :, :]).max(axis=2)
        rows[first:first + 256] = distance.argmin(axis=1)
        if (distance.min(axis=1) > allowed).any():
            raise Failure("t = %g: a VTU cell has no HDF5 cell of its centre" % t)
    if len(set(rows.tolist())) != len(centres):
        raise Failure("t = %g: the VTU's cells match %d of the %d HDF5 cells"
                      % (t, len(set(rows.tolist())), len(centres)))
    return rows


def compare_stress(t, arrays, arrays_vtu, cells_vtu, rows, single):
    names = [name for name in arrays if name.startswith(("stress", "von"))]
    largest = max(max(np.abs(arrays[name]).max() for name in names), 1e-300)
    for name in names:
        mine = arrays[name][rows].astype(np.float64)
        theirs = arrays_vtu[name].astype(np.float64)[cells_vtu].mean(axis=1)
        scale = max(np.abs(theirs).max(), 1e-300)
        allowed = 2.0 ** (-23 if single else -24) * scale + 1e-12 * largest
        difference = np.abs(mine - theirs).max()
        if difference > allowed:
            raise Failure("t = %g: %s differs from the mean of the VTU's vertex"
                          " values by %g (allowed %g)"
                          % (t, name, difference, allowed))


def compare_with_vtu(hdf5, vtu, single, ranks):
    if len(hdf5) != len(vtu):
        raise Failure("%d HDF5 steps, %d VTU steps" % (len(hdf5), len(vtu)))
    for (t, points, cells, arrays), (t_vtu, points_vtu, cells_vtu, arrays_vtu) \
            in zip(hdf5, vtu):
        if abs(t - t_vtu) > 1e-12 * max(1, abs(t)):
            raise Failure("HDF5 step at t = %r, VTU at t = %r" % (t, t_vtu))
        # A node's place as VTU stores it (32-bit floats).
        index = {tuple(p): i for i, p in enumerate(points.astype(np.float32))}
        missing = [tuple(p) for p in points_vtu if tuple(p) not in index]
        if missing:
            raise Failure("t = %g: VTU points not in the HDF5 mesh: %s"
                          % (t, missing[:3]))
        rows = np.array([index[tuple(p)] for p in points_vtu])
        if len(set(rows)) != points.shape[0]:
            raise Failure("t = %g: the VTU holds %d of the %d HDF5 nodes"
                          % (t, len(set(rows)), points.shape[0]))
        for name in FIELDS:
            mine = arrays[name][rows]
            theirs = arrays_vtu[name]
            scale = max(np.abs(theirs).max(), 1e-300)
            difference = np.abs(mine.astype(np.float64) - theirs.astype(np.float64)).max()
            allowed = 0 if single else 2.0 ** -24 * scale
            if difference > allowed:
                raise Failure("t = %g: %s differs from the VTU's by %g (allowed %g)"
                              % (t, name, difference, allowed))
        cell_rows = matching_cells(points, cells, points_vtu, cells_vtu, t)
        compare_stress(t, arrays, arrays_vtu, cells_vtu, cell_rows, single)
        if ranks == 1 and not np.array_equal(
                arrays["subdomain"][cell_rows],
                arrays_vtu["subdomain"][cells_vtu[:, 0]]):
            raise Failure("t = %g: the subdomain differs from the VTU's" % t)


def compare_runs(one, two, out_one, out_two, tolerance):
    mesh = os.path.join("solution", "solution_mesh.h5")
    if not filecmp.cmp(os.path.join(out_one, mesh), os.path.join(out_two, mesh),
                       shallow=False):
        raise Failure("the mesh files differ between the runs")
    if len(one) != len(two):
        raise Failure("%d steps against %d" % (len(one), len(two)))
    for (t, points, cells, arrays), (t2, points2, cells2, arrays2) in zip(one, two):
        if t != t2 or not np.array_equal(points, points2) or \
                not np.array_equal(cells, cells2):
            raise Failure("t = %g: another time, mesh or node order" % t)
        for name in [name for name in arrays if name != "subdomain"]:
            scale = max(np.abs(arrays[name]).max(), 1e-300)
            difference = np.abs(arrays[name] - arrays2[name]).max() / scale
            if difference > tolerance:
                raise Failure("t = %g: %s differs by %g relative (allowed %g)"
                              % (t, name, difference, tolerance))


CONTACT_FIELDS = ("gap", "pressure", "slip_rate", "state", "friction_ratio",
                  "uniqueness_ratio", "friction_coefficient", "slip",
                  "rupture_time", "friction_state", "effective_pressure",
                  "displacement", "friction_traction", "slip_velocity")


def contact_hdf5_steps(out):
    """[(t, points, cells, arrays)] of OUT/contact.xdmf, as ParaView reads it."""
    path = os.path.join(out, "contact.xdmf")
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise Failure("%s does not parse: %s" % (path, e))
    times = [float(g.find("Time").get("Value"))
             for g in root.find("Domain/Grid").findall("Grid")]
    reader = pv.Xdmf3ReaderS(FileName=[path])
    reader.UpdatePipelineInformation()
    result = []
    for t in times:
        reader.UpdatePipeline(t)
        data = servermanager.Fetch(reader)
        result.append((t,) + arrays_of(data, t, CONTACT_FIELDS, ()))
    return result


def contact_vtu_steps(out):
    return [(t,) + arrays_of(data, t, CONTACT_FIELDS, ())
            for t, data in pvd_datasets(out, "contact.pvd")]


def compare_contact(hdf5, vtu):
    if len(hdf5) != len(vtu) or not hdf5:
        raise Failure("contact.xdmf: %d steps, contact.pvd %d" % (len(hdf5), len(vtu)))
    for (t, points, cells, arrays), (t_vtu, points_vtu, cells_vtu, arrays_vtu) \
            in zip(hdf5, vtu):
        if abs(t - t_vtu) > 1e-12 * max(1, abs(t)):
            raise Failure("contact: HDF5 step at t = %r, VTU at t = %r" % (t, t_vtu))
        if points.shape[0] != points_vtu.shape[0] or \
                not np.array_equal(cells, cells_vtu):
            raise Failure("t = %g: contact mesh of %d points, the VTU's %d, "
                          "or other cells" % (t, points.shape[0], points_vtu.shape[0]))
        allowed = 2.0 ** -24 * np.abs(points_vtu).max()
        difference = np.abs(points[:, :points_vtu.shape[1]].astype(np.float64)
                            - points_vtu.astype(np.float64)).max()
        if difference > allowed:
            raise Failure("t = %g: contact points differ from the VTU's by %g "
                          "(allowed %g)" % (t, difference, allowed))
        for name in CONTACT_FIELDS:
            mine = arrays[name].astype(np.float64)
            theirs = arrays_vtu[name].astype(np.float64)
            if mine.shape != theirs.shape or not np.array_equal(mine, theirs):
                raise Failure("t = %g: contact field %s differs from the VTU's "
                              "(largest difference %s)" % (
                                  t, name, np.abs(mine - theirs).max()
                                  if mine.shape == theirs.shape else "shape"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--vtu")
    parser.add_argument("--same-as")
    parser.add_argument("--tolerance", type=float, default=0)
    parser.add_argument("--steps", type=int)
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--contact", action="store_true")
    args = parser.parse_args()
    try:
        steps = hdf5_steps(args.out, args.steps, args.ranks)
        if args.vtu:
            compare_with_vtu(steps, vtu_steps(args.vtu),
                             single_precision(args.out), args.ranks)
        if args.vtu and args.contact:
            compare_contact(contact_hdf5_steps(args.out), contact_vtu_steps(args.vtu))
        if args.same_as:
            compare_runs(steps, hdf5_steps(args.same_as, len(steps), 1),
                         args.out, args.same_as, args.tolerance)
    except Failure as failure:
        print("FAIL: %s" % failure)
        return 1
    print("%s: %d steps read by ParaView's XDMF3 reader%s%s%s" % (
        args.out, len(steps), ", equal to the VTU's" if args.vtu else "",
        ", the contact surface too" if args.contact else "",
        ", the same as %s" % args.same_as if args.same_as else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
