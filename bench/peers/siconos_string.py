#!/usr/bin/python3
"""The frictional string of prm/string.prm with Siconos (python3-siconos).

Semi-discretization (doc/theory.md §2.2): P1 on a uniform mesh of N cells,
the N - 1 interior nodes as unknowns, the LUMPED mass M = (h/c^2) I, the
stiffness A = tridiag(-1, 2, -1)/h, the nodal friction C = g h I (the
trapezoidal rule, the Gauss-Lobatto weights of P1), all assembled in numpy
here. Siconos sees a LagrangianLinearTIDS M q'' + A q = p with a relay
interaction y = q' (LagrangianLinearTIR, H = I) and the law
  -y in N_[-g h dt, g h dt](P),  P the friction impulse of the step,
i.e. Coulomb's law at the end-of-step velocity.

Time scheme: Siconos' MoreauJeanOSI with theta = 1/2:
  M (v+ - v) + dt A (u + dt/4 (v + v+)) = P,  u+ = u + dt/2 (v + v+),
a Crank-Nicolson step for the elastic force and an implicit (end-of-step)
friction impulse; one relay problem (dense Delassus matrix H W^-1 H^T,
W = M + dt^2/4 A) per step, solved by the relay solver chosen below.
"""

import argparse
import sys
import time

import numpy as np

import string_common as sc


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=4096)
    parser.add_argument("--final-time", type=float, default=sc.FINAL_TIME,
                        help="stop earlier (a timing probe of a few steps)")
    parser.add_argument("--solver", default="PGS", choices=["PGS", "LEMKE", "ENUM", "PATH"])
    parser.add_argument("--tolerance", type=float, default=1e-12)
    parser.add_argument("--output", required=True, help="result JSON")
    args = parser.parse_args()

    import siconos.kernel as sk
    import siconos.numerics as sn

    t_setup = time.perf_counter()
    n = args.cells - 1
    h = sc.LENGTH / args.cells
    dt = sc.FINAL_TIME / args.steps
    steps = int(round(args.final_time / dt))
    x = np.linspace(0.0, sc.LENGTH, args.cells + 1)
    mass = np.eye(n) * (h / sc.WAVE_SPEED**2)
    stiffness = (2.0 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)) / h
    bound = sc.FRICTION * h * dt

    ds = sk.LagrangianLinearTIDS(sc.initial_displacement(x[1:-1]), np.zeros(n), mass)
    ds.setKPtr(stiffness)
    nsds = sk.NonSmoothDynamicalSystem(0.0, steps * dt)
    nsds.insertDynamicalSystem(ds)
    relation = sk.LagrangianLinearTIR(np.eye(n))
    law = sk.RelayNSL(n, -bound, bound)
    interaction = sk.Interaction(law, relation)
    nsds.link(interaction, ds)

    osi = sk.MoreauJeanOSI(0.5)
    # Moreau-Jean (de)activates an interaction by the sign of its position-
    # level output y = H q + gamma dt H v, the rule of unilateral contact; a
    # relay of friction must stay active whatever the sign of u.
    osi.setConstraintActivationThreshold(1e300)
    solver_id = getattr(sn, "SICONOS_RELAY_" + args.solver)
    osnspb = sk.Relay(solver_id)
    osnspb.numericsSolverOptions().dparam[sn.SICONOS_DPARAM_TOL] = args.tolerance
    osnspb.numericsSolverOptions().iparam[sn.SICONOS_IPARAM_MAX_ITER] = 100000
    simulation = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, dt), osi, osnspb)
    setup = time.perf_counter() - t_setup

    t_loop = time.perf_counter()
    done = 0
    while simulation.hasNextEvent() and done < steps:
        simulation.computeOneStep()
        simulation.nextStep()
        done += 1
    loop = time.perf_counter() - t_loop

    u = np.concatenate([[0.0], np.array(ds.q()), [0.0]])
    v = np.concatenate([[0.0], np.array(ds.velocity()), [0.0]])
    scheme = (f"Siconos MoreauJeanOSI theta=1/2, lumped mass, relay ({args.solver}, "
              f"tol {args.tolerance:g}) per step")
    sc.write_result(args.output, "siconos", scheme, args.cells, done, dt, x, u, v,
                    loop, setup, {"final_time": done * dt})
    return 0


if __name__ == "__main__":
    sys.exit(main())
