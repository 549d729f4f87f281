#!/usr/bin/python3
"""Stick-slip flicker of the contact nodes of a Model = body run.

Usage:
  stick_slip_flicker.py OUTPUT_DIR [--tmin T] [--tmax T] [--window K]
                        [--threshold V]

Reads OUTPUT_DIR/contact.pvd and its records in [--tmin, --tmax]
(vtk_python.py), which must be equally spaced in time: a switch is a node
whose `state` changes between stuck (1) and slipping (2) from one record to
the next. For the step-to-step switches, run with a record every step
(Output/Interval = Time/Time step and Output/Contact output every = 1);
sparser records see fewer of them.

Inside a slipping region of the explicit body single nodes may alternate
between stick and slip from step to step (doc/body.md, Limits). This script
counts those switches where they matter: a node is inside a slipping zone at
record k when its slip averaged over the records k - K .. k + K (the field
`slip`, the accumulated slip) advances faster than --threshold (m/s, default
1e-3); a front passing a node switches it once, flicker switches it again and
again. Printed:
  zone node-steps   node-records inside slipping zones;
  switches          stick<->slip switches of nodes inside a zone;
  per node-step     switches / zone node-steps (0: no flicker; 1: a switch
                    at every record);
  per node and ms   switches per zone node and millisecond of zone time.
Exit 0 on success, 1 on error (a folder without contact.pvd, records that are
not equally spaced, fewer than 3 records in the window), 2 on bad usage. Needs
python3-vtk9 or python3-paraview and python3-numpy (run with /usr/bin/python3).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vtk_python import Error, in_window, point_values, read_pvd, read_record, require_vtk  # noqa: E402

STUCK, SLIPPING = 1, 2


def read_states(records):
    """(times, state[k, node], slip[k, node]) with the nodes that faces share
    merged by their reference coordinates."""
    import numpy as np
    from vtkmodules.util.numpy_support import vtk_to_numpy
    times, states, slips, order = [], [], [], None
    for record in records:
        grid = read_record(record)
        if order is None:
            points = vtk_to_numpy(grid.GetPoints().GetData()).astype(float)
            scale = float(np.ptp(points, 0).max()) or 1.0
            keys = np.round(points / (1e-9 * scale)).astype(np.int64)
            _, order = np.unique(keys, axis=0, return_index=True)
        times.append(record.t)
        states.append(np.rint(point_values(grid, "state", record.path)[order]))
        slips.append(point_values(grid, "slip", record.path)[order])
    return np.array(times), np.array(states, dtype=int), np.array(slips)


def count(times, states, slips, window, threshold):
    """Zone node-steps, switches inside zones, zone node-time."""
    import numpy as np
    n = len(times)
    zone_steps, switches, zone_time = 0, 0, 0.0
    for k in range(1, n):
        lo, hi = max(k - window, 0), min(k + window, n - 1)
        rate = (slips[hi] - slips[lo]) / (times[hi] - times[lo])
        inside = rate > threshold
        changed = ((states[k] != states[k - 1])
                   & np.isin(states[k], (STUCK, SLIPPING))
                   & np.isin(states[k - 1], (STUCK, SLIPPING)))
        zone_steps += int(inside.sum())
        switches += int((changed & inside).sum())
        zone_time += float(inside.sum()) * (times[k] - times[k - 1])
    return zone_steps, switches, zone_time


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("output_dir")
    p.add_argument("--tmin", type=float)
    p.add_argument("--tmax", type=float)
    p.add_argument("--window", type=int, default=10)
    p.add_argument("--threshold", type=float, default=1e-3)
    a = p.parse_args(argv)
    require_vtk("stick_slip_flicker.py")
    try:
        records = in_window(read_pvd(a.output_dir, "contact", "a body run with a contact boundary"),
                            a.tmin, a.tmax)
        if len(records) < 3:
            raise Error(f"{len(records)} contact records in the window: at least 3 needed")
        times, states, slips = read_states(records)
        steps = times[1:] - times[:-1]
        if steps.max() > 1.01 * steps.min():
            raise Error("the records are not equally spaced (%g to %g s apart): choose "
                        "a window (--tmin, --tmax) of equally spaced records"
                        % (steps.min(), steps.max()))
    except Error as e:
        print(f"stick_slip_flicker.py: {e}", file=sys.stderr)
        return 1
    zone_steps, switches, zone_time = count(times, states, slips, a.window, a.threshold)
    print(f"records {len(times)} from t = {times[0]:.6g} to {times[-1]:.6g} s, "
          f"{times[1] - times[0]:.6g} s apart, {states.shape[1]} contact nodes")
    print(f"zone node-steps {zone_steps} (slip rate averaged over +-{a.window} records "
          f"> {a.threshold:g} m/s)")
    print(f"switches {switches}")
    if zone_steps:
        print(f"per node-step {switches / zone_steps:.4f}")
        print(f"per node and ms {switches / zone_time * 1e-3:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
