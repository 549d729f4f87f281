#!/usr/bin/python3
"""check_chain_vtu.py OUTPUT_DIR --masses N --ranks R

Reads the last .pvtu of OUTPUT_DIR/solution.pvd with VTK's parallel reader
and checks the chain's VTU output: one line of N + R - 1 points (mass i at
x = i; each rank's piece repeats the first mass of the next one) and
N - 1 line cells; the fields displacement, velocity, friction_force,
multiplier, stick (0/1) and subdomain (0..R-1) are finite; and the
displacement and friction force at the masses equal the last row of
history.csv (x_i and g_i columns, single precision). Needs VTK's Python
modules: python3-vtk9 or python3-paraview (postprocess/vtk_python.py).
"""
import argparse
import csv
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, "postprocess"))
from vtk_python import require_vtk  # noqa: E402  (python3-vtk9 or python3-paraview)
require_vtk("check_chain_vtu")
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--masses", type=int, required=True)
    p.add_argument("--ranks", type=int, required=True)
    a = p.parse_args()
    pvd = ET.parse(os.path.join(a.out, "solution.pvd")).getroot()
    files = [d.get("file") for d in pvd.iter("DataSet")]
    reader = vtkXMLPUnstructuredGridReader()
    reader.SetFileName(os.path.join(a.out, files[-1]))
    reader.Update()
    grid = reader.GetOutput()
    n_points, n_cells = grid.GetNumberOfPoints(), grid.GetNumberOfCells()
    pieces = max(1, min(a.ranks, a.masses))
    expected_points = a.masses + pieces - 1 if a.masses > 1 else 2
    failures = []
    if n_points != expected_points:
        failures.append("%d points, expected %d" % (n_points, expected_points))
    if a.masses > 1 and n_cells != a.masses - 1:
        failures.append("%d cells, expected %d" % (n_cells, a.masses - 1))
    data = grid.GetPointData()
    fields = {}
    for name in ["displacement", "velocity", "friction_force", "multiplier",
                 "stick", "subdomain"]:
        array = data.GetArray(name)
        if array is None:
            failures.append("no field " + name)
            continue
        fields[name] = vtk_to_numpy(array)
        if not np.all(np.isfinite(fields[name])):
            failures.append(name + " not finite")
    if "stick" in fields and not np.all(np.isin(fields["stick"], [0, 1])):
        failures.append("stick not 0/1")
    if "subdomain" in fields and (fields["subdomain"].min() < 0 or
                                  fields["subdomain"].max() > a.ranks - 1):
        failures.append("subdomain outside 0..R-1")
    positions = vtk_to_numpy(grid.GetPoints().GetData())[:, 0]
    with open(os.path.join(a.out, "history.csv"), newline="") as f:
        last = list(csv.DictReader(f))[-1]
    n_checked = 0
    for column, value in last.items():
        for prefix, field in (("x", "displacement"), ("g", "friction_force")):
            if column.startswith(prefix) and column[1:].isdigit() and \
               field in fields:
                i = int(column[1:])
                at = np.where(np.abs(positions - i) < 1e-6)[0]
                if len(at) == 0:
                    failures.append("no point at x = %d" % i)
                    continue
                got = fields[field][at]
                if np.max(np.abs(got - float(value))) > \
                   1e-6 * max(1.0, abs(float(value))):
                    failures.append("%s at mass %d: %s vs %s"
                                    % (field, i, got, value))
                n_checked += 1
    print("%s: %d points, %d cells, %d values checked against history.csv"
          % (files[-1], n_points, n_cells, n_checked))
    if n_checked == 0:
        failures.append("no history column checked")
    if failures:
        print("FAIL: " + "; ".join(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
