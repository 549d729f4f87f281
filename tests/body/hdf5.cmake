# ---- Output/Field format = hdf5 (src/base/hdf5_field_writer.h, doc/outputs.md):
# the HDF5 + XDMF files as ParaView's XDMF3 reader reads them (pvpython,
# tests/body/check_hdf5.py), against the VTU of the same run: the nodal
# displacement and velocity at every output equal the VTU's (VTU stores
# 32-bit floats: single precision exactly, double to a float's rounding),
# the stress components and von Mises of each cell the mean of the VTU's
# values at its vertices, the subdomain the ranks;
# the contact surface (contact.xdmf) the values of contact.pvd, node for node;
# 1 and 2 ranks write the same mesh file (bytes), the same nodes in the same
# order, and values to HDF5_RANK_TOLERANCE; killed and resumed on other
# numbers of ranks, only complete files and no lost or repeated output.
set(HDF5_BLOCK tests/body/block.prm --set "Time/Final time=2e-5"
  --set "Output/Field output every=1")
set(HDF5_BLOCK3D tests/body/block3d.prm --set "Time/Final time=2e-5"
  --set "Output/Field output=true" --set "Output/Interval=4e-6")
set(HDF5_FORMAT --set "Output/Field format=hdf5")
# The spread between rank counts of the body's block after 1000 steps is
# 1.5e-12 (column metric, reliability.cmake); these runs are 100 and 50
# steps. 1000 times that, rounded up to a power of ten.
set(HDF5_RANK_TOLERANCE 1e-8)
stickslip_run_test(body_hdf5_vtu_np1 1 ${HDF5_BLOCK})
stickslip_run_test(body_hdf5_np1 1 ${HDF5_BLOCK} ${HDF5_FORMAT})
stickslip_run_test(body_hdf5_np2 2 ${HDF5_BLOCK} ${HDF5_FORMAT})
stickslip_run_test(body_hdf5_single_np1 1 ${HDF5_BLOCK} ${HDF5_FORMAT}
  --set "Output/Field precision=single")
stickslip_run_test(body_hdf5_p2_vtu_np1 1 ${HDF5_BLOCK}
  --set "Body/Finite element degree=2" --set "Time/Time step=1e-7")
stickslip_run_test(body_hdf5_p2_np2 2 ${HDF5_BLOCK} ${HDF5_FORMAT}
  --set "Body/Finite element degree=2" --set "Time/Time step=1e-7")
stickslip_run_test(body_hdf5_3d_vtu_np1 1 ${HDF5_BLOCK3D})
stickslip_run_test(body_hdf5_3d_np1 1 ${HDF5_BLOCK3D} ${HDF5_FORMAT})
stickslip_run_test(body_hdf5_3d_np2 2 ${HDF5_BLOCK3D} ${HDF5_FORMAT})
set_tests_properties(body_hdf5_vtu_np1 body_hdf5_np1 body_hdf5_np2
  body_hdf5_single_np1 body_hdf5_p2_vtu_np1 body_hdf5_p2_np2
  body_hdf5_3d_vtu_np1 body_hdf5_3d_np1 body_hdf5_3d_np2
  PROPERTIES FIXTURES_SETUP body_hdf5_runs)

# The checks are registered whether or not pvpython is installed when the
# build is configured (./run.sh configures before ./test.sh installs
# ParaView; first_run_configure_without_test_tools checks that the test list
# does not depend on it): pvpython is looked up when the test runs.
set(PVPYTHON_CHECK "command -v pvpython >/dev/null || ! echo 'FAIL: pvpython not found: install Debian paraview (./test.sh does, through scripts/ensure_dependencies.sh --tests)'")
function(body_hdf5_check name)
  add_test(NAME ${name} COMMAND bash -c "(${PVPYTHON_CHECK}) && exec pvpython \"$@\""
    body_hdf5_check ${BODY}/check_hdf5.py ${ARGN})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED body_hdf5_runs
    TIMEOUT 300)
endfunction()
# 2D Q1: 6 outputs (t = 0, 4e-6, ..., 2e-5).
# With the contact surface (contact.xdmf against contact.pvd).
body_hdf5_check(body_hdf5_same_as_vtu ${OUT}/body_hdf5_np1 --steps 6
  --vtu ${OUT}/body_hdf5_vtu_np1 --contact)
body_hdf5_check(body_hdf5_single_same_as_vtu ${OUT}/body_hdf5_single_np1
  --steps 6 --vtu ${OUT}/body_hdf5_vtu_np1 --contact)
