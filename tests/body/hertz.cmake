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
