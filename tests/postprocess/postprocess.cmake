# The post-processing scripts of postprocess/ (README there), each run on a
# short run made by its test in its own folder, and the PNG checked by
# postprocess/check_png.py, whose default is the not-blank check (decoded: at
# least 1% of the pixels off the background colour and 8 colours; the
# measured pictures here have 3-60% of their pixels off the background, a
# blank one 0% and a title alone 0.15%); every picture test of tests/ calls
# it. Included by tests/CMakeLists.txt; uses stickslip_run_test, SRC, OUT,
# PYTHON3 and SYSTEM_PYTHON3 (Debian's, with matplotlib and Pillow: check_png
# decodes by Pillow there, 0.02 s a picture against 1-2 s by the standard
# library alone). Measured on the shared 2-core machine: 1-5 s per test, the
# ParaView ones 4-8 s (ParaView's start-up is 2-3 s).
set(PP ${SRC}/postprocess)
# (strings, not CMake lists: they go into the "bash -c" strings below, which
# must hold no ';' either: CMake would split them there)
set(PNG_CHECK "${SYSTEM_PYTHON3} ${PP}/check_png.py --min-size 400")
set(MEMBRANE_MESH --set "String/Mesh file=${SRC}/meshes/membrane.msh")

# The checker can fail: a blank picture and a picture holding only a title
# are refused.
set(BLANK_DIR ${OUT}/postprocess_check_png_refuses_blank)
add_test(NAME postprocess_check_png_refuses_blank
  COMMAND bash -c "mkdir -p ${BLANK_DIR} && ${SYSTEM_PYTHON3} -c \"import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
f = plt.figure(figsize=(8, 8))
f.savefig('${BLANK_DIR}/blank.png')
f.suptitle('title')
f.savefig('${BLANK_DIR}/title.png')\" && ! ${PNG_CHECK} ${BLANK_DIR}/blank.png && ! ${PNG_CHECK} ${BLANK_DIR}/title.png && ! ${PYTHON3} ${PP}/check_png.py ${BLANK_DIR}/blank.png && ${PYTHON3} ${PP}/check_png.py --header-only ${BLANK_DIR}/blank.png ${BLANK_DIR}/title.png && echo PASS")

# history.csv of the string and the membrane: energies, their sum, stick
# fraction (plot_history.py refused these before).
stickslip_run_test(postprocess_history_string 1 prm/string.prm --set "Time/Final time=0.5"
  -- bash -c "${SYSTEM_PYTHON3} ${PP}/plot_history.py @OUT@/history.csv -o @OUT@/history.png && ${PNG_CHECK} @OUT@/history.png")

# plot_history.py on a body's history: the body's own energy account,
# kinetic + elastic + dissipated - data_work - impact_work = E0 +
# energy_balance, drawn and printed with its variation (the string's "sum",
# kinetic + elastic + dissipated, which it drew for a body before, varies by
# 100% here: the pull does work). Measured: 0.041% of the largest energy or
# work over the whole run (T = 100), 0.0xx% is asserted (below 0.1%).
stickslip_run_test(postprocess_history_body 1 prm/body_stick_block.prm
  --set "Output/Field output=false"
  -- bash -c "set -o pipefail && ${SYSTEM_PYTHON3} ${PP}/plot_history.py @OUT@/history.csv -o @OUT@/history.png | tee /dev/stderr | grep -E 'body: .* varies by (0[.]0[0-9]*|[0-9.]+e-[0-9]+)% of the largest' >/dev/null && ${PNG_CHECK} @OUT@/history.png")

# The README's own command under its picture (doc/string_plot_history.png):
# the full run of prm/string.prm, the picture made as the README says.
stickslip_run_test(postprocess_readme_history 1 prm/string.prm --set "Output/Field output=false"
  -- bash -c "${SYSTEM_PYTHON3} ${PP}/plot_history.py @OUT@/history.csv -o @OUT@/string.png && ${PNG_CHECK} @OUT@/string.png")

# vtk_python.py, the one reader of .pvd and .pvtu files of postprocess/: a
# membrane on 2 ranks (two pieces a record), its records, times, pieces and
# fields, and every broken input refused with the file named.
stickslip_run_test(postprocess_vtk_python 2 prm/membrane.prm --set "Time/Final time=0.3"
  ${MEMBRANE_MESH}
  -- ${SYSTEM_PYTHON3} ${SRC}/tests/postprocess/check_vtk_python.py @OUT@ @OUT@/scratch)

