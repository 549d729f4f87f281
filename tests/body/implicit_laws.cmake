# The friction laws of Body/Time scheme = implicit (doc/theory.md §7.12):
# check_implicit_laws.py runs a rigid-like block (a periodic layer 1 m high,
# 2 x 4 Q1 cells, lambda = 1e5, G = 5e4, pressed by the normal body force
# g and pulled by the tangential body force a from t = 0, from its static
# state) and compares the slip max_slip(t) at every step with the
# one-degree-of-freedom solution x(t) of the law (closed forms; rate and
# state: Runge-Kutta), the error relative to x(T). One rank, deterministic;
# every bound is the measured value with a margin of about 10%.
#
# The scheme takes the coefficient of the step at its mean slip rate
# |ds|/dt (and the state integrated at that rate, as the explicit contact
# node) and applies it at the end of the step: first order in dt
# (measured 0.96-0.97; rate and state 1.37, its start from rest has a
# layer that the first steps do not resolve).
#
# ---- 1. exponential, a/g = 0.8 (mu_s = 0.6, mu_d = 0.4, v_c = 0.01),
# T = 20, dt = 0.2, 0.1: measured 1.922e-2, 9.846e-3 (order 0.965), at
# most 6 active-set iterations per step (Friction tolerance 1e-8: with the
# multigrid the fixed point's noise floor on the stiff layer was about
# 3e-10, measured). Bounds 2.1e-2, order 0.9.
add_test(NAME body_implicit_law_exponential
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_laws.py ${EXE}
     ${BODY_BAR_PRM} ${OUT}/body_implicit_law_exponential exponential
     --dt 0.2 0.1 --max-error 2.1e-2 --min-order 0.9)
# ---- 2. rational, the same: measured 2.021e-2, 1.034e-2 (order 0.967).
# Bounds 2.2e-2, order 0.9.
add_test(NAME body_implicit_law_rational
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_laws.py ${EXE}
     ${BODY_BAR_PRM} ${OUT}/body_implicit_law_rational rational
     --dt 0.2 0.1 --max-error 2.2e-2 --min-order 0.9)
# ---- 3. slip-weakening, a/g = 0.65 (D_c = 0.05): the drop from mu_s to
# mu_d over D_c (D = (A0 D_c/B)(cosh(w t) - 1) to D_c at t = 11.5, then
# constant acceleration). dt = 0.1, 0.05: measured 6.812e-2, 3.474e-2
# (order 0.971: the exponential growth of the slip amplifies the start);
# the discrete law |F|/N = mu(D), D = mean_friction_state, to 8.1e-8 (the
# fixed point's Friction tolerance 1e-8), D = max_slip to 6e-17.
# Bounds 7.5e-2, order 0.9, law 2e-7.
add_test(NAME body_implicit_law_slip_weakening
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_laws.py ${EXE}
     ${BODY_BAR_PRM} ${OUT}/body_implicit_law_slip_weakening slip-weakening
     --dt 0.1 0.05 --max-error 7.5e-2 --min-order 0.9 --max-law-error 2e-7)
# ---- 4. rate-and-state (aging, a = 0.01, b = 0.005, velocity
# strengthening), g = 1, a/g = 0.62, from rest with theta_0 = D_c/V_0,
# T = 20, dt = 0.05, 0.025: measured 1.230e-1, 4.776e-2 (order 1.365; at
# dt = 0.0125 1.854e-2). Bounds 0.135, order 1.2.
add_test(NAME body_implicit_law_rate_and_state
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_laws.py ${EXE}
     ${BODY_BAR_PRM} ${OUT}/body_implicit_law_rate_and_state rate-and-state
     --dt 0.05 0.025 --max-error 0.135 --min-order 1.2)
# ---- 5. Exact stick with the new laws: a/g = 0.15 = mu_s/4 (the sudden
# load's dynamic overshoot stays below mu_s), dt = 0.2, T = 20: max_slip
# exactly 0 at every row, stick_fraction 1, no dissipation (measured).
foreach(law exponential slip-weakening)
  add_test(NAME body_implicit_law_stick_${law}
    COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_laws.py ${EXE}
       ${BODY_BAR_PRM} ${OUT}/body_implicit_law_stick_${law} stick-${law}
       --dt 0.2)
