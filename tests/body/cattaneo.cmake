# Cattaneo-Mindlin partial slip (doc/theory.md §7.10, doc/body.md
# "Cattaneo-Mindlin"): prm/body_cattaneo_mindlin.prm, the lower half of the
# cylinder (meshes/half_cylinder_2d_<K>.msh) pressed without friction
# (Body/Contact/Friction from time = 1), then sheared with mu = 0.3, nu =
# 0.45 (Dundurs' beta = 0.091). Measured (check_cattaneo.py; errors of c
# relative to a, of q in L2 over |x| <= 1.5 a relative to mu p0; h the
# contact nodes' spacing at x = 0):
#   K  h/a     Q/(muP) = 0.18     0.36               0.59
#              err_c    err_q     err_c    err_q     err_c    err_q
#   0  0.109   2.15e-2  6.75e-2   1.45e-2  6.75e-2   4.72e-2  4.56e-2
#   1  0.058   1.22e-3  2.35e-2   1.43e-2  2.09e-2   8.92e-4  2.32e-2
#   2  0.030   1.25e-3  1.33e-2   6.80e-4  1.58e-2   3.18e-3  2.61e-2
# The largest c error per level 4.72e-2, 1.43e-2, 3.18e-3 (within h/2 of a
# node; asserted decreasing and <= 3.5e-3 at K = 2); the q error falls from
# K = 0 to 1 and then stops at about 2e-2: the stick zone's centre moves by
# 0.03 a at K = 2 (beta != 0; 0.061 a at nu = 0.3, 0.015 a at nu = 0.49),
# asserted <= 2.9e-2 (2.61e-2). Cycle on K = 0 with load steps of 0.05
# (Q* = 0.58 mu P; steps of 0.1 or finer meshes cycle at the turning point,
# doc/body.md "Cattaneo-Mindlin", "Weak"): unloading to Q = -0.009 mu P, c'
# error 2.11e-2 (<= 2.4e-2), q error 8.26e-2 (<= 9.1e-2); the dissipation
# per cycle 3.494e-8 against the closed form W = 3.441e-8: 1.56e-2 (<=
# 1.72e-2); the loop area of Q against the top's delta = dissipation -
# impact work (1.08e-10: the edge nodes closing, O(dt)) to 2.3e-12 relative
# (<= 1e-10); at most 12 active-set iterations in a load step (<= 13).
# Exact stick: from the load step t = 1.5 to 1.55 (mesh 0, Q = 0.29 mu P)
# the 15 nodes stuck at both ends keep their displacement to the last bit
# (change 0, asserted 0: a stuck node is held, no penalty, no creep), while
# the slipping nodes move up to 7.4e-6 (the tables' u_x, u_y).
# One run per mesh (check_cattaneo.py): the contact series at every row
# gives every state read (solution/contact_NNNNN.csv), mesh 0's run goes to
# t = 4 and gives the loading, stick, unloading and cycle states. 3 runs:
# CPU 16.2 s, wall 15.9 s (ctest, load 2.4 on the shared machine); before,
# one run per state (13 runs): CPU 38.8 s, wall 40.8 s (the old
# check_cattaneo.py with this test's arguments, /usr/bin/time, same load);
# every printed number the same.
add_test(NAME body_cattaneo_mindlin
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_cattaneo.py ${EXE} ${SRC}/prm/body_cattaneo_mindlin.prm
     ${OUT}/body_cattaneo_mindlin --levels 0 1 2 --loading-times 1.3 1.6 2.0
     --stick-times 1.5 1.55
     --max-c 3.5e-3 --max-q-l2 2.9e-2 --cycle-level 0 --cycle-step 0.05
     --unloading-time 2.5 --max-c-unloading 2.4e-2 --max-q-l2-unloading 9.1e-2
     --max-loop-error 1.72e-2 --max-newton 13)
set_tests_properties(body_cattaneo_mindlin PROPERTIES LABELS body)

