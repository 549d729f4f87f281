#include <base/expressions.h>
#include <base/selection.h>
#include <friction/friction_parameters.h>

#include <exception>
#include <string>

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
        "Sgn(W) (Glowinski et al. 2006, eq. (38)): closed form (diagonal M only, Glowinski et al. 2006, eq. "
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
                        "newton), KKT residual of (38) in multiplier units "
                        "(semismooth newton with Newton step CG tolerance = "
                        "forcing). 0 is refused: it is never reached in "
                        "floating point.");
      prm.declare_entry(
        "Newton step CG tolerance",
        "forcing",
        Patterns::Anything(),
        "How accurately semismooth newton solves each Newton step when it "
        "uses conjugate gradients (consistent mass above 64 unknowns). "
        "forcing (default): inexact Newton, the CG residual follows the "
        "KKT residual of (38) row by row in multiplier units "
        "(Eisenstat-Walker forcing, never looser than 0.1 nor tighter than "
        "half of Friction/Tolerance) and the final "
        "KKT residual is checked against Friction/Tolerance, the CG tightened "
        "until it is met or reaches Linear solver/Tolerance. A number in (0, "
        "1): every CG stops at that relative residual (e.g. 1e-13, the "
        "tight solve of earlier versions), with no KKT check.");
      prm.declare_entry("Maximum iterations",
                        "10000",
                        Patterns::Integer(1),
                        "Iteration limit of the iterative friction solvers; "
                        "reaching it is an error.");
      prm.declare_entry(
        "Projection rho",
        "0",
        Patterns::Double(0),
        "Step length rho of the projection friction solver "
        "(Glowinski et al. 2006, eq. (41)). 0 chooses rho = 1/(tau_1 beta_d), "
        "the middle of the convergence range 0 < rho < "
        "2/(tau_1 beta_d) (Glowinski et al. 2006, eq. (43)); a given rho outside"
        " that range is an error.");
      prm.declare_entry("Penalty epsilon",
                        "1e-4",
                        Patterns::Double(0),
                        "Penalty parameter epsilon (> 0) of the penalty "
                        "newton friction solver: the multiplier is "
                        "approximated by a smoothed sign of slope 1/epsilon "
                        "(Glowinski et al. 2006, eq. (67)).");
      prm.declare_entry(
        "Regularization eta",
        "1e-3",
        Patterns::Double(0),
        "Velocity scale eta > 0 of the regularized multiplier "
        "lambda_eta = v/sqrt(eta^2 + v^2) that replaces the "
        "sign of v (Glowinski et al. 2006, eq. (5); Time/Scheme = regularized "
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
      tolerance                      = prm.get_double("Tolerance");
      max_iterations                 = prm.get_integer("Maximum iterations");
      projection_rho                 = prm.get_double("Projection rho");
      penalty_epsilon                = prm.get_double("Penalty epsilon");
      regularization_eta             = prm.get_double("Regularization eta");
      arkode_tolerance               = prm.get_double("ARKode tolerance");
      const std::string cg_tolerance = prm.get("Newton step CG tolerance");
      prm.leave_subsection();

      newton_cg_tolerance = 0;
      if (cg_tolerance != "forcing")
        {
          // Not a Patterns::Double: the value is a word or a number.
          std::size_t end = 0;
          try
            {
              newton_cg_tolerance = std::stod(cg_tolerance, &end);
            }
          catch (const std::exception &)
            {
              end = 0;
            }
          if (end == 0 ||
              cg_tolerance.find_first_not_of(" \t", end) != std::string::npos ||
              !(newton_cg_tolerance > 0 && newton_cg_tolerance < 1))
            throw_bad_parameter(source,
                                "Friction/Newton step CG tolerance",
                                cg_tolerance,
                                "expected forcing or a relative tolerance in "
                                "(0, 1), e.g. 1e-13");
        }

      if (!(tolerance > 0))
        throw_bad_parameter(source,
                            "Friction/Tolerance",
                            format_number(tolerance),
                            "the tolerance must be > 0 (0 is never reached "
                            "in floating point; e.g. 1e-12)");
      if (!(penalty_epsilon > 0))
        throw_bad_parameter(
          source,
          "Friction/Penalty epsilon",
          format_number(penalty_epsilon),
          "epsilon of Glowinski et al. 2006, eq. (67) must be positive");
      if (!(regularization_eta > 0))
        throw_bad_parameter(
          source,
          "Friction/Regularization eta",
          format_number(regularization_eta),
          "eta of Glowinski et al. 2006, eq. (5) must be positive");
      if (!(arkode_tolerance > 0))
        throw_bad_parameter(source,
                            "Friction/ARKode tolerance",
                            format_number(arkode_tolerance),
                            "the tolerance must be positive");
    }
  } // namespace Parameters
} // namespace stickslip
