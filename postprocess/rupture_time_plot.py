#!/usr/bin/python3
"""The rupture of a Model = body run with a friction law with a state.

    rupture_time_plot.py OUTPUT_DIR [--compare DIR ...] [-o OUT.png]

From the last record of OUTPUT_DIR/contact.pvd (read with VTK): the rupture
time along the interface (x against t: the two fronts leaving the
nucleation zone), and the slip and the friction coefficient there; from
history.csv the ruptured extent (front_min_1, front_max_1) against time.
--compare lays the rupture times of other runs (e.g. coarser meshes) over
the first panel. Default output: OUTPUT_DIR/rupture.png, written to a
temporary name and renamed.
"""
import argparse
import csv
import os
import sys
import xml.etree.ElementTree as ET

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def last_record(folder):
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    pvd = os.path.join(folder, "contact.pvd")
    if not os.path.isfile(pvd):
        sys.exit("rupture_time_plot: %s has no contact.pvd" % folder)
    datasets = list(ET.parse(pvd).getroot().iter("DataSet"))
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(os.path.join(folder, datasets[-1].get("file")))
    reader.Update()
    grid = reader.GetOutput()
    x = vtk_to_numpy(grid.GetPoints().GetData())[:, 0]
    data = grid.GetPointData()
    fields = {}
    for name in ("rupture_time", "slip", "friction_coefficient"):
        array = data.GetArray(name)
        if array is None:
            sys.exit("rupture_time_plot: %s has no field %s" % (pvd, name))
        fields[name] = vtk_to_numpy(array)
    nodes = sorted({round(float(x[j]), 9): j for j in range(len(x))}.items())
    return ([p[0] for p in nodes],
            {k: [float(v[j]) for _, j in nodes] for k, v in fields.items()})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("--compare", action="append", default=[])
    p.add_argument("-o", "--output")
    a = p.parse_args()
    x, f = last_record(a.folder)
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for other in a.compare:
        xo, fo = last_record(other)
        pts = [(u, t * 1e6) for u, t in zip(xo, fo["rupture_time"]) if t >= 0]
        axes[0].plot([q[0] * 1e3 for q in pts], [q[1] for q in pts], ".", ms=2,
                     label=os.path.basename(other))
    pts = [(u, t * 1e6) for u, t in zip(x, f["rupture_time"]) if t >= 0]
    axes[0].plot([q[0] * 1e3 for q in pts], [q[1] for q in pts], "k-", lw=1,
                 label=os.path.basename(a.folder))
    axes[0].set_xlabel("x [mm]")
    axes[0].set_ylabel("rupture time [us]")
    axes[0].legend(fontsize=7)
    axes[1].plot([u * 1e3 for u in x], [s * 1e6 for s in f["slip"]], lw=1)
    axes[1].set_xlabel("x [mm]")
    axes[1].set_ylabel("slip [um]")
    ax = axes[1].twinx()
    ax.plot([u * 1e3 for u in x], f["friction_coefficient"], color="C1", lw=0.8)
    ax.set_ylabel("friction coefficient (last step)", color="C1")
    with open(os.path.join(a.folder, "history.csv")) as h:
        rows = list(csv.DictReader(h))
    if rows and "front_min_1" in rows[0]:
        t = [float(r["t"]) * 1e6 for r in rows]
        axes[2].plot(t, [float(r["front_min_1"]) * 1e3 for r in rows], label="front_min_1")
        axes[2].plot(t, [float(r["front_max_1"]) * 1e3 for r in rows], label="front_max_1")
        axes[2].plot(t, [float(r["slipping_fraction"]) * 200 for r in rows], ":",
                     label="slipping fraction x 200")
        axes[2].legend(fontsize=7)
    axes[2].set_xlabel("t [us]")
    axes[2].set_ylabel("ruptured extent [mm]")
    fig.tight_layout()
    out = a.output or os.path.join(a.folder, "rupture.png")
    temporary = out + ".tmp.png"
    fig.savefig(temporary, dpi=110)
    os.replace(temporary, out)
    print("rupture_time_plot: wrote " + out)


if __name__ == "__main__":
    main()
