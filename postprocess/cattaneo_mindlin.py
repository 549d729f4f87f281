#!/usr/bin/python3
"""Cattaneo-Mindlin partial slip of a plane-strain cylinder on the rigid plane
against the closed forms (doc/theory.md §7.10; Johnson 1985, §7.1; Hills and
Nowell 1994; Mindlin and Deresiewicz 1953).

Reads a quasi-static run of prm/body_cattaneo_mindlin.prm (the lower half of
the cylinder, pressed without friction up to t = 1, then sheared by the
top's displacement through 0 -> delta* -> -delta* -> delta*): history.csv
(P = normal_force, Q = -friction_force_1, the force the plane transmits
along the shear, dissipated_energy, data_work) and the contact nodes (x,
pressure, tangential force, stuck flag, displacement): contact_nodes.csv at
the end of the run, or, with --times, the tables of the contact series
(solution/contact_NNNNN.csv of the outputs contact.pvd or contact.xdmf
lists at those times; a run with Output/Field output = true): several
states of one run.

For every sheared step: the stick zone's half-width c (half way from the
outermost stuck nodes to their slipping neighbours, both sides) against
a sqrt(1 - Q/(mu P)) on first loading and a sqrt(1 - |Q - Q_t|/(2 mu P))
after a turning point Q_t (Mindlin-Deresiewicz), relative to a; the L2 error
of the tangential traction against q(x) over |x| <= 1.5 a relative to mu p0;
the largest tangential displacement of a node stuck over a step (exact
stick: round-off). Over the cycle from the first turning point on: the
dissipated energy of the code, the loop area of Q against the top's delta
(trapezoidal) and the closed form
    W = 4 (mu P)^2/(pi E*) [(1 - psi) ln(1 - psi) + psi - psi^2/2],
psi = Q*/(mu P). Prints one JSON object.

    postprocess/cattaneo_mindlin.py RUN... --young 1 --poisson 0.45 \\
        --mu 0.3 [--radius 1] [--times T...] [-o PNG]

-o PNG draws the tractions at the chosen times against the closed forms and
the loop of Q against the top's displacement (doc/body_cattaneo_mindlin.png:
doc/pictures.md); --plot PNG is its old name, still accepted. A run that
misses a file the analysis needs (history.csv; contact_nodes.csv; with
--times the contact series, which prm/body_cattaneo_mindlin.prm writes only
with --set "Output/Field output=true") stops with a message naming it, exit 1.
"""
import argparse
import csv
import json
import math
import os
import sys
import xml.etree.ElementTree as ET



def hertz(pressure_force, radius, e_star):
    """a and p0 of the plane-strain Hertz contact (Johnson 1985, §4.2)."""
    a = math.sqrt(4 * pressure_force * radius / (math.pi * e_star))
    return a, 2 * pressure_force / (math.pi * a)


def cattaneo_traction(x, shear, mu, pressure_force, a, p0):
    """q(x) of Cattaneo 1938 for 0 <= shear < mu P: the full-slip mu p minus
    the Hertz-like correction over the stick zone |x| < c."""
    mu_p0 = mu * p0
    c = a * math.sqrt(max(0.0, 1 - shear / (mu * pressure_force)))
    outer = mu_p0 * math.sqrt(max(0.0, 1 - (x / a) ** 2))
    inner = (c / a) * mu_p0 * math.sqrt(max(0.0, 1 - (x / c) ** 2)) if c > 0 else 0.0
    return outer - inner


class Error(Exception):
    """A run that cannot be analysed: the message says why and what to do."""


def read_history(run):
    path = os.path.join(run, "history.csv")
    if not os.path.isfile(path):
        raise Error("%s has no history.csv: not the output folder of a run" % run)
    with open(path) as handle:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(handle)]


