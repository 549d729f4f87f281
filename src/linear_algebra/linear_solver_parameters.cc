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
                        "(sparse Cholesky, factorized once per run), cg "
                        "(conjugate gradients with algebraic multigrid), or "
                        "auto (direct up to the size limit, cg above). "
                        "Diagonal matrices are always inverted directly.");
      prm.declare_entry("Tolerance",
                        "1e-13",
                        Patterns::Double(0),
                        "Relative residual tolerance (> 0) of cg.");
      prm.declare_entry("Direct size limit",
                        "20000",
                        Patterns::Integer(1),
                        "Largest system solved directly when Type = auto.");
      prm.leave_subsection();
    }



    void
    LinearSolver::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Linear solver");
      type = parse_selection<LinearSolverType>(
        prm.get("Type"),
        {{"auto", LinearSolverType::automatic},
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
