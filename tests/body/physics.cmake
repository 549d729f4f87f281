# Physics of Model = body (included by tests/body/CMakeLists.txt): the
# Signorini bar against its exact solution, exact stick, the sliding block's
# acceleration and the energy balance. Every bound is a measured value with a
# margin; the measurements are in the comments here and at the top of each
# checker (tests/body/check_*.py, shared code in body_runs.py). The runs are
# deterministic (one rank, bitwise reproducible): the margins (10% unless
# said otherwise) cover compilers and libraries, not noise. Times on the
# shared, loaded 2-core machine (Release build): the whole family 31 s of
# wall time, 10 s of CPU; the longest test (Q2 bar) 7.3 s.
set(BODY_BAR_PRM ${SRC}/prm/body_signorini_bar.prm)

# ---- 1. The Signorini bar (Doyen, Ern & Piperno 2011): a periodic column,
# L = 1, c = 1, falling with v0 = 1; exact: contact on 0 < t < 2, pressure
# rho c v0 = 1, leaves with +v0. Joint refinement N = 50..400 cells along
# the height at a fixed CFL number. Measured errors (check_bar.py):
#
# Q1, CFL 0.5 (dt = h/2):
#     N  |t_open - 2|  |p|L1 err  |v_exit - v0|  energy loss  -impact/E0  oscillation
#    50  3.000e-02    3.537e-02   2.012e-02     9.287e-03    1.000e-02   5.781e-03
#   100  2.000e-02    2.090e-02   1.243e-02     4.479e-03    5.000e-03   2.101e-03
#   200  1.000e-02    1.251e-02   7.680e-03     2.282e-03    2.500e-03   7.191e-04
#   400  6.250e-03    7.540e-03   4.788e-03     1.138e-03    1.250e-03   2.558e-04
#   orders (least squares): duration 0.78 (pairwise 0.58 1.00 0.68: t_open is
#   a time of the grid), pressure 0.74, velocity 0.69, energy 1.01,
#   oscillation 1.50. (N = 800 continues the trend: 3.75e-3, 4.58e-3,
#   3.00e-3, 5.62e-4, 8.97e-5.) The order about 2/3 of the duration, pressure
#   and exit velocity is that of the numerical dispersion of the release
#   front, whose width grows as (h^2 L)^(1/3). The energy lost is the
#   kinetic energy of the contact node stopped at the first step: impact_work
#   = -E0 (h/2)/L exactly (= -E0/(2N)); no energy is lost at the release.
# The duration is a time of the grid: its bounds allow one step (dt = 1/800
# at N = 400, 1/200 at N = 100) beyond the measured value, so that a
# round-off change of the step on which the bar lets go cannot fail them.
add_test(NAME body_signorini_bar_p1
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_signorini_bar_p1
     --degree 1 --cfl 0.5 --levels 50 100 200 400
     --min-order-duration 0.6 --min-order-pressure 0.65 --min-order-velocity 0.6
     --min-order-energy 0.9 --min-order-oscillation 1.3
     --max-duration-error 8e-3 --max-pressure-error 8.3e-3
     --max-velocity-error 5.3e-3 --max-energy-loss 1.25e-3 --max-balance 9.5e-4
     --max-oscillation 6.4e-3)
set_tests_properties(body_signorini_bar_p1 PROPERTIES FIXTURES_SETUP body_bar_p1)

# Q2 (Gauss-Lobatto lumped), CFL 0.25 (the element bound allows 0.33):
#     N  |t_open - 2|  |p|L1 err  |v_exit - v0|  energy loss  -impact/E0  oscillation
#    50  5.000e-03    7.203e-02   5.588e-03     1.938e-03    3.333e-03   6.528e-02
#   100  0            5.379e-02   3.340e-03     1.291e-03    1.667e-03   4.679e-02
#   200  2.500e-03    4.077e-02   2.619e-03     5.754e-04    8.333e-04   3.291e-02
#   400  0            3.027e-02   2.058e-03     2.973e-04    4.167e-04   2.282e-02
#   orders: pressure 0.42, velocity 0.47 (pairwise 0.74 0.35 0.35; N = 800,
#   1600: 1.30e-3, 8.2e-4, pairwise 0.66 again), energy 0.93, oscillation
#   0.51. t_open is within 0-3 steps of 2 (up to N = 1600), sometimes before
#   it: bounded by 4 steps instead of ordered. The pressure oscillates about
#   10 times more than with Q1 and decays only as h^(1/2): the vertex nodes
#   that touch carry the light Gauss-Lobatto weight 1/6 of the edge.
#   impact_work = -E0 (h/6)/L.
add_test(NAME body_signorini_bar_p2
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_signorini_bar_p2
     --degree 2 --cfl 0.25 --levels 50 100 200 400 --max-duration-steps 4
     --min-order-pressure 0.37 --min-order-velocity 0.4 --min-order-energy 0.8
     --min-order-oscillation 0.4
     --max-pressure-error 3.4e-2 --max-velocity-error 2.3e-3
     --max-energy-loss 3.3e-4 --max-balance 7.4e-4 --max-oscillation 7.2e-2)