body_hdf5_check(body_hdf5_np2_same_as_np1 ${OUT}/body_hdf5_np2 --steps 6
  --ranks 2 --same-as ${OUT}/body_hdf5_np1 --tolerance ${HDF5_RANK_TOLERANCE})
# Q2 (each cell written as 2^dim linear cells of its support points).
body_hdf5_check(body_hdf5_p2_same_as_vtu ${OUT}/body_hdf5_p2_np2 --steps 6
  --ranks 2 --vtu ${OUT}/body_hdf5_p2_vtu_np1)
body_hdf5_check(body_hdf5_3d_same_as_vtu ${OUT}/body_hdf5_3d_np1 --steps 6
  --vtu ${OUT}/body_hdf5_3d_vtu_np1 --contact)
body_hdf5_check(body_hdf5_3d_np2_same_as_np1 ${OUT}/body_hdf5_3d_np2
  --steps 6 --ranks 2 --same-as ${OUT}/body_hdf5_3d_np1
  --tolerance ${HDF5_RANK_TOLERANCE})

# SIGKILL while the HDF5 files, their records or snapshots are written,
# resumed on 1 and 3 ranks (tests/kill_anywhere.py reads solution.xdmf and
# the HDF5 files its records name, and the times of the contact outputs in
# their series file: Debian's python3-h5py, so the system's Python). A target waited for up to 15 s: under
# a load of 9 a 2-rank start took longer than the default 4 s, and all six
# kills fell before the first output.
add_test(NAME kill_anywhere_body_hdf5
  COMMAND ${SYSTEM_PYTHON3} ${SRC}/tests/kill_anywhere.py ${EXE} ${BODY_BLOCK}
          ${OUT}/kill_anywhere_body_hdf5 --np 2 --resume-np 1,3 --kills 6
          --seed 23 --tolerance 1e-8 --target-timeout 15
          --set "Output/Field output every=1"
          --set "Output/Checkpoint interval=2e-5"
          --set "Output/Field format=hdf5")
set_tests_properties(kill_anywhere_body_hdf5 PROPERTIES TIMEOUT 900
  PROCESSORS 2)

# Only the body writes HDF5 fields: any other model stops before writing.
stickslip_bad_input(field_format_hdf5_other_model
  "Output/Field format.*hdf5.*only Model = body writes its fields as HDF5"
  ${SRC}/prm/p1.prm --set "Output/Field format=hdf5")

# A fresh run in a folder holding another format's series removes it: VTU,
# then HDF5 into the same folder (Output/Overwrite), leaves contact.xdmf and
# solution.xdmf, no contact.pvd or solution.pvd (src/base/run_directory.cc;
# PvdRecord::write() removes the other format's file on a resume).
set(HDF5_STALE ${OUT}/body_hdf5_stale_series)
add_test(NAME body_hdf5_removes_stale_vtu_series
  COMMAND bash -c "set -e; run() { ${EXE} ${BODY_BLOCK} --quiet --set Output/Directory=${HDF5_STALE} --set Output/Overwrite=true --set 'Time/Final time=4e-6' \"$@\" > /dev/null; }; run; test -f ${HDF5_STALE}/contact.pvd; run --set 'Output/Field format=hdf5'; test -f ${HDF5_STALE}/contact.xdmf; test -f ${HDF5_STALE}/solution.xdmf; test ! -e ${HDF5_STALE}/contact.pvd; test ! -e ${HDF5_STALE}/solution.pvd; echo PASS")

# SIGTERM to a run without snapshots that writes the volume and the contact
# surface at every row: the XDMF series, which lag behind their records
# during the run (rewritten every L/16 outputs, src/base/pvd_record.h), are
# flushed on the way out and list every record written
# (tests/reliability/signal_without_snapshots.py checks the rest). Without
# the flush the series lacks the last output whenever the run stops after
# an even number of outputs: the test failed 1 of 4 runs with the flush
# taken out, never with it (it cannot fail by chance, only miss a fault).
add_test(NAME body_hdf5_signal_lists_every_output
  COMMAND bash -c "${PYTHON3} \"$@\" && exec ${SYSTEM_PYTHON3} ${BODY}/series_lists_every_record.py ${OUT}/body_hdf5_signal_lists_every_output"
    signal_test ${SRC}/tests/reliability/signal_without_snapshots.py ${EXE}
    ${SRC}/tests/body/block.prm ${OUT}/body_hdf5_signal_lists_every_output TERM
    --set "Time/Final time=1" --set "Output/Field output every=1"
    --set "Output/Contact output every=1" ${HDF5_FORMAT})
