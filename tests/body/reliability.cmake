# ---- Model = body: the same results on 1, 2 and 3 ranks; p = 1 and 2;
# 2D and 3D; a gmsh mesh. body_rank_case(CASE "RANKS" TOLERANCE PRM args...)
# runs CASE on each of RANKS and compares every history with the 1-rank one
# (relative to each column's scale). TOLERANCE is 1000 times the largest
# spread measured between rank counts and under 1-ulp changes of one input
# (tests/golden/measure_rank_invariance.sh body_*, doc/reproducibility.md),
# rounded up to a power of ten: the matrix-free K u adds the contributions
# of the cells around a partition's boundary in another order, and stick-
# slip amplifies the round-off.
set(BODY_BLOCK ${SRC}/tests/body/block.prm)
function(body_rank_case case ranks tolerance prm)
  foreach(np ${ranks})
    stickslip_run_test(body_mpi_${case}_np${np} ${np} ${prm} ${ARGN})
    set_tests_properties(body_mpi_${case}_np${np} PROPERTIES FIXTURES_SETUP body_mpi_${case})
    if(NOT np EQUAL 1)
      add_test(NAME body_mpi_${case}_np${np}_same_as_np1
        COMMAND ${PYTHON3} ${SRC}/tests/compare_histories.py
                ${OUT}/body_mpi_${case}_np1/history.csv
                ${OUT}/body_mpi_${case}_np${np}/history.csv --tolerance ${tolerance})
      set_tests_properties(body_mpi_${case}_np${np}_same_as_np1 PROPERTIES
        FIXTURES_REQUIRED body_mpi_${case})
    endif()
  endforeach()
endfunction()

# Measured spreads (np 1-3 | 1 ulp, column metric of compare_histories.py):
# block_p1 1.5e-12 | 1.7e-12; block_p2 1.8e-11 | 2.1e-11; block3d 1.1e-12 |
# 2.2e-13; membrane 2.0e-12 | 4.3e-13 (the energy_balance column, a small
# difference of large numbers, sets them).
body_rank_case(block_p1 "1;2;3" 1e-8 tests/body/block.prm
  --set "Output/Field output=false")
body_rank_case(block_p2 "1;2" 1e-7 tests/body/block.prm
  --set "Body/Finite element degree=2" --set "Time/Time step=1e-7"
  --set "Output/Field output=false")
body_rank_case(block3d "1;3" 1e-8 tests/body/block3d.prm)
body_rank_case(membrane "1;2;3" 1e-8 prm/body_membrane.prm
  --set "Body/Mesh file=${SRC}/meshes/membrane.msh" --set "Time/Final time=1"
  --set "Output/Field output=false")

# ---- Snapshots: killed (SIGKILL) and resumed on other numbers of ranks: the
# snapshot matches the unknowns by support point and component (p4est
# numbers them by partition); the works since t0 are totals over the ranks.
# The run is 5000 steps long, and stick-slip amplifies the round-off of
# another partition as time goes on: its spread (np 1-3 | 1 ulp, column
# metric) is 3.3e-10 | 3.3e-10, against 1.7e-12 after the 1000 steps of the
# rank tests above; tolerance 1000 times that, rounded up: 1e-6 (1e-8 failed
# one run in six: 1.16e-8 in energy_balance).
add_test(NAME resume_body_across_ranks
  COMMAND ${PYTHON3} ${SRC}/tests/kill_resume.py ${EXE} ${BODY_BLOCK}
          ${OUT}/resume_body --np 2 --resume-np 3,1 --kills 2 --sigterm --seed 21
          --tolerance 1e-6
          --set "Time/Final time=1e-3" --set "Output/Interval=2e-5"
          --set "Output/Checkpoint interval=1e-4" --identical solution.pvd)
# SIGKILL while field files (solution/ and contact/ series) or snapshots are
# written, resumed on 1 and 3 ranks: only complete files, no stale ones.
add_test(NAME kill_anywhere_body
  COMMAND ${PYTHON3} ${SRC}/tests/kill_anywhere.py ${EXE} ${BODY_BLOCK}
          ${OUT}/kill_anywhere_body --np 2 --resume-np 1,3 --kills 6 --seed 22
          --tolerance 1e-8 --set "Body/Field output every=1"
          --set "Output/Checkpoint interval=2e-5")
set_tests_properties(resume_body_across_ranks kill_anywhere_body PROPERTIES
  TIMEOUT 900 PROCESSORS 2)

# ---- Bad input: a clear error naming the parameter, before anything is
# written, on every rank (no hang under MPI).
stickslip_bad_input(body_contact_id "Body/Contact/Boundary id.*7.*no boundary with this id"
  ${BODY_BLOCK} --set "Body/Contact/Boundary id=7")
stickslip_bad_input(body_displacement_id "Body/Displacement 1/Boundary ids.*9.*no boundary"
  ${BODY_BLOCK} --set "Body/Displacement 1/Boundary ids=9")
stickslip_bad_input(body_penetration "Body/Initial displacement.*penetrates the foundation"
  ${BODY_BLOCK} --set "Body/Initial displacement=0@SEMI@ -1e-4*(1 - y/0.1) - 1e-4*y/0.1")
