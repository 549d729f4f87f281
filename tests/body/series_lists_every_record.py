#!/usr/bin/env python3
"""series_lists_every_record.py OUT

After a run with Output/Field format = hdf5 that ended (here: stopped by a
signal, tests/body/hdf5.cmake): every XDMF series of OUT (solution.xdmf,
contact.xdmf) lists, in order, exactly the outputs written: the records
SERIES_NNNNN.xdmf that OUT/solution holds, and the outputs of its series
files SERIES_from_KKKKK.h5 (those with a time in /time). During the run a
series may lag behind its outputs (PvdRecord rewrites it every L/16
outputs); the end-of-run flush, also on an interruption, must leave none
out. Exit 0/1.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np


def written_outputs(solution, series):
    """The names SERIES_NNNNN of the outputs in OUT/solution: records, and
    the rows of series files that hold a time."""
    names = [n[:-5] for n in os.listdir(solution)
             if re.fullmatch(series + r"_\d{5}\.xdmf", n)]
    for n in os.listdir(solution):
        match = re.fullmatch(series + r"_from_(\d{5})\.h5", n)
        if match:
            with h5py.File(os.path.join(solution, n), "r") as f:
                rows = np.flatnonzero(np.isfinite(f["time"][:]))
            names += ["%s_%05d" % (series, int(match.group(1)) + r) for r in rows]
    return sorted(names)


def main():
    out = sys.argv[1]
    solution = os.path.join(out, "solution")
    failures = []
    checked = 0
    for series in ("solution", "contact"):
        path = os.path.join(out, series + ".xdmf")
        records = written_outputs(solution, series)
        if not os.path.exists(path):
            if records:
                failures.append("%s.xdmf is missing, with %d records"
                                % (series, len(records)))
            continue
        collection = ET.parse(path).getroot().find("Domain").find("Grid")
        listed = [grid.get("Name") for grid in collection.findall("Grid")]
        if listed != records:
            failures.append("%s.xdmf lists %d outputs (%s ...), solution/ holds "
                            "%d records (%s ...)" % (series, len(listed), listed[-3:],
                                                     len(records), records[-3:]))
        checked += len(listed)
    if checked == 0:
        failures.append("no output to check")
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: solution.xdmf and contact.xdmf list all %d records" % checked)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