# slab_plot.py on a long slab run: fig4 shows the first 6 stick-slip cycles
# and says so (all 236 of prm/slab_long.prm made it a solid block; T = 3e-3
# has 23), fig5 and fig6 the whole run and its end.
stickslip_run_test(postprocess_slab_plot_long 1 prm/slab_long.prm --set "Time/Final time=3e-3"
  -- bash -c "set -o pipefail && ${SYSTEM_PYTHON3} ${PP}/slab_plot.py @OUT@/history.csv -o @OUT@/slab | tee /dev/stderr | grep -E '^fig4: t = 0 [.][.] .* the first 6 of [0-9]+ stick-slip cycles' >/dev/null && ${PNG_CHECK} @OUT@/slab-fig4.png @OUT@/slab-fig5.png @OUT@/slab-fig6.png")

# The membrane: its history, and render_membrane.py's default picture,
# coloured by stick on the mesh warped by the displacement (matplotlib: no
# display needed).
stickslip_run_test(postprocess_membrane_stick 2 prm/membrane.prm --set "Time/Final time=0.3"
  ${MEMBRANE_MESH}
  -- bash -c "set -o pipefail && ${SYSTEM_PYTHON3} ${PP}/plot_history.py @OUT@/history.csv -o @OUT@/history.png && ${SYSTEM_PYTHON3} ${PP}/render_membrane.py @OUT@ -o @OUT@/stick.png | tee /dev/stderr | grep 'stick warped by displacement' >/dev/null && ${PNG_CHECK} @OUT@/history.png @OUT@/stick.png")

# chain_response.py: the St-Venant loops g_i(x_i) on a chain clamped at both
# ends (it drew F_0 = -k_1 x_1, a straight line, there), the end loop on a
# chain with a free end.
stickslip_run_test(postprocess_chain_response_clamped 1 prm/chain_dynamical_clamped.prm
  --set "Time/Final time=4"
  -- bash -c "set -o pipefail && ${SYSTEM_PYTHON3} ${PP}/chain_response.py @OUT@/history.csv -o @OUT@/response.png | tee /dev/stderr | grep 'clamped chain: left panel g_i against x_i' >/dev/null && ${PNG_CHECK} @OUT@/response.png")
stickslip_run_test(postprocess_chain_response_free 1 prm/chain_quasistatic_free_force.prm
  -- bash -c "set -o pipefail && ${SYSTEM_PYTHON3} ${PP}/chain_response.py @OUT@/history.csv -o @OUT@/response.png | tee /dev/stderr | grep 'Right end = force' >/dev/null && ${PNG_CHECK} @OUT@/response.png")

# ---- paraview_view.py under ParaView's pvbatch, with a display of its own
# (tests/postprocess/with_display.sh: Debian's ParaView renders through X11
# only). pvbatch is looked up when the test runs, not when the build is
# configured: ./run.sh configures build/ before ./test.sh installs ParaView
# (the README's order), and a path found (or not found) at configure time
# would stay in the build (tests/first_run/configure_without_test_tools.sh
# checks that no test depends on the order). Without pvbatch these tests fail,
# saying what to install: a test skipped for a missing program could never
# fail.
set(PVBATCH_CHECK "(command -v pvbatch >/dev/null || ! echo 'FAIL: pvbatch not found: install Debian paraview and python3-paraview (./test.sh does, through scripts/ensure_dependencies.sh --tests)')")
set(PARAVIEW_VIEW "bash ${SRC}/tests/postprocess/with_display.sh pvbatch ${PP}/paraview_view.py")

# paraview_view_test(MODEL[_CASE] NP PRM [stickslip args...]): the run, the
# view, the model named in the script's output (a body coloured by its von
# Mises stress) and the PNG not blank.
function(paraview_view_test model np prm)
  set(name postprocess_paraview_view_${model})
  string(REGEX REPLACE "_.*" "" model "${model}")
  set(expect "[(]${model}, t = ")
  if(model STREQUAL "body")
    string(APPEND expect ".*colour von_mises from")
  endif()
  stickslip_run_test(${name} ${np} ${prm} ${ARGN}
    -- bash -c "${PVBATCH_CHECK} && set -o pipefail && ${PARAVIEW_VIEW} @OUT@ -o @OUT@/paraview.png 2>&1 | tee /dev/stderr | grep -E 'paraview_view: wrote .*${expect}' >/dev/null && ${PNG_CHECK} @OUT@/paraview.png")
  # One X client at a time: with two pvbatch on two Xvfb at once, 3 runs in
  # 40 lost their X connection ("bad X server connection"); one at a time,
  # 0 in 28.
  set_tests_properties(${name} PROPERTIES RESOURCE_LOCK x_display)
