#!/usr/bin/env python3
"""bench/distorted_mesh.py N FILE: an unstructured-shaped gmsh (format 2.2)
mesh of the square [0, 2]^2 for bench/body.sh: N x N quadrilaterals whose
interior vertices are moved at random (fixed seed) by up to 0.2 of a cell
in each direction, so that no two cells have the same shape (every cell of
Body/Stiffness operator = element kernels has its own element matrix). The
boundary lines carry the tags of meshes/membrane.msh: 1 ("clamped") on
x = 0, y = 0 and y = 2, 2 ("free") on x = 2; the cells 10 ("membrane")."""
import random
import sys

n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(1)
h = 2.0 / n
nodes = []
for j in range(n + 1):
    for i in range(n + 1):
        x, y = i * h, j * h
        if 0 < i < n and 0 < j < n:
            x += rng.uniform(-0.2, 0.2) * h
            y += rng.uniform(-0.2, 0.2) * h
        nodes.append((x, y))
node = lambda i, j: j * (n + 1) + i + 1
elements = []
for k in range(n):
    elements.append((1, 1, node(k, 0), node(k + 1, 0)))          # y = 0
    elements.append((1, 1, node(k + 1, n), node(k, n)))          # y = 2
    elements.append((1, 1, node(0, k + 1), node(0, k)))          # x = 0
    elements.append((1, 2, node(n, k), node(n, k + 1)))          # x = 2
for j in range(n):
    for i in range(n):
        elements.append((3, 10, node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)))
with open(path, "w") as out:
    out.write('$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n3\n'
              '1 1 "clamped"\n1 2 "free"\n2 10 "membrane"\n$EndPhysicalNames\n')
    out.write("$Nodes\n%d\n" % len(nodes))
    for k, (x, y) in enumerate(nodes):
        out.write("%d %.17g %.17g 0\n" % (k + 1, x, y))
    out.write("$EndNodes\n$Elements\n%d\n" % len(elements))
    for k, (kind, tag, *vertices) in enumerate(elements):
        out.write("%d %d 2 %d %d %s\n" % (k + 1, kind, tag, tag, " ".join(map(str, vertices))))
    out.write("$EndElements\n")
