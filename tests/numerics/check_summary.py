#!/usr/bin/env python3
"""check_summary.py LOG (--rest-between T0 T1 | --still-moving | --vibrating T0 T1
                        | --quasi-static) [--stick S] [--friction-none REASON]
                        [--stuck-since-between T0 T1] [--nothing-slides]
                        [--unknown NAME=rest:T0,T1 | NAME=moving]...
                        [--max-kinetic K] [--wrote-all]

Checks the physical summary at the end of a stickslip run, in OUTDIR/log.txt
(the screen output; doc/at_rest.md):

  at t = T: kinetic energy K, elastic energy E, dissipated by friction D
      (quasi-static: "at t = T: elastic energy E, dissipated by friction D
      (quasi-static: ...)", and no verdict line)
  at rest since t = R (...): ...            or   still moving...
                                             or   vibrating at t = T, not at rest:
                                                  the centre of mass stopped at t = C ...
  friction: none (REASON)                   or   every ... stuck in every
            step: nothing slides             or   every ... stuck since t = S
                                             or   P% of the ... stuck at t = T
                                             or   N of the M ... stuck at t = T
                                             or   nothing in contact at t = T
  unknowns: x1 at rest since t = R1; x2 moving at t = T (v2 = ...)   (a few)
  wrote OUTDIR/history.csv, ...

--rest-between: the run must report rest from a time R in [T0, T1];
--still-moving: it must not report rest (nor a stopped centre of mass);
--vibrating T0 T1: not at rest, the centre of mass stopped at a time C in
[T0, T1] (a thrown block that stops like a rigid one and sways);
--quasi-static: no kinetic energy and no verdict line. --stick S: '-' no
friction, '1' every one stuck at the end, 'N/M' N of M stuck, else the
percentage printed; --friction-none REASON: the friction line is exactly
"none (REASON)". --stuck-since-between: every frictional node stuck since a
time in [T0, T1]; --nothing-slides: stuck in every step. --unknown
x1=rest:T0,T1: x1 at rest since a time in [T0, T1]; x2=moving: x2 not at
rest. --max-kinetic K: the final kinetic energy is at most K. --wrote-all:
the "wrote" line names every result file in OUTDIR (history.csv,
errors.csv, contact.pvd/.xdmf, contact_nodes.csv, solution.pvd/.xdmf) and
each file it names exists. Exit 0 if all hold, 1 otherwise.
"""
import argparse
import os
import re
import sys

RESULTS = ("history.csv", "errors.csv", "contact.pvd", "contact.xdmf", "contact_nodes.csv",
           "solution.pvd", "solution.xdmf")


def parse_summary(text):
    """The summary's facts, or an error message."""
    energies = re.findall(r"^  at t = (\S+): kinetic energy (\S+), elastic energy (\S+), "
                          r"dissipated by friction (\S+)$", text, re.M)
    static = re.findall(r"^  at t = (\S+): elastic energy (\S+), dissipated by friction "
                        r"(\S+) \(quasi-static: ", text, re.M)
    rest = re.findall(r"^  at rest since t = (\S+) \(", text, re.M)
    moving = re.findall(r"^  still moving\b", text, re.M)
    vibrating = re.findall(r"^  vibrating at t = \S+, not at rest: the centre of mass "
                           r"stopped at t = (\S+) ", text, re.M)
    friction = re.findall(r"^  friction: (.*)$", text, re.M)
    unknowns = re.findall(r"^  unknowns: (.*)$", text, re.M)
    wrote = re.findall(r"^  wrote (.*)$", text, re.M)
    verdicts = len(rest) + len(moving) + len(vibrating)
    if len(energies) + len(static) != 1 or verdicts != (0 if static else 1) or \
            len(friction) != 1:
        return None, ("%d energy line(s), %d verdict line(s), %d friction line(s) in the "
                      "summary (want 1, %d, 1)" % (len(energies) + len(static), verdicts,
                                                   len(friction), 0 if static else 1))
    facts = {"t": float((energies or static)[0][0]),
             "kinetic": float(energies[0][1]) if energies else 0.0,
             "quasi_static": bool(static),
             "rest": float(rest[0]) if rest else None,
             "stop": float(vibrating[0]) if vibrating else None,
             "friction": friction[0], "unknowns": {},
             "wrote": wrote[-1] if wrote else None}
    if facts["friction"].startswith("none"):
        facts["stick"] = "-"
    elif facts["friction"].startswith("every"):
        facts["stick"] = "1"
    elif re.match(r"\d+ of the \d+ ", facts["friction"]):
        facts["stick"] = "/".join(re.match(r"(\d+) of the (\d+) ", facts["friction"]).groups())
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


def wrote_problems(log, wrote):
    """The result files of the log's folder that the "wrote" line leaves out,
    and the files it names that are not there."""
    if wrote is None:
        return ["no 'wrote' line"]
    folder = os.path.dirname(os.path.abspath(log))
    first, *others = [name.strip() for name in wrote.split(",")]
    named = [os.path.basename(first)] + others
    problems = ["the wrote line names %s, which %s does not hold" % (name, folder)
                for name in named if not os.path.exists(os.path.join(folder, name))]
    problems += ["%s holds %s, which the wrote line leaves out" % (folder, name)
                 for name in RESULTS
                 if os.path.exists(os.path.join(folder, name)) and name not in named]
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--rest-between", nargs=2, type=float)
    group.add_argument("--still-moving", action="store_true")
    group.add_argument("--vibrating", nargs=2, type=float)
    group.add_argument("--quasi-static", action="store_true")
    parser.add_argument("--stick")
    parser.add_argument("--friction-none")
    parser.add_argument("--wrote-all", action="store_true")
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
    verdict = ("quasi-static" if facts["quasi_static"] else
               "at rest since %g" % facts["rest"] if facts["rest"] is not None else
               "vibrating, the centre of mass stopped at %g" % facts["stop"]
               if facts["stop"] is not None else "still moving")
    print("summary: t = %g, kinetic %g, %s; friction: %s; unknowns %s" % (
        facts["t"], facts["kinetic"], verdict, facts["friction"], facts["unknowns"]))
    failures = []
    if args.rest_between:
        lo, hi = args.rest_between
        if facts["rest"] is None or not lo <= facts["rest"] <= hi:
            failures.append("rest time %s not in [%g, %g]" % (facts["rest"], lo, hi))
    if args.still_moving and (facts["rest"] is not None or facts["stop"] is not None):
        failures.append("reports %s, expected still moving" % verdict)
    if args.vibrating:
        lo, hi = args.vibrating
        if facts["stop"] is None or not lo <= facts["stop"] <= hi:
            failures.append("the centre of mass's stop %s not in [%g, %g] (%s)"
                            % (facts["stop"], lo, hi, verdict))
    if args.quasi_static and not facts["quasi_static"]:
        failures.append("not the summary of a quasi-static run (%s)" % verdict)
    if args.stick is not None and facts["stick"] != args.stick:
        failures.append("stick %s, expected %s" % (facts["stick"], args.stick))
    if args.friction_none is not None and \
            facts["friction"] != "none (%s)" % args.friction_none:
        failures.append("friction line '%s', expected 'none (%s)'"
                        % (facts["friction"], args.friction_none))
    if args.wrote_all:
        failures += wrote_problems(args.log, facts["wrote"])
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
