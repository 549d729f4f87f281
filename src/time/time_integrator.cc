#include <time/centered_integrator.h>
#include <time/implicit_euler_integrator.h>
#include <time/regularized_arkode_integrator.h>
#include <time/splitting_integrator.h>
#include <time/time_integrator.h>

namespace stickslip
{
  void
  TimeIntegrator::register_state(CheckpointArchive &)
  {}



  std::string
  TimeIntegrator::divergence_causes() const
  {
    return "an elastic step beyond its stability limit "
           "(Splitting/Elastic implicitness < 1/4, the CFL condition), a "
           "given rho or r outside its range, a friction solver tolerance or "
           "iteration limit too loose, or data that are not finite (a "
           "forcing or boundary expression giving nan or inf, such as a "
           "division by zero)";
  }



  bool
  TimeIntegrator::supports_checkpoints() const
  {
    return true;
  }



  std::unique_ptr<TimeIntegrator>
  create_time_integrator(const Parameters::Numerics &run,
                         const FrictionSystem       &system,
                         const ParameterSource      &source,
                         const double                dt,
                         const InclusionForm        *inclusion_form)
  {
    switch (run.time.scheme)
      {
        case Parameters::Scheme::lie:
        case Parameters::Scheme::strang:
          return std::make_unique<SplittingIntegrator>(run, system, source, dt);
        case Parameters::Scheme::regularized_arkode:
          return std::make_unique<RegularizedArkodeIntegrator>(run, system);
        case Parameters::Scheme::centered:
          return std::make_unique<CenteredIntegrator>(run, system, source, dt);
        case Parameters::Scheme::implicit_euler:
          if (inclusion_form == nullptr)
            throw_bad_parameter(
              source,
              "Time/Scheme",
              "implicit euler",
              "the implicit Euler scheme of Bastien & Lamarque 2009, eq. "
              "(5.1) needs the model written in the form "
              "(A.7); only the chain model provides it");
          return std::make_unique<ImplicitEulerIntegrator>(*inclusion_form,
                                                           run,
                                                           source,
                                                           dt);
      }
    return nullptr;
  }
} // namespace stickslip
