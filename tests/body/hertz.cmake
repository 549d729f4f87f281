# Body/Time scheme = quasi-static (doc/theory.md §7.8) and Hertz (§7.9):
# prm/body_hertz_2d.prm on meshes/cylinder_2d_<K>.msh, one load step
# (frictionless contact is path-independent). Measured (check_hertz.py;
# errors relative to a and p0 of the measured P; h the contact nodes'
# spacing):
#   K  h/a     err a_mid  err a_fit  err p max  err p L2   Newton  CG/solve
#   0  0.1248  6.04e-2    3.96e-3    3.17e-2    1.219e-2      6     26.2
#   1  0.0606  7.93e-4    2.30e-3    2.10e-2    5.198e-3      7     28.3
#   2  0.0312  1.26e-2    1.01e-3    6.56e-3    1.763e-3      8     29.4
#  (3  0.0156  4.91e-3    8.82e-4    1.62e-2    2.414e-3      9    179.8:
#   not committed (make_cylinder_2d.py --levels 3), 200 s with BoomerAMG
#   (its CG column); the finite cylinder's O((a/R)^2) = 2.5e-3 floor)
# The L2 error's least-squares order over K = 0, 1, 2: 1.39 (pairwise 1.23,
# 1.56): asserted >= 1.25; at K = 2 <= 1.9e-3 (8% above 1.763e-3); a_fit at
# K = 2 <= 1.1e-3 (1.008e-3); Newton (active-set iterations, one per node
# layer entering) at most 9 (8); CG per solve at most 33 (29.4, 10% above:
# GAMG with the rigid-body modes, mesh-independent; BoomerAMG without them
# took 27.2, 47.7, 90.5, 179.8 on the graded mesh, doubling per level). |energy_balance| <= 1e-15 (measured 1e-19) and the
# kinetic energy 0 are asserted in the checker. The picture
# doc/body_hertz_2d.png is this test's hertz.png.
add_test(NAME body_hertz_2d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_hertz.py ${EXE} ${SRC}/prm/body_hertz_2d.prm
     ${OUT}/body_hertz_2d --levels 0 1 2 --max-l2 1.9e-3 --min-order 1.25
     --max-a-fit 1.1e-3 --max-newton 9 --max-cg-per-solve 33
     --plot ${OUT}/body_hertz_2d/hertz.png)
set_tests_properties(body_hertz_2d PROPERTIES LABELS body)

# Hertz in 3D (doc/theory.md §7.11): prm/body_hertz_3d.prm, the octant of
# the sphere on meshes/sphere_3d_<K>.msh (meshes/make_sphere_3d.py: a
# mapped block mesh graded toward the contact point, n = 16 + 8 K cells
# along a block edge), one load step. Measured (check_hertz.py --mesh
# sphere_3d; h the square root of the median area of the contact nodes
# within a; err_a_are the radius of the active area):
#   K  h/a    err_a_are  err_a_fit  err_p_max  err_p_L2  (r<0.8a)  Newton  CG/solve
#   0  0.182  3.33e-2    7.87e-3    5.77e-2    2.402e-2  3.07e-3     4     49.5
#   1  0.122  2.23e-2    4.00e-3    9.17e-2    2.071e-2  5.03e-4     6     61.3
#  (2  0.091  2.37e-2    6.34e-4    7.19e-2    1.255e-2  5.17e-4     6     67.3
#   3  0.073  1.33e-2    1.27e-3    2.19e-2    7.115e-3  9.87e-4     6     68.3:
#   not tests, 47 s and 93 s of CPU (2.1 GB); make_sphere_3d.py --levels 2 3)
# The L2 error is the edge's (the nodes within 0.8 a are at 5e-4 to 1e-3
# from K = 1 on: the finite sphere's floor, O((a/R)^2)): it falls by 14%
# from K = 0 to 1 (h ratio 1.5), by 39% from 1 to 2 and 43% from 2 to 3, as
# the rings of edge nodes fall relative to a (pairwise orders 0.37, 1.75,
# 2.54; least squares over K = 0-3 1.30). An order over the two tested
# levels would be that noise, so none is asserted. Asserted: the L2 error
# at K = 1 <= 2.3e-2 (2.071e-2) and decreasing, a_fit at K = 1 <= 4.4e-3
# (4.00e-3), at most 7 active-set iterations (6), at most 68 CG iterations
# per solve (61.3), |energy_balance| <= 1e-15, kinetic energy 0. CPU 22 s
# (two runs). The picture doc/body_hertz_3d.png is check_hertz.py's
# --plot with --levels 0 1 2.
add_test(NAME body_hertz_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_hertz.py ${EXE} ${SRC}/prm/body_hertz_3d.prm
     ${OUT}/body_hertz_3d --mesh sphere_3d --levels 0 1 --max-l2 2.3e-2
     --max-a-fit 4.4e-3 --max-newton 7 --max-cg-per-solve 68
     --plot ${OUT}/body_hertz_3d/hertz.png)
set_tests_properties(body_hertz_3d PROPERTIES LABELS body)

# Quasi-static with friction: the cylinder of mesh 0 pressed with mu = 0.3
# over 4 load steps (the friction path over each load step: stuck nodes
# keep u_T^n; Spence's problem: a stuck centre, slip outward at the edges).
# Measured: stick fraction 0.286, 0.545, 0.615, 0.588 of the contact, the
# dissipation 0.93, 1.80, 2.74, 3.68e-9 (increasing), |energy_balance| <=
# 3.9e-20, at most 11 active-set iterations in a step. Asserted: the
# dissipation increases at every step, |energy_balance| <= 1e-15, the last
# stick fraction in [0.5, 0.7] (a deterministic run; Spence 1975's
# self-similar stick zone is not compared).
stickslip_run_test(body_quasi_static_friction 1 prm/body_hertz_2d.prm
  --set "Body/Mesh file=${SRC}/meshes/cylinder_2d_0.msh"
  --set "Body/Contact/Friction law/Static friction coefficient=0.3"
  -- awk -F, "NR > 2 && !($4 > d) { bad = 1 }
NR > 1 { d = $4
  if ($7 > 1e-15 || $7 < -1e-15) bad = 1
  s = $14 }
END { if (bad || s < 0.5 || s > 0.7) { print \"dissipation, balance or stick fraction \" s \" wrong\"
  exit 1 } }" @OUT@/history.csv)

# Bad input: a body that floats before contact; an initial velocity.
stickslip_bad_input(body_quasi_static_rigid_modes
  "Body/Time scheme.*quasi-static.*leave a translation along y free"
  ${SRC}/prm/body_hertz_2d.prm --set "Body/Mesh file=${SRC}/meshes/cylinder_2d_0.msh"
  --set "Body/Displacement 2/Boundary ids=")
stickslip_bad_input(body_quasi_static_velocity
  "Body/Initial velocity.*0. -1.*Body/Time scheme = quasi-static supports no initial velocity"
  ${BODY_BAR_PRM} --set "Body/Time scheme=quasi-static")
