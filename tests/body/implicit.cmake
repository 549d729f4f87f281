# Body/Time scheme = implicit (doc/theory.md §7.7): Newmark's average
# acceleration with exact frictionless unilateral contact at the end of the
# step (primal-dual active set), CG + GAMG on K + 4/dt^2 M, the contact
# nodes' normal mass redistributed. The explicit bound of the bar's Q1 mesh
# is c dt/h = 0.70 (the element bound): the runs below take 14 to 57 times
# that step. Every bound is a measured value with a margin (10% unless
# said otherwise; the runs are deterministic, one rank).

# ---- 1. The Signorini bar (check_bar.py's problem) at c dt/h = 10 and 40,
# N = 50, 100, 200 cells along the height, 2 across. Measured
# (check_implicit.py; E/E0 - 1 the energy at T = 3 against the initial):
#   N  c dt/h  |t_open-2|  |p|L1 err  |v-v0|     E/E0 - 1   balance    Newton max/mean  CG max/mean
#   50   10    2.000e-01   8.016e-01  7.844e-02  2.786e-02  6.1e-13      2  1.20       14.0 13.33
#  100   10    1.000e-01   5.293e-01  7.094e-02  1.655e-03  1.5e-12      2  1.17       14.0 13.97
#  200   10    5.000e-02   2.928e-01  4.620e-02  3.671e-04  1.3e-12      2  1.17       14.0 13.97
#   50   40    1.000e+00   1.492e+00  8.361e-03  5.092e-01  2.5e-12      2  1.50       15.0 15.00
#  100   40    2.500e-01   1.736e+00  1.520e-03  2.422e-01  2.8e-12      2  1.38       16.5 16.27
#  200   40    0           1.764e+00  1.001e-01  4.851e-02  3.3e-12      2  1.27       16.5 16.00
# (c dt/h = 1: 4.0e-2, 6.6e-2, 2.5e-2, 4.4e-4 at N = 50; 1.5e-2, 2.2e-2,
# 1.1e-2, 3.5e-5 at N = 200; c dt/h = 5: 2.8e-3 .. 2.1e-4 energy.)
# At c dt/h = 10 the contact lasts 2 s to within one step (t_open is a time
# of the grid), the pressure error decreases with order 0.73 (the pressure
# at the end of each step oscillates about rho c v0, up to 1.8 at the
# release), the energy is kept to 2.8% (N = 50) .. 0.04% (N = 200). At
# c dt/h = 40 (8 steps of contact at N = 50) the pressure is not resolved
# (errors ~1.5-1.8, no order) and the energy grows by up to 51%: only the
# solver's counts and the balance are asserted there. The balance (the
# scheme's exact energy identity with the contact work booked) is the CG
# residual, below 1e-10 with Tolerance 1e-12: bound 1e-9. Newton: at most 2
# iterations per step at every level (1 when the set does not change, 2
# when it does: the predictor's active set is right), CG at most 14 (c dt/h
# = 10) and 16.5 (40) per solve: mesh-independent to within 0.6 and 1.3
# (bands 1 and 2). (With BoomerAMG, before the rigid-body modes were
# given to a smoothed aggregation, this slender 2-cell bar took 6-7 CG per
# solve; GAMG's constant is larger on it, its growth on 2D and static
# problems far smaller: test 2 and doc/body.md.)
add_test(NAME body_implicit_signorini_bar
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_implicit_signorini_bar --levels 50 100 200 --cfl 10
     --max-duration-steps 1 --min-order-pressure 0.6
     --max-velocity-error 8.7e-2 --max-energy-change 3.1e-2 --max-balance 1e-9
     --max-newton 2 --newton-band 0 --max-cg 16 --cg-band 1)
add_test(NAME body_implicit_signorini_bar_large_steps
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_implicit_signorini_bar_large_steps --levels 50 100 200 --cfl 40
     --max-duration-steps 1.34 --max-velocity-error 0.11 --max-energy-change 0.57
     --max-balance 1e-9 --max-newton 2 --newton-band 0 --max-cg 18 --cg-band 2)

