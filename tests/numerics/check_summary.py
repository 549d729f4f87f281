#!/usr/bin/env python3
"""check_summary.py LOG (--rest-between T0 T1 | --still-moving) [--stick S]
                        [--stuck-since-between T0 T1] [--nothing-slides]
                        [--unknown NAME=rest:T0,T1 | NAME=moving]...
                        [--max-kinetic K]

Checks the physical summary at the end of a stickslip run, in OUTDIR/log.txt
(the screen output; doc/at_rest.md):

  at t = T: kinetic energy K, elastic energy E, dissipated by friction D
  at rest since t = R (...): ...            or   still moving...
  friction: none (no frictional node)       or   every ... stuck in every
            step (...): nothing slides       or   every ... stuck since t = S
                                             or   P% of the ...s stuck at t = T
  unknowns: x1 at rest since t = R1; x2 moving at t = T (v2 = ...)   (a few)

--rest-between: the run must report rest from a time R in [T0, T1];
--still-moving: it must not report rest. --stick S: '-' no frictional node,
'1' every one stuck at the end, else the percentage printed. --stuck-since-
between: every frictional node stuck since a time in [T0, T1];
--nothing-slides: stuck in every step. --unknown x1=rest:T0,T1: x1 at rest
since a time in [T0, T1]; x2=moving: x2 not at rest. --max-kinetic K: the
final kinetic energy is at most K. Exit 0 if all hold, 1 otherwise.
"""
import argparse
import re
import sys


def parse_summary(text):
    """The summary's facts, or an error message."""
    energies = re.findall(r"^  at t = (\S+): kinetic energy (\S+), elastic energy (\S+), "
                          r"dissipated by friction (\S+)$", text, re.M)
    rest = re.findall(r"^  at rest since t = (\S+) \(", text, re.M)
    moving = re.findall(r"^  still moving\b", text, re.M)
    friction = re.findall(r"^  friction: (.*)$", text, re.M)
    unknowns = re.findall(r"^  unknowns: (.*)$", text, re.M)
    if len(energies) != 1 or len(rest) + len(moving) != 1 or len(friction) != 1:
        return None, ("%d energy line(s), %d verdict line(s), %d friction line(s) in the "
                      "summary (want 1 each)" % (len(energies), len(rest) + len(moving),
                                                 len(friction)))
    facts = {"t": float(energies[0][0]), "kinetic": float(energies[0][1]),
             "rest": float(rest[0]) if rest else None, "friction": friction[0],
             "unknowns": {}}
    if facts["friction"].startswith("none"):
        facts["stick"] = "-"
    elif facts["friction"].startswith("every"):
        facts["stick"] = "1"
    else:
        facts["stick"] = facts["friction"].split("%")[0]
    match = re.search(r"stuck since t = (\S+)", facts["friction"])
    facts["stuck_since"] = float(match.group(1)) if match else None
    facts["nothing_slides"] = "nothing slides" in facts["friction"]
    for item in (unknowns[0].split("; ") if unknowns else []):
        name, _, state = item.partition(" ")
        match = re.match(r"at rest since t = (\S+)", state)
        facts["unknowns"][name] = float(match.group(1)) if match else None
    return facts, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--rest-between", nargs=2, type=float)
    group.add_argument("--still-moving", action="store_true")
    parser.add_argument("--stick")
    parser.add_argument("--stuck-since-between", nargs=2, type=float)
    parser.add_argument("--nothing-slides", action="store_true")
    parser.add_argument("--unknown", action="append", default=[])
    parser.add_argument("--max-kinetic", type=float)
    args = parser.parse_args()
    text = open(args.log).read()
    facts, error = parse_summary(text)
    if error:
        print("FAIL:", error)
        return 1
    print("summary: t = %g, kinetic %g, %s; friction: %s; unknowns %s" % (
        facts["t"], facts["kinetic"],
        "at rest since %g" % facts["rest"] if facts["rest"] is not None else "still moving",
        facts["friction"], facts["unknowns"]))
    failures = []
    if args.rest_between:
        lo, hi = args.rest_between
        if facts["rest"] is None or not lo <= facts["rest"] <= hi:
            failures.append("rest time %s not in [%g, %g]" % (facts["rest"], lo, hi))
    if args.still_moving and facts["rest"] is not None:
        failures.append("reports rest since %g, expected still moving" % facts["rest"])
    if args.stick is not None and facts["stick"] != args.stick:
        failures.append("stick %s, expected %s" % (facts["stick"], args.stick))
    if args.stuck_since_between:
        lo, hi = args.stuck_since_between
        since = facts["stuck_since"]
        if since is None or not lo <= since <= hi:
            failures.append("stuck since %s, not in [%g, %g]" % (since, lo, hi))
    if args.nothing_slides and not facts["nothing_slides"]:
        failures.append("not stuck at every output")
    for item in args.unknown:
        name, _, state = item.partition("=")
        if name not in facts["unknowns"]:
            failures.append("no verdict for the unknown %s" % name)
            continue
        since = facts["unknowns"][name]
        if state == "moving":
            if since is not None:
                failures.append("%s at rest since %g, expected moving" % (name, since))
        else:
            lo, hi = (float(v) for v in state.split(":")[1].split(","))
            if since is None or not lo <= since <= hi:
                failures.append("%s at rest since %s, not in [%g, %g]" % (name, since, lo, hi))
    if args.max_kinetic is not None and not facts["kinetic"] <= args.max_kinetic:
        failures.append("kinetic energy %g > %g" % (facts["kinetic"], args.max_kinetic))
    for failure in failures:
        print("FAIL:", failure)
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
