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



  std::string
  ImplicitEulerIntegrator::divergence_causes() const
  {
    // Only the friction (the nonsmooth part) is implicit: the springs and
    // the masses' coupling G are taken at the start of the step.
    return "a time step too large for the explicit part of this scheme (the "
           "implicit Euler scheme of Bastien & Lamarque 2009, eq. (5.1), is "
           "implicit in the friction only: the springs' forces G(X) are "
           "explicit, and a step that is not small against the fastest "
           "period of the masses on their springs, 2 pi sqrt(m/k), makes the "
           "motion grow): take a smaller Time/Time step, or data that are "
           "not finite (a force expression giving nan or inf)";
  }
} // namespace stickslip
