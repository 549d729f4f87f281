#!/usr/bin/env python3
"""Writes meshes/cylinder_2d_<level>.msh from meshes/cylinder_2d.geo (the
quarter cylinder of the Hertz example), or with --shape half
meshes/half_cylinder_2d_<level>.msh from meshes/half_cylinder_2d.geo (the
lower half, for the Cattaneo-Mindlin example), with libgmsh's C API (ctypes;
no gmsh binary needed): level k scales every cell size by 2^-k
(Mesh.MeshSizeFactor).

    python3 meshes/make_cylinder_2d.py [--levels 0 1 2]  (3: 2 MB, not committed)
    python3 meshes/make_cylinder_2d.py --shape half [--levels 0 1 2]
"""
import argparse
import ctypes
import ctypes.util
import os
import sys


def gmsh_library():
    name = ctypes.util.find_library("gmsh") or "libgmsh.so"
    return ctypes.CDLL(name)


def call(function, *arguments):
    error = ctypes.c_int(0)
    function(*arguments, ctypes.byref(error))
    if error.value != 0:
        sys.exit("libgmsh: %s failed (error %d)" % (function.__name__, error.value))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--levels", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--shape", choices=["quarter", "half"], default="quarter")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    gmsh = gmsh_library()
    gmsh.gmshOptionSetNumber.argtypes = [ctypes.c_char_p, ctypes.c_double,
                                         ctypes.POINTER(ctypes.c_int)]
    stem = "cylinder_2d" if args.shape == "quarter" else "half_cylinder_2d"
    for level in args.levels:
        call(gmsh.gmshInitialize, 0, None, 0)
        call(gmsh.gmshOptionSetNumber, b"General.Terminal", 0.0)
        call(gmsh.gmshOpen, os.path.join(here, stem + ".geo").encode())
        call(gmsh.gmshOptionSetNumber, b"Mesh.MeshSizeFactor", 0.5 ** level)
        call(gmsh.gmshModelMeshGenerate, 2)
        target = os.path.join(here, "%s_%d.msh" % (stem, level))
        call(gmsh.gmshWrite, target.encode())
        call(gmsh.gmshFinalize)
        print(target)


if __name__ == "__main__":
    main()