def contact_tables(run):
    """{t: path} of the contact-node tables of the run's contact series: the
    CSV beside each record contact.pvd lists (solution/contact_NNNNN.csv),
    or, with Output/Field format = hdf5, each grid of contact.xdmf."""
    pvd = os.path.join(run, "contact.pvd")
    if os.path.exists(pvd):
        return {float(d.get("timestep")):
                os.path.join(run, os.path.splitext(d.get("file"))[0] + ".csv")
                for d in ET.parse(pvd).getroot().iter("DataSet")}
    xdmf = os.path.join(run, "contact.xdmf")
    if not os.path.exists(xdmf):
        raise Error("%s has no contact series (contact.pvd or contact.xdmf), which "
                    "--times reads: the run wrote no field output. Run it again with "
                    "--set \"Output/Field output=true\" (prm/body_cattaneo_mindlin.prm "
                    "sets it false), or leave --times out to analyse the run's end "
                    "(contact_nodes.csv)" % run)
    series = ET.parse(xdmf).getroot().find("Domain/Grid")
    return {float(grid.find("Time").get("Value")):
            os.path.join(run, "solution", grid.get("Name") + ".csv")
            for grid in series.findall("Grid")}


def table_at(run, t):
    """The contact-node table of the output at time T (to 1e-9), or the
    end of the run's contact_nodes.csv for T = None."""
    if t is None:
        path = os.path.join(run, "contact_nodes.csv")
        if not os.path.isfile(path):
            raise Error("%s has no contact_nodes.csv: not a run of the implicit or "
                        "quasi-static body with a contact boundary" % run)
        return path
    tables = contact_tables(run)
    near = [s for s in tables if abs(s - t) <= 1e-9]
    if not near:
        raise Error("%s: no contact output at t = %g (outputs at %s)"
                    % (run, t, ", ".join("%g" % s for s in sorted(tables))))
    if not os.path.isfile(tables[near[0]]):
        raise Error("%s: the contact output at t = %g has no table %s (the explicit "
                    "scheme writes none: the analysis needs Body/Time scheme = "
                    "quasi-static or implicit)" % (run, t, tables[near[0]]))
    return tables[near[0]]


def read_table(path):
    """The rows of a contact-node table as dicts of floats."""
    with open(path) as handle:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(handle)]


def read_nodes(run, t=None):
    """The contact nodes at T (table_at()), sorted by x: x, p, q (the
    traction along the shear: minus the tangential reaction on the body per
    area), state (1 stuck), area."""
    rows = read_table(table_at(run, t))
    return [{"x": r["x"], "p": r["pressure"], "area": r["area"],
             "q": -r["tangential_force_1"] / r["area"] if r["area"] > 0 else 0.0,
             "state": 1 if r["active"] > 0.5 and r["stuck"] > 0.5 else 0}
            for r in sorted(rows, key=lambda r: r["x"])]


def stick_half_width(nodes):
    """Half the width of the stuck nodes' span, each end half way to the next
    node, and the span's centre."""
    stuck = [i for i, node in enumerate(nodes) if node["state"] == 1]
    if not stuck:
        return 0.0, 0.0
    lo, hi = min(stuck), max(stuck)
    left = 0.5 * (nodes[lo]["x"] + nodes[lo - 1]["x"]) if lo > 0 else nodes[lo]["x"]
    right = 0.5 * (nodes[hi]["x"] + nodes[hi + 1]["x"]) if hi + 1 < len(nodes) else nodes[hi]["x"]
    return 0.5 * (right - left), 0.5 * (right + left)


def node_widths(nodes):
    xs = [node["x"] for node in nodes]
    return [0.5 * (xs[min(i + 1, len(xs) - 1)] - xs[max(i - 1, 0)]) for i in range(len(xs))]


class Masing:
    """The closed-form traction along a loading path that starts from
    q = 0 at Q = 0 and reverses at turning points (Mindlin and Deresiewicz
    1953): after a turning point (Q_t, q_t), q = q_t + s 2 q_C(|Q - Q_t|/2),
    s the sign of Q - Q_t, q_C Cattaneo's traction."""

    def __init__(self):
        self.turn = None  # (Q_t, the traction function at Q_t)
        self.last = 0.0
        self.direction = 0

    def update(self, shear, mu, pressure_force, a, p0):
        direction = 1 if shear > self.last else -1
        if self.direction != 0 and direction != self.direction:
            self.turn = (self.last, self.current)
        self.direction, self.last = direction, shear
        if self.turn is None:
            sign = 1.0 if shear >= 0 else -1.0
            self.current = (lambda x, Q=abs(shear), s=sign:
                            s * cattaneo_traction(x, Q, mu, pressure_force, a, p0))
            c = a * math.sqrt(max(0.0, 1 - abs(shear) / (mu * pressure_force)))
        else:
            q_turn, traction_turn = self.turn
            change = abs(shear - q_turn) / 2
            s = 1.0 if shear > q_turn else -1.0
            self.current = (lambda x, f=traction_turn, Q=change, s=s:
                            f(x) + s * 2 * cattaneo_traction(x, Q, mu, pressure_force, a, p0))
            c = a * math.sqrt(max(0.0, 1 - change / (mu * pressure_force)))
        return self.current, c


