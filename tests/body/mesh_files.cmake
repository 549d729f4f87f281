# ---- Mesh files (src/models/common/mesh_file.cc, doc/body_setup.md).
# gmsh writes triangles and tetrahedra unless told to recombine, and MSH 4.1
# unless told -format msh22; deal.II 9.4's GridIn reads the simplices into
# the p4est triangulation, which then crashed (SIGSEGV, nothing printed), and
# read a 2.2 body under a 4.1 header out of bounds (free(): invalid size).
# The file is now checked on rank 0 first: exit 1 with the file, the element
# (or the header) and its line, what is allowed and how to make gmsh write
# it; nothing written (tests/expect_failure.sh). The meshes are in
# tests/body/meshes: two triangles on the unit square (the new-user report's
# mesh), a quadrilateral and two triangles, a quadrilateral under a 4.1
# header, two tetrahedra.
set(MESHES ${SRC}/tests/body/meshes)
set(TO_GMSH "MSH 2.2 ASCII format: write it with gmsh -format msh22")
stickslip_bad_input(body_mesh_triangles
  "parameter 'Body/Mesh file' \\(set on the command line by --set\\) has the value '${MESHES}/triangles_2d.msh', but its element 5 \\(line 17 of ${MESHES}/triangles_2d.msh\\) is a 3-node triangle \\(gmsh element type 2\\)\\. stickslip reads gmsh meshes of quadrilaterals .*${TO_GMSH}.*Mesh.RecombineAll = 1"
  ${BODY_BLOCK} --set "Body/Mesh=file" --set "Body/Mesh file=${MESHES}/triangles_2d.msh")
stickslip_bad_input(body_mesh_mixed
  "Body/Mesh file.*its element 8 \\(line 22 of ${MESHES}/mixed_2d.msh\\) is a 3-node triangle \\(gmsh element type 2\\).*${TO_GMSH}"
  ${BODY_BLOCK} --set "Body/Mesh=file" --set "Body/Mesh file=${MESHES}/mixed_2d.msh")
stickslip_bad_input(body_mesh_format41
  "Body/Mesh file.*its \\$MeshFormat is '4.1 0 8' \\(line 2 of ${MESHES}/quads_format41_2d.msh\\): the format version 4.1 is not read.*${TO_GMSH}"
  ${BODY_BLOCK} --set "Body/Mesh=file" --set "Body/Mesh file=${MESHES}/quads_format41_2d.msh")
stickslip_bad_input(body_mesh_tetrahedra
  "Body/Mesh file.*its element 1 \\(line 14 of ${MESHES}/tetrahedra_3d.msh\\) is a 3-node triangle \\(gmsh element type 2\\)\\. stickslip reads gmsh meshes of hexahedra .*${TO_GMSH}.*Mesh.SubdivisionAlgorithm = 2"
  ${SRC}/tests/body/block3d.prm --set "Body/Mesh=file" --set "Body/Mesh file=${MESHES}/tetrahedra_3d.msh")
# The string's membrane reads its mesh through the same check (2 ranks: the
# check on rank 0, its result on every rank, one message).
stickslip_bad_input(membrane_mesh_triangles
  "String/Mesh file.*its element 5 \\(line 17 of ${MESHES}/triangles_2d.msh\\) is a 3-node triangle.*${TO_GMSH}"
  ${SRC}/prm/membrane.prm --set "String/Mesh file=${MESHES}/triangles_2d.msh")
add_test(NAME bad_input_membrane_mesh_format41_np2
  COMMAND bash ${SRC}/tests/expect_failure.sh ${OUT}/bad_input_membrane_mesh_format41_np2
          "String/Mesh file.*its \\$MeshFormat is '4.1 0 8'.*${TO_GMSH}"
          mpirun -np 2 --oversubscribe --allow-run-as-root ${EXE} ${SRC}/prm/membrane.prm
          --set "String/Mesh file=${MESHES}/quads_format41_2d.msh"
          --set "Output/Directory=${OUT}/bad_input_membrane_mesh_format41_np2"
          --set "Output/Overwrite=true")
set_tests_properties(bad_input_membrane_mesh_format41_np2 PROPERTIES PROCESSORS 2)

