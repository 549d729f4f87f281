#!/usr/bin/env python3
"""check_hdf5_readers.py HDF5_RUN VTU_RUN: postprocess/vtk_python.py's own
readers of the HDF5 field outputs (h5py, no VTK XDMF reader: what
slip_front_map.py and render_body.py use with Debian's python3-vtk9) give
the values the VTU of the same run holds.

HDF5_RUN and VTU_RUN are one run of the body written with Output/Field
format = hdf5 and = vtu (tests/body/hdf5.cmake). Checked, node by node
(matched by their coordinates, to 1e-6 of the body's size: the VTU's are
32-bit floats):
  - every output of contact.xdmf read at once by series_values(): the
    contact fields and the displacement equal contact.pvd's (both are
    32-bit floats: equal exactly, or to a float's rounding for double);
  - every volume record of solution.xdmf read by the h5py record reader:
    the displacement and velocity equal solution.pvd's; the cell fields
    (von_mises) are there as point fields, as read_record() promises.
Exit 0 if all agree, 1 otherwise.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "postprocess"))
import vtk_python  # noqa: E402

CONTACT_FIELDS = ["gap", "pressure", "slip_rate", "state", "friction_ratio", "displacement"]
TOLERANCE = 1e-6   # relative to each field's largest value: float32 rounding is 6e-8


def keyed(points, values, size):
    import numpy as np
    # VTU stores the coordinates as 32-bit floats, the HDF5 mesh as doubles.
    keys = [tuple(k) for k in np.round(points / (1e-6 * size)).astype(np.int64)]
    return dict(zip(keys, values))


def compare(name, where, a, b, size, points_a, points_b):
    import numpy as np
    first, second = keyed(points_a, a, size), keyed(points_b, b, size)
    if set(first) != set(second):
        return ["%s: %s: the nodes differ (%d against %d)" % (where, name, len(first),
                                                              len(second))]
    scale = max(float(np.max(np.abs(b))), 1e-300)
    worst = max(float(np.max(np.abs(np.asarray(first[k]) - np.asarray(second[k]))))
                for k in first) / scale
    return [] if worst <= TOLERANCE else ["%s: %s differs by %.2e of its scale" % (where, name,
                                                                                  worst)]


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    import numpy as np
    from vtkmodules.util.numpy_support import vtk_to_numpy
    hdf5_run, vtu_run = sys.argv[1:]
    problems, compared = [], 0
    series = vtk_python.read_pvd(hdf5_run, "contact")
    reference = vtk_python.read_pvd(vtu_run, "contact")
    batch = vtk_python.series_values(series, CONTACT_FIELDS)
    if batch is None:
        print("FAIL: series_values() did not read %s/contact.xdmf (h5py missing?)" % hdf5_run)
        return 1
    points, values = batch
    size = float(np.ptp(points, 0).max()) or 1.0
    if len(series) != len(reference):
        problems.append("%d contact outputs against %d" % (len(series), len(reference)))
    for record, row, other in zip(series, values, reference):
        grid = vtk_python.read_record(other)
        other_points = vtk_to_numpy(grid.GetPoints().GetData()).astype(float)
        for name in CONTACT_FIELDS:
            problems += compare(name, "contact t = %g" % record.t, row[name],
                                vtk_python.point_values(grid, name, other.path, finite=False),
                                size, points, other_points)
            compared += 1
    volume = vtk_python.read_pvd(hdf5_run, "solution")
    volume_reference = vtk_python.read_pvd(vtu_run, "solution")
    for record, other in zip(volume, volume_reference):
        grid = vtk_python._read_xdmf_record_by_h5py(record.path)
        grid_points = vtk_to_numpy(grid.GetPoints().GetData()).astype(float)
        reference_grid = vtk_python.read_record(other)
        reference_points = vtk_to_numpy(reference_grid.GetPoints().GetData()).astype(float)
        for name in ("displacement", "velocity"):
            problems += compare(name, "volume t = %g" % record.t,
                                vtk_python.point_values(grid, name, record.path),
                                vtk_python.point_values(reference_grid, name, other.path),
                                size, grid_points, reference_points)
            compared += 1
        vtk_python.point_values(grid, "von_mises", record.path)   # an Error if missing
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        return 1
    print("PASS: %d fields of %d contact and %d volume outputs read by h5py equal the VTU's"
          % (compared, len(series), len(volume)))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except vtk_python.Error as e:
        print("FAIL:", e)
        sys.exit(1)