endforeach()
# ---- 5b. The end at the solves' noise floor (doc/theory.md §7.7 rule 4):
# the exponential case at dt = 0.1 with Friction tolerance 1e-12 and the
# multigrid, where the slip forces' change stalls at the noise of the CG
# solves (about 1e-10 of mu P) with the sets unchanged. Measured: 200 steps,
# 823 active-set iterations, 155 steps ended at the noise floor (the direct
# preconditioner: 143; at 1e-11: 46 and 53; at 1e-10 and 1e-8: none),
# max_slip within 1.17e-8 of x(T) of the run at 1e-8. The count can fail:
# a step ends there only when its drift stopped halving above the tolerance;
# without that end such a step iterates until the noise falls below the
# tolerance by chance or Maximum active-set iterations stops the run.
# Bounds: at least 50 such steps, 1e-7.
add_test(NAME body_implicit_law_noise_floor
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_implicit_laws.py ${EXE}
     ${BODY_BAR_PRM} ${OUT}/body_implicit_law_noise_floor noise-floor
     --dt 0.1 --friction-tolerance 1e-12 --min-noise-ends 50 --max-difference 1e-7)
# ---- 6. Bad input: time weakening stays the explicit step's.
stickslip_bad_input(body_implicit_time_weakening
  "Body/Contact/Friction law/Law.*time-weakening.*Body/Time scheme = implicit supports the friction laws constant, fig2, exponential, rational, slip-weakening and rate-and-state"
  ${BODY_BLOCK} --set "Body/Time scheme=implicit"
  --set "Body/Contact/Friction law/Law=time-weakening")
# The pull spring: with the explicit scheme, and a stiffness <= 0.
stickslip_bad_input(body_pull_spring_explicit
  "Body/Pull spring/Boundary id.*'0'.*none with Body/Time scheme = explicit"
  ${SRC}/prm/body_slow_pull.prm --set "Body/Time scheme=explicit"
  --set "Body/Adaptive time steps/Enabled=false"
  --set "Body/Spectral radius at infinity=1")
stickslip_bad_input(body_pull_spring_stiffness
  "Body/Pull spring/Stiffness.*'-1'.*a stiffness > 0"
  ${SRC}/prm/body_slow_pull.prm --set "Body/Pull spring/Stiffness=-1")
# ---- 7. Snapshots: the law's state and the last step's slip rate
# registered. The slip-weakening layer of test 3 (dt = 0.1), a snapshot
# every 1 s, stopped at t = 6 (the slip still below D_c) and resumed to
# T = 12 (through the drop to mu_d): measured bitwise the same history as
# the uninterrupted run (0 difference, 121 rows).
add_test(NAME resume_body_implicit_law
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${BODY_BAR_PRM} ${OUT}/resume_body_implicit_law
          --np 1 --resume-np 1 --stop 6 --final 12 --checkpoint 1
          --tolerance 1e-12 --set "Body/Time scheme=implicit"
          --set "Body/Linear solver/Friction tolerance=1e-8"
          --set "Output/Interval=0.1" --set "Output/Field output=false"
          --set "Time/Time step=0.1" --set "Body/Size=0.1, 1.0"
          --set "Body/Subdivisions=2, 4" --set "Body/Lame lambda=1e5"
          --set "Body/Shear modulus=5e4" --set "Body/Initial velocity=0$<SEMICOLON> 0"
          --set "Body/Initial displacement=0$<SEMICOLON> 5e-08*(y^2/2 - 1.0*y)"
          --set "Body/Body force=0.0065$<SEMICOLON> -0.01"
          --set "Body/Contact/Friction law/Law=slip-weakening"
          --set "Body/Contact/Friction law/Static friction coefficient=0.6"
          --set "Body/Contact/Friction law/Dynamic friction coefficient=0.4"
          --set "Body/Contact/Friction law/Critical slip distance=0.05")
