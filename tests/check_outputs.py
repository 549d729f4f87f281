#!/usr/bin/env python3
"""check_outputs.py OUTDIR [--min-rows N] [--fields] [--model MODEL]

Checks the outputs of a finished stickslip run in OUTDIR, for the example
smoke tests (which would otherwise only see the exit status):

  history.csv  has the columns of the model (doc/outputs.md):
                 ode, gearbox: t, x1..xd, v1..vd, lambda1..lambdad, energy,
                   iterations
                 string: t, kinetic_energy, elastic_energy, dissipated_energy,
                   stick_fraction, iterations
                 chain: t, x<i>, v<i>, lambda<i>, g<i> (the same masses i,
                   increasing), reaction_left, reaction_right,
                   end_displacement, energy, dissipated_energy, iterations
                 slab: t, normal_displacement, contact_pressure,
                   slip_velocity_1/2, tangential_displacement_1/2,
                   iterations, normal_velocity, friction_force_1/2,
                   friction_bound, stick, solutions, max_b3;
               at least N data rows (default 2); every row as long as the
               header; every value a finite number, no empty cell (the t0
               row has the initial multiplier, doc/at_rest.md). t strictly
               increasing.
  errors.csv   (when present): the documented columns, finite values, the
               order columns empty on the first row only.
  --fields     solution.pvd parses as XML (a VTKFile Collection) and lists
               at least one DataSet; every file it lists, resolved relative
               to the .pvd's own directory, exists and is non-empty, with
               increasing finite timesteps; every .pvtu parses as XML and
               lists at least one Piece, each resolved relative to the
               .pvtu's directory, existing and non-empty.

MODEL is read from OUTDIR/parameters.prm ('set Model = ...') unless given.
Prints what was checked; exit 0 if everything holds, 1 otherwise.
"""
import argparse
import csv
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

FIXED = {
    "string": ["t", "kinetic_energy", "elastic_energy", "dissipated_energy",
               "stick_fraction", "iterations"],
    "slab": ["t", "normal_displacement", "contact_pressure", "slip_velocity_1",
             "slip_velocity_2", "tangential_displacement_1",
             "tangential_displacement_2", "iterations", "normal_velocity",
             "friction_force_1", "friction_force_2", "friction_bound", "stick",
             "solutions", "max_b3"],
}
CHAIN_TAIL = ["reaction_left", "reaction_right", "end_displacement", "energy",
              "dissipated_energy", "iterations"]
ERRORS = ["dt", "error_x", "error_v", "error_lambda", "max_error_x",
          "max_error_v", "order_x", "order_v", "order_lambda"]


def model_of(outdir):
    path = os.path.join(outdir, "parameters.prm")
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"\s*set\s+Model\s*=\s*([A-Za-z_-]+)", line)
                if m:
                    return m.group(1)
    except OSError as e:
        raise SystemExit("FAIL: no --model and %s cannot be read: %s" % (path, e))
    raise SystemExit("FAIL: no 'set Model' in %s (give --model)" % path)


def indexed(header, prefix):
    return [name for name in header
            if name.startswith(prefix) and name[len(prefix):].isdigit()]


def expected_header(model, header):
    """The header the model documents, built from the observed one where the
    number of components is free; None for an unknown model."""
    if model in FIXED:
        return FIXED[model]
    if model in ("ode", "gearbox"):
        d = len(indexed(header, "x"))
        return (["t"] + ["%s%d" % (p, i) for p in ("x", "v", "lambda")
                         for i in range(1, d + 1)] + ["energy", "iterations"])
    if model == "chain":
        masses = [int(n[1:]) for n in indexed(header, "x")]
        if masses != sorted(set(masses)):
            return ["t", "x<i> with increasing i"]
        return (["t"] + ["%s%d" % (p, i) for p in ("x", "v", "lambda", "g")
                         for i in masses] + CHAIN_TAIL)
    return None


def read_csv(path, failures):
    try:
        with open(path, newline="") as f:
            rows = [r for r in csv.reader(f) if r]
    except OSError as e:
        failures.append("cannot read %s: %s" % (path, e))
        return None, []
    if not rows:
        failures.append("%s is empty" % path)
        return None, []
    return rows[0], rows[1:]


def check_cells(name, header, rows, may_be_empty, failures):
    """Lengths, finite numbers, empty cells only where may_be_empty(i, col)."""
    bad = []
    for i, row in enumerate(rows):
        if len(row) != len(header):
            bad.append("row %d has %d fields, the header %d" % (i + 1, len(row), len(header)))
            continue
        for column, cell in zip(header, row):
            if cell.strip() == "":
                if not may_be_empty(i, column):
                    bad.append("row %d, %s: empty" % (i + 1, column))
                continue
            try:
                value = float(cell)
            except ValueError:
                bad.append("row %d, %s: '%s' is not a number" % (i + 1, column, cell))
                continue
            if not math.isfinite(value):
                bad.append("row %d, %s: %s" % (i + 1, column, cell))
    for b in bad[:10]:
        failures.append("%s: %s" % (name, b))
    if len(bad) > 10:
        failures.append("%s: %d more bad cells" % (name, len(bad) - 10))
    return not bad