# 3D (periodic in x and y, contact on z = 0), Q1 at N = 100: the same errors
# as in 2D, and the same history to round-off (the discrete 1D problem is the
# same): measured largest difference of mean_pressure and momentum/mass
# 5.7e-13 with the assembled operator (1.8e-13 matrix-free; 3.1e-14 at
# N = 50; Q2 at N = 25 7.9e-14). Bound 1e-10.
add_test(NAME body_signorini_bar_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_signorini_bar_3d
     --dim 3 --degree 1 --cfl 0.5 --levels 100
     --same-as ${OUT}/body_signorini_bar_p1/N100 --same-tolerance 1e-10
     --max-duration-error 2.6e-2 --max-pressure-error 2.3e-2
     --max-velocity-error 1.37e-2 --max-energy-loss 4.9e-3 --max-oscillation 2.3e-3)
set_tests_properties(body_signorini_bar_3d PROPERTIES FIXTURES_REQUIRED body_bar_p1)

# The example file itself, as documented (rows every 0.01 s, dt = 0.005,
# N = 100, fields every 0.1 s): measured t_open = 2.02, |p|L1 error 2.35e-2
# (rows every second step), exit velocity error 1.243e-2 (momentum 0.019751),
# energy loss 4.48e-3, impact_work = -5e-5 J = -E0/200, oscillation 2.1e-3;
# 31 field snapshots in solution.pvd and contact.pvd.
stickslip_run_test(body_signorini_bar_example 1 prm/body_signorini_bar.prm
  -- bash -c "${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM} @OUT@ --analyze @OUT@ --levels 100 --max-duration-error 2.6e-2 --max-pressure-error 2.6e-2 --max-velocity-error 1.37e-2 --max-energy-loss 4.9e-3 --max-oscillation 2.3e-3 && test $(grep -c DataSet @OUT@/solution.pvd) -eq 31 && test $(grep -c DataSet @OUT@/contact.pvd) -eq 31")

# ---- 2. Stick is exact (prm/body_stick_block.prm): a finite block pressed
# and sheared by its clamped top below the threshold; 10^4 steps, a row every
# step. Measured: max_tangential_displacement = 0 exactly in all 10001 rows,
# contact_fraction = stick_fraction = 1 from t = 0.11 on, mobilized
# |friction_force_1|/normal_force = 0.247 at the end, the largest nodal
# |f|/S (contact.pvd's friction_ratio, every 5 s) 0.51 (0.8 s CPU). The check
# demands 0 (no round-off: v_T = v_* = 0 exactly at a stuck node).
stickslip_run_test(body_stick_block 1 prm/body_stick_block.prm
  --set "Output/Interval=0" --set "Output/Field output=false"
  -- ${SYSTEM_PYTHON3} ${BODY}/check_stick.py @OUT@/history.csv
     --from-time 0.5 --min-rows 10001 --max-drift 0 --min-friction-ratio 0.2)
# The same with deal.II's MatrixFree operator instead of the element kernels
# (the default, Body/Stiffness operator = auto, on this block of 1 distinct
# cell shape): stick does not depend on how K u is computed.
stickslip_run_test(body_stick_block_matrix_free 1 prm/body_stick_block.prm
  --set "Output/Interval=0" --set "Output/Field output=false"
  --set "Body/Stiffness operator=matrix-free"
  -- ${SYSTEM_PYTHON3} ${BODY}/check_stick.py @OUT@/history.csv
     --from-time 0.5 --min-rows 10001 --max-drift 0 --min-friction-ratio 0.2)
