# The implicit and quasi-static steps against the mirror image
# (Body/Contact/Counterpart = mirror; doc/theory.md §7.7, "The mirror
# counterpart and the prescribed traction", and §7.10, "Two identical
# cylinders"; doc/body.md, "Hertz", "Cattaneo-Mindlin").

# ---- 1. Two identical cylinders pressed together without friction
# (check_mirror_twin.py): prm/body_hertz_2d.prm (mesh 1) against its mirror
# image at the initial gap 2y equals the cylinder on the rigid plane at y,
# the pair's plane of symmetry: every column of history.csv and of the
# contact nodes' table, the fault's gap twice the rigid plane's. Measured:
# 0 (bitwise: g0/2 and 2 u.n are exact), tolerance 0. 2 runs, 2 s.
add_test(NAME body_implicit_mirror_hertz
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror_twin.py ${EXE}
     ${SRC}/prm/body_hertz_2d.prm ${OUT}/body_implicit_mirror_hertz --gap "2*y"
     --set "Body/Mesh file=${SRC}/meshes/cylinder_2d_1.msh" --tolerance 0)
set_tests_properties(body_implicit_mirror_hertz PROPERTIES LABELS body)

# ---- 2. The sliding layer of physics.cmake (check_mirror.py: the periodic
# layer pressed by rho g, pulled by rho a, exponential law) with Newmark's
# implicit step at dt = 0.02: against its mirror image with v_c it equals
# the layer on the rigid plane with v_c/2 (the law at the fault's rate 2 V
# is the rigid plane's at V). Measured: 0 in every column (bitwise), the
# acceleration on [20, 40] a - mu_d g to 3.7e-11; tolerance 0. With Contact
# law = prescribed traction at the floor pressure rho g H (the normal rows
# free, the traction a load): 4.7e-11 of the column scale (friction_force_1;
# the rigid plane's pressure drifts from rho g H by 3.1e-12, the CG's
# residual on the held normal rows), tolerance about 1000 times that,
# rounded up: 1e-7. The solvers' counts are not compared (the held rows
# differ). 4 runs of 2000 steps, 3 s.
add_test(NAME body_implicit_mirror_sliding
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_implicit_mirror_sliding --time-scheme implicit --tolerance 0)
set_tests_properties(body_implicit_mirror_sliding PROPERTIES LABELS body)
add_test(NAME body_implicit_mirror_prescribed_traction
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_implicit_mirror_prescribed_traction --time-scheme implicit
     --contact-law "prescribed traction" --tolerance 1e-7)
set_tests_properties(body_implicit_mirror_prescribed_traction PROPERTIES
  LABELS body)

# ---- 3. Cattaneo-Mindlin for two identical cylinders (doc/theory.md
# §7.10): prm/body_cattaneo_mindlin.prm against its mirror image with the
# pair's Hertz pressure prescribed (P = 0.00275: a = 0.052843, p0 =
# 0.033130, ramped with the pressing up to t = 1) and friction from t = 1:
# the pair's tangential problem exactly (beta = 0), Cattaneo's closed form
# with no floor. check_cattaneo.py, errors as in cattaneo.cmake; measured
# (K mesh, h/a; largest over Q/(mu P) = 0.18, 0.36, 0.59):
#   K  h/a     err_c    err_q     (rigid plane, beta = 0.091: err_q)
#   0  0.111   3.64e-2  3.83e-2   6.75e-2
#   1  0.058   2.94e-2  1.28e-2   2.35e-2
#   2  0.030   9.36e-3  1.14e-2   2.61e-2
# c within half a node spacing; q decreases at every level (asserted), at
# Q = 0.59 mu P 1.30e-2, 7.09e-3, 2.80e-3; the stick zone centred to 2e-9 a
# (the rigid plane: 0.03 a). The cycle on mesh 2 with load steps of 0.05
# (where the rigid plane cycles at the turning point): at most 2 active-set
# iterations in a load step, unloading c' error 3.27e-3, q 2.03e-2; the
# dissipation per cycle 3.394e-8 against the closed form W = 3.371e-8 (the
# body's half of the pair's 2 W): 6.9e-3 (meshes 0 and 1: 8.4e-2, 2.9e-2);
# loop area = dissipation - impact work to 1.0e-11. Exact stick: the 15
# nodes stuck from t = 1.5 to 1.55 keep u_x to the last bit (u_y is free
# under the prescribed traction). Bounds about 10% above the measured;
# newton 3 against 2. 3 runs, CPU 11 s.
set(CM_IDENTICAL_PAIR
  --set "Body/Contact/Counterpart=mirror"
  --set "Body/Contact/Contact law=prescribed traction"
  --set "Body/Contact/Normal traction=0.03313035310988226*sqrt(max(0, 1 - (x/0.0528429132102622)^2))*min(t, 1)")
add_test(NAME body_cattaneo_mindlin_identical_pair
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_cattaneo.py ${EXE} ${SRC}/prm/body_cattaneo_mindlin.prm
     ${OUT}/body_cattaneo_mindlin_identical_pair --levels 0 1 2
     --loading-times 1.3 1.6 2.0 ${CM_IDENTICAL_PAIR} --q-decreases-throughout
     --cycle-level 2 --cycle-step 0.05 --stick-times 1.5 1.55 --stick-tangential-only
     --max-c 1.1e-2 --max-q-l2 1.3e-2 --max-c-unloading 3.6e-3
     --max-q-l2-unloading 2.3e-2 --max-loop-error 7.6e-3 --max-newton 3)
