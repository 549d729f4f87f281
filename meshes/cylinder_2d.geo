// The lower-right quarter of a cylinder of radius R (plane strain) on the
// plane y = 0: centre (0, R), touching the plane at the origin. Quadrilateral
// cells (recombined, then subdivided: every cell a quadrilateral), refined
// toward the contact point: cells of size h_contact within 2 a0 of it, growing
// to h_far beyond R/2 (a0 = R/20 the Hertz half-width the example aims at,
// prm/body_hertz_2d.prm). meshes/make_cylinder_2d.py writes the levels with
// Mesh.MeshSizeFactor = 2^-level (every size halves from a level to the next).
//
// Physical groups (deal.II's boundary ids):
//   1  the arc, the contact boundary (Body/Contact/Boundary id = 1)
//   2  the top y = R, the loaded face (Body/Displacement: u_y prescribed)
//   3  the symmetry line x = 0 (u_x = 0)
//   1  (surface) the body
R = 1;
a0 = R / 20;
h_contact = a0 / 4;  // halved by the subdivision: a0/8 at level 0
h_far = R / 4;

Point(1) = {0, R, 0, h_far};       // centre
Point(2) = {0, 0, 0, h_contact};   // the contact point
Point(3) = {R, R, 0, h_far};       // end of the arc on the top
Circle(1) = {2, 1, 3};             // the arc, from the contact point up
Line(2) = {3, 1};                  // the top
Line(3) = {1, 2};                  // the symmetry line
Curve Loop(1) = {1, 2, 3};
Plane Surface(1) = {1};

Field[3] = Distance;
Field[3].NodesList = {2};  // gmsh 4.8 (Debian 12): NodesList
Field[4] = Threshold;
Field[4].InField = 3;
Field[4].SizeMin = h_contact;
Field[4].SizeMax = h_far;
Field[4].DistMin = 2 * a0;
Field[4].DistMax = R / 2;
Background Field = 4;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;

Recombine Surface {1};
Mesh.Algorithm = 6;             // frontal-Delaunay (8 crashes libgmsh 4.8 here)
Mesh.RecombinationAlgorithm = 1;
Mesh.SubdivisionAlgorithm = 1;  // all quadrilaterals
Mesh.MshFileVersion = 2.2;
Mesh.SaveAll = 0;

Physical Curve(1) = {1};
Physical Curve(2) = {2};
Physical Curve(3) = {3};
Physical Surface(1) = {1};
