# The examples prm/body_fronts_2d.prm and prm/body_3d.prm, shortened, and
# the scripts that draw their outputs (included by tests/body/CMakeLists.txt;
# uses stickslip_run_test, SRC, OUT, EXE, PYTHON3, SYSTEM_PYTHON3). Measured
# on the shared 2-core machine (Release, loaded): 3 s for the 2D run, 6-8 s
# for the 3D run on 2 ranks, 0.1-3 s for each of the other four; 16 s in
# all, 13 s with ctest -j2.
#
# The checker of the runs' outputs, written into the build tree (standard
# library only):
#   check_body_example.py OUTDIR --dim D --rows N --contact-records N
#       --solution-records N --ranks R [--min-stuck-rows N] [--max-stick F]
#       [--min-slip-rate V] [--max-ambiguous N] [--pressure LO HI]
#       [--after T] [--drive-angle DEG --angle-tolerance DEG]
# history.csv: exactly the columns of Model = body with a contact boundary
# in D dimensions, N rows, every value finite, t increasing; contact.pvd and
# solution.pvd: the numbers of records, every record's .pvtu and its R
# pieces exist and are not empty (contact.xdmf and solution.xdmf: every
# record and the HDF5 files it names); then the physics asked for: rows with the
# whole interface stuck (stick_fraction = 1) and rows with stick_fraction
# <= F and max_slip_rate >= V (slip events); ambiguous_nodes <= N;
# mean_pressure in [LO, HI] after t = T; in 3D the friction force
# (friction_force_1/2) within the tolerance of the direction opposite to the
# drive in every row after T where |F| > 0.25 N.
set(BODY_EXAMPLE_CHECK ${CMAKE_CURRENT_BINARY_DIR}/check_body_example.py)
file(WRITE ${BODY_EXAMPLE_CHECK} [==[
import argparse, csv, math, os, sys
import xml.etree.ElementTree as ET

p = argparse.ArgumentParser()
p.add_argument("outdir")
p.add_argument("--dim", type=int, choices=(2, 3), required=True)
p.add_argument("--rows", type=int, required=True)
p.add_argument("--contact-records", type=int, required=True)
p.add_argument("--solution-records", type=int, required=True)
p.add_argument("--ranks", type=int, required=True)
p.add_argument("--min-stuck-rows", type=int, default=0)
p.add_argument("--max-stick", type=float, default=None)
p.add_argument("--min-slip-rate", type=float, default=None)
p.add_argument("--max-ambiguous", type=int, default=None)
p.add_argument("--pressure", type=float, nargs=2, default=None)
p.add_argument("--after", type=float, default=0.0)
p.add_argument("--drive-angle", type=float, default=None)
p.add_argument("--angle-tolerance", type=float, default=15.0)
a = p.parse_args()
failures = []

# ---- history.csv
axes = "xyz"[:a.dim]
columns = (["t", "kinetic_energy", "elastic_energy", "dissipated_energy", "data_work",
            "impact_work", "energy_balance"] + ["momentum_" + c for c in axes]
           + ["contact_fraction", "stick_fraction", "mean_slip_rate", "max_slip_rate",
              "normal_force", "mean_pressure", "mean_gap", "max_tangential_displacement"]
           + ["friction_force_%d" % j for j in range(1, a.dim)]
           + ["mean_slip_velocity_%d" % j for j in range(1, a.dim)]
           + ["ambiguous_nodes", "iterations"])
with open(os.path.join(a.outdir, "history.csv"), newline="") as f:
    table = [r for r in csv.reader(f) if r]
header, body = table[0], table[1:]
if header != columns:
    sys.exit("FAIL: history.csv columns %s, expected %s" % (header, columns))
rows = []
for i, r in enumerate(body):
    values = [float(v) for v in r] if len(r) == len(header) else []
    if not values or not all(math.isfinite(v) for v in values):
        failures.append("history.csv row %d is not %d finite numbers: %s"
                        % (i + 1, len(header), r[:6]))
        continue
    rows.append(dict(zip(header, values)))
if len(body) != a.rows:
    failures.append("history.csv has %d rows, expected %d" % (len(body), a.rows))
if any(not later["t"] > r["t"] for r, later in zip(rows, rows[1:])):
    failures.append("t does not increase in history.csv")
print("history.csv: %d rows x %d columns" % (len(body), len(header)))

# ---- the .pvd series (or .xdmf: Output/Field format = hdf5)
def xdmf_series(name, expected):
    """Every grid's record and the HDF5 files it names exist, not empty."""
    path = os.path.join(a.outdir, name + ".xdmf")
    try:
        grids = ET.parse(path).getroot().find("Domain/Grid").findall("Grid")
    except (OSError, ET.ParseError, AttributeError) as e:
        failures.append("%s: %s" % (path, e))
        return
    if len(grids) != expected:
        failures.append("%s lists %d records, expected %d" % (path, len(grids), expected))
    times, files = [], set()
    for g in grids:
        times.append(float(g.find("Time").get("Value")))
        # A grid's record, or (its values in an HDF5 series file, "FILE:/NAME|
        # hyperslab") the series file and its template.
        items = [i.text.strip() for i in g.iter("DataItem")]
        in_series = [i.split(":")[0] for i in items if "|" in i]
        record = [os.path.join(a.outdir, in_series[0][:-3] + ".xdmf.in")] if in_series \
            else [os.path.join(a.outdir, "solution", g.get("Name") + ".xdmf")]
        for f in record + [os.path.join(a.outdir, i.split(":")[0]) for i in items]:
            files.add(f)
            if not os.path.isfile(f) or os.path.getsize(f) == 0:
                failures.append("%s lists %s, missing or empty" % (path, f))
    if any(not u > t for t, u in zip(times, times[1:])):
        failures.append("%s: the times do not increase" % path)
    print("%s.xdmf: %d records, %d files" % (name, len(grids), len(files)))

def series(name, expected):
    path = os.path.join(a.outdir, name + ".pvd")
    if not os.path.exists(path) and os.path.exists(os.path.join(a.outdir, name + ".xdmf")):
        return xdmf_series(name, expected)
    try:
        sets = list(ET.parse(path).getroot().iter("DataSet"))
    except (OSError, ET.ParseError) as e:
        failures.append("%s: %s" % (path, e))
        return
    if len(sets) != expected:
        failures.append("%s lists %d records, expected %d" % (path, len(sets), expected))
    times, pieces = [], 0
    for d in sets:
        times.append(float(d.get("timestep")))
        pvtu = os.path.join(a.outdir, d.get("file"))
        if not os.path.isfile(pvtu) or os.path.getsize(pvtu) == 0:
            failures.append("%s lists %s, missing or empty" % (path, pvtu))
            continue
        sources = [q.get("Source") for q in ET.parse(pvtu).getroot().iter("Piece")]
        if len(sources) != a.ranks:
            failures.append("%s has %d pieces, expected %d" % (pvtu, len(sources), a.ranks))
        for s in sources:
            piece = os.path.join(os.path.dirname(pvtu), s)
            pieces += 1
            if not os.path.isfile(piece) or os.path.getsize(piece) == 0:
                failures.append("%s lists %s, missing or empty" % (pvtu, piece))
    if any(not u > t for t, u in zip(times, times[1:])):
        failures.append("%s: the times do not increase" % path)
    print("%s.pvd: %d records, %d pieces" % (name, len(sets), pieces))

series("contact", a.contact_records)
series("solution", a.solution_records)

# ---- physics
stuck = sum(1 for r in rows if r["stick_fraction"] == 1.0)
print("rows with the whole interface stuck: %d" % stuck)
if stuck < a.min_stuck_rows:
    failures.append("only %d rows with stick_fraction = 1, expected >= %d"
                    % (stuck, a.min_stuck_rows))
if a.max_stick is not None:
    events = [r for r in rows if r["stick_fraction"] <= a.max_stick
              and r["max_slip_rate"] >= a.min_slip_rate]
    print("rows with stick_fraction <= %g and max_slip_rate >= %g: %d"
          % (a.max_stick, a.min_slip_rate, len(events)))
    if not events:
        failures.append("no slip event (stick_fraction <= %g with max_slip_rate >= %g)"
                        % (a.max_stick, a.min_slip_rate))
if a.max_ambiguous is not None and rows:
    print("ambiguous node-steps: %d" % rows[-1]["ambiguous_nodes"])
    if rows[-1]["ambiguous_nodes"] > a.max_ambiguous:
        failures.append("ambiguous_nodes = %d > %d"
                        % (rows[-1]["ambiguous_nodes"], a.max_ambiguous))
late = [r for r in rows if r["t"] >= a.after]
if a.pressure:
    lo, hi = min(r["mean_pressure"] for r in late), max(r["mean_pressure"] for r in late)
    print("mean_pressure after t = %g: %.4g .. %.4g Pa" % (a.after, lo, hi))
    if lo < a.pressure[0] or hi > a.pressure[1]:
        failures.append("mean_pressure %.4g .. %.4g outside [%g, %g]"
                        % (lo, hi, a.pressure[0], a.pressure[1]))
if a.drive_angle is not None:
    opposite = a.drive_angle - 180.0
    loaded = [r for r in late if math.hypot(r["friction_force_1"], r["friction_force_2"])
              > 0.25 * r["normal_force"] > 0]
    worst = max((abs((math.degrees(math.atan2(r["friction_force_2"], r["friction_force_1"]))
                      - opposite + 180.0) % 360.0 - 180.0) for r in loaded), default=None)
    print("friction force: %d loaded rows, largest angle from %g degrees: %s"
          % (len(loaded), opposite, worst))
    if len(loaded) < 10 or worst > a.angle_tolerance:
        failures.append("friction force direction: %d loaded rows, largest deviation %s "
                        "degrees (tolerance %g)" % (len(loaded), worst, a.angle_tolerance))
for f in failures:
    print("FAIL: " + f)
print("PASS" if not failures else "FAIL")
sys.exit(1 if failures else 0)
]==])
set(CHECK_BODY_EXAMPLE ${SYSTEM_PYTHON3} ${BODY_EXAMPLE_CHECK} @OUT@)