set_tests_properties(body_cattaneo_mindlin_identical_pair PROPERTIES LABELS body)

# ---- 4. The identical pair's cycle (3., mesh 1) on 1 and 2 ranks, compared
# column by column relative to each column's scale. Measured: largest
# difference 6.1e-13 (dissipated_energy), tolerance 1e-9 (about 1000 times
# that, rounded up to a power of ten). Not compared: energy_balance (round-
# off, |value| <= 3.5e-19), impact_work (|value| <= 9.4e-11, differs by
# 2.6e-20) and the solvers' counts (the partition's).
foreach(np 1 2)
  stickslip_run_test(body_implicit_mirror_mpi_np${np} ${np} prm/body_cattaneo_mindlin.prm
    ${CM_IDENTICAL_PAIR} --set "Body/Mesh file=${SRC}/meshes/half_cylinder_2d_1.msh")
  set_tests_properties(body_implicit_mirror_mpi_np${np} PROPERTIES
    FIXTURES_SETUP body_implicit_mirror_mpi)
endforeach()
add_test(NAME body_implicit_mirror_mpi_np2_same_as_np1
  COMMAND ${PYTHON3} ${SRC}/tests/compare_histories.py
          ${OUT}/body_implicit_mirror_mpi_np1/history.csv
          ${OUT}/body_implicit_mirror_mpi_np2/history.csv --tolerance 1e-9
          --columns t,kinetic,elastic,dissipated,data,momentum,contact,normal,mean,stick,max_slip,friction)
set_tests_properties(body_implicit_mirror_mpi_np2_same_as_np1 PROPERTIES
  FIXTURES_REQUIRED body_implicit_mirror_mpi)

# ---- 5. In 3D (the same loops with two tangents): the layer of 2. on 2 x 2 x
# 20 cells, periodic in x and y, pulled along d = (0.8, 0.6)
# (check_mirror.py --direction): against its image it equals the rigid plane
# with v_c/2 in every column, bitwise (measured 0; the late acceleration
# along d within 3.8e-10 of a - mu_d g), tolerance 0; with the prescribed
# traction rho g H 1.3e-10 (friction_force_1), tolerance 1e-7 as in 2.
# The octant of the sphere of prm/body_hertz_3d.prm (mesh 0, 4 096
# hexahedra) against its image at the gap 2z equals the sphere on the rigid
# plane at z: 0 (bitwise) in history.csv and the contact nodes' table,
# tolerance 0. CPU 1.4 s, 1.4 s and 13 s.
add_test(NAME body_implicit_mirror_sliding_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_implicit_mirror_sliding_3d --time-scheme implicit
     --direction 0.8 0.6 --tolerance 0)
add_test(NAME body_implicit_mirror_prescribed_traction_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_implicit_mirror_prescribed_traction_3d --time-scheme implicit
     --direction 0.8 0.6 --contact-law "prescribed traction" --tolerance 1e-7)
add_test(NAME body_implicit_mirror_hertz_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror_twin.py ${EXE}
     ${SRC}/prm/body_hertz_3d.prm ${OUT}/body_implicit_mirror_hertz_3d --gap "2*z"
     --set "Body/Mesh file=${SRC}/meshes/sphere_3d_0.msh" --tolerance 0)
set_tests_properties(body_implicit_mirror_sliding_3d
  body_implicit_mirror_prescribed_traction_3d body_implicit_mirror_hertz_3d
  PROPERTIES LABELS body)

# ---- 6. Through a snapshot: the identical pair of 3. (mesh 0) written on 2
# ranks, stopped at t = 2.2 (after the turning point), resumed from the
# snapshot at t = 2 on 1 rank to T = 2.5, against the uninterrupted 2-rank
# run (tests/reliability/resume_across_ranks.py --series). The prescribed
# pressure is set again at each step; the fault's gap (0: it never opens)
# is not in the snapshot and was the gap of the reference geometry after a
# resume until this test found it. Measured, relative to each column's
# scale: history 7.9e-14 (dissipated_energy), the contact tables 9.1e-13;
# tolerance 1e-9 (about 1000 times, rounded up to a power of ten).
# energy_balance and impact_work are round-off here (|values| <= 1e-10 of
# the energies) and the solvers' counts the partition's: not compared.
# CPU 7 s.
add_test(NAME resume_body_mirror_traction
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${SRC}/prm/body_cattaneo_mindlin.prm ${OUT}/resume_body_mirror_traction
          --np 2 --resume-np 1 --stop 2.2 --final 2.5 --checkpoint 0.5
          --tolerance 1e-9 --series
          --columns t,kinetic,elastic,dissipated,data,momentum,contact,normal,mean,stick,max_slip,friction,newton,active,max_newton
          ${CM_IDENTICAL_PAIR}
          --set "Body/Mesh file=${SRC}/meshes/half_cylinder_2d_0.msh"
          --set "Output/Field output=true" --set "Output/Field output every=1000000")
set_tests_properties(resume_body_mirror_traction PROPERTIES PROCESSORS 2
  LABELS body TIMEOUT 600)
