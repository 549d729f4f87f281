#!/usr/bin/python3
"""check_mirror_twin.py EXE PRM OUTDIR --gap EXPR [--set KEY=VALUE]...
                        [--tolerance T]

Two identical bodies pressed together without friction (doc/body.md,
"Hertz"): PRM (an implicit or quasi-static run against the rigid plane
with Body/Contact/Initial gap = EXPR/2) run against its mirror image
(Body/Contact/Counterpart = mirror, Initial gap = EXPR, the gap between the
body and its image) and against the rigid plane halfway. The pair's contact
plane is its plane of symmetry: each body's surface stops on it and moves
along it freely, so the two runs are one problem. Every column of
history.csv and of contact_nodes.csv (the contact nodes at the end) must
agree within T times the column's largest magnitude, the gaps (the fault's
g0 - 2 u.n against the mirror image) being twice the rigid plane's. Prints
the worst difference per file; exit 0 if both hold.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import read_history, run  # noqa: E402

IGNORED = ("cpu", "wall")


def worst_difference(rows, twin):
    """The worst difference of a column relative to its largest magnitude,
    gap columns halved on the mirror's side; (inf, why) if the shapes differ."""
    if len(rows) != len(twin) or not rows or set(rows[0]) != set(twin[0]):
        return float("inf"), "the files' shapes differ"
    worst, where = 0.0, ""
    for name in rows[0]:
        if any(word in name for word in IGNORED):
            continue
        factor = 0.5 if "gap" in name else 1.0
        scale = max(abs(r[name]) for r in twin) or 1.0
        for a, b in zip(rows, twin):
            difference = abs(factor * a[name] - b[name]) / scale
            if difference > worst:
                worst, where = difference, name
    return worst, where


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("exe")
    parser.add_argument("prm")
    parser.add_argument("outdir")
    parser.add_argument("--gap", required=True,
                        help="the initial gap between the body and its image")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--tolerance", type=float, default=0.0)
    args = parser.parse_args()
    settings = dict(setting.split("=", 1) for setting in args.set)
    mirror = dict(settings, **{"Body/Contact/Counterpart": "mirror",
                               "Body/Contact/Initial gap": args.gap})
    plane = dict(settings, **{"Body/Contact/Initial gap": "(%s)/2" % args.gap})
    runs = {}
    for name, values in (("mirror", mirror), ("rigid_plane", plane)):
        out = os.path.join(args.outdir, name)
        runs[name] = (run(args.exe, args.prm, out, values),
                      read_history(os.path.join(out, "contact_nodes.csv")))
    ok = True
    for index, what in enumerate(("history.csv", "contact_nodes.csv")):
        worst, where = worst_difference(runs["mirror"][index], runs["rigid_plane"][index])
        good = worst <= args.tolerance
        ok = ok and good
        print("%s: the mirror against the rigid plane halfway, worst relative difference "
              "%.3e (%s; tolerance %.1e): %s" % (what, worst, where or "-", args.tolerance,
                                                 "ok" if good else "FAIL"))
    pressed = max(r["normal_force"] for r in runs["mirror"][1]) > 0
    print("the bodies are pressed together: %s" % ("ok" if pressed else "FAIL"))
    ok = ok and pressed
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
