#!/usr/bin/python3
"""The frictional string of prm/string.prm with GetFEM (python3-getfem).

Space: P1 Lagrange (FEM_PK(1,1)) on a uniform mesh of N cells, u = v = 0 at
both ends (Dirichlet with simplification). The mass term is integrated
exactly (CONSISTENT mass, IM_GAUSS1D(2)) unless --mass lumped (trapezoidal
rule, IM_NC(1,1)); the friction term always with the trapezoidal rule, so
that the friction law holds node by node as in doc/theory.md §2.3.

Time: a theta = 1/2 (Crank-Nicolson) step for the elastic force with the
friction impulse implicit at the end-of-step velocity (the scheme of
Siconos' Moreau-Jean integrator with theta = 1/2):
  (1/c^2)(v+ - v)/dt + (u + dt/4 (v + v+))_x-weak + g lam = f,
  u+ = u + dt/2 (v + v+),  lam in Sgn(v+).
Unknowns of a step: v+ and the nodal multiplier lam (P1). The inclusion is
written in GetFEM's weak-form language as the projection equation
  lam = P_[-1,1](lam + r v+),  P(z) = z - pos_part(z - 1) + neg_part(z + 1),
a semismooth equation that GetFEM's own Newton solver (md.solve) solves
with its generalized Jacobian (Heaviside of the active sets), i.e. a
primal-dual active-set / semismooth Newton method, to --tolerance.
"""

import argparse
import sys
import time

import numpy as np

import string_common as sc


def build_model(gf, args, dt):
    x = np.linspace(0.0, sc.LENGTH, args.cells + 1)
    mesh = gf.Mesh("cartesian", x)
    boundary = 1
    mesh.set_region(boundary, mesh.outer_faces())
    mf = gf.MeshFem(mesh, 1)
    mf.set_fem(gf.Fem("FEM_PK(1,1)"))
    exact = gf.MeshIm(mesh, gf.Integ("IM_GAUSS1D(2)"))
    nodal = gf.MeshIm(mesh, gf.Integ("IM_NC(1,1)"))
    mass_im = nodal if args.mass == "lumped" else exact

    md = gf.Model("real")
    md.add_fem_variable("v", mf)
    md.add_fem_variable("lam", mf)
    md.add_fem_data("u_old", mf)
    md.add_fem_data("v_old", mf)
    md.add_initialized_data("dt", [dt])
    md.add_initialized_data("ic2", [1.0 / sc.WAVE_SPEED**2])
    md.add_initialized_data("g", [sc.FRICTION])
    # r scales v+ to a multiplier: (mass/dt)/(friction) per node, so that
    # both sides of the projection are of the same size.
    md.add_initialized_data("r", [1.0 / (sc.WAVE_SPEED**2 * sc.FRICTION * dt)])
    md.add_linear_term(mass_im, "ic2*(v - v_old)/dt*Test_v")
    md.add_linear_term(exact, "Grad(u_old + dt/4*(v_old + v)).Grad(Test_v)")
    md.add_nonlinear_term(
        nodal, "g*lam*Test_v"
        " + (-r*v + pos_part(lam + r*v - 1) - neg_part(lam + r*v + 1))*Test_lam")
    md.add_Dirichlet_condition_with_simplification("v", boundary)
    md.add_Dirichlet_condition_with_simplification("lam", boundary)

    # mf's dofs are the mesh nodes in some order: evaluate u0 there.
    nodes = mf.basic_dof_nodes()[0]
    md.set_variable("u_old", sc.initial_displacement(nodes))
    md.set_variable("v_old", np.zeros(nodes.size))
    # The mesh, the MeshFem and the MeshIm objects must outlive the model
    # (GetFEM's Python objects are freed with their last reference).
    return md, nodes, (mesh, mf, exact, nodal)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=4096)
    parser.add_argument("--final-time", type=float, default=sc.FINAL_TIME,
                        help="stop earlier (a timing probe of a few steps)")
    parser.add_argument("--mass", default="consistent", choices=["consistent", "lumped"])
    parser.add_argument("--tolerance", type=float, default=1e-12,
                        help="Newton's residual tolerance (max_res)")
    parser.add_argument("--output", required=True, help="result JSON")
    args = parser.parse_args()

    import getfem as gf
    gf.util_trace_level(0)
    gf.util_warning_level(0)

    t_setup = time.perf_counter()
    dt = sc.FINAL_TIME / args.steps
    steps = int(round(args.final_time / dt))
    md, nodes, keep_alive = build_model(gf, args, dt)
    setup = time.perf_counter() - t_setup

    t_loop = time.perf_counter()
    newton = 0
    for _ in range(steps):
        iterations = md.solve("max_res", args.tolerance, "max_iter", 100,
                              "lsearch", "simplest")
        newton += int(iterations[0]) if np.size(iterations) else 0
        v_new = md.variable("v")
        u_new = md.variable("u_old") + 0.5 * dt * (md.variable("v_old") + v_new)
        md.set_variable("u_old", u_new)
        md.set_variable("v_old", v_new)
    loop = time.perf_counter() - t_loop

    order = np.argsort(nodes)
    scheme = (f"GetFEM theta=1/2 (Crank-Nicolson elastic, implicit friction "
              f"impulse), {args.mass} mass, projection equation by GetFEM's "
              f"Newton (tol {args.tolerance:g})")
    sc.write_result(args.output, "getfem", scheme, args.cells, steps, dt,
                    nodes[order], md.variable("u_old")[order],
                    md.variable("v_old")[order], loop, setup,
                    {"final_time": steps * dt, "newton_iterations": newton})
    return 0


if __name__ == "__main__":
    sys.exit(main())
