"""check_hdf5.py (run by pvpython) HDF5DIR [--vtu VTUDIR] [--same-as DIR2]
                 [--tolerance T] [--steps N]

Checks the HDF5 + XDMF field output of a run (Output/Field format = hdf5)
as ParaView reads it:
- HDF5DIR/solution.xdmf parses (Python's xml) and every HDF5 file its data
  items name exists in HDF5DIR/solution, with each grid's record
  (solution/<grid name>.xdmf); it lists N steps (--steps);
- ParaView's XDMF3 reader (Xdmf3ReaderS) reads every step: the points, the
  cells and the nodal arrays displacement and velocity of the sizes the
  XDMF names (a dataset that is missing or too short fails here);
- --vtu VTUDIR, the same run with Field format = vtu: at every step, at
  every node, displacement and velocity equal the VTU's values (VTU stores
  32-bit floats: single-precision HDF5 values must equal them exactly,
  double ones to within a float's rounding, 2^-24 relative to the field's
  largest value);
- --same-as DIR2, the same run on another number of ranks: the same mesh
  file bytes, the same points and cells in the same order, and nodal values
  equal to T relative to each field's largest value.
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


def arrays_of(data, t):
    # Copies: the arrays go with the data object ParaView reuses.
    points = np.array(vtk_to_numpy(data.GetPoints().GetData()))
    arrays = {}
    for name in FIELDS:
        array = data.GetPointData().GetArray(name)
        if array is None:
            raise Failure("no array %s at t = %g" % (name, t))
        arrays[name] = np.array(vtk_to_numpy(array))
    cells = np.array(vtk_to_numpy(data.GetCells().GetConnectivityArray()))
    return points, cells, arrays


def fetch(reader, t):
    reader.UpdatePipeline(t)
    return arrays_of(servermanager.Fetch(reader), t)


def hdf5_steps(out, expected_steps):
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
        for name in FIELDS:
            if list(arrays[name].shape) != sizes[name]:
                raise Failure("t = %g: %s has shape %s, the XDMF names %s"
                              % (t, name, arrays[name].shape, sizes[name]))
        result.append((t, points, cells, arrays))
    return result


def vtu_steps(out):
    root = ET.parse(os.path.join(out, "solution.pvd")).getroot()
    result = []
    for dataset in root.iter("DataSet"):
        t = float(dataset.get("timestep"))
        reader = vtkXMLPUnstructuredGridReader()
        reader.SetFileName(os.path.join(out, dataset.get("file")))
        reader.Update()
        points, _, arrays = arrays_of(reader.GetOutput(), t)
        result.append((t, points, arrays))
    return result


def single_precision(out):
    text = open(os.path.join(out, "solution.xdmf")).read()
    return 'Precision="4"' in text


def compare_with_vtu(hdf5, vtu, single):
    if len(hdf5) != len(vtu):
        raise Failure("%d HDF5 steps, %d VTU steps" % (len(hdf5), len(vtu)))
    for (t, points, _, arrays), (t_vtu, points_vtu, arrays_vtu) in zip(hdf5, vtu):
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
        for name in FIELDS:
            scale = max(np.abs(arrays[name]).max(), 1e-300)
            difference = np.abs(arrays[name] - arrays2[name]).max() / scale
            if difference > tolerance:
                raise Failure("t = %g: %s differs by %g relative (allowed %g)"
                              % (t, name, difference, tolerance))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--vtu")
    parser.add_argument("--same-as")
    parser.add_argument("--tolerance", type=float, default=0)
    parser.add_argument("--steps", type=int)
    args = parser.parse_args()
    try:
        steps = hdf5_steps(args.out, args.steps)
        if args.vtu:
            compare_with_vtu(steps, vtu_steps(args.vtu), single_precision(args.out))
        if args.same_as:
            compare_runs(steps, hdf5_steps(args.same_as, len(steps)),
                         args.out, args.same_as, args.tolerance)
    except Failure as failure:
        print("FAIL: %s" % failure)
        return 1
    print("%s: %d steps read by ParaView's XDMF3 reader%s%s" % (
        args.out, len(steps), ", equal to the VTU's" if args.vtu else "",
        ", the same as %s" % args.same_as if args.same_as else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
