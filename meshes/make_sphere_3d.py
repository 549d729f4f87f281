#!/usr/bin/env python3
"""Writes the hexahedral mesh of the octant x >= 0, y >= 0, z <= R of a
sphere of radius R = 1 centred at (0, 0, R), touching the plane z = 0 at the
origin (the 3D Hertz example, prm/body_hertz_3d.prm), refined toward the
contact point, as a gmsh 2.2 file; numpy only (no gmsh needed).

A mapped block mesh, not gmsh's: tetrahedra split into hexahedra
(Mesh.SubdivisionAlgorithm = 2) put nodes of 3 and of 6 cells on the contact
surface, and their nodal pressures P_i/A_i scattered by -31% and +87% about
Hertz's within 0.8 a (measured on 5 955 nodes, h = a/9); the structured
surface here gives 4 cells to every node (level 0: -1.1% and +0.4%).

The octant of the unit ball in the coordinates X = x/R, Y = y/R, Z = 1 - z/R
(Z toward the contact point) is cut as a cubed sphere: the core cube
[0, s]^3 and three blocks between its faces X, Y, Z = s and the sphere,
each the linear blend from the cube face to the sphere along the rays of
the face's gnomonic grid. The block around the contact point (Z) is graded
toward it: its parameters w = (xi, eta, 1 - zeta) become w G(m)/m, m the
largest of them, with G(m) = c m up to m1 (cubes of size c R/n: the contact
zone) and c m + (1 - c)((m - m1)/(1 - m1))^2 beyond (cells growing linearly
to G'(1) = 3.1 times the parameter step at the block's far faces, which
stay where they are: the other blocks are uniform). With the block depth
(1 - s) R = R/2 and n/2 radial cells the cells at the contact are cubes.

Level k has n = 16 + 8 k cells along the block's edges (n/4 across the
core in Z): 4 096, 13 824, 32 768 cells; contact spacing c R/n = R/53,
R/80, R/107 (a/5.3, a/8, a/10.7 for a = R/10).

Boundary ids (physical tags): 1 the spherical surface (the contact), 2 the
equatorial plane z = R (the loaded face), 3 the plane x = 0, 4 the plane
y = 0; the volume 1. --shape half: the quarter y >= 0 (the octant and its
mirror image in x = 0; no boundary 3), for a tangential load along x.

    python3 meshes/make_sphere_3d.py [--levels 0 1] [--shape half] [--out DIR]

(levels 0 and 1 are in the repository; 2 and 3, 3.9 and 7.5 MB, are not.)
"""
import argparse
import os

import numpy as np

CORE = 0.5           # s: the core cube's half-size / R
FINE_SCALE = 0.3     # c: the contact zone's cell size is c R/n
FINE_EXTENT = 0.5    # m1: the graded parameter's uniform part, c m1 R = 0.15 R


def grading(m):
    """G(m): c m up to m1, then growing with a continuous slope to G(1) = 1."""
    c, m1 = FINE_SCALE, FINE_EXTENT
    beyond = np.clip((m - m1) / (1 - m1), 0.0, None)
    return c * m + (1 - c) * beyond ** 2


def block_points(inner, outer_direction, zeta):
    """The linear blend of the core face's point and the sphere's point."""
    direction = outer_direction / np.linalg.norm(outer_direction, axis=-1, keepdims=True)
    return (1 - zeta)[..., None] * CORE * inner + zeta[..., None] * direction


def graded_contact_block(xi, eta, zeta):
    w = np.stack([xi, eta, 1 - zeta], axis=-1)
    m = w.max(axis=-1, keepdims=True)
    scale = np.where(m > 0, grading(m) / np.where(m > 0, m, 1), FINE_SCALE)
    xi, eta, zeta = w[..., 0] * scale[..., 0], w[..., 1] * scale[..., 0], \
        1 - w[..., 2] * scale[..., 0]
    face = np.stack([xi, eta, np.ones_like(xi)], axis=-1)
    return block_points(face, face, zeta)


