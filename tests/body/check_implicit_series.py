#!/usr/bin/python3
"""check_implicit_series.py RUN... [--min-outputs N] [--max-ratio-error E]
                           [--normal-axis D]

The contact series of Body/Time scheme = implicit or quasi-static
(doc/outputs.md, "contact.pvd"): for every output contact.pvd lists, the
fields of its VTU record against the table beside it
(solution/contact_NNNNN.csv), node by node (matched by position; the VTU
holds 32-bit floats: agreement to 1e-6 of each field's largest magnitude):
  state = 0 where the table's node is not active, 1 where it is stuck,
  2 where it slips; pressure = the table's; friction_traction = the
  tangential reaction on the body per area (tangential_force_k/area);
  displacement = u;
and the friction law: friction_ratio <= friction_coefficient everywhere, =
it at a slipping node in contact (to --max-ratio-error); with the implicit
(Newmark) scheme the friction traction of a slipping node opposes its slip
velocity (friction_traction . slip_velocity < 0), the quasi-static one
writes no slip velocity (0). At least --min-outputs outputs, and at least
one slipping and one stuck node over them (so that the checks see
something). Prints the counts and the largest deviations; exit 0 if all
hold.
"""
import argparse
import csv
import os
import re
import sys
import xml.etree.ElementTree as ET

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, "postprocess"))
from vtk_python import require_vtk  # noqa: E402  (python3-vtk9 or python3-paraview)
require_vtk("check_implicit_series")
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader  # noqa: E402


def outputs(run):
    """(t, VTU record, table) of each output of RUN/contact.pvd."""
    root = ET.parse(os.path.join(run, "contact.pvd")).getroot()
    for d in root.iter("DataSet"):
        record = os.path.join(run, d.get("file"))
        yield float(d.get("timestep")), record, os.path.splitext(record)[0] + ".csv"


def fields(record):
    reader = vtkXMLPUnstructuredGridReader()
    reader.SetFileName(record)
    reader.Update()
    data = reader.GetOutput()
    points = vtk_to_numpy(data.GetPoints().GetData())
    values = data.GetPointData()
    return points, {values.GetArrayName(i): vtk_to_numpy(values.GetArray(i)).astype(float)
                    for i in range(values.GetNumberOfArrays())}


def table(path):
    with open(path) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def check_output(record, table_path, normal_axis, quasi_static, max_ratio_error, worst):
    """The failures of one output; updates WORST (largest deviations) and
    returns (failures, slipping nodes, stuck nodes)."""
    points, f = fields(record)
    rows = table(table_path)
    dim = 3 if "z" in rows[0] else 2
    tangents = [k for k in ("tangential_force_1", "tangential_force_2") if k in rows[0]]
    scale = {name: max(np.abs(values).max(), 1e-300) for name, values in f.items()}
    size = max(np.abs(points).max(), 1.0)
    failures, slipping, stuck = [], 0, 0
    for row in rows:
        place = np.array([row[c] for c in "xyz"[:dim]] + [0.0] * (3 - dim))
        # Every VTU point at the node (the faces that share it).
        at = np.where(np.abs(points - place).max(axis=1) <= 1e-6 * size)[0]
        if len(at) == 0:
            failures.append("%s: no VTU point at the node %s" % (record, place[:dim]))
            continue
        state = 0 if row["active"] < 0.5 else (1 if row["stuck"] > 0.5 else 2)
        traction = np.zeros(3)
        # The tangential unknowns are the coordinate axes but the normal's,
        # in order.
        tangential_axes = [d for d in range(dim) if d != normal_axis]
        for j, name in enumerate(tangents):
            traction[tangential_axes[j]] = row[name] / row["area"] if row["area"] > 0 else 0.0
        u = np.array([row["u_" + c] for c in "xyz"[:dim]] + [0.0] * (3 - dim))
        for i in at:
            deviations = {
                "state": abs(f["state"][i] - state),
                "pressure": abs(f["pressure"][i] - row["pressure"]) / scale["pressure"],
                "friction_traction": np.abs(f["friction_traction"][i] - traction).max()
                / scale["friction_traction"],
                "displacement": np.abs(f["displacement"][i] - u).max() / scale["displacement"],
            }
            mu, ratio = f["friction_coefficient"][i], f["friction_ratio"][i]
            deviations["ratio_above_mu"] = max(0.0, ratio - mu)
            if state == 2 and mu > 0 and row["pressure"] > 0:
                deviations["slipping_ratio"] = abs(ratio - mu) / mu
            for name, value in deviations.items():
                worst[name] = max(worst.get(name, 0.0), value)
            bounds = {"state": 0.0, "pressure": 1e-6, "friction_traction": 1e-6,
                      "displacement": 1e-6, "ratio_above_mu": max_ratio_error,
                      "slipping_ratio": max_ratio_error}
            for name, value in deviations.items():
                if value > bounds[name]:
                    failures.append("%s, node %s: %s off by %.3e"
                                    % (record, place[:dim], name, value))
            velocity = f["slip_velocity"][i]
            if quasi_static and np.abs(velocity).max() != 0:
                failures.append("%s: a quasi-static slip velocity %s" % (record, velocity))
            if not quasi_static and state == 2 and mu > 0 and row["pressure"] > 0:
                if not np.dot(f["friction_traction"][i], velocity) < 0:
                    failures.append("%s, node %s: the friction traction %s does not "
                                    "oppose the slip velocity %s"
                                    % (record, place[:dim], f["friction_traction"][i],
                                       velocity))
        slipping += state == 2 and row["pressure"] > 0
        stuck += state == 1
    return failures, slipping, stuck


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--min-outputs", type=int, default=2)
    parser.add_argument("--max-ratio-error", type=float, default=1e-6)
    parser.add_argument("--normal-axis", type=int, default=1,
                        help="the coordinate axis of Body/Contact/Normal (0 x, 1 y, 2 z)")
    args = parser.parse_args()
    failures = []
    for run in args.runs:
        # The scheme as the run recorded it (the log's description names
        # "the implicit and quasi-static steps" in other contexts too).
        with open(os.path.join(run, "parameters.prm")) as f:
            quasi_static = re.search(r"^\s*set Time scheme\s*=\s*quasi-static\b",
                                     f.read(), re.M) is not None
        worst, n, slipping, stuck = {}, 0, 0, 0
        for _, record, table_path in outputs(run):
            found, s, k = check_output(record, table_path, args.normal_axis, quasi_static,
                                       args.max_ratio_error, worst)
            failures += found
            n, slipping, stuck = n + 1, slipping + s, stuck + k
        print("%s (%s): %d outputs, %d slipping and %d stuck node-outputs; largest "
              "deviations: %s" % (run, "quasi-static" if quasi_static else "implicit", n,
                                  slipping, stuck,
                                  ", ".join("%s %.2e" % kv for kv in sorted(worst.items()))))
        if n < args.min_outputs or slipping == 0 or stuck == 0:
            failures.append("%s: %d outputs, %d slipping, %d stuck: the check sees too "
                            "little" % (run, n, slipping, stuck))
    for failure in failures[:20]:
        print("FAIL: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
