# The slow pull (prm/body_slow_pull.prm, doc/body.md): a rigid-like block
# pulled through a soft spring (Body/Pull spring) over the floor with the
# exponential static/dynamic law, implicit with adaptive steps, to T = 660
# (the loading phase and the first slip; the later cycles are not reached
# yet: doc/body.md, Slow pull). postprocess/slow_pull.py finds the slip
# event in pull_force. Measured (one rank, deterministic, 1 s): one event,
# its peak 0.60613 N at the row t = 608 (1-dof mu_s N = 0.6 N at t = 600:
# +1.02e-2, the grid's rows every 4 s with the driver at 1e-3 m/s), the
# lowest spring force after it 0.19655 N (1-dof (2 mu_d - mu_s) N = 0.2 N:
# -1.73e-2). Bounds 1.5e-2 and 2.5e-2.
stickslip_run_test(body_slow_pull 1 prm/body_slow_pull.prm
  -- ${SYSTEM_PYTHON3} ${SRC}/postprocess/slow_pull.py @OUT@ --stiffness 1e-3
     --velocity 1e-3 --mass 0.25 --normal 1e-3 --mu-s 0.6 --mu-d 0.4
     --no-plot --cycles 1 --max-peak-error 1.5e-2 --max-low-error 2.5e-2)
