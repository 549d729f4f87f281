#!/usr/bin/python3
"""at_rest.py OUTDIR [--stop T] [--end T] [--max-drift D] [--max-kinetic K]
                     [--max-elastic-change E] [--stick-at-dirichlet S]

Measures how well a string/membrane run keeps a stuck state at rest
(doc/at_rest.md). t_stop is --stop if given, else the first row of
OUTDIR/history.csv with stick_fraction = 1 after which it stays 1. Prints

  t_stop, max|u|           the first such time, the largest |u| of the run;
  drift                    max over outputs t_stop <= t <= end of
                           max_x |u(t) - u(t_stop)| (absolute, / max|u| and
                           / max|u(t_stop)|);
  kinetic                  max of kinetic_energy over those rows;
  elastic change           (E_el(end) - E_el(t_stop)) / E_el(t_stop);
  velocity at stick nodes  max |v| over the nodes flagged stick = 1;
  stick at Dirichlet nodes the stick flag of the end points (1D).

and fails (exit 1) when a --max-* bound given is exceeded, or when
--stick-at-dirichlet S is given and a boundary node is not flagged S. The
fields are read from solution.pvd with VTK (Debian's python3-vtk9).
"""
import argparse
import csv
import os
import sys
import xml.etree.ElementTree as ET

import numpy
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader


def read_outputs(outdir):
    """(t, x, fields) of every output in solution.pvd, nodes sorted by x."""
    root = ET.parse(os.path.join(outdir, "solution.pvd")).getroot()
    outputs = []
    for dataset in root.iter("DataSet"):
        reader = vtkXMLPUnstructuredGridReader()
        reader.SetFileName(os.path.join(outdir, dataset.get("file")))
        reader.Update()
        grid = reader.GetOutput()
        points = vtk_to_numpy(grid.GetPoints().GetData())
        data = grid.GetPointData()
        fields = {data.GetArrayName(i): vtk_to_numpy(data.GetArray(i))
                  for i in range(data.GetNumberOfArrays())}
        outputs.append((float(dataset.get("timestep")), points, fields))
    return outputs


def first_stop(rows):
    """The first t with stick_fraction = 1 from which on it stays 1."""
    stop = None
    for row in rows:
        if float(row["stick_fraction"]) == 1.0:
            stop = float(row["t"]) if stop is None else stop
        else:
            stop = None
    return stop


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--stop", type=float)
    parser.add_argument("--end", type=float, default=float("inf"))
    for bound in ("max-drift", "max-kinetic", "max-elastic-change"):
        parser.add_argument("--" + bound, type=float)
    parser.add_argument("--stick-at-dirichlet", type=float)
    args = parser.parse_args()

    with open(os.path.join(args.outdir, "history.csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    stop = args.stop if args.stop is not None else first_stop(rows)
    if stop is None:
        print("FAIL: stick_fraction never stays 1")
        return 1
    after = [r for r in rows if stop - 1e-12 <= float(r["t"]) <= args.end + 1e-12]
    outputs = read_outputs(args.outdir)
    base = min(outputs, key=lambda o: abs(o[0] - stop))
    later = [o for o in outputs if stop - 1e-12 <= o[0] <= args.end + 1e-12]
    u_max = max(numpy.abs(o[2]["displacement"]).max() for o in outputs)
    drift = max(numpy.abs(o[2]["displacement"] - base[2]["displacement"]).max()
                for o in later)
    kinetic = max(float(r["kinetic_energy"]) for r in after)
    e0, e1 = float(after[0]["elastic_energy"]), float(after[-1]["elastic_energy"])
    stuck_speed = max((numpy.abs(o[2]["velocity"][o[2]["stick"] == 1]).max(initial=0)
                       for o in later), default=0)
    x = base[1][:, 0]
    ends = base[2]["stick"][(x == x.min()) | (x == x.max())]
    print(f"t_stop = {stop:.6g} (output at {base[0]:.6g}), end = {after[-1]['t']}, "
          f"max|u| = {u_max:.6g}")
    u_stop = numpy.abs(base[2]["displacement"]).max()
    print(f"drift max|u(t) - u(t_stop)| = {drift:.3e} ({drift / u_max:.3e} of max|u|, "
          f"{drift / u_stop:.3e} of max|u(t_stop)| = {u_stop:.3e})")
    print(f"kinetic energy after t_stop <= {kinetic:.3e}")
    print(f"elastic energy {e0:.9g} -> {e1:.9g}: change {(e1 - e0) / e0:+.3e}")
    print(f"max |v| at nodes flagged stick = 1: {stuck_speed:.3e}")
    print(f"stick flag at the Dirichlet end nodes: {sorted(set(ends.tolist()))}")
    failures = 0
    for name, value in (("max_drift", drift), ("max_kinetic", kinetic),
                        ("max_elastic_change", abs(e1 - e0) / e0)):
        bound = getattr(args, name)
        if bound is not None and not value <= bound:
            print(f"FAIL: {name.replace('_', ' ')} {value:.3e} > {bound:.3e}")
            failures += 1
    if args.stick_at_dirichlet is not None and any(ends != args.stick_at_dirichlet):
        print(f"FAIL: Dirichlet nodes flagged {ends.tolist()}, expected "
              f"{args.stick_at_dirichlet:g}")
        failures += 1
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
