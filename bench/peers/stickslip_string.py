#!/usr/bin/python3
"""Runs stickslip on the string of prm/string.prm with a given scheme, mesh
and time step and writes its final u, v at every node (read from the last
VTU field output, doc/outputs.md) and its timings in the JSON format of the
peer scripts.

Schemes (--scheme):
  lie        Lie splitting, P = Q = 1, alpha = 0, lumped mass, closed-form
             friction step: the explicit scheme of prm/string.prm;
  centered   the centered multiplier scheme of Glowinski & Kearsley 1995 (doc/theory.md
             §3.2), alpha = 0, lumped mass, lambda by the closed form of the
             equivalent friction step: explicit (prm/string_at_rest.prm with
             the exact multiplier instead of the fixed point);
  centered-implicit
             the same with alpha = 1/4 (Newmark's average acceleration for
             the elastic force, unconditionally stable), lambda by the
             semismooth Newton friction solver: the stickslip scheme closest
             to the peers' theta = 1/2.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

import string_common as sc

SCHEMES = {
    "lie": ("prm/string.prm", []),
    "centered": ("prm/string_at_rest.prm",
                 ["Centered scheme/Multiplier solver=friction solver",
                  "Friction/Solver=closed form"]),
    "centered-implicit": ("prm/string_at_rest.prm",
                          ["Centered scheme/Multiplier solver=friction solver",
                           "Friction/Solver=semismooth newton",
                           "Splitting/Elastic implicitness=0.25"]),
}


def read_final_fields(directory):
    """The last record of solution.pvd: u and v at every node, sorted by x
    (each cell writes its own copy of its vertices: duplicates are merged)."""
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader
    pvd = open(os.path.join(directory, "solution.pvd")).read()
    last = re.findall(r'file="([^"]+)"', pvd)[-1]
    reader = vtkXMLPUnstructuredGridReader()
    reader.SetFileName(os.path.join(directory, last))
    reader.Update()
    grid = reader.GetOutput()
    x = vtk_to_numpy(grid.GetPoints().GetData())[:, 0]
    u = vtk_to_numpy(grid.GetPointData().GetArray("displacement"))
    v = vtk_to_numpy(grid.GetPointData().GetArray("velocity"))
    x, first = np.unique(x, return_index=True)
    return x, u[first], v[first]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exe", default=os.environ.get("STICKSLIP_EXE", "build/stickslip"))
    parser.add_argument("--scheme", choices=sorted(SCHEMES), required=True)
    parser.add_argument("--refinements", type=int, required=True, help="2^r cells")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--output", required=True, help="result JSON")
    args = parser.parse_args()

    prm, settings = SCHEMES[args.scheme]
    cells = 2**args.refinements
    dt = sc.FINAL_TIME / args.steps
    with tempfile.TemporaryDirectory() as work:
        command = [args.exe, prm, "--quiet"]
        for s in settings + [f"String/Global refinements={args.refinements}",
                             f"Time/Time step={dt!r}",
                             f"Time/Final time={sc.FINAL_TIME!r}",
                             f"Output/Directory={work}/run", "Output/Overwrite=true",
                             f"Output/Interval={sc.FINAL_TIME!r}"]:
            command += ["--set", s]
        start = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True)
        process = time.perf_counter() - start
        if run.returncode != 0:
            sys.stderr.write(run.stdout + run.stderr)
            return 1
        loop = float(re.search(r"wall ([0-9.eE+-]+) s", run.stdout).group(1))
        x, u, v = read_final_fields(os.path.join(work, "run"))
    scheme = {"lie": "stickslip Lie, P = Q = 1, alpha = 0, lumped, closed form",
              "centered": "stickslip centered, alpha = 0, lumped, closed form",
              "centered-implicit": "stickslip centered, alpha = 1/4, lumped, semismooth Newton"
              }[args.scheme]
    sc.write_result(args.output, "stickslip " + args.scheme, scheme, cells, args.steps,
                    dt, x, u, v, loop, process - loop, {"process_seconds": process})
    return 0


if __name__ == "__main__":
    sys.exit(main())
