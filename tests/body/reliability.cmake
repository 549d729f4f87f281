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
# difference of large numbers, sets them). Measured again (np 1-3) with the
# element kernels, the default's choice on these meshes since
# Body/Stiffness operator = auto looks at the cell shapes: block_p1 3.1e-12,
# block_p2 6.7e-11, block3d 6.3e-13, membrane 4.9e-13; sliding_redistributed
# 3.6e-9, mirror 1.9e-11, mirror_traction 2.9e-12 (below): every tolerance is
# still at least 1000 times its spread.
body_rank_case(block_p1 "1;2;3" 1e-8 tests/body/block.prm
  --set "Output/Field output=false")
body_rank_case(block_p2 "1;2" 1e-7 tests/body/block.prm
  --set "Body/Finite element degree=2" --set "Time/Time step=1e-7"
  --set "Output/Field output=false")
body_rank_case(block3d "1;3" 1e-8 tests/body/block3d.prm)
body_rank_case(membrane "1;2;3" 1e-8 prm/body_membrane.prm
  --set "Body/Mesh file=${SRC}/meshes/membrane.msh" --set "Time/Final time=1"
  --set "Output/Field output=false")
# Mass at contact nodes = redistributed (the sliding block, 640 steps on
# 32 x 8 cells): every rank solves the same normal problem from the gathered
# forces, but the projected Gauss-Seidel stops within 1e-13 of the force
# scale from a start that differs by round-off: measured spread 7.8e-9 in
# energy_balance (1e-10 J, a difference of energies of 1e-5 J; every other
# column within 2e-11). Tolerance 1000 times that, rounded up: 1e-5.
body_rank_case(sliding_redistributed "1;2" 1e-5 prm/body_sliding_block_2d.prm
  --set "Body/Subdivisions=32, 8" --set "Time/Final time=5"
  --set "Time/Time step=0.0078125" --set "Output/Field output=false")

# Counterpart = mirror (the block against its mirror image; 1000 steps),
# unilateral and with a prescribed normal traction S_p = 5e6 (1 - x/2)
# Pa. Measured spread np 1-2 (column metric): 4.0e-11 (friction_force_1;
# the mirror halves the friction step's uniqueness margin, 662 ambiguous
# node-steps amplify round-off) and 6.9e-12 (energy_balance); tolerances
# 1000 times each, rounded up to a power of ten.
body_rank_case(mirror "1;2" 1e-7 tests/body/block.prm
  --set "Body/Contact/Counterpart=mirror" --set "Output/Field output=false")
body_rank_case(mirror_traction "1;2" 1e-8 tests/body/block.prm
  --set "Body/Contact/Counterpart=mirror"
  --set "Body/Contact/Contact law=prescribed traction"
  --set "Body/Contact/Normal traction=5e6*(1 - x/2)" --set "Output/Field output=false")

# ---- The default operator, Body/Stiffness operator = auto, takes the
# element kernels on these blocks (1 distinct cell shape; the log says so)
# instead of the assembled matrix (Q1) and matrix-free (Q2) it took before:
# those two against the default 1-rank runs above, on 1 and 2 ranks, the
# same histories to round-off amplified by stick-slip. Measured (column
# metric of compare_histories.py; energy_balance sets them): block3d
# assembled np1 2.8e-13, np2 8.2e-13; block_p2 matrix-free np2 3.1e-11;
# tolerances those of the rank tests above (1e-8, 1e-7), more than 1000
# times each.
function(body_operator_case case operator np tolerance prm)
  string(REPLACE "-" "_" tag "${operator}")
  set(name body_${tag}_${case}_np${np})
  stickslip_run_test(${name} ${np} ${prm} ${ARGN}
    --set "Body/Stiffness operator=${operator}")
  set_tests_properties(${name} PROPERTIES FIXTURES_SETUP ${name})
  add_test(NAME ${name}_same_as_default
    COMMAND ${PYTHON3} ${SRC}/tests/compare_histories.py
            ${OUT}/body_mpi_${case}_np1/history.csv
            ${OUT}/${name}/history.csv --tolerance ${tolerance})
  set_tests_properties(${name}_same_as_default PROPERTIES
    FIXTURES_REQUIRED "body_mpi_${case};${name}")