# ---- 2. The algebraic multigrid on a 2D mesh: the bar 16 cells across
# (N = 25, 50, 100 along the height: 850 to 3400 unknowns), c dt/h = 10.
# Measured CG iterations per solve (mean) 19.2, 19.2, 19.9 (largest in a
# step 19.5, 20.0, 20.5) with GAMG and the rigid-body modes: band 2 (0.7
# measured), at most 23 (20.5 measured). (BoomerAMG without the modes:
# 13.2, 16.1, 17.3, growing.) Newton: at most 2 per step at every level.
add_test(NAME body_implicit_amg_mesh_independence
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_implicit_amg_mesh_independence --levels 25 50 100 --width 16
     --cfl 10 --max-newton 2 --newton-band 0 --max-cg 23 --cg-band 2
     --max-balance 1e-9)

# ---- 2b. The static limit (check_implicit_amg.py: one step at c dt/h =
# 1000, K + 4/dt^2 M = K to 1e-6), the block of the sliding block examples
# pressed frictionless by twice its load: the multigrid must see the
# rigid-body modes. Measured CG iterations of the one solve: 2D (64 x 16 to
# 256 x 64 cells, 2.2e3 to 3.3e4 unknowns) 24, 24, 24 (also 23 at 1.3e5 and
# 24 at 5.3e5 unknowns, not run here); 3D (16 x 8 x 4 and 32 x 16 x 8,
# 2.3e3 and 1.5e4 unknowns) 20, 23 (15 at 405, 24 at 1.1e5 unknowns).
# BoomerAMG without the modes, before: 54 at 8.5e3 and 177 at 1.3e5
# unknowns in 2D. Bounds: at most 27 (2D) and 26 (3D), 10% above the
# largest; bands 2 (0 measured) and 5 (3 measured).
add_test(NAME body_implicit_amg_static_2d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_amg.py ${EXE}
     ${SRC}/prm/body_sliding_block_2d.prm ${OUT}/body_implicit_amg_static_2d
     --dim 2 --levels 64 128 256 --max-cg 27 --cg-band 2)
add_test(NAME body_implicit_amg_static_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_amg.py ${EXE}
     ${SRC}/prm/body_sliding_block_3d.prm ${OUT}/body_implicit_amg_static_3d
     --dim 3 --levels 16 32 --max-cg 26 --cg-band 5)

# ---- 3. MPI: the bar 4 cells across at c dt/h = 5 on 1 and 2 ranks.
# Measured largest difference relative to the column scale 1.3e-12
# (mean_pressure, mean_gap); the same iteration counts. energy_balance and
# momentum_x are round-off alone (1e-13 and 5e-13 of scales that are
# themselves round-off) and are not compared. Tolerance 1e-9 (about 1000
# times the measured, rounded up to a power of ten, as above).
# The multigrid on both (Preconditioner = automatic would factorize on one
# rank): the iteration counts are compared.
set(BODY_IMPLICIT_BAR --set "Body/Time scheme=implicit" --set "Time/Time step=0.05"
  --set "Output/Interval=0.05" --set "Body/Subdivisions=4, 100"
  --set "Body/Size=0.04, 1" --set "Output/Field output=false")
foreach(np 1 2)
  stickslip_run_test(body_implicit_mpi_np${np} ${np} prm/body_signorini_bar.prm
    ${BODY_IMPLICIT_BAR} --set "Body/Linear solver/Preconditioner=multigrid")
  set_tests_properties(body_implicit_mpi_np${np} PROPERTIES FIXTURES_SETUP body_implicit_mpi)
endforeach()
# The direct factor as CG's preconditioner (Body/Linear solver/
# Preconditioner = direct) against the multigrid, the same bar on 1 rank:
# the same solution to the CG tolerance. Measured: the physical columns
# within 2.2e-13 of their scales, the active-set counts equal; 1 CG
# iteration per solve against 13-14. Tolerance 1e-9 as above.
stickslip_run_test(body_implicit_direct_np1 1 prm/body_signorini_bar.prm
  ${BODY_IMPLICIT_BAR} --set "Body/Linear solver/Preconditioner=direct")
