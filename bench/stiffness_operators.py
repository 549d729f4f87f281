#!/usr/bin/env python3
"""bench/stiffness_operators.py STICKSLIP: the three stiffness operators of
Model = body (Body/Stiffness operator = assembled, matrix-free, element
kernels) on the same runs, meshes with one to many distinct cell shapes, 2D
and 3D, Q1 and Q2; prints a section of BENCHMARKS.md (bench/sections/
84_stiffness_operators.sh). It measures where Body/Stiffness operator = auto
should stop taking the element kernels (cells_per_kernel_shape in
src/models/body/stiffness_operator.h).

Meshes: the block of bench/body_2d.prm and bench/body_3d.prm (one cell
shape); the same block written as a gmsh file whose interior vertices are
moved at random (fixed seed) by up to 5% of a cell ("mildly distorted": every
cell its own shape) or only those of the vertices with x < f L (a share f of
the cells distorted, the others squares); and the unstructured meshes of the
Hertz examples (meshes/cylinder_2d_0.msh, meshes/sphere_3d_0.msh with
prm/body_hertz_2d.prm, prm/body_hertz_3d.prm run explicitly). Every run is
100 explicit steps without field output, about 10^5 unknowns; each operator
runs twice, interleaved with the others, and the faster time loop is kept
(the machine is shared). The rows are printed as they are measured. The share of distinct shapes of a run is read
from the element kernels' memory (one n x n element matrix, columns padded
to a multiple of 4, per distinct shape per rank; 4 B per node of a cell)."""
import os
import random
import re
import subprocess
import sys
import tempfile

exe = sys.argv[1]
work = tempfile.mkdtemp()
OPERATORS = ("assembled", "matrix-free", "element kernels")