endfunction()
foreach(case block3d block_p2)
  add_test(NAME body_mpi_${case}_np1_auto_element_kernels
    COMMAND grep -q "element kernels (.*) K (auto: 1 distinct cell shape)"
            ${OUT}/body_mpi_${case}_np1/log.txt)
  set_tests_properties(body_mpi_${case}_np1_auto_element_kernels PROPERTIES
    FIXTURES_REQUIRED body_mpi_${case})
endforeach()
# On 2 ranks each rank counts its own cells' shapes (one each), and on a
# mesh of many shapes (cylinder_2d_0.msh, every cell its own) auto falls
# back to the assembled matrix for Q1 and matrix-free for Q2 (10 explicit
# steps of the Hertz example, under 1 s each). The implicit step keeps the
# assembled matrix of its solver on a block (the Signorini bar, 2 steps).
add_test(NAME body_mpi_block_p1_np2_auto_element_kernels
  COMMAND grep -q "element kernels (.*) K (auto: 2 distinct cell shapes, counted on each rank's cells and summed)"
          ${OUT}/body_mpi_block_p1_np2/log.txt)
set_tests_properties(body_mpi_block_p1_np2_auto_element_kernels PROPERTIES
  FIXTURES_REQUIRED body_mpi_block_p1)
foreach(degree 1 2)
  if(degree EQUAL 1)
    set(expected "assembled (PETSc) K")
  else()
    set(expected "matrix-free K")
  endif()
  stickslip_run_test(body_auto_operator_many_shapes_p${degree} 1
    prm/body_hertz_2d.prm --set "Body/Mesh file=${SRC}/meshes/cylinder_2d_0.msh"
    --set "Body/Time scheme=explicit" --set "Time/Time step=1e-4"
    --set "Time/Final time=1e-3" --set "Output/Interval=1e-3"
    --set "Body/Finite element degree=${degree}"
    -- grep -q "${expected} (auto: more than 1 distinct cell shape per 4 cells"
       @OUT@/log.txt)
endforeach()
stickslip_run_test(body_auto_operator_implicit 1 prm/body_signorini_bar.prm
  --set "Body/Time scheme=implicit" --set "Time/Time step=0.05"
  --set "Time/Final time=0.1" --set "Output/Interval=0.05"
  --set "Body/Subdivisions=4, 40" --set "Body/Size=0.04, 1"
  --set "Output/Field output=false"
  -- grep -q "assembled (PETSc) K (auto: the implicit and quasi-static steps take the operator of their linear solver)"
     @OUT@/log.txt)
body_operator_case(block3d assembled 1 1e-8 tests/body/block3d.prm)
body_operator_case(block3d assembled 2 1e-8 tests/body/block3d.prm)
body_operator_case(block_p2 matrix-free 2 1e-7 tests/body/block.prm
  --set "Body/Finite element degree=2" --set "Time/Time step=1e-7"
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
          --tolerance 1e-8 --set "Output/Field output every=1"
          --set "Output/Checkpoint interval=2e-5")
set_tests_properties(resume_body_across_ranks kill_anywhere_body PROPERTIES
  TIMEOUT 900 PROCESSORS 2)
# The 3D block written on 2 ranks and resumed on 1, 2 and 3, without a kill
# (nothing timed; tests/reliability/resume_across_ranks.py): a snapshot at
# t = 2e-5 (step 50) of a run stopped at 4e-5, continued to 1e-4 and
# compared with the uninterrupted 2-rank run. In 3D an unknown's place has
# four coordinates (x, y, z, component): the lookup once kept three and
# refused every such snapshot as "corrupt (two unknowns share a location)".
# Measured (largest difference of the 200 recomputed rows, column metric):
# TOLERANCE_3D_RESUME below; 1000 times the largest rounded up to a power
# of ten.
set(TOLERANCE_3D_RESUME 1e-8)
add_test(NAME resume_body3d_across_ranks
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${SRC}/tests/body/block3d.prm ${OUT}/resume_body3d_across_ranks
          --np 2 --resume-np 1,2,3 --stop 4e-5 --final 1e-4 --checkpoint 2e-5
          --tolerance ${TOLERANCE_3D_RESUME})
# A snapshot that truly cannot be matched: the gmsh file of the body changed
# (one node moved) between the write on 2 ranks and a resume on 1. It is
# refused as not matching this run, naming the unknown without a
# counterpart, not called corrupt.
add_test(NAME resume_body_mesh_changed_refused
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${SRC}/prm/body_membrane.prm ${OUT}/resume_body_mesh_changed_refused
          --np 2 --resume-np 1 --stop 0.25 --final 0.5 --checkpoint 0.1
          --tolerance 1e-8 --mesh "Body/Mesh file=${SRC}/meshes/membrane.msh" --mismatch
          --set "Output/Field output=false")