def analyse(run, radius, young, poisson, mu, friction_from=1.0, at=None):
    """The state at time AT (the end of the run for None) against the closed
    form of its loading path (the turning points from history.csv's Q up to
    AT)."""
    e_star = young / (1 - poisson ** 2)
    history = read_history(run)
    if at is not None:
        history = [row for row in history if row["t"] <= at + 1e-9]
    masing = Masing()
    for row in history:
        if row["t"] <= friction_from + 1e-9:
            continue
        P, Q = row["normal_force"], -row["friction_force_1"]
        a, p0 = hertz(P, radius, e_star)
        traction, c_exact = masing.update(Q, mu, P, a, p0)
    nodes = read_nodes(run, at)
    c, centre = stick_half_width(nodes)
    near = [n for n in nodes if abs(n["x"]) <= 1.5 * a]
    l2 = math.sqrt(sum(n["area"] * (n["q"] - traction(n["x"])) ** 2 for n in near)
                   / (3 * a)) / (mu * p0)
    spacing = min(abs(n["x"]) for n in nodes if n["x"] > 0)
    last = history[-1]
    return history, {
        "t": last["t"], "P": P, "Q": Q, "Q_over_muP": Q / (mu * P), "a": a, "p0": p0,
        "Q_nodes_over_Q": sum(n["q"] * n["area"] for n in nodes) / Q if Q else 0.0,
        "h_over_a": spacing / a, "c_over_a": c / a, "c_exact_over_a": c_exact / a,
        "error_c": abs(c - c_exact) / a, "centre_over_a": centre / a,
        "error_q_l2": l2, "turned": masing.turn is not None,
        "max_newton": max(r["max_newton_iterations"] for r in history),
        "nodes": nodes, "traction": traction}


def newton_per_step(history):
    """The largest number of active-set iterations of one load step."""
    counts = [r1["newton_iterations"] - r0["newton_iterations"]
              for r0, r1 in zip(history[:-1], history[1:])]
    return int(max(counts))


def loop_energies(history, mu, young, poisson, top_displacement, friction_from=1.0):
    """From the first turning point of Q to the end of the run (a full cycle
    Q* -> -Q* -> Q* in prm/body_cattaneo_mindlin.prm): the code's
    dissipation, the loop area of Q against the top's delta (trapezoidal),
    the elastic energy's change, and the closed form W of Q*."""
    e_star = young / (1 - poisson ** 2)
    sheared = [r for r in history if r["t"] > friction_from + 1e-9]
    shear = [-r["friction_force_1"] for r in sheared]
    turn = next((i for i in range(1, len(shear) - 1) if shear[i + 1] < shear[i]), None)
    if turn is None:
        return None
    t0 = sheared[turn]["t"]
    cycle = [row for row in history if row["t"] >= t0 - 1e-9]
    area = 0.0
    for r0, r1 in zip(cycle[:-1], cycle[1:]):
        area += 0.5 * (-r0["friction_force_1"] - r1["friction_force_1"]) * (
            top_displacement(r1["t"]) - top_displacement(r0["t"]))
    peak = sheared[turn]
    psi = -peak["friction_force_1"] / (mu * peak["normal_force"])
    closed = 4 * (mu * peak["normal_force"]) ** 2 / (math.pi * e_star) * (
        (1 - psi) * math.log(1 - psi) + psi - psi ** 2 / 2)
    dissipated = cycle[-1]["dissipated_energy"] - cycle[0]["dissipated_energy"]
    return {"t_from": t0, "t_to": cycle[-1]["t"], "Q_star_over_muP": psi,
            "dissipated": dissipated, "loop_area": area,
            "elastic_change": cycle[-1]["elastic_energy"] - cycle[0]["elastic_energy"],
            "closed_form": closed,
            "error_loop_vs_dissipated": abs(area - dissipated) / dissipated,
            "error_dissipated_vs_closed": abs(dissipated - closed) / closed}


