# The body against the slab (Renard 2001): the block of
# prm/body_slab_periodic.prm, periodic in x with data depending on y only,
# is the slab of prm/slab.prm. tests/body/slab_cross_check.py runs the slab
# at 6400 cells (CFL 1) and the body (Q1) at N_z = 50, 100, 200, 400, 800
# cells over the height with dt = T/ceil(T/(CFL h/c2)) at the largest stable
# CFL: on cells 16 h wide (2 across) the element bound allows 0.9997, where
# the central-difference scheme is nearly free of the dispersion that, on
# square cells (CFL 0.842), turns the pressure drop at t = 17.3 us into an
# undershoot that lets the boundary slip 1.5 us early at every N_z (the
# solution does not depend on the width). Errors of S (L1 in time), slip
# velocity (L1, max) and w (max), their orders, and the distances between
# the event times (lift-off, re-contact, stick, slip onset; states lasting
# at least 0.2 us) in steps of the body. The whole study (square cells, Q2,
# the 3D block, references up to 25600 cells):
#   slab_cross_check.py EXE --full
# About 15 s of one core (the slab at 6400 cells is half of it).

# epsilon = 0 and a constant friction coefficient (every friction step has
# one solution): the two models coincide. The normal contact (S, w,
# lift-off, re-contact; independent of the friction in 1D) is asserted:
# measured orders S 0.75, w 1.05, events within 2 steps from N_z = 100.
# (Slip velocity, reported only: with epsilon = 0 the slip jumps and its L1
# order is 0.37.)
add_test(NAME body_slab_cross_check_massless
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/slab_cross_check.py ${EXE} --config massless
  --aspect 16 --assert normal --min-order 0.5 --max-event-steps 4)

# The data of prm/slab.prm as they are (fig2 law, surface mass 10 kg/m^2):
# everything asserted. Measured: orders S 0.75, v_s L1 0.92, v_s max 0.71,
# w 1.05; events within 2 steps (lift-off, re-contact) from N_z = 100 and 5
# steps (all) from N_z = 400. The surface mass perturbs the tangential motion
# only, as in Renard 2001, eqs. (29)-(30); were it added to the normal motion too,
# the body's boundary would move as a 10 kg/m^2 plate (first re-contact at
# 8.064 us instead of 7.436 us) and no error would decrease (measured).
add_test(NAME body_slab_cross_check
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/slab_cross_check.py ${EXE} --config paper
  --aspect 16 --min-order 0.5 --events-from 400 --max-event-steps 10)
set_tests_properties(body_slab_cross_check_massless body_slab_cross_check
  PROPERTIES TIMEOUT 600 LABELS body)