# ---- prm/body_fronts_2d.prm on 100 x 50 cells (dt = 0.5 us, the same
# nodal impedance as the example) up to t = 1.2 ms: the same mean pressure
# and friction force as the 400 x 200 example to 2-3 digits. Measured: 1201
# rows, 601 contact records, 13 volume records; 765 rows with the whole
# interface stuck, 109 rows of slip events (stick_fraction <= 0.9 and
# max_slip_rate >= 0.05 m/s; down to 0.60 at t = 0.9 ms); mean_pressure
# 3.01-3.31 MPa after the ramp (t >= 0.3 ms); ambiguous_nodes 0.
set(FRONTS_SHORT --set "Body/Subdivisions=100,50" --set "Time/Time step=5e-7"
  --set "Time/Final time=1.2e-3")
stickslip_run_test(body_example_fronts_2d 1 prm/body_fronts_2d.prm ${FRONTS_SHORT}
  -- ${CHECK_BODY_EXAMPLE} --dim 2 --rows 1201 --contact-records 601
     --solution-records 13 --ranks 1 --min-stuck-rows 500 --max-stick 0.9
     --min-slip-rate 0.05 --max-ambiguous 0 --pressure 2.9e6 3.5e6 --after 3e-4)
set_tests_properties(body_example_fronts_2d PROPERTIES FIXTURES_SETUP body_example_fronts_2d)

