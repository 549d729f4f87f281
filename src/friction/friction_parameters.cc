#include <base/expressions.h>
#include <base/selection.h>
#include <friction/friction_parameters.h>

namespace stickslip
{
  namespace Parameters
  {
    void
    Friction::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Friction");
      prm.declare_entry(
        "Solver",
        "semismooth newton",
        Patterns::Selection(
          "closed form|projection|penalty newton|semismooth newton"),
        "Solver of the friction sub-step M W + tau C lambda = b, lambda in "
        "Sgn(W) (seed 000 (38)): closed form (diagonal M only, seed 000 "
        "(53)), projection (39)-(41), penalty newton (67)-(74; dense, small "
        "systems), semismooth newton (primal-dual active set, one linear "
        "solve with M per iteration). Default semismooth "
        "newton, but closed form for Model = string with String/Mass = "
        "lumped.");
      prm.declare_entry("Tolerance",
                        "1e-12",
                        Patterns::Double(0),
                        "Stopping tolerance (> 0) of the iterative friction "
                        "solvers: max-norm change of the multiplier "
                        "(projection), max-norm Newton step (penalty "
                        "newton). 0 is refused: it is never reached in "
                        "floating point.");
      prm.declare_entry("Maximum iterations",
                        "10000",
                        Patterns::Integer(1),
                        "Iteration limit of the iterative friction solvers; "
                        "reaching it is an error.");
      prm.declare_entry("Projection rho",
                        "0",
                        Patterns::Double(0),
                        "Step length rho of the projection friction solver "
                        "(seed 000 (41)). 0 chooses rho = 1/(tau_1 beta_d), "
                        "the middle of the convergence range 0 < rho < "
                        "2/(tau_1 beta_d) (seed 000 (43)); a given rho outside"
                        " that range is an error.");
      prm.declare_entry("Penalty epsilon",
                        "1e-4",
                        Patterns::Double(0),
                        "Penalty parameter epsilon (> 0) of the penalty "
                        "newton friction solver: the multiplier is "
                        "approximated by a smoothed sign of slope 1/epsilon "
                        "(seed 000 (67)).");
      prm.declare_entry("Regularization eta",
                        "1e-3",
                        Patterns::Double(0),
                        "Velocity scale eta > 0 of the regularized multiplier "
                        "lambda_eta = v/sqrt(eta^2 + v^2) that replaces the "
                        "sign of v (seed 000 (5); Time/Scheme = regularized "
                        "arkode only).");
      prm.declare_entry("ARKode tolerance",
                        "1e-8",
                        Patterns::Double(0),
                        "Relative and absolute error tolerance (> 0) of the "
                        "adaptive ARKode integration.");
      prm.leave_subsection();
    }



    void
    Friction::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Friction");
      solver = parse_selection<FrictionSolverType>(
        prm.get("Solver"),
        {{"closed form", FrictionSolverType::closed_form},
         {"projection", FrictionSolverType::projection},
         {"penalty newton", FrictionSolverType::penalty_newton},
         {"semismooth newton", FrictionSolverType::semismooth_newton}},
        "Friction/Solver");
      tolerance          = prm.get_double("Tolerance");
      max_iterations     = prm.get_integer("Maximum iterations");
      projection_rho     = prm.get_double("Projection rho");
      penalty_epsilon    = prm.get_double("Penalty epsilon");
      regularization_eta = prm.get_double("Regularization eta");
      arkode_tolerance   = prm.get_double("ARKode tolerance");
      prm.leave_subsection();

      if (!(tolerance > 0))
        throw_bad_parameter(source,
                            "Friction/Tolerance",
                            format_number(tolerance),
                            "the tolerance must be > 0 (0 is never reached "
                            "in floating point; e.g. 1e-12)");
      if (!(penalty_epsilon > 0))
        throw_bad_parameter(source,
                            "Friction/Penalty epsilon",
                            format_number(penalty_epsilon),
                            "epsilon of seed 000 (67) must be positive");
      if (!(regularization_eta > 0))
        throw_bad_parameter(source,
                            "Friction/Regularization eta",
                            format_number(regularization_eta),
                            "eta of seed 000 (5) must be positive");
      if (!(arkode_tolerance > 0))
        throw_bad_parameter(source,
                            "Friction/ARKode tolerance",
                            format_number(arkode_tolerance),
                            "the tolerance must be positive");
    }
  } // namespace Parameters
} // namespace stickslip