set_tests_properties(body_implicit_direct_np1 PROPERTIES FIXTURES_SETUP body_implicit_mpi)
add_test(NAME body_implicit_direct_same_as_multigrid
  COMMAND ${PYTHON3} ${SRC}/tests/compare_histories.py
          ${OUT}/body_implicit_mpi_np1/history.csv
          ${OUT}/body_implicit_direct_np1/history.csv --tolerance 1e-9
          --columns t,kinetic,elastic,data,impact,momentum_y,contact,normal,mean,newton,active)
set_tests_properties(body_implicit_direct_same_as_multigrid PROPERTIES FIXTURES_REQUIRED body_implicit_mpi)
add_test(NAME body_implicit_mpi_np2_same_as_np1
  COMMAND ${PYTHON3} ${SRC}/tests/compare_histories.py
          ${OUT}/body_implicit_mpi_np1/history.csv
          ${OUT}/body_implicit_mpi_np2/history.csv --tolerance 1e-9
          --columns t,kinetic,elastic,data,impact,momentum_y,contact,normal,mean,newton,active,cg,max)
set_tests_properties(body_implicit_mpi_np2_same_as_np1 PROPERTIES FIXTURES_REQUIRED body_implicit_mpi)

# ---- 4. Snapshots: the state a, R and the active set registered; written
# on 2 ranks at t = 1.5 (in contact) and resumed on 2: measured bitwise the
# same history (0 difference).
add_test(NAME resume_body_implicit
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${SRC}/prm/body_signorini_bar.prm ${OUT}/resume_body_implicit
          --np 2 --resume-np 2 --stop 1.5 --final 3 --checkpoint 0.5
          --tolerance 1e-12 ${BODY_IMPLICIT_BAR})
set_tests_properties(resume_body_implicit PROPERTIES PROCESSORS 2)

# ---- 5. Bad input: what the implicit scheme does not do yet (time
# weakening: implicit_laws.cmake; the normal stress regularization, the
# stop after arrest), and a bad friction tolerance or complementarity
# constant.
stickslip_bad_input(body_implicit_regularization
  "Body/Contact/Friction law/Normal stress regularization length.*0\\.005.*Body/Time scheme = implicit supports no normal stress regularization"
  ${SRC}/prm/body_sliding_block_2d.prm --set "Body/Time scheme=implicit")
stickslip_bad_input(body_implicit_friction_tolerance
  "Body/Linear solver/Friction tolerance.*'0'.*a relative tolerance in \\(0, 1\\)"
  ${BODY_BAR_PRM} --set "Body/Time scheme=implicit" --set "Body/Linear solver/Friction tolerance=0")
stickslip_bad_input(body_implicit_complementarity_constant
  "Body/Linear solver/Complementarity constant.*'-0\\.1'.*a finite number >= 0"
  ${BODY_BAR_PRM} --set "Body/Time scheme=implicit" --set "Body/Linear solver/Complementarity constant=-0.1")
stickslip_bad_input(body_implicit_compliant
  "Body/Contact/Contact law.*compliant.*Body/Time scheme = implicit supports the contact laws unilateral and prescribed traction"
  ${BODY_BAR_PRM} --set "Body/Time scheme=implicit" --set "Body/Contact/Contact law=compliant")
stickslip_bad_input(body_implicit_tolerance
  "Body/Linear solver/Tolerance.*'2'.*a relative tolerance in \\(0, 1\\)"
  ${BODY_BAR_PRM} --set "Body/Time scheme=implicit" --set "Body/Linear solver/Tolerance=2")