# The space-time map of its contact surface: a PNG, and among the slip events
# slip_front_map.py --fronts finds one over >= 40% of the interface
# (measured: 50% at t = 0.84 ms, 54% at t = 1.07 ms).
set(FRONTS_OUT ${OUT}/body_example_fronts_2d)
add_test(NAME body_example_fronts_2d_map
  COMMAND bash -c "set -o pipefail && ${SYSTEM_PYTHON3} ${SRC}/postprocess/slip_front_map.py ${FRONTS_OUT} --averaged --fronts -o ${FRONTS_OUT}/map.png | tee ${FRONTS_OUT}/map.txt && grep -Eq '[(]([4-9][0-9]|100)% of the interface' ${FRONTS_OUT}/map.txt && ${SYSTEM_PYTHON3} ${SRC}/postprocess/slip_front_map.py ${FRONTS_OUT} --second pressure --tmin 8e-4 --tmax 1.2e-3 -o ${FRONTS_OUT}/map_raw.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 ${FRONTS_OUT}/map.png ${FRONTS_OUT}/map_raw.png")
# The block at t = 0.9 ms on its deformed mesh, with the contact surface.
add_test(NAME body_example_fronts_2d_render
  COMMAND bash -c "${SYSTEM_PYTHON3} ${SRC}/postprocess/render_body.py ${FRONTS_OUT} --time 9e-4 --field velocity --warp 150 -o ${FRONTS_OUT}/body.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 ${FRONTS_OUT}/body.png")