def blocks(n):
    """Each block as an array (i, j, k, 3) of points X, Y, Z, right-handed in
    (i, j, k), and the boundary id of its six faces (i = 0, i = end, j = 0,
    j = end, k = 0, k = end; 0 inside)."""
    n_radial, n_core = n // 2, n // 4
    t, r, q = (np.linspace(0, 1, k + 1) for k in (n, n_radial, n_core))
    result = []
    xi, eta, zeta = np.meshgrid(t, t, r, indexing="ij")
    result.append((graded_contact_block(xi, eta, zeta), (3, 0, 4, 0, 0, 1)))
    eta, tau, zeta = np.meshgrid(t, q, r, indexing="ij")
    face = np.stack([np.ones_like(eta), eta, tau], axis=-1)
    result.append((block_points(face, face, zeta), (4, 0, 2, 0, 0, 1)))
    xi, tau, zeta = np.meshgrid(t, q, r, indexing="ij")
    face = np.stack([xi, np.ones_like(xi), tau], axis=-1)
    result.append((block_points(face, face, zeta), (3, 0, 2, 0, 0, 1)))
    x, y, z = np.meshgrid(t, t, q, indexing="ij")
    result.append((CORE * np.stack([x, y, z], axis=-1), (3, 0, 4, 0, 2, 0)))
    return result


class MeshWriter:
    """Nodes merged by position, hexahedra and boundary quadrilaterals."""

    def __init__(self):
        self.index, self.points, self.hexes, self.quads = {}, [], [], []

    def node(self, point):
        key = tuple(np.round(point, 12) + 0.0)
        if key not in self.index:
            self.index[key] = len(self.points) + 1
            self.points.append(point)
        return self.index[key]

    def add_block(self, points, face_ids):
        ids = np.vectorize(lambda i, j, k: self.node(points[i, j, k]))(
            *np.indices(points.shape[:3]))
        corners = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0),
                   (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
        ni, nj, nk = (s - 1 for s in points.shape[:3])
        for i in range(ni):
            for j in range(nj):
                for k in range(nk):
                    cell = [ids[i + a, j + b, k + c] for a, b, c in corners]
                    self.hexes.append(self.oriented(cell))
        for axis in range(3):
            for side, end in ((0, 0), (1, (ni, nj, nk)[axis])):
                tag = face_ids[2 * axis + side]
                if tag:
                    self.add_face(ids, axis, end, tag)

    def add_face(self, ids, axis, end, tag):
        face = np.take(ids, end, axis=axis)
        for a in range(face.shape[0] - 1):
            for b in range(face.shape[1] - 1):
                self.quads.append((tag, [face[a, b], face[a + 1, b], face[a + 1, b + 1],
                                         face[a, b + 1]]))

    def oriented(self, cell):
        """gmsh's order with a positive volume in x, y, z (the blocks' (i, j,
        k) are not all right-handed, and z = R (1 - Z) turns X, Y, Z
        left-handed: a positive volume in x, y, z is a negative one here)."""
        p = [np.asarray(self.points[v - 1]) for v in cell]
        if np.dot(np.cross(p[1] - p[0], p[3] - p[0]), p[4] - p[0]) > 0:
            cell = cell[4:] + cell[:4]
        return cell

    def mirror_x(self):
        """Adds the mirror image in X = 0; the faces on X = 0 become inner."""
        hexes, quads = list(self.hexes), [q for q in self.quads if q[0] != 3]
        image = {}
        for v, point in enumerate(list(self.points), start=1):
            image[v] = self.node(np.array([-point[0], point[1], point[2]]))
        self.hexes = hexes + [self.oriented([image[v] for v in cell]) for cell in hexes]
        self.quads = quads + [(tag, [image[v] for v in nodes]) for tag, nodes in quads]

    def write(self, path):
        with open(path, "w") as out:
            out.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n" % len(self.points))
            for v, (x, y, z) in enumerate(self.points, start=1):
                # x = R X, y = R Y, z = R (1 - Z); R = 1.
                out.write("%d %.15g %.15g %.15g\n" % (v, x, y, 1 - z + 0.0))
            out.write("$EndNodes\n$Elements\n%d\n" % (len(self.quads) + len(self.hexes)))
            element = 0
            for tag, nodes in self.quads:
                element += 1
                out.write("%d 3 2 %d %d %s\n" % (element, tag, tag, " ".join(map(str, nodes))))
            for cell in self.hexes:
                element += 1
                out.write("%d 5 2 1 1 %s\n" % (element, " ".join(map(str, cell))))
            out.write("$EndElements\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--shape", choices=["octant", "half"], default="octant")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = parser.parse_args()
    stem = "sphere_3d" if args.shape == "octant" else "half_sphere_3d"
    os.makedirs(args.out, exist_ok=True)
    for level in args.levels:
        mesh = MeshWriter()
        for points, face_ids in blocks(16 + 8 * level):
            mesh.add_block(points, face_ids)
        if args.shape == "half":
            mesh.mirror_x()
        target = os.path.join(args.out, "%s_%d.msh" % (stem, level))
        mesh.write(target)
        print("%s: %d nodes, %d hexahedra" % (target, len(mesh.points), len(mesh.hexes)))


if __name__ == "__main__":
    main()
