#include <base/local_values.h>
#include <friction/closed_form_solver.h>
#include <time/friction_substeps.h>

namespace stickslip
{
  FrictionSubsteps::FrictionSubsteps(const FrictionSystem               &system,
                                     std::unique_ptr<FrictionStepSolver> solver,
                                     const unsigned int n_substeps,
                                     const unsigned int n_phases,
                                     const double       interval_length)
    : system(system)
    , step_solver(std::move(solver))
    , n_sub(n_substeps)
    , tau(interval_length / n_substeps)
    , warm_starts(n_substeps * n_phases)
  {
    // The warm starts are sized on first use (the closed form reads none,
    // a fused Lie step never calls advance()).
    step_solver->set_substep(tau);
    fused_closed_form =
      dynamic_cast<const ClosedFormSolver *>(step_solver.get()) != nullptr;
  }



  void
  FrictionSubsteps::advance(const TimeStep       &interval,
                            const unsigned int    phase,
                            const double          weight,
                            DistributedVector    &velocity,
                            DistributedVector    &multiplier_sum,
                            DistributedVector    &stick,
                            IntegratorStatistics &statistics)
  {
    // Sized on the first call (a fused Lie step never makes one); the
    // lumped closed form needs only the force.
    if (force.size() != system.size())
      force.reinit(system.locally_owned, system.comm);
    if (!fused_closed_form && rhs.size() != system.size())
      {
        for (auto *v : {&rhs, &multiplier})
          v->reinit(system.locally_owned, system.comm);
        size_warm_starts();
      }
    const bool diagonal_mass = system.mass_is_diagonal();
    for (unsigned int p = 1; p <= n_sub; ++p)
      {
        // b^p = M W^{p-1} + tau (f(t^p) + C gamma(W^{p-1}) + g(t^p, W^{p-1})),
        // t^P exactly the end of the interval.
        system.explicit_force(interval.substep_time(p, n_sub), velocity, force);
        if (fused_closed_form)
          {
            // The lumped case in one pass: b, the closed form (53), the
            // average multiplier (37), the friction work and the stick flag.
            ConstLocalValues m(system.mass_diagonal());
            ConstLocalValues c(system.friction_weights);
            ConstLocalValues f(force);
            LocalValues      w(velocity);
            LocalValues      sum(multiplier_sum);
            LocalValues      stuck(stick);
            double           work = 0;
            for (std::size_t k = 0; k < w.size(); ++k)
              {
                double lambda;
                ClosedFormSolver::solve_component(
                  m[k] * w[k] + tau * f[k], m[k], c[k] * tau, w[k], lambda);
                sum[k] += weight * lambda;
                work += c[k] * lambda * w[k];
                if (w[k] != 0.)
                  stuck[k] = 0.;
              }
            statistics.local_dissipated_energy += tau * work;
            ++statistics.friction_solves;
            continue;
          }
        if (diagonal_mass)
          {
            ConstLocalValues m(system.mass_diagonal());
            ConstLocalValues w(velocity);
            ConstLocalValues f(force);
            LocalValues      b(rhs);
            for (std::size_t k = 0; k < b.size(); ++k)
              b[k] = m[k] * w[k] + tau * f[k];
          }
        else
          {
            system.apply_mass(rhs, velocity);
            rhs.add(tau, force);
          }
        // W^p overwrites W^{p-1}: b holds all the solver needs of it.
        statistics.friction_iterations += step_solver->solve(
          rhs, velocity, multiplier, warm_starts[phase * n_sub + p - 1]);
        ++statistics.friction_solves;

        // Average multiplier (37), friction work, stick indicator: one pass.
        ConstLocalValues c(system.friction_weights);
        ConstLocalValues lambda(multiplier);
        ConstLocalValues w(velocity);
        LocalValues      sum(multiplier_sum);
        LocalValues      stuck(stick);
        double           work = 0;
        for (std::size_t k = 0; k < w.size(); ++k)
          {
            sum[k] += weight * lambda[k];
            work += c[k] * lambda[k] * w[k];
            if (w[k] != 0.)
              stuck[k] = 0.;
          }
        statistics.local_dissipated_energy += tau * work;
      }
  }



  const FrictionStepSolver &
  FrictionSubsteps::solver() const
  {
    return *step_solver;
  }



  unsigned int
  FrictionSubsteps::n_substeps() const
  {
    return n_sub;
  }
  void
  FrictionSubsteps::size_warm_starts()
  {
    for (auto &start : warm_starts)
      if (start.size() != system.size())
        start.reinit(system.locally_owned, system.comm);
  }



  void
  FrictionSubsteps::register_state(CheckpointArchive &archive)
  {
    // A snapshot holds them whether or not the solver reads them (zero for
    // the closed form): the same snapshot for every friction solver.
    size_warm_starts();
    for (auto &warm_start : warm_starts)
      archive.add(warm_start);
  }
} // namespace stickslip