# The cycle on the finer mesh 1 (h/a = 0.058), where fixed load steps of
# 0.05 cycle at the turning point (the active set does not settle at t =
# 2.05), with adaptive load steps (Body/Adaptive time steps, cut only where
# the active set does not settle, down to 0.003): the run completes.
# Measured: loading c error 8.9e-4, q error 2.32e-2; unloading c' error
# 8.40e-3 (mesh 0: 2.11e-2), q 4.91e-2 (8.26e-2); dissipation per cycle
# 1.283e-2 from W (mesh 0: 1.56e-2; mesh 2, 69 s, not a test: 1.12e-2);
# the loop area against the works booked per substep 1.47e-3 (the grid's
# trapezoidal rule over the cut steps); at most 33 active-set iterations in
# a load step (the repeated substeps counted). Bounds about 10% above.
# One run to t = 4 gives the three states: CPU 13.9 s, wall 13.7 s (ctest;
# before, three runs: CPU 23.8 s, wall 23.4 s; the same numbers).
add_test(NAME body_cattaneo_mindlin_adaptive_cycle
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_cattaneo.py ${EXE} ${SRC}/prm/body_cattaneo_mindlin.prm
     ${OUT}/body_cattaneo_mindlin_adaptive_cycle --levels 1 --loading-times 2.0
     --max-c 1e-3 --max-q-l2 2.6e-2 --cycle-level 1 --cycle-step 0.05
     --adaptive-minimum 0.003 --unloading-time 2.5 --max-c-unloading 9.3e-3
     --max-q-l2-unloading 5.4e-2 --max-loop-error 1.42e-2 --max-balance 1.7e-3
     --max-newton 37)
set_tests_properties(body_cattaneo_mindlin_adaptive_cycle PROPERTIES LABELS body)

# Bad input: a delayed friction with the explicit scheme; two numbers.
stickslip_bad_input(body_friction_from_time_explicit
  "Body/Contact/Friction from time.*implicit or quasi-static only"
  ${SRC}/prm/body_cattaneo_mindlin.prm --set "Body/Time scheme=explicit")
stickslip_bad_input(body_friction_from_time_two_numbers
  "Body/Contact/Friction from time.*1, 2.*none or one finite number"
  ${SRC}/prm/body_cattaneo_mindlin.prm --set "Body/Contact/Friction from time=1, 2")

# The contact series of the quasi-static scheme through a resume: the cycle
# of mesh 0 written on 2 ranks, stopped at t = 2.2 (after the turning point),
# resumed from the snapshot at t = 2 on 1 and 2 ranks to T = 3: history.csv,
# contact.pvd's outputs and each output's table solution/contact_NNNNN.csv
# against the uninterrupted 2-rank run (tests/reliability/resume_across_ranks.py
# --series; the tables' rows in the order of x, y: they are gathered rank by
# rank). Measured, relative to each column's scale: resumed on 2 ranks, the
# tables 0 (bitwise), the history 2.0e-16 (impact_work); on 1 rank 1.9e-13
# (tables) and 4.5e-14 (friction_force_1). Tolerance 1e-9 (about 1000 times
# the largest, rounded up to a power of ten). energy_balance is round-off
# alone here (|value| <= 1.5e-19, the difference 0.8 of that scale) and the
# CG counts depend on the partition: not compared.
add_test(NAME resume_body_quasi_static_series
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${SRC}/prm/body_cattaneo_mindlin.prm ${OUT}/resume_body_quasi_static_series
          --np 2 --resume-np 1,2 --stop 2.2 --final 3 --checkpoint 0.5
          --tolerance 1e-9 --series
          --columns t,kinetic,elastic,dissipated,data,impact,momentum,contact,normal,mean,stick,max_slip,friction,newton,active,max_newton
          --set "Body/Mesh file=${SRC}/meshes/half_cylinder_2d_0.msh"
          --set "Output/Field output=true" --set "Output/Field output every=1000000")
set_tests_properties(resume_body_quasi_static_series PROPERTIES PROCESSORS 2
  TIMEOUT 900 FIXTURES_SETUP body_quasi_static_series)
# Its outputs' fields against their tables and the friction law
# (tests/body/check_implicit_series.py), the uninterrupted run and the one
# resumed on 1 rank: 61 outputs, 419 slipping and 585 stuck node-outputs;
# measured deviations (relative to each field's largest) 5.6e-8 at most
# (the VTU's 32-bit floats; bound 1e-6), |R_T|/P_i = mu at every slipping
# node to 0 (bound 1e-6, above the floats' 6e-8), never above mu.
add_test(NAME body_quasi_static_series_fields
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_series.py
          ${OUT}/resume_body_quasi_static_series/reference
          ${OUT}/resume_body_quasi_static_series/resumed_np1
          --min-outputs 61 --max-ratio-error 1e-6)
set_tests_properties(body_quasi_static_series_fields PROPERTIES
  FIXTURES_REQUIRED body_quasi_static_series)
