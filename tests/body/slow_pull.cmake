# The slow pull (prm/body_slow_pull.prm, doc/body.md): a rigid-like block
# pulled through a soft spring (Body/Pull spring) over the floor with the
# exponential static/dynamic law, implicit generalized alpha (rho_inf =
# 0.5) with adaptive steps, to T = 2500: the loading phase, the first slip
# and four stick-slip cycles. postprocess/slow_pull.py finds the slip
# events in pull_force and integrates the 1-dof block with the same law
# (RK4). Measured (one rank, deterministic, 5 s): 5 slip events at the rows
# t = 608, 1068, 1532, 1992, 2456; the period of the last three cycles
# 462.67 s against the 1-dof block's 461.83 s with the same law (+1.81e-3:
# the rows every 4 s) and 449.67 s of the estimate 2 (mu_s - mu_d) N/(k V)
# + pi sqrt(m/k) (+2.89e-2: the law's finite v_c); the lowest forces after
# the completed slips within 8.3e-3 of the 1-dof block's, within 2.13e-2 of
# (2 mu_d - mu_s) N; the first peak 0.60539 N (+8.98e-3 from mu_s N: the
# rows every 4 s and the precursor slip at the edges). Bounds: period 4e-3
# against the 1-dof block and 3.5e-2 against the estimate, lowest forces
# 1.2e-2 and 2.5e-2, peaks 1.5e-2.
stickslip_run_test(body_slow_pull 1 prm/body_slow_pull.prm
  -- ${SYSTEM_PYTHON3} ${SRC}/postprocess/slow_pull.py @OUT@ --stiffness 1e-3
     --velocity 1e-3 --mass 0.25 --normal 1e-3 --mu-s 0.6 --mu-d 0.4
     --critical-velocity 1e-3 --no-plot --cycles 5 --max-period-error 3.5e-2
     --max-reference-period-error 4e-3 --max-reference-low-error 1.2e-2
     --max-peak-error 1.5e-2 --max-low-error 2.5e-2)
