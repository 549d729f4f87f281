#include <base/expressions.h>
#include <models/ode/ode_model.h>

namespace stickslip
{
  OdeModel::OdeModel(const OdeParameters   &parameters,
                     const ParameterSource &source,
                     const MPI_Comm         comm)
    : FiniteDofModel(comm)
  {
    const unsigned int d = parameters.n_components();
    set_up_system({parameters.mass,
                   parameters.stiffness,
                   parameters.friction_coefficients,
                   parameters.gamma,
                   parameters.gamma_beta,
                   parameters.gamma_epsilon,
                   parameters.initial_displacement,
                   parameters.initial_velocity},
                  parameters.forcing,
                  "ODE/Forcing",
                  source);
    friction_system.finalize();

    if (is_blank(parameters.exact_displacement))
      return;
    // One after the other, so that errors come in the order of the file.
    const auto function = [&](const std::string &text,
                              const std::string &name) {
      return std::make_unique<TimeFunction>(text, d, "ODE/" + name, source);
    };
    auto displacement =
      function(parameters.exact_displacement, "Exact displacement");
    auto velocity = function(parameters.exact_velocity, "Exact velocity");
    auto multiplier =
      is_blank(parameters.exact_multiplier) ?
        nullptr :
        function(parameters.exact_multiplier, "Exact multiplier");
    set_exact_solution(std::make_unique<ExactSolution>(std::move(displacement),
                                                       std::move(velocity),
                                                       std::move(multiplier)));
  }



  std::string
  OdeModel::description() const
  {
    return "ode model, d = " + std::to_string(friction_system.size()) +
           (friction_system.mass_is_diagonal() ? ", diagonal M" :
                                                 ", non-diagonal M") +
           (friction_system.has_stiffness ? "" : ", A = 0");
  }
} // namespace stickslip