def check_history(outdir, model, min_rows, failures):
    path = os.path.join(outdir, "history.csv")
    header, rows = read_csv(path, failures)
    if header is None:
        return
    expected = expected_header(model, header)
    if expected is None:
        failures.append("unknown model '%s'" % model)
        return
    if header != expected:
        failures.append("history.csv columns\n    %s\n  differ from those of the %s model\n    %s"
                        % (",".join(header), model, ",".join(expected)))
        return
    if len(rows) < min_rows:
        failures.append("history.csv has %d data rows, fewer than %d" % (len(rows), min_rows))

    def may_be_empty(i, column):
        return False

    if check_cells("history.csv", header, rows, may_be_empty, failures) and rows:
        t = [float(r[0]) for r in rows]
        drops = [i for i in range(1, len(t)) if not t[i] > t[i - 1]]
        if drops:
            failures.append("history.csv: t does not increase at row %d (%g after %g)"
                            % (drops[0] + 1, t[drops[0]], t[drops[0] - 1]))
    print("history.csv: %d rows x %d columns of the %s model checked"
          % (len(rows), len(header), model))


def check_errors(outdir, failures):
    path = os.path.join(outdir, "errors.csv")
    if not os.path.exists(path):
        return
    header, rows = read_csv(path, failures)
    if header is None:
        return
    if header != ERRORS:
        failures.append("errors.csv columns %s differ from %s" % (",".join(header), ",".join(ERRORS)))
        return
    if not rows:
        failures.append("errors.csv has no data rows")
    check_cells("errors.csv", header, rows,
                lambda i, column: i == 0 and column.startswith("order_"), failures)
    print("errors.csv: %d rows checked" % len(rows))


def parse_xml(path, failures):
    try:
        return ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        failures.append("%s does not parse as XML: %s" % (path, e))
        return None


def nonempty_file(path, label, failures):
    if not os.path.isfile(path):
        failures.append("%s lists %s, which does not exist" % (label, path))
        return False
    if os.path.getsize(path) == 0:
        failures.append("%s lists %s, which is empty" % (label, path))
        return False
    return True


def check_fields(outdir, failures):
    pvd = os.path.join(outdir, "solution.pvd")
    root = parse_xml(pvd, failures)
    if root is None:
        return
    datasets = list(root.iter("DataSet"))
    if root.tag != "VTKFile" or root.get("type") != "Collection" or not datasets:
        failures.append("%s is no VTKFile Collection with DataSets" % pvd)
        return
    times, n_pieces = [], 0
    base = os.path.dirname(os.path.abspath(pvd))
    for d in datasets:
        name = d.get("file")
        try:
            times.append(float(d.get("timestep")))
        except (TypeError, ValueError):
            failures.append("solution.pvd: DataSet %s has timestep %s" % (name, d.get("timestep")))
        if not name:
            failures.append("solution.pvd: a DataSet without a file")
            continue
        path = os.path.normpath(os.path.join(base, name))
        if not nonempty_file(path, "solution.pvd", failures) or not path.endswith(".pvtu"):
            continue
        pvtu = parse_xml(path, failures)
        if pvtu is None:
            continue
        pieces = list(pvtu.iter("Piece"))
        if not pieces:
            failures.append("%s lists no Piece" % path)
        for piece in pieces:
            source = piece.get("Source")
            if not source:
                failures.append("%s: a Piece without a Source" % path)
                continue
            n_pieces += 1
            nonempty_file(os.path.normpath(os.path.join(os.path.dirname(path), source)),
                          path, failures)
    if not all(math.isfinite(t) for t in times) or \
       any(not b > a for a, b in zip(times, times[1:])):
        failures.append("solution.pvd: timesteps not finite and increasing: %s" % times[:10])
    print("solution.pvd: %d data sets, %d pieces checked" % (len(datasets), n_pieces))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("outdir")
    p.add_argument("--min-rows", type=int, default=2)
    p.add_argument("--fields", action="store_true")
    p.add_argument("--model", choices=["ode", "gearbox", "string", "chain", "slab"])
    args = p.parse_args()
    failures = []
    model = args.model or model_of(args.outdir)
    check_history(args.outdir, model, args.min_rows, failures)
    check_errors(args.outdir, failures)
    if args.fields:
        check_fields(args.outdir, failures)
    for f in failures:
        print("FAIL: " + f)
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
