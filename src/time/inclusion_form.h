#ifndef stickslip_time_inclusion_form_h
#define stickslip_time_inclusion_form_h

#include <base/input_error.h>
#include <base/time_grid.h>
#include <friction/friction_state.h>
#include <time/time_parameters.h>

#include <memory>
#include <string>

namespace stickslip
{
  /**
   * A system written as the maximal monotone inclusion of Bastien & Lamarque
   * 2009, eq. (A.7),
   *
   *   X' + M dphi(X) contains G(t, X),   M SPD, phi convex, G Lipschitz in X,
   *
   * whose unknown X is stored in the coordinates of a FrictionState
   * (displacement, velocity, multiplier, stick) so that the driver, the
   * history and the error norms see the same state as for the splitting
   * schemes. The model knows the structure of M and phi (diagonal, box
   * constraint in a stiffness metric, or both), so the resolvent of (5.2)
   * is its job; ImplicitEulerIntegrator only drives it.
   */
  class InclusionForm
  {
  public:
    /** The work of one step. */
    struct StepWork
    {
      unsigned int iterations;        ///< solver iterations of the resolvent
      double       local_dissipation; ///< this rank's friction work
    };

    /** One implicit Euler stepper, with its own work vectors. */
    class Stepper
    {
    public:
      virtual ~Stepper() = default;

      /**
       * Bastien & Lamarque 2009, eq. (5.2): X^{n+1} = (I + h M dphi)^{-1} (X^n
       * + h G(t_n, X^n)), X^n and X^{n+1} in @p state, t_n = step.time, h =
       * step.size.
       */
      virtual StepWork
      step(const TimeStep &step, FrictionState &state) = 0;
    };

    virtual ~InclusionForm() = default;

    /** A stepper for Time/Scheme = implicit euler with step @p dt. */
    virtual std::unique_ptr<Stepper>
    create_stepper(const Parameters::Numerics &run,
                   const ParameterSource      &source,
                   const double                dt) const = 0;

    /** The three cases of Bastien & Lamarque 2009, §5 this form uses, for the
     * log. */
    virtual std::string
    description() const = 0;
  };
} // namespace stickslip

#endif
