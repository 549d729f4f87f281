#include <base/local_values.h>
#include <time/regularized_arkode_integrator.h>

#include <arkode/arkode_arkstep.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  RegularizedArkodeIntegrator::RegularizedArkodeIntegrator(
    const Parameters::Numerics &run,
    const FrictionSystem       &system)
    : system(system)
    , eta(run.friction.regularization_eta)
    , tolerance(run.friction.arkode_tolerance)
    , final_time(run.time.final_time)
    , mass_solver(run.linear_solver, system.comm)
    , arkode_memory(nullptr)
    , steps_so_far(0)
  {
    system.initialize_mass_solver(mass_solver);
    interleaved_owned.set_size(2 * system.size());
    const auto first = *system.locally_owned.begin();
    const auto n     = system.locally_owned.n_elements();
    AssertThrow(n == 0 || system.locally_owned.is_contiguous(),
                ExcMessage("ARKode needs contiguous ownership"));
    if (n > 0)
      interleaved_owned.add_range(2 * first, 2 * (first + n));
    y.reinit(interleaved_owned, system.comm);
    for (auto *v : {&displacement,
                    &velocity,
                    &force,
                    &scratch,
                    &acceleration,
                    &prescribed,
                    &prescribed_second})
      v->reinit(system.locally_owned, system.comm);
  }



  void
  RegularizedArkodeIntegrator::regularized_multiplier(
    const DistributedVector &v,
    DistributedVector       &multiplier) const
  {
    ConstLocalValues velocity_values(v);
    ConstLocalValues c(system.friction_weights);
    LocalValues      result(multiplier);
    for (std::size_t k = 0; k < result.size(); ++k)
      result[k] =
        c[k] > 0 ?
          velocity_values[k] /
            std::sqrt(eta * eta + velocity_values[k] * velocity_values[k]) :
          0.;
  }



  void
  RegularizedArkodeIntegrator::right_hand_side(const double             t,
                                               const DistributedVector &state,
                                               DistributedVector       &ydot)
  {
    {
      ConstLocalValues values(state);
      LocalValues      x(displacement);
      LocalValues      v(velocity);
      for (std::size_t k = 0; k < x.size(); ++k)
        {
          x[k] = values[2 * k];
          v[k] = values[2 * k + 1];
        }
    }
    // M V' = f + C gamma(V) + g - A X - C lambda_eta(V)
    system.explicit_force(t, velocity, force);
    regularized_multiplier(velocity, scratch);
    scratch.scale(system.friction_weights);
    force -= scratch;
    if (system.has_stiffness)
      {
        system.apply_stiffness(scratch, displacement);
        force -= scratch;
      }
    if (system.prescribed_values)
      {
        // Driven Dirichlet unknowns: the free rows feel -A_u g(t) - M_u g''(t)
        // (unconstrained operators; g'' by a centered difference).
        const double h = 1e-4 * std::max(1., std::abs(t));
        prescribed     = 0;
        system.prescribed_values(t, prescribed);
        system.apply_stiffness(scratch, prescribed, true);
        prescribed_second = prescribed;
        prescribed_second *= -2.;
        prescribed = 0;
        system.prescribed_values(t + h, prescribed);
        prescribed_second += prescribed;
        prescribed = 0;
        system.prescribed_values(t - h, prescribed);
        prescribed_second += prescribed;
        prescribed_second /= h * h;
        system.apply_mass(prescribed, prescribed_second, true);
        scratch += prescribed;
        ConstLocalValues mask(system.prescribed_mask);
        ConstLocalValues coupling(scratch);
        LocalValues      f(force);
        for (std::size_t k = 0; k < f.size(); ++k)
          f[k] -= (1. - mask[k]) * coupling[k];
      }
    mass_solver.solve(acceleration, force);
    ConstLocalValues v(velocity);
    ConstLocalValues a(acceleration);
    LocalValues      derivative(ydot);
    for (std::size_t k = 0; k < v.size(); ++k)
      {
        derivative[2 * k]     = v[k];
        derivative[2 * k + 1] = a[k];
      }
  }



  void
  RegularizedArkodeIntegrator::advance(const TimeStep &step,
                                       FrictionState  &state)
  {
    const double t = step.time, dt = step.size;
    if (!arkode)
      {
        {
          ConstLocalValues x(state.displacement);
          ConstLocalValues v(state.velocity);
          LocalValues      values(y);
          for (std::size_t k = 0; k < x.size(); ++k)
            {
              values[2 * k]     = x[k];
              values[2 * k + 1] = v[k];
            }
        }
        SUNDIALS::ARKode<DistributedVector>::AdditionalData data(t,
                                                                 final_time,
                                                                 dt / 10,
                                                                 dt,
                                                                 1e-14,
                                                                 5,
                                                                 10,
                                                                 false,
                                                                 false,
                                                                 false,
                                                                 3,
                                                                 tolerance,
                                                                 tolerance);
        arkode =
          std::make_unique<SUNDIALS::ARKode<DistributedVector>>(data,
                                                                system.comm);
        arkode->reinit_vector = [this](DistributedVector &v) {
          v.reinit(interleaved_owned, system.comm);
        };
        arkode->explicit_function = [this](const double             time,
                                           const DistributedVector &state_y,
                                           DistributedVector       &ydot) {
          right_hand_side(time, state_y, ydot);
          return 0;
        };
        arkode->custom_setup = [this](void *memory) {
          arkode_memory = memory;
          ARKStepSetMaxNumSteps(memory, 100000000);
        };
      }
    arkode->solve_ode_incrementally(y, step.next_time);

    {
      ConstLocalValues values(y);
      LocalValues      x(state.displacement);
      LocalValues      v(state.velocity);
      for (std::size_t k = 0; k < x.size(); ++k)
        {
          x[k] = values[2 * k];
          v[k] = values[2 * k + 1];
        }
    }
    regularized_multiplier(state.velocity, state.multiplier);

    long steps = steps_so_far;
    if (arkode_memory != nullptr)
      ARKStepGetNumSteps(arkode_memory, &steps);
    statistics.friction_iterations += steps - steps_so_far;
    statistics.friction_solves += 1;
    steps_so_far = steps;
  }



  std::string
  RegularizedArkodeIntegrator::description() const
  {
    std::ostringstream out;
    out
      << "regularized multiplier lambda_eta (Glowinski et al. 2006, eq. (5)), eta = "
      << eta << ", SUNDIALS ARKode adaptive explicit Runge-Kutta, tolerance "
      << tolerance << "; iterations = ARKode steps";
    return out.str();
  }


  bool
  RegularizedArkodeIntegrator::supports_checkpoints() const
  {
    return false;
  }
} // namespace stickslip