# And with the assembled matrix (auto's choice for Q1 on meshes of many
# cell shapes).
stickslip_run_test(body_stick_block_assembled 1 prm/body_stick_block.prm
  --set "Output/Interval=0" --set "Output/Field output=false"
  --set "Body/Stiffness operator=assembled"
  -- ${SYSTEM_PYTHON3} ${BODY}/check_stick.py @OUT@/history.csv
     --from-time 0.5 --min-rows 10001 --max-drift 0 --min-friction-ratio 0.2)
# The control: with mu_s = 0.4, below the corners' demand (they need between
# 0.5 and 0.6), the edges slip from t = 0.61 on (drift 3.4e-5, stick_fraction
# down to 0.725): the same check sees slip.
stickslip_run_test(body_stick_block_slip_control 1 prm/body_stick_block.prm
  --set "Output/Interval=0" --set "Output/Field output=false"
  --set "Body/Contact/Friction law/Static friction coefficient=0.4"
  -- ${SYSTEM_PYTHON3} ${BODY}/check_stick.py @OUT@/history.csv --expect-slip)

# ---- 3. The sliding block (check_sliding.py): pulled above mu_s N, the
# acceleration on [20, 40] is (F - mu_d N)/m = 0.006 to 1.0e-7 relative (the
# residue mu(s) - mu_d of the exponential law, the same at dt = 0.02, 0.01,
# 0.005); friction_force_1 = -mu(s) normal_force to 2.3e-14 on [20, 40] and
# -mu_d normal_force to 4.2e-12 at t = 40 (= 0.2 exp(-s/v_c) at s = 0.246);
# sliding starts at t = 1.22 (exact 1.2: mu_s rho g H = rho a c1 t). Bounds
# 1e-6, 1e-9, 1e-9, 0.05.
add_test(NAME body_sliding_block
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_sliding.py ${EXE} ${BODY_BAR_PRM}
          ${OUT}/body_sliding_block --dt 0.02
          --max-acceleration-error 1e-6 --max-friction-ratio-error 1e-9
          --max-law-error 1e-9 --max-onset-error 0.05)

# ---- 4. Energy balance, first order in dt (check_energy.py): max
# |energy_balance|/scale, scale the largest kinetic + elastic + dissipated.
# Sliding block, dt = 0.02, 0.01, 0.005: 9.70e-6, 4.92e-6, 2.44e-6 (ratios
# 1.97, 2.01). Bar thrown sideways (u1 = (0.5, -1), mu = 0.2, N = 100),
# dt = 0.005, 0.0025, 0.00125: 2.88e-3, 1.30e-3, 6.81e-4 (ratios 2.22, 1.90);
# Delta p_x + mu Delta p_y = 7.5e-6..7.65e-6 (Coulomb impulse, 0.1% of 7.95e-3).
# Ratios asserted in [1.7, 2.5]; dissipated_energy non-decreasing in all.
add_test(NAME body_energy_sliding
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_energy.py ${EXE} ${BODY_BAR_PRM}
          ${OUT}/body_energy_sliding --case sliding --steps 0.02 0.01 0.005
          --min-ratio 1.7 --max-ratio 2.5 --max-balance 2.7e-6)
add_test(NAME body_energy_bar
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_energy.py ${EXE} ${BODY_BAR_PRM}
          ${OUT}/body_energy_bar --case bar --steps 0.005 0.0025 0.00125
          --min-ratio 1.7 --max-ratio 2.5 --max-balance 7.5e-4
          --max-impulse-error 1e-5)
set_tests_properties(body_signorini_bar_p1 body_signorini_bar_p2 body_signorini_bar_3d
  body_signorini_bar_example
  body_stick_block body_stick_block_matrix_free body_stick_block_assembled
  body_stick_block_slip_control
  body_sliding_block
  body_energy_sliding body_energy_bar PROPERTIES LABELS "body;physics" TIMEOUT 300)

