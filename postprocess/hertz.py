#!/usr/bin/python3
"""The Hertz contact of a plane-strain cylinder (2D) or of a sphere (3D) on
the rigid plane against the closed form (Johnson 1985, §4.2 and §5.2;
doc/theory.md §7.9 and §7.11).

Reads contact_nodes.csv of a quasi-static run of prm/body_hertz_2d.prm (the
quarter x >= 0 of the cylinder: P = 2 sum_i P_i, the node at x = 0 carrying
half its area) and prints, as one JSON object: the force per unit length P,
the closed form's half-width a = sqrt(4 P R/(pi E*)) and p0 = 2 P/(pi a),
the discrete half-widths (a_node: the outermost active node; a_mid: half
way to the first open node; a_fit: the least-squares fit of p_i^2 =
p0^2 (1 - x_i^2/a^2) over the active nodes), and the errors of the nodal
pressure p_i = P_i/A_i against p(x_i) relative to p0: max over the contact
nodes within 2 a, and L2 = sqrt(sum A_i (p_i - p(x_i))^2 / a)/p0.

In 3D (contact_nodes.csv has a z column: prm/body_hertz_3d.prm, the octant
x >= 0, y >= 0 of the sphere) the same with r = sqrt(x^2 + y^2): P = 4 sum_i
P_i (the nodes on the symmetry planes carry their share of the area), a =
(3 P R/(4 E*))^(1/3) and p0 = 3 P/(2 pi a^2) (Johnson 1985, §4.2, eqs.
(4.22) and (4.24)), a_fit the fit of p_i^2 = p0^2 (1 - r_i^2/a^2), a_area =
sqrt(4 A/pi) from the area A of the active nodes, and the L2 error normalised by the
octant's contact area pi a^2/4 (error_p_l2_inner: the same sum over the
nodes within r <= 0.8 a only, away from the edge); h is the square root of
the median area of the nodes within r < a.

    python3 postprocess/hertz.py RUN_DIR --radius 1 --young 1 --poisson 0.3
"""
import argparse
import csv
import json
import math
import os


def read_nodes(run):
    """The contact nodes sorted by x (2D) or by r = sqrt(x^2 + y^2) (3D, each
    row gains r)."""
    with open(os.path.join(run, "contact_nodes.csv")) as handle:
        rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(handle)]
    if rows and "z" in rows[0]:
        for row in rows:
            row["r"] = math.hypot(row["x"], row["y"])
        return sorted(rows, key=lambda row: row["r"])
    return sorted(rows, key=lambda row: row["x"])


def is_3d(nodes):
    return bool(nodes) and "r" in nodes[0]


def closed_form(pressure_force, radius, e_star):
    a = math.sqrt(4 * pressure_force * radius / (math.pi * e_star))
    return a, 2 * pressure_force / (math.pi * a)


def hertz_pressure(x, a, p0):
    return p0 * math.sqrt(max(0.0, 1 - (x / a) ** 2))


def closed_form_3d(pressure_force, radius, e_star):
    """Johnson 1985, §4.2, eqs. (4.22) and (4.24): the contact radius and the
    peak pressure."""
    a = (3 * pressure_force * radius / (4 * e_star)) ** (1 / 3)
    return a, 3 * pressure_force / (2 * math.pi * a ** 2)


def fit_half_width(active, coordinate="x"):
    """Least squares of p^2 = c0 + c1 x^2: a^2 = -c0/c1."""
    xs = [row[coordinate] ** 2 for row in active]
    ys = [row["pressure"] ** 2 for row in active]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    slope = sxy / sxx
    return math.sqrt(-(my - slope * mx) / slope)


def analyse_3d(nodes, radius, e_star):
    """The octant of the sphere: 4 times its force, r the distance from the
    z axis."""
    force = 4 * sum(row["normal_force"] for row in nodes)
    a, p0 = closed_form_3d(force, radius, e_star)
    active = [row for row in nodes if row["active"] > 0.5]
    near = [row for row in nodes if row["r"] <= 2 * a]
    errors = [row["pressure"] - hertz_pressure(row["r"], a, p0) for row in near]
    quarter_area = math.pi * a ** 2 / 4
    l2 = math.sqrt(sum(row["area"] * e ** 2 for row, e in zip(near, errors)) / quarter_area)
    inner = math.sqrt(sum(row["area"] * e ** 2 for row, e in zip(near, errors)
                          if row["r"] <= 0.8 * a) / quarter_area)
    a_fit = fit_half_width(active, "r")
    a_area = math.sqrt(4 * sum(row["area"] for row in active) / math.pi)
    inside = sorted(row["area"] for row in nodes if row["r"] < a)
    return {"P": force, "a": a, "p0": p0, "h": math.sqrt(inside[len(inside) // 2]),
            "active_nodes": len(active), "a_node": max(row["r"] for row in active),
            "a_fit": a_fit, "a_area": a_area,
            "error_a_fit": abs(a_fit - a) / a, "error_a_area": abs(a_area - a) / a,
            "error_p_max": max(abs(e) for e in errors) / p0, "error_p_l2": l2 / p0,
            "error_p_l2_inner": inner / p0}


def analyse(run, radius, young, poisson):
    nodes = read_nodes(run)
    e_star = young / (1 - poisson ** 2)
    if is_3d(nodes):
        return analyse_3d(nodes, radius, e_star)
    force = 2 * sum(row["normal_force"] for row in nodes)
    a, p0 = closed_form(force, radius, e_star)
    active = [row for row in nodes if row["active"] > 0.5]
    outer = max(row["x"] for row in active)
    following = [row["x"] for row in nodes if row["x"] > outer]
    a_mid = 0.5 * (outer + min(following)) if following else outer
    near = [row for row in nodes if row["x"] <= 2 * a]
    max_error = max(abs(row["pressure"] - hertz_pressure(row["x"], a, p0)) for row in near)
    l2 = math.sqrt(sum(row["area"] * (row["pressure"] - hertz_pressure(row["x"], a, p0)) ** 2
                       for row in near) / a)
    spacing = max(b["x"] - c["x"] for b, c in zip(active[1:], active[:-1]))
    return {"P": force, "a": a, "p0": p0, "h": spacing,
            "active_nodes": len(active), "a_node": outer, "a_mid": a_mid,
            "a_fit": fit_half_width(active),
            "error_a_mid": abs(a_mid - a) / a,
            "error_a_fit": abs(fit_half_width(active) - a) / a,
            "error_p_max": max_error / p0, "error_p_l2": l2 / p0}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run")
    parser.add_argument("--radius", type=float, default=1.0)
    parser.add_argument("--young", type=float, default=1.0)
    parser.add_argument("--poisson", type=float, default=0.3)
    args = parser.parse_args()
    print(json.dumps(analyse(args.run, args.radius, args.young, args.poisson), indent=1))


if __name__ == "__main__":
    main()