# ---- 6. Coulomb friction with exact stick (check_implicit_friction.py):
# the block of prm/body_sliding_block_2d.prm (16 x 4 cells, mu = 0.2, no
# regularization) at rest under p, the top traction Q applied at t = 0,
# dt = 0.25 (c dt/h = 4), T = 20. Measured: Q = 0.1 mu p: max_slip exactly
# 0 at every row (every contact node stuck all along: the stick is a
# constraint, u_T^{n+1} = u_T^n), no dissipation, 1 active-set iteration
# per step; Q = 1.5 mu p: the block slides 0.087 m, |F_T|/(mu N) = 1 to 9
# digits while every node slips, the least dissipation of a step 0 (>= 0
# asserted), at most 11 iterations per step (the fixed point on the normal
# forces P of mu P, to Friction tolerance 1e-10), CG 12.0 per solve.
# |energy_balance| measured 1.9e-22 (stick) and 1.0e-17 (slide, of
# energies ~1e-5: the CG residual): bound 1e-16. |F_T|/(mu N) bound 1 +-
# 1e-4 (the fixed point's tolerance is 1e-10).
add_test(NAME body_implicit_friction_stick_slip
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_friction.py ${EXE}
     ${SRC}/prm/body_sliding_block_2d.prm ${OUT}/body_implicit_friction_stick_slip
     --max-balance 1e-16 --min-force-ratio 0.9999)

# ---- 7. The sliding block thrown with V0 (check_sliding_block.py
# --implicit): c dt/h = 8 (11 times the explicit bound 0.7), N = 4, 8, 16
# (16 x 4 to 64 x 16 cells, dt = 0.5, 0.25, 0.125), T = 12 (before the
# rigid block's stop at 12.5), no normal stress regularization. Measured:
# max |x - x_rigid|/D 3.76e-2, 1.90e-2, 9.90e-3 (least-squares order 0.96:
# dt and h halve together; the explicit runs without regularization give
# 2e-2 .. 0.38, tests/body/physics.cmake), contact fraction while sliding
# at least 1.000, 0.984, 0.836 (mean 1.000, 0.9997, 0.996: the front
# corner lifts for a few steps on the finest mesh), Newton at most 13 per
# step (mean 10.2, 10.7, 10.5), CG 13.0, 16.0, 17.9 per solve (GAMG),
# least dissipation of a step 7.1e-8, 1.7e-8, 7.9e-9 (> 0),
# |energy_balance| <= 4.0e-17. Bounds: error 4.2e-2 (10% above the
# largest), order 0.9, contact 0.8, Newton 15, CG 20 per solve. (N = 16
# cycled at one node with the fixed point on the slip forces that the
# active-set rule of doc/theory.md §7.7 replaced, and so did N = 4 where
# the block comes to rest, t ~ 13: both run now.)
add_test(NAME body_implicit_sliding_block
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_sliding_block.py ${EXE}
     ${SRC}/prm/body_sliding_block_2d.prm ${OUT}/body_implicit_sliding_block
     --levels 4 8 16 --implicit --cfl 8 --set "Time/Final time=12"
     --min-contact 0.8 --max-all-errors 4.2e-2 --min-order 0.9
     --max-newton 15 --max-cg 20)

# ---- 8. MPI with friction: the sliding case of test 6 (Q = 1.5 mu p,
# T = 5) on 1 and 2 ranks, compared column by column relative to each
# column's scale. Measured: largest difference 2.1e-13 (elastic_energy) in
# the physical columns (the friction force, stick fraction and max_slip
# included), the same active-set iterations and changes; the CG counts
# are not compared: GAMG's aggregation depends on the partition (here both
# 2263; BoomerAMG's differed by 5-10%). Tolerance 1e-9 (about 1000 times the measured, rounded up to a
# power of ten, as test 3).
set(BODY_IMPLICIT_SLIDE --set "Body/Time scheme=implicit"
  --set "Body/Contact/Friction law/Normal stress regularization length=0"
  --set "Body/Subdivisions=16, 4" --set "Body/Initial velocity=0"
  --set "Time/Final time=5" --set "Time/Time step=0.25"
  --set "Output/Interval=0.25" --set "Output/Field output=false"
  --set "Body/Traction 1/Value=3e-4$<SEMICOLON> -1e-3")