# ---- 5. Mass at contact nodes = redistributed (issue 30; doc/body.md, "Mass
# at the contact nodes"). The Signorini bar as in 1., Q1, CFL 0.5, N = 50,
# 100, 200 (measured; the lumped values of 1. beside them):
#     N  |t_open - 2|  |p|L1 err  |v_exit - v0|  |energy error|  max|bal|/E0  oscillation
#    50  3.000e-02    4.628e-02   1.395e-02     9.982e-04       7.791e-03   2.678e-03
#   100  1.500e-02    2.648e-02   9.661e-03     5.579e-04       3.896e-03   2.140e-04
#   200  1.000e-02    1.528e-02   6.569e-03     2.351e-04       1.948e-03   8.076e-05
#  (400  5.000e-03    8.965e-03   4.316e-03     1.227e-04       9.739e-04   2.798e-05)
#   orders: duration 0.79, pressure 0.80, velocity 0.54, energy 1.04,
#   oscillation 2.5. The energy is gained, not lost (1 - E/E0 < 0: the
#   pressure's work over the step, booked in impact_work, is +1.5e-4 E0 at
#   N = 50), 10-20 times less than the lumped mass loses; the duration and
#   the exit velocity are better than with the lumped mass, the pressure's
#   L1 error 1.2-1.3 times larger (the row at t^{n+1} holds the pressure
#   of t^{n+1}, compared with the exact mean over the step), its oscillation
#   2-10 times smaller. Bounds: orders 0.1-0.2 below, errors at N = 200 plus
#   10% (the duration: one step more), oscillation plus 10%.
add_test(NAME body_signorini_bar_redistributed
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_signorini_bar_redistributed
     --degree 1 --cfl 0.5 --levels 50 100 200 --mass redistributed
     --min-order-duration 0.6 --min-order-pressure 0.65 --min-order-velocity 0.4
     --min-order-energy 0.9 --min-order-oscillation 2.0
     --max-duration-error 1.3e-2 --max-pressure-error 1.7e-2
     --max-velocity-error 7.3e-3 --max-energy-loss 2.6e-4 --max-balance 2.2e-3
     --max-oscillation 3.0e-3)

# ---- 6. Body/Contact/Counterpart = mirror (doc/theory.md §7.6). The
# Signorini bar against its mirror image at the gap g0 = 0.2: two bars
# colliding at 2 v0, whose plane of symmetry is the rigid plane at g0/2, so
# the closed form of 1. shifted by the free flight g0/(2 v0) = 0.1, and
# --twin-tolerance 0: the rigid-plane run at gap 0.1 agrees in every column
# (the gap doubled) to the bit (every factor 2 of the pair is exact in
# floating point; measured 0 at every level).
# Measured (check_bar.py; the same numbers as the rigid plane at gap 0 of
# 1., shifted by 0.1, but the energy loss, whose impact falls at another
# phase of the grid):
#     N  |t_open-2.1| |p|L1 err  |v-v0|     energy loss  oscillation
#    50  3.000e-02   3.537e-02  2.012e-02  8.586e-03    5.781e-03
#   100  2.000e-02   2.090e-02  1.243e-02  4.227e-03    2.101e-03
#   200  1.000e-02   1.251e-02  7.680e-03  2.132e-03    7.191e-04
#   400  6.250e-03   7.540e-03  4.788e-03  1.075e-03    2.558e-04
#   orders (least squares) 0.78, 0.74, 0.69, 1.00, 1.50. Bounds: orders
#   0.1-0.2 below, errors at N = 400 plus 10%, oscillation plus 10%.
#   Redistributed (N = 50, 100, 200): the numbers of 5. below, bitwise
#   those of the rigid plane at gap 0.1; bounds as there.
add_test(NAME body_mirror_bar
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_bar --counterpart mirror --gap 0.2 --twin-tolerance 0
     --degree 1 --cfl 0.5 --levels 50 100 200 400
     --min-order-duration 0.6 --min-order-pressure 0.65 --min-order-velocity 0.6
     --min-order-energy 0.9 --min-order-oscillation 1.3
     --max-duration-error 6.9e-3 --max-pressure-error 8.3e-3
     --max-velocity-error 5.3e-3 --max-energy-loss 1.19e-3
     --max-oscillation 6.4e-3)
add_test(NAME body_mirror_bar_redistributed
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_bar_redistributed --counterpart mirror --gap 0.2
     --twin-tolerance 0 --mass redistributed
     --degree 1 --cfl 0.5 --levels 50 100 200
     --min-order-duration 0.6 --min-order-pressure 0.65 --min-order-velocity 0.4
     --min-order-energy 0.8 --min-order-oscillation 2.0
     --max-duration-error 1.3e-2 --max-pressure-error 1.7e-2
     --max-velocity-error 7.3e-3 --max-energy-loss 3.5e-4 --max-balance 2.2e-3
     --max-oscillation 3.0e-3)
