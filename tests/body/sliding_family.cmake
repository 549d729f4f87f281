# The family of sliding blocks of issue 53 run with the default contact and
# friction settings (check_sliding_family.py; doc/body.md "Sliding by
# default"; doc/theory.md §8.8): 2D and 3D, constant mu = 0.2 and the
# rate-weakening rational mu (0.3 at rest, 0.1 fast, v_c = 0.005), thrown
# with V0 = 0.01 or pushed from rest by a body force, T = 6, dt = h/4. The
# default Normal stress regularization length = auto (L = h_C/50,
# V* = c_s/500) makes the trajectory converge and keeps the base in contact.
# Asserted: least and mean contact fraction while sliding at every level,
# the self-convergence of x(t) (max_t |x_N - x_finest| / x_finest(T),
# decreasing with a least-squares order >= 1.2, the coarsest error at most
# 10% above the measured one).
#
# Measured, 2D at N = 4, 8, 16 (least contact; mean contact >= 0.994
# everywhere; errors against N = 16, order):
#   constant thrown  0.969 0.953 0.930; 5.66e-4 1.84e-4, 1.62
#   constant pushed  1.000 1.000 0.992; 4.49e-3 1.15e-3, 1.96
#   rational thrown  1.000 0.984 0.977; 5.03e-4 1.70e-4, 1.56
#   rational pushed  0.969 0.953 0.930; 1.12e-2 9.41e-4, 3.58
# 3D at N = 2, 4, 8 (mean contact >= 0.998):
#   constant thrown  1.000 1.000 1.000; 1.23e-3 3.95e-4, 1.64
#   constant pushed  1.000 1.000 1.000; 1.68e-2 3.37e-3, 2.32
#   rational thrown  1.000 1.000 1.000; 1.09e-3 3.54e-4, 1.62
#   rational pushed  1.000 1.000 0.984; 3.29e-2 1.07e-2, 1.62
# The least 2D contact, 0.930, is 4.5 cells' worth of the base (of 64) at
# N = 16 for moments late in the run (0.934 at N = 32, thrown); bounds 0.915
# in 2D (one node below the measured), 0.975 in 3D, mean 0.99, order 1.2
# (the least measured 1.56). Each case 2.5-3.3 s CPU.
set(SLIDING_FAMILY_BOUNDS
  2_constant_thrown 0.915 6.2e-4
  2_constant_pushed 0.915 4.9e-3
  2_rational_thrown 0.915 5.5e-4
  2_rational_pushed 0.915 1.24e-2
  3_constant_thrown 0.975 1.35e-3
  3_constant_pushed 0.975 1.85e-2
  3_rational_thrown 0.975 1.2e-3
  3_rational_pushed 0.975 3.6e-2)
set(SLIDING_FAMILY_TESTS)
list(LENGTH SLIDING_FAMILY_BOUNDS count)
math(EXPR last "${count} - 1")
foreach(i RANGE 0 ${last} 3)
  math(EXPR j "${i} + 1")
  math(EXPR k "${i} + 2")
  list(GET SLIDING_FAMILY_BOUNDS ${i} case)
  list(GET SLIDING_FAMILY_BOUNDS ${j} least)
  list(GET SLIDING_FAMILY_BOUNDS ${k} coarsest)
  string(REPLACE "_" ";" parts ${case})
  list(GET parts 0 dim)
  list(GET parts 1 law)
  list(GET parts 2 motion)
  if(dim EQUAL 2)
    set(levels 4 8 16)
  else()
    set(levels 2 4 8)
  endif()
  set(name body_sliding_family_${dim}d_${law}_${motion})
  add_test(NAME ${name}
    COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_sliding_family.py ${EXE}
       ${BODY}/sliding_family_${dim}d.prm ${OUT}/${name} --dimension ${dim}
       --law ${law} --motion ${motion} --levels ${levels}
       --min-contact ${least} --min-mean-contact 0.99 --min-self-order 1.2
       --max-self-error ${coarsest})
  list(APPEND SLIDING_FAMILY_TESTS ${name})
endforeach()
set_tests_properties(${SLIDING_FAMILY_TESTS} PROPERTIES LABELS "body;physics"
  TIMEOUT 300)

# The check can fail: the same 2D member with the regularization off
# (length 0, the default before auto) loses contact and its trajectory does
# not converge. Measured, constant pushed, N = 4, 8, 16: least contact 1.000,
# 0.984, 0.836; the test passes when the script reports the failure.
add_test(NAME body_sliding_family_unregularized_fails
  COMMAND ${SYSTEM_PYTHON3} ${BODY}/check_sliding_family.py ${EXE}
     ${BODY}/sliding_family_2d.prm ${OUT}/body_sliding_family_unregularized_fails
     --dimension 2 --law constant --motion pushed --levels 4 8 16
     --set "Body/Contact/Friction law/Normal stress regularization length=0"
     --min-contact 0.915 --min-mean-contact 0.99 --min-self-order 1.2)
set_tests_properties(body_sliding_family_unregularized_fails PROPERTIES
  LABELS "body;physics" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "FAIL: contact fraction below 0.915")

# The value of the length: a number >= 0 or auto, named with where it was set.
stickslip_bad_input(body_regularization_length_word
  "Normal stress regularization length.*has the value .often., but expected one number >= 0 \\(0: off\\) or auto"
  ${BODY}/sliding_family_2d.prm
  --set "Body/Contact/Friction law/Normal stress regularization length=often")
stickslip_bad_input(body_regularization_length_negative
  "Normal stress regularization length.*has the value '-0.001'.*L must be a number >= 0"
  ${BODY}/sliding_family_2d.prm
  --set "Body/Contact/Friction law/Normal stress regularization length=-1e-3")