endfunction()

paraview_view_test(string 1 prm/string.prm --set "Time/Final time=0.5")
paraview_view_test(membrane 2 prm/membrane.prm --set "Time/Final time=0.3" ${MEMBRANE_MESH})
paraview_view_test(chain 1 prm/chain_dynamical_clamped.prm --set "Time/Final time=2")
paraview_view_test(slab 1 prm/slab.prm --set "Time/Final time=2e-5")
# body_membrane at rest from t = 1.975: |velocity| is 1e-38 everywhere at
# t = 3, which painted the L uniformly (and the test passed); the von Mises
# stress left by friction ranges over 0.023 .. 1.36 there.
paraview_view_test(body_membrane 1 prm/body_membrane.prm
  --set "Body/Mesh file=${SRC}/meshes/membrane.msh")
paraview_view_test(body 1 prm/body_fronts_2d.prm --set "Body/Subdivisions=40,20"
  --set "Time/Time step=5e-7" --set "Time/Final time=2e-4")


# ---- The pictures of doc/ are what their documented commands draw
# (doc/pictures.md). Every picture is listed there with its commands, shown
# on a page, and its commands write it and call files that exist:
add_test(NAME style_pictures_listed
  COMMAND ${PYTHON3} ${SRC}/tests/postprocess/check_pictures.py ${SRC} --list)
set_tests_properties(style_pictures_listed PROPERTIES LABELS style)
# The pictures whose runs take a few seconds are drawn again by their
# commands, run as written in a scratch folder (check_pictures.py --draw),
# and compared with the committed picture: the same size and at most 0.05%
# of the pixels different (a channel off by more than 16 of 255). Measured:
# a redraw differs from the committed picture in 0 pixels (the runs and
# matplotlib are deterministic); a title changed by one character differs
# in 0.18% (p3_history.png), so the tolerance lets no visible change pass.
# Each test takes 2.8 to 4.9 s of CPU (its run and Python's start; measured
# on p3_history, membrane, body_hertz_2d, body_slow_pull), 10-23 s of wall
# time at a load of 9-10.
# A script or a run whose picture changes fails here until the picture is
# redrawn (check_pictures.py SRC --draw NAME.png --exe build/stickslip
# --work DIR --redraw) and committed.
foreach(picture p3_history string_plot_history string_history membrane chain_response
    tp1_multipliers tp2_multipliers body_slab_periodic body_signorini_bar
    body_stick_block body_membrane body_membrane_velocity body_kostrov body_hertz_2d
    body_cattaneo_mindlin body_slow_pull body_fronts_slip_weakening
    body_fronts_rate_state)
  add_test(NAME picture_${picture}
    COMMAND ${SYSTEM_PYTHON3} ${SRC}/tests/postprocess/check_pictures.py ${SRC}
            --draw ${picture}.png --exe ${EXE} --work ${OUT}/picture_${picture}
            --tolerance 0.0005)
  set_tests_properties(picture_${picture} PROPERTIES LABELS pictures)
endforeach()

# postprocess/vtk_python.py reads the HDF5 outputs itself (h5py) where VTK
# has no XDMF reader (Debian's python3-vtk9), and every contact output of a
# series file at once (slip_front_map.py on the 1501 outputs of
# prm/body_fronts_2d.prm: 1.5 s of CPU instead of about 48 s one output at a
# time): its values must be the VTU's of the same run, node for node
# (tests/body/hdf5.cmake's block written both ways; measured equal to the
# last bit, asserted to 1e-6 of each field's scale; with the records of
# one side reversed every field differs by 6% to 100%).
add_test(NAME postprocess_hdf5_readers
  COMMAND ${SYSTEM_PYTHON3} ${SRC}/tests/postprocess/check_hdf5_readers.py
          ${OUT}/body_hdf5_np1 ${OUT}/body_hdf5_vtu_np1)
set_tests_properties(postprocess_hdf5_readers PROPERTIES
  FIXTURES_REQUIRED body_hdf5_runs)
