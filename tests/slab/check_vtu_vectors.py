#!/usr/bin/python3
"""check_vtu_vectors.py OUTDIR

The slab's last VTU output (the final time) against OUTDIR/profile-final.csv:
at every VTU point (0, 0, z) (the slab's x3 along VTK z), the 3-vectors velocity, strain and displacement equal
the CSV columns velocity_1..3, strain_1..3, displacement_1..3 of the node at
that z, to the VTU's single precision (relative 1e-6 of each column's
largest magnitude; float32 rounds at 6e-8). This checks that the vector
components are not permuted or taken from another node. Exit 0 or 1.
"""
import csv
import os
import sys
import xml.etree.ElementTree as ET

import numpy
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader


def main(outdir):
    datasets = list(ET.parse(os.path.join(outdir, "solution.pvd")).getroot().iter("DataSet"))
    reader = vtkXMLPUnstructuredGridReader()
    reader.SetFileName(os.path.join(outdir, datasets[-1].get("file")))
    reader.Update()
    grid = reader.GetOutput()
    z = vtk_to_numpy(grid.GetPoints().GetData())[:, 2]  # x3 along VTK z
    with open(os.path.join(outdir, "profile-final.csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    profile_z = numpy.array([float(r["z"]) for r in rows])
    dz = profile_z[1] - profile_z[0]
    failures = 0
    for name in ("velocity", "strain", "displacement"):
        vtu = vtk_to_numpy(grid.GetPointData().GetArray(name))
        columns = numpy.array([[float(r[f"{name}_{k}"]) for k in (1, 2, 3)] for r in rows])
        index = numpy.rint((z - profile_z[0]) / dz).astype(int)
        expected = columns[index]
        scale = numpy.maximum(numpy.abs(columns).max(axis=0), 1e-300)
        error = (numpy.abs(vtu - expected) / scale).max()
        good = vtu.shape == (len(z), 3) and error <= 1e-6
        print(f"{'ok  ' if good else 'FAIL'} {name}: {vtu.shape[0]} points x "
              f"{vtu.shape[1]} components, largest difference {error:.2e} of the column scale")
        failures += 0 if good else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
