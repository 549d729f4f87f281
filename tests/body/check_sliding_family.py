#!/usr/bin/python3
"""check_sliding_family.py EXE PRM OUTDIR --dimension 2|3 --law constant|rational
                           --motion thrown|pushed [--levels N...] [--set KEY=VALUE]...
                           [--min-contact F] [--min-mean-contact F]
                           [--min-self-order Q] [--max-self-error E]

One member of the family of sliding blocks of issue 53 (doc/body.md,
"Sliding by default"): the block of tests/body/sliding_family_<dim>d.prm
(W = 1, H = 0.25, B = 0.5 in 3D; rho = 1, lambda = 0.5, G = 0.25; pressed by
p = 1e-3 on its top, in its static state at t = 0) run with the default
contact and friction settings (Mass at contact nodes = lumped, Normal stress
regularization length and velocity = auto) but for the law:
  constant   mu = 0.2;
  rational   mu(V) = 0.1 + 0.2/(1 + V/0.005): 0.3 at rest, 0.167 at V0
             (velocity weakening);
and the motion:
  thrown     Initial velocity V0 = 0.01 along x (it slows down);
  pushed     at rest, Body force f_x = F p/H along x with F = 0.3 (constant
             mu) or 0.35 (rational: above mu_s = 0.3): it speeds up.
Every level N (cells along H: 4N x N squares in 2D, 4N x 2N x N cubes in
3D, h = H/N) runs with dt = h/4 to T = 6 (the block slides throughout: a
thrown rigid block stops at 12.5 s), a row every step, into OUTDIR/N<N>.
Measured from history.csv:
  contact   the least and the mean contact_fraction over the rows 0 < t <= T;
  path      x(t), the centre of mass's displacement, the sum of dt
            momentum_x/m (rows hold v^{n+1/2} at t^{n+1}: exact);
  self      max_t |x_N(t) - x_finest(t)| / x_finest(T) of every level but
            the finest, at the level's own times (the steps halve level by
            level: every coarse time is a time of the finest run).
Asserts: the least contact fraction >= --min-contact and the mean one >=
--min-mean-contact at every level, the self errors decreasing with a least-squares order >= --min-self-order, and
the coarsest self error <= --max-self-error.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_runs import log_order, run  # noqa: E402

W, B, H, RHO, P, V0 = 1.0, 0.5, 0.25, 1.0, 1e-3, 0.01
FINAL_TIME = 6.0
LAWS = {
    "constant": {"Law": "constant", "Static friction coefficient": "0.2"},
    "rational": {"Law": "rational", "Static friction coefficient": "0.3",
                 "Dynamic friction coefficient": "0.1",
                 "Critical slip velocity": "0.005"},
}
PUSH = {"constant": 0.3, "rational": 0.35}


def settings(n, dimension, law, motion):
    """The --set values of level N and its step."""
    h = H / n
    dt = h / 4
    cells = (4 * n, n) if dimension == 2 else (4 * n, 2 * n, n)
    values = {
        "Time/Final time": repr(FINAL_TIME),
        "Time/Time step": repr(dt),
        "Output/Interval": "0",
        "Body/Subdivisions": ", ".join(str(c) for c in cells),
    }
    for key, value in LAWS[law].items():
        values["Body/Contact/Friction law/" + key] = value
    zeros = "; 0" * (dimension - 1)
    if motion == "thrown":
        values["Body/Initial velocity"] = repr(V0) + zeros
    else:
        values["Body/Body force"] = repr(PUSH[law] * P / H) + zeros
    return values, dt


def path_of(rows, mass):
    """[(t, x)] of the centre of mass."""
    x, previous, result = 0.0, rows[0]["t"], [(rows[0]["t"], 0.0)]
    for r in rows[1:]:
        x += (r["t"] - previous) * r["momentum_x"] / mass
        previous = r["t"]
        result.append((r["t"], x))
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("exe")
    p.add_argument("prm")
    p.add_argument("outdir")
    p.add_argument("--dimension", type=int, choices=[2, 3], required=True)
    p.add_argument("--law", choices=sorted(LAWS), required=True)
    p.add_argument("--motion", choices=["thrown", "pushed"], required=True)
    p.add_argument("--levels", type=int, nargs="+", default=[4, 8, 16])
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--min-contact", type=float)
    p.add_argument("--min-mean-contact", type=float)
    p.add_argument("--min-self-order", type=float)
    p.add_argument("--max-self-error", type=float)
    a = p.parse_args()
    mass = RHO * W * H * (B if a.dimension == 3 else 1.0)
    results = []
    for n in a.levels:
        values, dt = settings(n, a.dimension, a.law, a.motion)
        # "{h}" in a --set value stands for the level's cell size H/N.
        values.update(item.replace("{h}", repr(H / n)).split("=", 1) for item in a.set)
        rows = run(a.exe, a.prm, os.path.join(a.outdir, "N%d" % n), values)
        contact = [r["contact_fraction"] for r in rows[1:]]
        m = {"dt": dt, "path": path_of(rows, mass), "least": min(contact),
             "mean": sum(contact) / len(contact)}
        results.append(m)
        print("N %3d dt %.4e  contact least %.4f mean %.4f  x(T) %.6e"
              % (n, dt, m["least"], m["mean"], m["path"][-1][1]))
    good = True
    if a.min_contact is not None and any(m["least"] < a.min_contact for m in results):
        print("FAIL: contact fraction below %g while sliding" % a.min_contact)
        good = False
    if a.min_mean_contact is not None and any(m["mean"] < a.min_mean_contact
                                              for m in results):
        print("FAIL: mean contact fraction below %g while sliding" % a.min_mean_contact)
        good = False
    if len(results) > 2:
        dt_finest = results[-1]["dt"]
        finest = {round(t / dt_finest): x for t, x in results[-1]["path"]}
        scale = abs(results[-1]["path"][-1][1])
        errors = [max(abs(x - finest[round(t / dt_finest)]) for t, x in m["path"]) / scale
                  for m in results[:-1]]
        order = log_order(a.levels[:-1], errors)
        print("against the finest level: %s, order %.2f"
              % (" ".join("%.3e" % e for e in errors), order))
        decreasing = all(e1 < e0 for e0, e1 in zip(errors, errors[1:]))
        if a.min_self_order is not None and (not decreasing or order < a.min_self_order):
            print("FAIL: not decreasing with order >= %g" % a.min_self_order)
            good = False
        if a.max_self_error is not None and errors[0] > a.max_self_error:
            print("FAIL: coarsest error above %g" % a.max_self_error)
            good = False
    print("ok" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