# ---- A relative Mesh file is looked up next to the parameter file that
# sets it, then in the working directory. prm/body_hertz_2d.prm copied into
# a folder of its own beside its mesh (Mesh file = cylinder_2d_1.msh) and run
# from another folder, one load step (1.2 s of CPU measured): the same
# history.csv, byte for byte, as the example run from the repository's root
# (its meshes/cylinder_2d_1.msh found in the working directory). Then a
# relative path on the command line starts at the working directory: the run
# from the other folder does not find meshes/cylinder_2d_1.msh and says where
# it looked.
set(HERTZ_ONE_STEP "--quiet --set 'Time/Final time=0.25' --set 'Output/Field output=false' --set Output/Overwrite=true")
add_test(NAME body_mesh_relative_to_parameter_file
  COMMAND bash -c "out=${OUT}/body_mesh_relative_to_parameter_file; rm -rf $out; mkdir -p $out/case $out/elsewhere && \\
    sed 's#= *meshes/cylinder_2d_1.msh#= cylinder_2d_1.msh#' ${SRC}/prm/body_hertz_2d.prm > $out/case/hertz.prm && \\
    grep -q 'Mesh file *= cylinder_2d_1.msh' $out/case/hertz.prm && cp ${SRC}/meshes/cylinder_2d_1.msh $out/case/ && \\
    (cd ${SRC} && ${EXE} prm/body_hertz_2d.prm ${HERTZ_ONE_STEP} --set Output/Directory=$out/from_repository) && \\
    (cd $out/elsewhere && ${EXE} $out/case/hertz.prm ${HERTZ_ONE_STEP} --set Output/Directory=$out/from_elsewhere) && \\
    cmp $out/from_repository/history.csv $out/from_elsewhere/history.csv && \\
    (cd $out/elsewhere && ${EXE} ${SRC}/prm/body_hertz_2d.prm ${HERTZ_ONE_STEP} --set Output/Directory=$out/set \\
       --set Body/Mesh\\ file=meshes/cylinder_2d_1.msh > $out/set.log 2>&1; test $? -eq 1) && cat $out/set.log && \\
    grep -q \"parameter 'Body/Mesh file' (set on the command line by --set) has the value 'meshes/cylinder_2d_1.msh', but the mesh file cannot be read: there is no readable file at '$out/elsewhere/meshes/cylinder_2d_1.msh' (a relative path given on the command line starts at the working directory)\" $out/set.log")

# ---- Body/Contact/Normal = auto is the outward normal of the contact
# boundary's faces (it was -e_z whatever the face). The 3D block of
# tests/body/block3d.prm with its contact boundary on the face x = L_x (id 1;
# the top's prescribed shear pushes it toward +x): auto finds (1, 0, 0),
# says so in the first line, and gives the same history.csv, byte for byte,
# as the explicit Normal = 1, 0, 0 (0.7 s of CPU each, measured).
add_test(NAME body_contact_normal_auto_side_face
  COMMAND bash -c "out=${OUT}/body_contact_normal_auto_side_face; rm -rf $out; mkdir -p $out && \\
    ${EXE} ${SRC}/tests/body/block3d.prm --set Output/Directory=$out/auto --set Output/Overwrite=true \\
      --set 'Body/Contact/Boundary id=1' > $out/auto.log && cat $out/auto.log && \\
    grep -q 'contact normal (1, 0, 0) from the faces of boundary 1 (Normal = auto)' $out/auto.log && \\
    ${EXE} ${SRC}/tests/body/block3d.prm --quiet --set Output/Directory=$out/explicit --set Output/Overwrite=true \\
      --set 'Body/Contact/Boundary id=1' --set 'Body/Contact/Normal=1, 0, 0' && \\
    cmp $out/auto/history.csv $out/explicit/history.csv")
# A curved contact boundary (the cylinder of prm/body_hertz_2d.prm) with auto:
# refused, naming the face farthest from the faces' mean plane.
stickslip_bad_input(body_contact_normal_auto_curved
  "parameter 'Body/Contact/Normal' \\(set on the command line by --set\\) has the value 'auto', but auto needs the faces of the contact boundary 1 to lie in one plane, and they do not: the outward normal of the face at \\([-0-9.e]+, [-0-9.e]+\\) is .*the tolerance of both is 1e-6\\)\\. Give the foundation's normal explicitly \\(2 numbers\\)"
  ${SRC}/prm/body_hertz_2d.prm --set "Body/Contact/Normal=auto"
  --set "Body/Mesh file=${SRC}/meshes/cylinder_2d_1.msh")
