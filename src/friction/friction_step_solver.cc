#include <friction/closed_form_solver.h>
#include <friction/friction_step_solver.h>
#include <friction/penalty_newton_solver.h>
#include <friction/projection_solver.h>
#include <friction/semismooth_newton_solver.h>

namespace stickslip
{
  bool
  FrictionStepSolver::closed_form() const
  {
    return false;
  }



  std::unique_ptr<FrictionStepSolver>
  create_friction_step_solver(const Parameters::Friction     &friction,
                              const Parameters::LinearSolver &linear_solver,
                              const FrictionSystem           &system,
                              const ParameterSource          &source)
  {
    switch (friction.solver)
      {
        case Parameters::FrictionSolverType::closed_form:
          if (!system.mass_is_diagonal())
            throw_bad_parameter(
              source,
              "Friction/Solver",
              "closed form",
              "the closed form (Glowinski et al. 2006, eq. (53)) needs a "
              "diagonal (lumped) mass matrix, and this M "
              "has off-diagonal entries. Use semismooth "
              "newton, projection or penalty newton");
          return std::make_unique<ClosedFormSolver>(system);
        case Parameters::FrictionSolverType::projection:
          return std::make_unique<ProjectionSolver>(system,
                                                    friction,
                                                    linear_solver,
                                                    source);
        case Parameters::FrictionSolverType::penalty_newton:
          return std::make_unique<PenaltyNewtonSolver>(system,
                                                       friction,
                                                       source);
        case Parameters::FrictionSolverType::semismooth_newton:
          return std::make_unique<SemismoothNewtonSolver>(system,
                                                          friction,
                                                          linear_solver);
      }
    return nullptr;
  }
} // namespace stickslip