# In 3D (2 x 2 x 100, periodic in x and y) the same, to the bit (measured 0;
# the round-off tangential velocity of the 3D bar, 4.7e-13, is doubled in
# the fault's slip columns as it must be), and the closed form as in 2D.
add_test(NAME body_mirror_bar_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_bar_3d --dim 3 --counterpart mirror --gap 0.2
     --twin-tolerance 0 --levels 100 --max-duration-error 2.2e-2
     --max-pressure-error 2.3e-2 --max-velocity-error 1.37e-2
     --max-energy-loss 4.7e-3)
# Contact law = compliant against the mirror (eta = 1e-3 m/Pa, a
# penetration of 1e-3 at the pressure 1) is the rigid plane with eta/2 at
# half the gap, to the bit (measured 0).
add_test(NAME body_mirror_bar_compliant
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_bar.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_bar_compliant --counterpart mirror --gap 0.2
     --compliance 1e-3 --twin-tolerance 0 --levels 50 100)
# The sliding layer of 3. against its mirror image with v_c = 0.01 equals the
# layer on the rigid plane with v_c/2 (check_mirror.py):
# every factor 2 is exact and so is the halved v_c: measured 0 in every
# column (lumped and redistributed), tolerance 0; the acceleration on
# [20, 40] is a - mu_d g to 2.0e-11 relative. With Contact law =
# prescribed traction at the layer's floor pressure rho g H (the periodic
# layer's unilateral pressure, which shear waves do not change): measured
# 4.6e-12 of the column scale (elastic_energy; the rigid plane's pressure
# itself drifts from rho g H by 2.7e-12 over the 2000 steps), tolerance
# 1000 times that, rounded up: 1e-8.
add_test(NAME body_mirror_sliding
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_sliding --tolerance 0)
add_test(NAME body_mirror_sliding_redistributed
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_sliding_redistributed --mass redistributed
     --tolerance 0)
add_test(NAME body_mirror_prescribed_traction
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_mirror.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_prescribed_traction --contact-law "prescribed traction"
     --tolerance 1e-8)
# The mirror against the two bodies it stands for (check_two_bodies.py): an
# independent program advances both bodies (two lumped-mass chains, the
# exact 1D reduction of these periodic bodies) coupled only through the
# impulse of the node pair on the contact plane, no symmetry assumed. The
# bar colliding with its image (unilateral, gap 0.2, N = 50): measured
# 8.3e-15 (momentum_y), 1.2e-14 (gap), 5.6e-14 (pressure) of each column's
# largest magnitude over 300 steps; the sliding layer against its image
# pulled the other way (prescribed traction, exponential friction, stick
# then slip): 1.2e-11 (momentum_x), 1.3e-11 (slip rate) over 2000 steps,
# the stick test never closer than 2.6e-4 (relative) to its bound, so no
# stick/slip decision can flip by round-off. Tolerance 1e-9, 77 times the
# larger measurement.
add_test(NAME body_mirror_two_bars
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_two_bodies.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_two_bars --case bar --tolerance 1e-9)
add_test(NAME body_mirror_two_layers
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_two_bodies.py ${EXE} ${BODY_BAR_PRM}
     ${OUT}/body_mirror_two_layers --case layer --tolerance 1e-9)
set_tests_properties(body_mirror_bar body_mirror_bar_redistributed
  body_mirror_bar_compliant body_mirror_bar_3d body_mirror_sliding body_mirror_sliding_redistributed
  body_mirror_prescribed_traction body_mirror_two_bars body_mirror_two_layers
  PROPERTIES LABELS "body;physics" TIMEOUT 300)

