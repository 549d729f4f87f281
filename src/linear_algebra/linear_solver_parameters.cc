#include <base/expressions.h>
#include <base/selection.h>
#include <linear_algebra/linear_solver_parameters.h>

namespace stickslip
{
  namespace Parameters
  {
    void
    LinearSolver::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Linear solver");
      prm.declare_entry("Type",
                        "auto",
                        Patterns::Selection("auto|direct|cg"),
                        "Linear solves with M and M + alpha tau^2 A: direct "
                        "(sparse Cholesky, factorized once per run: PETSc's "
                        "own on one rank, MUMPS on several), cg (conjugate "
                        "gradients with algebraic multigrid), or auto (direct "
                        "on one rank up to the size limit, cg above it and on "
                        "several ranks, where MUMPS's solves cost more than "
                        "CG's). Diagonal matrices are always inverted "
                        "directly.");
      prm.declare_entry("Tolerance",
                        "1e-13",
                        Patterns::Double(0),
                        "Relative residual tolerance (> 0) of cg.");
      prm.declare_entry("Direct size limit",
                        "200000",
                        Patterns::Integer(1),
                        "Largest system solved directly when Type = auto (on "
                        "one rank; the string's implicit step at 2^17 "
                        "unknowns: direct 6x faster than cg).");
      prm.leave_subsection();
    }



    void
    LinearSolver::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Linear solver");
      type =
        parse_selection<LinearSolverType>(prm.get("Type"),
                                          {{"auto",
                                            LinearSolverType::automatic},
                                           {"direct", LinearSolverType::direct},
                                           {"cg", LinearSolverType::cg}},
                                          "Linear solver/Type");
      tolerance         = prm.get_double("Tolerance");
      direct_size_limit = prm.get_integer("Direct size limit");
      prm.leave_subsection();
      if (!(tolerance > 0))
        throw_bad_parameter(source,
                            "Linear solver/Tolerance",
                            format_number(tolerance),
                            "the tolerance must be positive");
    }
  } // namespace Parameters
} // namespace stickslip
