#ifndef stickslip_models_common_finite_dof_model_h
#define stickslip_models_common_finite_dof_model_h

#include <friction/friction_system.h>
#include <models/common/exact_solution.h>

#include <memory>
#include <string>

namespace stickslip
{
  /**
   * A model whose unknowns are a handful of named components (ode,
   * gearbox): it provides the FrictionSystem, optionally an exact solution,
   * and its history.csv columns are x1..xd, v1..vd, lambda1..lambdad.
   */
  class FiniteDofModel
  {
  public:
    virtual ~FiniteDofModel() = default;

    virtual const FrictionSystem &
    system() const = 0;

    /** nullptr when the parameter file gives no exact solution. */
    virtual const ExactSolution *
    exact_solution() const = 0;

    /** One line for the log. */
    virtual std::string
    description() const = 0;
  };
} // namespace stickslip

#endif