# The same sliding block written on 2 ranks and resumed on 1: the pressure,
# gap and normal displacements of the last normal solve are in the snapshot.
# Measured 5.5e-9 (energy_balance, as above); tolerance 1e-5.
add_test(NAME resume_body_redistributed_across_ranks
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${SRC}/prm/body_sliding_block_2d.prm
          ${OUT}/resume_body_redistributed_across_ranks
          --np 2 --resume-np 1 --stop 1.25 --final 2.5 --checkpoint 0.625
          --tolerance 1e-5 --set "Output/Field output=false"
          --set "Body/Subdivisions=32, 8" --set "Time/Time step=0.0078125")
# The block against its mirror image with a prescribed normal traction,
# written on 2 ranks and resumed on 1: S_p is a function of x and t, the
# snapshot needs nothing more. Measured 6.0e-12 (energy_balance); 1e-8.
add_test(NAME resume_body_mirror_across_ranks
  COMMAND ${PYTHON3} ${SRC}/tests/reliability/resume_across_ranks.py ${EXE}
          ${BODY_BLOCK} ${OUT}/resume_body_mirror_across_ranks
          --np 2 --resume-np 1 --stop 1e-4 --final 2e-4 --checkpoint 5e-5
          --tolerance 1e-8 --set "Output/Field output=false"
          --set "Body/Contact/Counterpart=mirror"
          --set "Body/Contact/Contact law=prescribed traction"
          --set "Body/Contact/Normal traction=5e6*(1 - x/2)")
set_tests_properties(resume_body3d_across_ranks resume_body_mesh_changed_refused
  resume_body_redistributed_across_ranks resume_body_mirror_across_ranks
  PROPERTIES TIMEOUT 900 PROCESSORS 2)

# ---- Bad input: a clear error naming the parameter, before anything is
# written, on every rank (no hang under MPI).
stickslip_bad_input(body_contact_id "Body/Contact/Boundary id.*7.*no boundary with this id"
  ${BODY_BLOCK} --set "Body/Contact/Boundary id=7")
stickslip_bad_input(body_displacement_id "Body/Displacement 1/Boundary ids.*9.*no boundary"
  ${BODY_BLOCK} --set "Body/Displacement 1/Boundary ids=9")
# Multi-part values are quoted as written (they were printed as ''), and
# the node where the check fails is named.
stickslip_bad_input(body_penetration "Body/Initial displacement.*has the value '0. -1e-4\\*\\(1 - y/0\\.1\\) - 1e-4\\*y/0\\.1', but it penetrates the foundation by 0\\.0001 m at the contact node x = [0-9.e-]+, y = 0"
  ${BODY_BLOCK} --set "Body/Initial displacement=0@SEMI@ -1e-4*(1 - y/0.1) - 1e-4*y/0.1")
# A negative initial gap is the gap's fault, whatever the displacement.
stickslip_bad_input(body_negative_initial_gap "Body/Contact/Initial gap.*has the value '-1e-3', but the initial gap g0 must be >= 0.*-0\\.001 m at the contact node"
  ${BODY_BLOCK} --set "Body/Contact/Initial gap=-1e-3")
stickslip_bad_input(body_nan_floor "Body/Distributed friction.*has the value '0/0', but g\\(x\\) must be a finite number >= 0 at every node, and it is -?nan at the node x = "
  ${BODY_BLOCK} --set "Body/Distributed friction=0/0")
stickslip_bad_input(body_subdivisions_too_many "Body/Subdivisions.*'1e9, 1e9'.*integers from 1 to 1e7, and 1000000000 is more cells than any memory holds"
  ${BODY_BLOCK} --set "Body/Subdivisions=1e9, 1e9")