stickslip_bad_input(body_mu_order "Body/Contact/Friction law/Dynamic friction coefficient.*0.9.*mu_d <= mu_s"
  ${BODY_BLOCK} --set "Body/Contact/Friction law/Dynamic friction coefficient=0.9")
stickslip_bad_input(body_mu_negative "Body/Contact/Friction law/Static friction coefficient.*-0.1"
  ${BODY_BLOCK} --set "Body/Contact/Friction law/Static friction coefficient=-0.1")
stickslip_bad_input(body_critical_velocity "Body/Contact/Friction law/Critical slip velocity.*positive"
  ${BODY_BLOCK} --set "Body/Contact/Friction law/Critical slip velocity=0")
stickslip_bad_input(body_cfl "Time/Time step.*stable for dt <=.*h_min/c2"
  ${BODY_BLOCK} --set "Time/Time step=2e-6")
stickslip_bad_input(body_nan_velocity "Body/Initial velocity.*evaluates to inf at x = 0\\.1[0-9]*, y = [0-9.e-]+, component 2, t = 0"
  ${BODY_BLOCK} --set "Body/Initial velocity=0@SEMI@ x > 0.1 ? 1/0 : 0")
stickslip_bad_input(body_nan_load "Body/Body force.*'0. sqrt\\(-1\\)', but it evaluates to -?nan at x = [0-9.e-]+, y = [0-9.e-]+, component 2, t = 0"
  ${BODY_BLOCK} --set "Body/Body force=0@SEMI@ sqrt(-1)")
stickslip_bad_input(body_nan_prescribed "Body/Displacement 1/Value.*evaluates to -?inf at x = [0-9.e-]+, y = [0-9.e-]+, component 2, t = 0\\.0002"
  ${BODY_BLOCK} --set "Body/Displacement 1/Value=0@SEMI@ -1e-4 + 1/(t - 2e-4)")
stickslip_bad_input(body_nan_foundation "Body/Contact/Foundation velocity.*not finite"
  ${BODY_BLOCK} --set "Body/Contact/Foundation velocity=1/0@SEMI@ 0")
stickslip_bad_input(body_normal_foundation "Body/Contact/Foundation velocity.*in its plane"
  ${BODY_BLOCK} --set "Body/Contact/Foundation velocity=0@SEMI@ 1")
stickslip_bad_input(body_negative_floor "Body/Distributed friction.*finite number >= 0"
  ${BODY_BLOCK} --set "Body/Distributed friction=x - 0.1")
stickslip_bad_input(body_periodic_mismatch "Body/Periodic boundary pairs.*0:2:x.*do not match"
  ${BODY_BLOCK} --set "Body/Periodic boundary pairs=0:2:x")
stickslip_bad_input(body_dimension "Dimension.*1.*2 \\(plane strain\\) or 3"
  ${BODY_BLOCK} --set "Dimension=1")
stickslip_bad_input(body_size "Body/Size.*2 positive lengths"
  ${BODY_BLOCK} --set "Body/Size=0.2, 0.1, 0.3")
stickslip_bad_input(body_mesh_file "Body/Mesh file.*cannot be read"
  ${BODY_BLOCK} --set "Body/Mesh=file" --set "Body/Mesh file=nowhere.msh")
stickslip_bad_input(body_degree "Body/Finite element degree.*3.*1 or 2"
  ${BODY_BLOCK} --set "Body/Finite element degree=3")
stickslip_bad_input(body_components "Body/Displacement 1/Components.*w"
  ${BODY_BLOCK} --set "Body/Displacement 1/Components=w")
# An error every rank sees, on 3 ranks: every rank stops, the message once.
add_test(NAME body_mpi_error_no_hang
  COMMAND bash ${SRC}/tests/expect_failure.sh ${OUT}/body_mpi_error_no_hang
          "Body/Periodic boundary pairs.*do not match"
          mpirun -np 3 --oversubscribe --allow-run-as-root ${EXE} ${BODY_BLOCK}
          --set "Body/Periodic boundary pairs=0:2:x" --set "Output/Overwrite=true"
          --set "Output/Directory=${OUT}/body_mpi_error_no_hang")
# A non-finite datum only some ranks see (x > 0.15 on 3 ranks).
add_test(NAME body_mpi_error_on_one_rank_no_hang
  COMMAND bash ${SRC}/tests/expect_failure.sh ${OUT}/body_mpi_error_on_one_rank_no_hang
          "Body/Initial velocity.*evaluates to -?nan at x = 0\\.1[5-9][0-9]*, y = [0-9.e-]+, component 2, t = 0"
          mpirun -np 3 --oversubscribe --allow-run-as-root ${EXE} ${BODY_BLOCK}
          "--set" "Body/Initial velocity=0@SEMI@ x > 0.15 ? sqrt(-1) : 0"
          --set "Output/Overwrite=true"
          --set "Output/Directory=${OUT}/body_mpi_error_on_one_rank_no_hang")
set_tests_properties(body_mpi_error_no_hang body_mpi_error_on_one_rank_no_hang
  PROPERTIES TIMEOUT 60 PROCESSORS 2)
# Data of absurd size: the stability bound under- or overflows (LAPACK would
# stop the program with exit status 0 on such element matrices).
stickslip_bad_input(body_tiny_cells "stability bound of the explicit scheme is not a finite number"
  ${BODY_BLOCK} --set "Body/Size=1e-300, 0.1")