def box_mesh(dim, n, amplitude, share, path):
    """An n^dim-cell gmsh (2.2) mesh of [0, 0.2]^dim with the boundary ids of
    deal.II's colorized block (2 d on x_d = 0, 2 d + 1 on x_d = 0.2); the
    interior vertices with x < share * 0.2 moved at random by up to
    amplitude * h per direction. Returns the share of the cells moved."""
    rng, size = random.Random(1), 0.2
    h = size / n
    index = {}
    points = []
    for k in range(n + 1 if dim == 3 else 1):
        for j in range(n + 1):
            for i in range(n + 1):
                ijk = (i, j, k)[:dim]
                x = [c * h for c in ijk]
                if all(0 < c < n for c in ijk) and x[0] < share * size - 1e-12:
                    x = [c + rng.uniform(-amplitude, amplitude) * h for c in x]
                index[ijk] = len(points) + 1
                points.append(x + [0.0] * (3 - dim))
    moved = sum(1 for i in range(n) if i * h < share * size - 1e-12 and i > 0) / n
    cells, faces = [], []
    corners2 = [(0, 0), (1, 0), (1, 1), (0, 1)]
    corners3 = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0),
                (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
    for cell in (
        [(i, j) for j in range(n) for i in range(n)] if dim == 2 else
        [(i, j, k) for k in range(n) for j in range(n) for i in range(n)]):
        corners = corners2 if dim == 2 else corners3
        cells.append([index[tuple(c + o for c, o in zip(cell, offset))] for offset in corners])
    # Boundary faces: on x_d = 0 (id 2d) and x_d = n (id 2d+1).
    for d in range(dim):
        for side, value in ((0, 0), (1, n)):
            others = [e for e in range(dim) if e != d]
            if dim == 2:
                for a in range(n):
                    face = []
                    for o in (0, 1):
                        ijk = [0, 0]
                        ijk[d], ijk[others[0]] = value, a + o
                        face.append(index[tuple(ijk)])
                    faces.append((1, 2 * d + side, face))
            else:
                for a in range(n):
                    for b in range(n):
                        face = []
                        for oa, ob in ((0, 0), (1, 0), (1, 1), (0, 1)):
                            ijk = [0, 0, 0]
                            ijk[d], ijk[others[0]], ijk[others[1]] = value, a + oa, b + ob
                            face.append(index[tuple(ijk)])
                        faces.append((3, 2 * d + side, face))
    cell_type = 3 if dim == 2 else 5
    with open(path, "w") as out:
        out.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n" % len(points))
        for k, p in enumerate(points):
            out.write("%d %.17g %.17g %.17g\n" % (k + 1, *p))
        out.write("$EndNodes\n$Elements\n%d\n" % (len(faces) + len(cells)))
        k = 0
        for kind, tag, vertices in faces:
            k += 1
            out.write("%d %d 2 %d %d %s\n" % (k, kind, tag, tag, " ".join(map(str, vertices))))
        for vertices in cells:
            k += 1
            out.write("%d %d 2 100 100 %s\n" % (k, cell_type, " ".join(map(str, vertices))))
        out.write("$EndElements\n")
    return moved


def run(prm, args):
    out = subprocess.run([exe, prm, "--set", "Output/Directory=%s/run" % work,
                          "--set", "Output/Overwrite=true", "--set", "Output/Field output=false"]
                         + args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("bench/stiffness_operators.py: %s %s failed:\n%s" % (prm, args, out.stdout + out.stderr))
    text = out.stdout
    steps, wall = re.search(r"(\d+) steps of \S+ s in (\S+) s", text).groups()
    unknowns, cells = re.search(r"(\d+) unknowns on (\d+) cells", text).groups()
    operator = float(re.search(r"operator (\S+) B", text).group(1))
    auto = re.search(r"K \(auto: ([^)]*)\)", text)
    chosen = re.search(r"lumped, (.*?) K", text).group(1)
    return dict(wall=float(wall), steps=int(steps), n=int(unknowns), cells=int(cells),
                operator=operator, auto=auto.group(1) if auto else "", chosen=chosen)


def case(label, dim, degree, prm, args):
    args = args + ["--set", "Body/Finite element degree=%d" % degree]
    best = {}
    for _ in range(2):
        for op in OPERATORS:
            r = run(prm, args + ["--set", "Body/Stiffness operator=" + op])
            if op not in best or r["wall"] < best[op]["wall"]:
                best[op] = r
    auto = run(prm, args)
    # Distinct shapes from the kernels' bytes (1 rank): matrices n x len
    # doubles each, plus one unsigned int per node of each cell.
    n = (degree + 1) ** dim * dim
    length = 4 * ((n + 3) // 4)
    kernels = best["element kernels"]
    matrices = (kernels["operator"] * kernels["n"] - 4 * kernels["cells"] * n / dim) / (n * length * 8)
    return dict(label=label, dim=dim, degree=degree, best=best, auto=auto,
                shapes=max(1.0, matrices) / kernels["cells"])


steps = ["--set", "Time/Final time=1e-5", "--set", "Time/Time step=1e-7", "--set", "Output/Interval=1e-5"]
steps_q2 = ["--set", "Time/Final time=5e-6", "--set", "Time/Time step=5e-8", "--set", "Output/Interval=5e-6"]
hertz = ["--set", "Body/Time scheme=explicit", "--set", "Time/Time step=1e-4", "--set", "Time/Final time=1e-2",
         "--set", "Output/Interval=1e-2"]
hertz_q2 = ["--set", "Body/Time scheme=explicit", "--set", "Time/Time step=2.5e-5",
            "--set", "Time/Final time=2.5e-3", "--set", "Output/Interval=2.5e-3"]
def row(r):
    b = r["best"]
    kernel = b["element kernels"]["wall"]
    other = min(b["assembled"]["wall"], b["matrix-free"]["wall"])
    print("| %s | %d | %.2g | %.3f s | %.3f s | %.3f s | **%.2f** | %s (%s) |" % (
        r["label"], b["assembled"]["n"], r["shapes"], b["assembled"]["wall"], b["matrix-free"]["wall"],
        kernel, kernel / other, r["auto"]["chosen"], r["auto"]["auto"]), flush=True)


out = ["## Which stiffness operator is fastest on which mesh (Body/Stiffness operator = auto)\n"]
out.append("The same explicit run (100 steps, no field output, 1 rank) with each of the three operators"
           " on meshes with one to many distinct cell shapes: the sheared block of bench/body_2d.prm and"
           " bench/body_3d.prm, the same block as a gmsh file with its interior vertices moved at random"
           " by up to 5%% of a cell everywhere (mildly distorted) or where x < L/4, and the unstructured"
           " meshes of the Hertz examples run explicitly. Time loop of the faster of 2 runs each,"
           " interleaved. 'shapes per cell' is the element kernels' number of distinct element"
           " matrices over the cells (from their memory). 'auto' is what Body/Stiffness operator ="
           " auto chose, with its reason (1 distinct shape per %s cells at most: the element"
           " kernels).\n" % "`cells_per_kernel_shape`")
out.append("| mesh | unknowns | shapes per cell | assembled | matrix-free | element kernels | kernels / best other | auto |")
out.append("|---|---|---|---|---|---|---|---|")
print("\n".join(out), flush=True)

for dim, degree, n_block, n_coarse, refinements, hertz_refinements in (
        (2, 1, 224, 28, 3, 3), (3, 1, 32, 8, 2, 1), (2, 2, 112, 14, 3, 2), (3, 2, 16, 8, 1, 0)):
    prm = "bench/body_%dd.prm" % dim
    time = steps if degree == 1 else steps_q2
    name = "%dD Q%d" % (dim, degree)
    block = ["--set", "Body/Subdivisions=" + ", ".join([str(n_block)] * dim)]
    row(case(name + ", block", dim, degree, prm, block + time))
    shares = (0.25, 1.0) if degree == 1 else (1.0,)
    for share in shares:
        path = "%s/box_%d_%d_%g.msh" % (work, dim, degree, share)
        box_mesh(dim, n_coarse, 0.05, share, path)
        mesh = ["--set", "Body/Mesh=file", "--set", "Body/Mesh file=" + path,
                "--set", "Body/Global refinements=%d" % refinements]
        row(case(name + (", mildly distorted" if share == 1 else
                         ", distorted where x < %g L" % share),
                 dim, degree, prm, mesh + time))
    hertz_prm = "prm/body_hertz_%dd.prm" % dim
    mesh = ["--set", "Body/Mesh file=meshes/%s_0.msh" % ("cylinder_2d" if dim == 2 else "sphere_3d"),
            "--set", "Body/Global refinements=%d" % hertz_refinements]
    row(case(name + ", " + ("cylinder_2d_0.msh" if dim == 2 else "sphere_3d_0.msh"),
             dim, degree, hertz_prm, mesh + (hertz if degree == 1 else hertz_q2)))

print("\n'kernels / best other' below 1: the element kernels are the fastest.\n")
print("Load average when this section ran: %.1f (2 cores).\n" % os.getloadavg()[0])