# A degenerate (a node repeated) and a twisted (two nodes swapped) quad in a
# gmsh mesh: named with its vertices (it was blamed on Body/Density = '').
file(READ ${SRC}/meshes/membrane.msh MEMBRANE_MESH)
string(REPLACE "22 3 2 10 10 7 8 13 12" "22 3 2 10 10 7 8 8 12" DEGENERATE_MESH "${MEMBRANE_MESH}")
string(REPLACE "22 3 2 10 10 7 8 13 12" "22 3 2 10 10 7 8 12 13" TWISTED_MESH "${MEMBRANE_MESH}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/degenerate.msh "${DEGENERATE_MESH}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/twisted.msh "${TWISTED_MESH}")
stickslip_bad_input(body_mesh_degenerate_cell "Body/Mesh file.*degenerate.msh', but its cell with the vertices \\(.*\\) is degenerate: two of its vertices lie at \\(1, 0\\.5\\)"
  ${SRC}/prm/body_membrane.prm --set "Body/Mesh file=${CMAKE_CURRENT_BINARY_DIR}/degenerate.msh")
stickslip_bad_input(body_mesh_twisted_cell "Body/Mesh file.*twisted.msh', but its cell with the vertices .* is twisted: its Jacobian determinant is"
  ${SRC}/prm/body_membrane.prm --set "Body/Mesh file=${CMAKE_CURRENT_BINARY_DIR}/twisted.msh")
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
# Mass at contact nodes = redistributed needs the unilateral law, a normal
# along an axis and a free normal displacement at the contact nodes.
set(BODY_SLIDING ${SRC}/prm/body_sliding_block_2d.prm)
stickslip_bad_input(body_redistributed_compliant
  "Body/Contact/Mass at contact nodes.*redistributed.*unilateral only"
  ${BODY_SLIDING} --set "Body/Contact/Contact law=compliant")
stickslip_bad_input(body_redistributed_oblique
  "Body/Contact/Mass at contact nodes.*redistributed.*coordinate axis \\(it is 1, -1\\)"
  ${BODY_SLIDING} --set "Body/Contact/Normal=1, -1")
stickslip_bad_input(body_redistributed_prescribed
  "Body/Contact/Mass at contact nodes.*redistributed.*prescribed.*at x = 0, y = 0, component 2"
  ${BODY_SLIDING} --set "Body/Displacement 1/Boundary ids=2"
  --set "Body/Displacement 1/Components=y")
# Counterpart = mirror and Contact law = prescribed traction (doc/body.md,
# "The mirror counterpart"): the combinations that have no meaning.
stickslip_bad_input(body_prescribed_traction_rigid_plane
  "Body/Contact/Contact law.*prescribed traction.*needs Body/Contact/Counterpart = mirror"
  ${BODY_BLOCK} --set "Body/Contact/Contact law=prescribed traction")
stickslip_bad_input(body_prescribed_traction_redistributed
  "Body/Contact/Mass at contact nodes.*redistributed.*prescribed traction the normal force is given: use lumped"
  ${BODY_SLIDING} --set "Body/Contact/Contact law=prescribed traction"
  --set "Body/Contact/Counterpart=mirror")
stickslip_bad_input(body_mirror_foundation_velocity
  "Body/Contact/Foundation velocity.*'1. 0'.*Counterpart = mirror.*must be 0"
  ${BODY_BLOCK} --set "Body/Contact/Counterpart=mirror"
  --set "Body/Contact/Foundation velocity=1@SEMI@ 0")
stickslip_bad_input(body_negative_normal_traction
  "Body/Contact/Normal traction.*'1e6\\*\\(1 - 2\\*x/0\\.2\\)'.*at the contact node x = 0\\.1[0-9]*, y = 0 at t = 0: the prescribed normal traction S_p must be a finite compressive value >= 0"
  ${BODY_BLOCK} --set "Body/Contact/Counterpart=mirror"
  --set "Body/Contact/Contact law=prescribed traction"
  --set "Body/Contact/Normal traction=1e6*(1 - 2*x/0.2)")
# The rigid plane would accept this state (u0.n = g0), the mirror doubles u0.n.
stickslip_bad_input(body_mirror_penetration
  "Body/Initial displacement.*penetrates the mirror image by 0\\.0001 m at the contact node.*2 u0.n <= g0 must hold"
  ${BODY_BLOCK} --set "Body/Contact/Counterpart=mirror"
  --set "Body/Contact/Initial gap=1e-4"
  --set "Body/Initial displacement=0@SEMI@ -1e-4")
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
stickslip_bad_input(body_tiny_cells "Body/Density.*stability bound of the explicit scheme is .*not a positive finite number.*Body/Size = 1e-300, 0.1"
  ${BODY_BLOCK} --set "Body/Size=1e-300, 0.1"
  # The normal given: auto would refuse the degenerate faces first.
  --set "Body/Contact/Normal=0, -1")