# Its stick-slip flicker (postprocess/stick_slip_flicker.py): the records are
# 4 steps apart here. Measured: 5529 zone node-records, 644 switches, 0.1165
# per zone node-record (with a record every step to 3 ms: 0.072, doc/body.md).
# Bounds 0.08-0.16 (+-30%): a count that is 0, counts every node or ignores
# the zones falls outside. The same script refuses a folder without
# contact.pvd with exit status 1.
add_test(NAME body_example_fronts_2d_flicker
  COMMAND bash -c "set -o pipefail && ${SYSTEM_PYTHON3} ${SRC}/postprocess/stick_slip_flicker.py ${FRONTS_OUT} | tee ${FRONTS_OUT}/flicker.txt && awk '/^per node-step/ { found = 1; if ($3 < 0.08 || $3 > 0.16) exit 1 } END { exit !found }' ${FRONTS_OUT}/flicker.txt && if ${SYSTEM_PYTHON3} ${SRC}/postprocess/stick_slip_flicker.py ${SRC}/prm 2> ${FRONTS_OUT}/flicker_refused.txt; then exit 1; else test $? = 1 && grep -q 'prm has no contact.pvd' ${FRONTS_OUT}/flicker_refused.txt; fi")
set_tests_properties(body_example_fronts_2d_map body_example_fronts_2d_render
  body_example_fronts_2d_flicker PROPERTIES FIXTURES_REQUIRED body_example_fronts_2d)

# slip_front_map.py refuses a folder without contact.pvd: exit status 1 and
# a message that says so.
set(NO_CONTACT ${OUT}/body_example_map_without_contact)
add_test(NAME body_example_map_without_contact
  COMMAND bash -c "mkdir -p ${OUT} && rm -f ${NO_CONTACT}.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/slip_front_map.py ${SRC}/prm -o ${NO_CONTACT}.png 2> ${NO_CONTACT}.txt || status=$? && cat ${NO_CONTACT}.txt && test \"$status\" = 1 && grep -q 'prm has no contact.pvd' ${NO_CONTACT}.txt && test ! -e ${NO_CONTACT}.png")

# ---- prm/body_3d.prm on 20 x 10 x 10 cells (dt = 2.5 us, 0.82 of the
# stability limit) up to t = 1.5 ms, on 2 ranks. Measured: 301 rows, 301
# contact records, 7 volume records (2 pieces each); 67 rows with the whole
# interface stuck, 31 rows of slip events (stick_fraction <= 0.6 and
# max_slip_rate >= 0.05 m/s, down to 0.26); mean_pressure 2.57-2.98 MPa
# after the ramp; in the 241 rows with |F| > 0.25 N, the friction force at
# most 11.3 degrees from the direction opposite to the drive (36.87
# degrees; the block is stiffer along its length), |F|/N up to 0.53.
stickslip_run_test(body_example_3d 2 prm/body_3d.prm
  --set "Body/Subdivisions=20,10,10" --set "Time/Time step=2.5e-6"
  --set "Time/Final time=1.5e-3"
  -- ${CHECK_BODY_EXAMPLE} --dim 3 --rows 301 --contact-records 301
     --solution-records 7 --ranks 2 --min-stuck-rows 50 --max-stick 0.6
     --min-slip-rate 0.05 --max-ambiguous 0 --pressure 2.4e6 3.2e6 --after 3e-4
     --drive-angle 36.87 --angle-tolerance 15)
set_tests_properties(body_example_3d PROPERTIES FIXTURES_SETUP body_example_3d)

