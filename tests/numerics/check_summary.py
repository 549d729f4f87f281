#!/usr/bin/env python3
"""check_summary.py LOG (--rest-between T0 T1 | --still-moving) [--stick S]
                        [--max-kinetic K]

Checks the physical summary at the end of a stickslip run, in OUTDIR/log.txt
(the screen output): the line "at t = T: kinetic energy K, elastic energy E,
dissipated by friction D" and the line "stick fraction S; came to rest at
t = R (...)" or "...; still moving at the final time (...)". With
--rest-between the run must report rest at a time R in [T0, T1]; with
--still-moving it must report that it still moves. --stick S: the final
stick fraction ('-' when the model has no frictional node). --max-kinetic K:
the final kinetic energy is at most K. Exit 0 if all hold, 1 otherwise.
"""
import argparse
import re
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--rest-between", nargs=2, type=float)
    group.add_argument("--still-moving", action="store_true")
    parser.add_argument("--stick")
    parser.add_argument("--max-kinetic", type=float)
    args = parser.parse_args()
    text = open(args.log).read()
    energies = re.findall(r"^  at t = (\S+): kinetic energy (\S+), elastic energy (\S+), "
                          r"dissipated by friction (\S+)$", text, re.M)
    state = re.findall(r"^  stick fraction (\S+)(?: \(no friction\))?; "
                       r"(came to rest at t = (\S+) \(|still moving at the final time)",
                       text, re.M)
    failures = []
    if len(energies) != 1 or len(state) != 1:
        print(f"FAIL: {len(energies)} energy line(s) and {len(state)} stick/rest line(s) "
              "in the summary (want 1 each)")
        return 1
    t, kinetic, elastic, dissipated = (float(v) for v in energies[0])
    stick, verdict, rest = state[0]
    print(f"summary: t = {t}, kinetic {kinetic}, elastic {elastic}, dissipated "
          f"{dissipated}, stick fraction {stick}, "
          + (f"came to rest at {rest}" if rest else "still moving"))
    if args.rest_between:
        lo, hi = args.rest_between
        if not rest or not lo <= float(rest) <= hi:
            failures.append(f"rest time {rest or 'none'} not in [{lo}, {hi}]")
    if args.still_moving and rest:
        failures.append(f"reports rest at {rest}, expected still moving")
    if args.stick is not None and stick != args.stick:
        failures.append(f"stick fraction {stick}, expected {args.stick}")
    if args.max_kinetic is not None and not kinetic <= args.max_kinetic:
        failures.append(f"kinetic energy {kinetic} > {args.max_kinetic}")
    for failure in failures:
        print("FAIL:", failure)
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
