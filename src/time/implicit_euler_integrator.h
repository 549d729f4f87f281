#ifndef stickslip_time_implicit_euler_integrator_h
#define stickslip_time_implicit_euler_integrator_h

#include <time/inclusion_form.h>
#include <time/time_integrator.h>

#include <memory>

namespace stickslip
{
  /**
   * The implicit Euler scheme of Bastien & Lamarque 2009, eqs. (5.1)-(5.2) for
   * a system in the form (A.7): the nonsmooth part implicit, G explicit. Order
   * 1/2 in general, 1 when G does not depend on X (the quasistatic chain),
   * Bastien & Lamarque 2009, §5.
   */
  class ImplicitEulerIntegrator : public TimeIntegrator
  {
  public:
    ImplicitEulerIntegrator(const InclusionForm        &form,
                            const Parameters::Numerics &run,
                            const ParameterSource      &source,
                            const double                dt);

    void
    advance(const TimeStep &step, FrictionState &state) override;

    std::string
    description() const override;

    /** The explicit part G of the scheme and the time step. */
    std::string
    divergence_causes() const override;

  private:
    const InclusionForm                    &form;
    std::unique_ptr<InclusionForm::Stepper> stepper;
  };
} // namespace stickslip

#endif
