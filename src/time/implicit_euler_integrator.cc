#include <time/implicit_euler_integrator.h>

namespace stickslip
{
  ImplicitEulerIntegrator::ImplicitEulerIntegrator(
    const InclusionForm        &form,
    const Parameters::Numerics &run,
    const ParameterSource      &source,
    const double                dt)
    : form(form)
    , stepper(form.create_stepper(run, source, dt))
  {}



  void
  ImplicitEulerIntegrator::advance(const TimeStep &step, FrictionState &state)
  {
    const InclusionForm::StepWork work = stepper->step(step, state);
    ++statistics.friction_solves;
    statistics.friction_iterations += work.iterations;
    statistics.local_dissipated_energy += work.local_dissipation;
  }



  std::string
  ImplicitEulerIntegrator::description() const
  {
    return "implicit Euler, Bastien & Lamarque 2009, eqs. (5.1)-(5.2): " +
           form.description();
  }
} // namespace stickslip