# The sliding block of prm/body_sliding_block_2d.prm (check_sliding_block.py):
# thrown with V0 = 0.01 on the floor (mu = 0.2, the Prakash-Clifton normal
# stress of the example), against the rigid block (stop at t_s = 12.5).
# Measured, N = 4, 8, 16 (32), redistributed:
#   least contact fraction while sliding 1.000, 0.984, 0.977 (0.981), mean
#   1.000, 0.999, 0.998 (0.998); max |x - x_rigid|/D 2.82e-3, 2.89e-3,
#   2.18e-3 (1.99e-3); the centre of mass stops 4, 5, 8 (18) steps after
#   t_s, at 12.5625, 12.5391, 12.5312 (12.5352).
# With the lumped mass: the same to 3 digits (least contact 0.969, 0.984,
# 0.977, 0.973; errors 2.90e-3, 2.99e-3, 2.18e-3, 1.99e-3; stop 12.5625,
# 12.5312, 12.5312, 12.5352). The error converges to the elastic block's own
# departure from the rigid one (about 2e-3 of D, a property of the model, not
# of the mesh): it is bounded here, not ordered. Without the regularization
# both treatments lift off more the finer the mesh (least contact 0.72,
# 0.83, 0.77, 0.64 redistributed, 0.88, 0.86, 0.57, 0.34 lumped; error 2e-2
# to 0.38): the steady sliding of an elastic body with constant mu is
# unstable (doc/body.md, Limits). Bounds: least contact 0.95, error 3.2e-3
# (10% above the largest), stop within 0.05 (the elastic block's own delay,
# 0.03, plus margin) and within 10 steps.
add_test(NAME body_sliding_block_redistributed
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_sliding_block.py ${EXE}
     ${SRC}/prm/body_sliding_block_2d.prm ${OUT}/body_sliding_block_redistributed
     --levels 4 8 16 --mass redistributed --min-contact 0.95 --max-error 3.2e-3
     --max-all-errors 3.2e-3 --max-stop-steps 10 --min-self-order 0.7)
# Against the finest level (the elastic block's own trajectory, which the
# mesh converges to), measured: N = 4, 8 against 16: 1.45e-3, 8.26e-4 of D,
# order 0.81 (against a run at N = 32: 1.66e-3, 9.74e-4, 2.19e-4, order
# 1.46). Bound 0.7.

# The sliding block in 3D, prm/body_sliding_block_3d.prm (the 2D block with
# the depth 0.5; the same rigid solution), redistributed, 4N x 2N x N cubes.
# Measured, N = 2, 4, 8 (16): least contact fraction while sliding 1.000,
# 1.000, 1.000 (0.992); max |x - x_rigid|/D 4.18e-3, 3.06e-3, 2.09e-3
# (1.41e-3); stop +1, +1, +2 (+6) steps; against the finest level N = 8:
# 2.38e-3, 1.08e-3, order 1.15 (against N = 16: 2.85e-3, 1.77e-3, 7.4e-4,
# order 0.97). Lumped: contact 1.000 at every level, errors 4.28e-3,
# 2.86e-3, 2.08e-3, stop +1, +1, +2, against N = 8: 2.31e-3, 9.9e-4 (order
# 1.23). Bounds: contact 0.99 (the issue's requirement), finest error 2.3e-3
# and every error 4.6e-3 (10% above the largest), stop within 5 steps,
# self-convergence order 0.9.
# The 2D block with a rate-weakening mu (--rate-weakening: rational, mu_s =
# 0.3, mu_d = 0.1, v_c = 0.005: mu = 0.167 at V0, 0.3 at rest) against the
# rigid block integrated in the script (RK4; stop at t_s = 12.2294 after D =
# 0.06656). Measured, N = 4, 8, 16 (32), redistributed: least contact
# fraction 0.969, 0.984, 0.977 (0.973); max |x - x_rigid|/D 3.50e-3,
# 3.77e-3, 3.56e-3 (2.34e-3); stop +2.3, +7.6, +15.3 (+73.6) steps; against
# the finest level N = 16: 1.52e-3, 5.04e-4, order 1.59 (against N = 32:
# 3.13e-3, 2.21e-3, 1.75e-3, order 0.42: not yet asymptotic). Lumped: least
# contact 0.969, 0.984, 0.977 (0.973), errors 3.72e-3, 3.97e-3, 3.63e-3
# (2.92e-3), stop +4.3, +6.6, +13.3 (+52.6). Bounds: contact 0.95, every
# error 4.2e-3 (10% above the largest), stop within 20 steps, order 1.2.
add_test(NAME body_sliding_block_rate_weakening
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_sliding_block.py ${EXE}
     ${SRC}/prm/body_sliding_block_2d.prm ${OUT}/body_sliding_block_rate_weakening
     --levels 4 8 16 --mass redistributed --rate-weakening --min-contact 0.95
     --max-all-errors 4.2e-3 --max-stop-steps 20 --min-self-order 1.2)

add_test(NAME body_sliding_block_3d
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_sliding_block.py ${EXE}
     ${SRC}/prm/body_sliding_block_3d.prm ${OUT}/body_sliding_block_3d
     --dimension 3 --levels 2 4 8 --mass redistributed --min-contact 0.99
     --max-error 2.3e-3 --max-all-errors 4.6e-3 --max-stop-steps 5
     --min-self-order 0.9)