foreach(np 1 2)
  stickslip_run_test(body_implicit_friction_mpi_np${np} ${np}
    prm/body_sliding_block_2d.prm ${BODY_IMPLICIT_SLIDE})
  set_tests_properties(body_implicit_friction_mpi_np${np} PROPERTIES
    FIXTURES_SETUP body_implicit_friction_mpi)
endforeach()
add_test(NAME body_implicit_friction_mpi_np2_same_as_np1
  COMMAND ${PYTHON3} ${SRC}/tests/compare_histories.py
          ${OUT}/body_implicit_friction_mpi_np1/history.csv
          ${OUT}/body_implicit_friction_mpi_np2/history.csv --tolerance 1e-9
          --columns t,kinetic,elastic,dissipated,data,momentum_x,contact,normal,stick,max_slip,friction,newton,active,max_newton)
set_tests_properties(body_implicit_friction_mpi_np2_same_as_np1 PROPERTIES
  FIXTURES_REQUIRED body_implicit_friction_mpi)

# ---- 8b. The contact series of the implicit scheme through a resume: the
# case of test 8 with the contact series at every row (contact.pvd and the
# tables solution/contact_NNNNN.csv), written on 2 ranks, stopped at t = 3,
# resumed from the snapshot at t = 2.5 on 1 and 2 ranks to T = 5, against
# the uninterrupted 2-rank run (resume_across_ranks.py --series). Measured,
# relative to each column's scale: on 2 ranks 1.7e-16 (history), 0 (the
# tables); on 1 rank 2.1e-13 (elastic_energy) and 2.9e-13 (tables).
# Tolerance 1e-9, as test 8 (energy_balance, round-off alone, and the CG
# counts not compared). Then check_implicit_series.py: every output's
# fields against its table and the friction law (21 outputs, 299 slipping
# and 49 stuck node-outputs): the fields within 5.6e-8 of their largest
# (the VTU's 32-bit floats; bound 1e-6), |R_T|/P_i = mu at every slipping
# node to 0 (bound 1e-6), never above mu, the friction traction against
# the slip velocity at every slipping node.
add_test(NAME resume_body_implicit_series
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${SRC}/prm/body_sliding_block_2d.prm ${OUT}/resume_body_implicit_series
          --np 2 --resume-np 1,2 --stop 3 --final 5 --checkpoint 1.25
          --tolerance 1e-9 --series
          --columns t,kinetic,elastic,dissipated,data,momentum_x,contact,normal,stick,max_slip,friction,newton,active,max_newton
          --set "Body/Time scheme=implicit"
          --set "Body/Contact/Friction law/Normal stress regularization length=0"
          --set "Body/Subdivisions=16, 4" --set "Body/Initial velocity=0"
          --set "Time/Time step=0.25" --set "Output/Interval=0.25"
          --set "Output/Field output=true" --set "Output/Field output every=1000000"
          --set "Body/Traction 1/Value=3e-4$<SEMICOLON> -1e-3")
set_tests_properties(resume_body_implicit_series PROPERTIES PROCESSORS 2
  TIMEOUT 900 FIXTURES_SETUP body_implicit_series)
add_test(NAME body_implicit_series_fields
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_series.py
          ${OUT}/resume_body_implicit_series/reference
          ${OUT}/resume_body_implicit_series/resumed_np1
          --min-outputs 21 --max-ratio-error 1e-6)
set_tests_properties(body_implicit_series_fields PROPERTIES
  FIXTURES_REQUIRED body_implicit_series)