def triangle_displacement(amplitude):
    """The top's u_x of prm/body_cattaneo_mindlin.prm."""
    def delta(t):
        if t <= 1:
            return 0.0
        if t <= 2:
            return amplitude * (t - 1)
        if t <= 3:
            return amplitude * (5 - 2 * t)
        return amplitude * (2 * t - 7)
    return delta


def plot(results, history, path, mu, amplitude):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    for result, colour in zip(results, ["C0", "C1", "C2", "C3", "C4", "C5"]):
        a, mp0 = result["a"], mu * result["p0"]
        xs = [1.5 * a * (2 * i / 300 - 1) for i in range(301)]
        left.plot([x / a for x in xs], [result["traction"](x) / mp0 for x in xs], "-",
                  color=colour, label="t = %.2f, Q/(mu P) = %+.2f" % (result["t"],
                                                                     result["Q_over_muP"]))
        near = [n for n in result["nodes"] if abs(n["x"]) <= 1.5 * a]
        left.plot([n["x"] / a for n in near], [n["q"] / mp0 for n in near], "o",
                  color=colour, markersize=3, fillstyle="none")
    left.set_xlabel("x / a")
    left.set_ylabel("q / (mu p0)")
    left.set_title("tangential traction: nodes (o), Cattaneo / Mindlin-Deresiewicz (-)")
    left.legend(fontsize=8)
    delta = triangle_displacement(amplitude)
    sheared = [r for r in history if r["t"] >= 1 - 1e-9]
    # The loop is thin beside the body's linear compliance: plotted against
    # delta minus the secant's delta* Q/Q*, it opens.
    ratios = [-r["friction_force_1"] / (mu * r["normal_force"]) for r in sheared]
    peak = max(ratios)
    right.plot([delta(r["t"]) - amplitude * q / peak for r, q in zip(sheared, ratios)],
               ratios, "o-", markersize=3)
    right.set_xlabel("delta - delta* Q/Q* (the top's displacement off the secant)")
    right.set_ylabel("Q / (mu P)")
    right.set_title("the loop: loading, unloading, reloading")
    figure.suptitle("prm/body_cattaneo_mindlin.prm: Cattaneo-Mindlin partial slip")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+",
                        help="runs of the same prm ended at different times (or one "
                             "run with --times); the cycle's energies from the last")
    parser.add_argument("--times", type=float, nargs="+",
                        help="the states at these output times of each run (its "
                             "contact series), not its end")
    parser.add_argument("--radius", type=float, default=1.0)
    parser.add_argument("--young", type=float, default=1.0)
    parser.add_argument("--poisson", type=float, default=0.45)
    parser.add_argument("--mu", type=float, default=0.3)
    parser.add_argument("--amplitude", type=float, default=0.0016,
                        help="delta*, the top's largest u_x (the prm's)")
    parser.add_argument("-o", "--output", "--plot", dest="output", metavar="PNG",
                        help="draw the tractions and the loop into PNG (--plot: "
                             "the old name)")
    args = parser.parse_args()
    results, history = [], None
    for run in args.runs:
        for t in args.times or [None]:
            upto, result = analyse(run, args.radius, args.young, args.poisson, args.mu,
                                   at=t)
            result["newton_per_step"] = newton_per_step(upto)
            results.append(result)
        history = read_history(run)
    energies = loop_energies(history, args.mu, args.young, args.poisson,
                             triangle_displacement(args.amplitude))
    table = [{k: v for k, v in r.items() if k not in ("nodes", "traction")} for r in results]
    print(json.dumps({"runs": table, "cycle": energies}, indent=1))
    if args.output:
        plot(results, history, args.output, args.mu, args.amplitude)
        print("cattaneo_mindlin: wrote %s" % args.output)


if __name__ == "__main__":
    try:
        main()
    except Error as error:
        sys.exit("cattaneo_mindlin: %s" % error)