# Its maps along the mid-line y = 50 mm and averaged across y.
set(BODY_3D_OUT ${OUT}/body_example_3d)
add_test(NAME body_example_3d_map
  COMMAND bash -c "${SYSTEM_PYTHON3} ${SRC}/postprocess/slip_front_map.py ${BODY_3D_OUT} --averaged -o ${BODY_3D_OUT}/map_mid.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/slip_front_map.py ${BODY_3D_OUT} --across mean --second state -o ${BODY_3D_OUT}/map_mean.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 ${BODY_3D_OUT}/map_mid.png ${BODY_3D_OUT}/map_mean.png")
set_tests_properties(body_example_3d_map PROPERTIES FIXTURES_REQUIRED body_example_3d)

# ---- The pictures of the other examples in doc/body.md (doc/body_*.png), made
# by its commands from the examples as they are (about 4 s in all).
# The slab cross-check example drawn over prm/slab.prm (its own folder).
set(HISTORY_PLOT ${SYSTEM_PYTHON3} ${SRC}/postprocess/body_history_plot.py)
set(SLAB_PERIODIC_OUT ${OUT}/body_example_slab_periodic)
stickslip_run_test(body_example_slab_periodic 1 prm/body_slab_periodic.prm
  -- bash -c "bash ${SRC}/tests/run_and_check.sh 1 @OUT@/slab ${EXE} ${SRC}/prm/slab.prm && ${HISTORY_PLOT} @OUT@ --panel mean_pressure --panel mean_slip_velocity_1 --panel mean_gap --reference @OUT@/slab --reference-panel contact_pressure --reference-panel slip_velocity_1 --reference-panel normal_displacement -o @OUT@/history.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 @OUT@/history.png")
stickslip_run_test(body_example_signorini_bar_plot 1 prm/body_signorini_bar.prm
  -- bash -c "${HISTORY_PLOT} @OUT@ --panel mean_pressure --panel momentum_y --panel kinetic_energy,elastic_energy,energy_balance -o @OUT@/history.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 @OUT@/history.png")
stickslip_run_test(body_example_stick_block_plot 1 prm/body_stick_block.prm
  -- bash -c "${HISTORY_PLOT} @OUT@ --panel friction_force_1,normal_force --panel max_tangential_displacement,stick_fraction -o @OUT@/history.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 @OUT@/history.png")
stickslip_run_test(body_example_membrane_plot 1 prm/body_membrane.prm
  -- bash -c "${HISTORY_PLOT} @OUT@ --panel kinetic_energy,elastic_energy,dissipated_energy --panel floor_stick_fraction -o @OUT@/history.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/render_body.py @OUT@ --time 0.5 --field velocity -o @OUT@/velocity.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 @OUT@/history.png @OUT@/velocity.png")
# The sliding block in 3D (doc/body_sliding_block_3d.png) on 16 x 8 x 4
# cubes (dt = h/4 as the example), the picture's command on its history.
stickslip_run_test(body_example_sliding_block_3d_plot 1 prm/body_sliding_block_3d.prm
  --set "Body/Subdivisions=16,8,4" --set "Time/Time step=0.015625"
  -- bash -c "${HISTORY_PLOT} @OUT@ --panel momentum_x --panel contact_fraction,stick_fraction --panel normal_force,friction_force_1 -o @OUT@/history.png && ${SYSTEM_PYTHON3} ${SRC}/postprocess/check_png.py --min-size 600 @OUT@/history.png")
# An unknown column is refused with the list of those there are.
add_test(NAME body_history_plot_unknown_column
  COMMAND bash -c "${HISTORY_PLOT} ${OUT}/body_example_membrane_plot --panel no_such_column -o ${OUT}/body_history_plot_unknown_column.png 2>&1 | tee /dev/stderr | grep -q \"no column 'no_such_column'.*kinetic_energy\" && test ! -e ${OUT}/body_history_plot_unknown_column.png")
# (relative mesh paths start at the working directory, as for a user in the
# repository)
set_tests_properties(body_example_membrane_plot PROPERTIES
  FIXTURES_SETUP body_example_membrane WORKING_DIRECTORY ${SRC})
set_tests_properties(body_history_plot_unknown_column PROPERTIES FIXTURES_REQUIRED body_example_membrane)
set_tests_properties(body_example_slab_periodic body_example_signorini_bar_plot
  body_example_stick_block_plot body_example_membrane_plot body_history_plot_unknown_column
  body_example_sliding_block_3d_plot
  PROPERTIES LABELS body)