# ---- 9. The generalized-alpha method (Body/Spectral radius at infinity,
# Chung and Hulbert 1993, doc/theory.md §7.14; check_generalized_alpha.py):
# the stiff block of prm/body_slow_pull.prm on its pull spring without
# contact, a 1-dof oscillator, 20 steps at Omega = omega dt = 0.25, 2.5, 25
# for rho_inf = 1, 0.8, 0.5, 0. Measured: the block's displacement against
# the method's recursion for m x'' + k x = 0 (written in the checker from
# the paper's equations) within 4.2e-6 of the amplitude (the block's
# compliance: it is 4e6 times stiffer than the spring, not rigid); the
# closed-form spectral radius rho(Omega) 1 (rho_inf = 1), 0.881, 0.597,
# 0.126 at Omega = 25 (-> rho_inf); the energy lost equal to
# numerical_dissipation to 6 digits, 0 with rho_inf = 1 (no column);
# |energy_balance| up to 1.27e-6 E0 (rho_inf = 1, Omega = 25: the CG
# residual on K + c0 M with c0 M 1e6 times below K), below 4.3e-7 E0 else;
# x after one period at Omega = 0.2, 0.1, 0.05 against the exact solution:
# orders 1.96, 2.00 (rho_inf = 1) and 1.94, 1.99 (0.5). Bounds 2e-5, 2e-6
# E0, order 1.9.
add_test(NAME body_implicit_generalized_alpha
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_generalized_alpha.py ${EXE}
     ${SRC}/prm/body_slow_pull.prm ${OUT}/body_implicit_generalized_alpha
     --max-recursion-error 2e-5 --max-balance 2e-6 --min-order 1.9)
set_tests_properties(body_implicit_generalized_alpha PROPERTIES LABELS body)

# Bad input: rho_inf outside [0, 1], and with the other schemes.
stickslip_bad_input(body_spectral_radius_range
  "Body/Spectral radius at infinity.*1.5.*a number in \\[0, 1\\]"
  ${SRC}/prm/body_slow_pull.prm --set "Body/Spectral radius at infinity=1.5")
stickslip_bad_input(body_spectral_radius_explicit
  "Body/Spectral radius at infinity.*0.5.*it must be 1 with Body/Time scheme = explicit"
  ${SRC}/prm/body_signorini_bar.prm --set "Body/Spectral radius at infinity=0.5")
stickslip_bad_input(body_spectral_radius_quasi_static
  "Body/Spectral radius at infinity.*0.5.*quasi-static"
  ${SRC}/prm/body_hertz_2d.prm --set "Body/Spectral radius at infinity=0.5")

# ---- 10. The active-set iteration's safeguard against cycling
# (Body/Linear solver/One change at a time from; check_one_change.py): one
# contact or stick flag changed per iteration, the one of the least index
# (Murty's rule). Forced from the first iteration of every step, it must
# end where the default iteration ends. Measured: the frictionless Hertz
# cylinder (prm/body_hertz_2d.prm, 4 load steps) 16 -> 31 iterations, the
# contact pressures within 1.6e-14 of the largest, normal_force within
# 7.2e-15; the Cattaneo-Mindlin cycle with friction (prm/
# body_cattaneo_mindlin.prm, mesh 0, 80 load steps) 585 -> 620 iterations
# (24 steps safeguarded: those whose iterations changed a flag), within
# 4.1e-14 and 2.1e-14. Bound 1e-12 (the CG tolerance 1e-12 of each solve).
# No test or example of the suite has cycled since the stick rule of §7.7
# (the default counts 0 safeguarded steps in both); where a step's problem
# has no consistent set (a weakening law at too large a step: the slow
# pull's fixed 4 s step) one change at a time does not settle either, and
# the adaptive steps are the remedy (body_adaptive_rescue).
add_test(NAME body_implicit_one_change_hertz
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_one_change.py ${EXE}
     ${SRC}/prm/body_hertz_2d.prm ${OUT}/body_implicit_one_change_hertz
     --tolerance 1e-12 --min-iterations-ratio 1.5)
add_test(NAME body_implicit_one_change_cattaneo
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_one_change.py ${EXE}
     ${SRC}/prm/body_cattaneo_mindlin.prm ${OUT}/body_implicit_one_change_cattaneo
     --tolerance 1e-12 --min-iterations-ratio 1.02)
stickslip_bad_input(body_one_change_negative
  "Body/Linear solver/One change at a time from.*-1.*an iteration >= 1, or 0"
  ${SRC}/prm/body_hertz_2d.prm --set "Body/Linear solver/One change at a time from=-1")
