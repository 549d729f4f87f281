// The lower half of a cylinder of radius R (plane strain) on the plane
// y = 0, both sides of the contact point: centre (0, R), touching the plane
// at the origin. The Cattaneo-Mindlin problem (prm/body_cattaneo_mindlin.prm)
// shears the contact, which is antisymmetric in x: the quarter of
// cylinder_2d.geo cannot carry it. Quadrilateral cells (recombined, then
// subdivided), of size h_contact within 1.2 a0 of the contact point (a0 =
// R/20 the half-width the example aims at), growing to h_far beyond R/4.
// meshes/make_cylinder_2d.py --shape half writes the levels with
// Mesh.MeshSizeFactor = 2^-level.
//
// Physical groups (deal.II's boundary ids):
//   1  the arc, the contact boundary (Body/Contact/Boundary id = 1)
//   2  the top y = R, the loaded face (Body/Displacement: u prescribed)
//   1  (surface) the body
R = 1;
a0 = R / 20;
h_contact = a0 / 4;  // halved by the subdivision: a0/8 at level 0
h_far = R / 4;

Point(1) = {0, R, 0, h_far};       // centre
Point(2) = {0, 0, 0, h_contact};   // the contact point
Point(3) = {R, R, 0, h_far};       // right end of the arc on the top
Point(4) = {-R, R, 0, h_far};      // left end
Circle(1) = {4, 1, 2};             // the arc, left half, down to the contact
Circle(2) = {2, 1, 3};             // right half, up from it
Line(3) = {3, 4};                  // the top
Curve Loop(1) = {1, 2, 3};
Plane Surface(1) = {1};

Field[3] = Distance;
Field[3].NodesList = {2};  // gmsh 4.8 (Debian 12): NodesList
Field[4] = Threshold;
Field[4].InField = 3;
Field[4].SizeMin = h_contact;
Field[4].SizeMax = h_far;
Field[4].DistMin = 1.2 * a0;
Field[4].DistMax = R / 4;
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

Physical Curve(1) = {1, 2};
Physical Curve(2) = {3};
Physical Surface(1) = {1};
