#include <base/local_values.h>
#include <friction/replicated_semismooth_newton.h>
#include <time/friction_substeps.h>
#include <time/lie_step_entries.h>

namespace stickslip
{
  template <class System>
  FrictionSubsteps<System>::FrictionSubsteps(const System               &system,
                                             std::unique_ptr<StepSolver> solver,
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
    fused_closed_form = step_solver->closed_form();
  }



  template <class System>
  FrictionSubsteps<System>::~FrictionSubsteps() = default;



  template <class System>
  void
  FrictionSubsteps<System>::advance(const TimeStep       &interval,
                                    const unsigned int    phase,
                                    const double          weight,
                                    Vector               &velocity,
                                    Vector               &multiplier_sum,
                                    Vector               &stick,
                                    IntegratorStatistics &statistics)
  {
    // Sized on the first call (a fused Lie step never makes one); the
    // lumped closed form needs only the force.
    if (force.size() != system.size())
      system.reinit_vector(force);
    if (!fused_closed_form && rhs.size() != system.size())
      {
        for (auto *v : {&rhs, &multiplier})
          system.reinit_vector(*v);
        size_warm_starts();
      }
    const bool diagonal_mass = system.mass_is_diagonal();
    // This rank's friction work: its own rows (all of a replicated vector's
    // rows are on every rank).
    const auto [owned_begin, owned_end] = system.owned_range();
    for (unsigned int p = 1; p <= n_sub; ++p)
      {
        // b^p = M W^{p-1} + tau (f(t^p) + C gamma(W^{p-1}) + g(t^p, W^{p-1})),
        // t^P exactly the end of the interval.
        system.explicit_force(interval.substep_time(p, n_sub), velocity, force);
        if (fused_closed_form)
          {
            closed_form_substep(
              weight, velocity, multiplier_sum, stick, statistics);
            continue;
          }
        if (diagonal_mass)
          {
            const auto m = read_values(system.mass_diagonal());
            const auto w = read_values(velocity);
            const auto f = read_values(force);
            auto       b = write_values(rhs);
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
        const auto c      = read_values(system.friction_weights);
        const auto lambda = read_values(multiplier);
        const auto w      = read_values(velocity);
        auto       sum    = write_values(multiplier_sum);
        auto       stuck  = write_values(stick);
        double     work   = 0;
        for (std::size_t k = 0; k < w.size(); ++k)
          {
            sum[k] += weight * lambda[k];
            if (k >= owned_begin && k < owned_end)
              work += c[k] * lambda[k] * w[k];
            if (w[k] != 0.)
              stuck[k] = 0.;
          }
        statistics.local_dissipated_energy += tau * work;
      }
  }



  template <class System>
  void
  FrictionSubsteps<System>::closed_form_substep(
    const double          weight,
    Vector               &velocity,
    Vector               &multiplier_sum,
    Vector               &stick,
    IntegratorStatistics &statistics)
  {
    const auto [owned_begin, owned_end] = system.owned_range();
    const auto m                        = read_values(system.mass_diagonal());
    const auto c                        = read_values(system.friction_weights);
    const auto f                        = read_values(force);
    auto       w                        = write_values(velocity);
    auto       sum                      = write_values(multiplier_sum);
    auto       stuck                    = write_values(stick);
    double     work                     = 0;
    for (std::size_t k = 0; k < w.size(); ++k)
      {
        double lambda;
        LieStepEntries::closed_form_substep(
          m[k], c[k], tau, tau * f[k], w[k], lambda);
        sum[k] += weight * lambda;
        if (k >= owned_begin && k < owned_end)
          work += c[k] * lambda * w[k];
        if (w[k] != 0.)
          stuck[k] = 0.;
      }
    statistics.local_dissipated_energy += tau * work;
    ++statistics.friction_solves;
  }



  template <class System>
  const typename FrictionSubsteps<System>::StepSolver &
  FrictionSubsteps<System>::solver() const
  {
    return *step_solver;
  }



  template <class System>
  unsigned int
  FrictionSubsteps<System>::n_substeps() const
  {
    return n_sub;
  }



  template <class System>
  void
  FrictionSubsteps<System>::size_warm_starts()
  {
    for (auto &start : warm_starts)
      if (start.size() != system.size())
        system.reinit_vector(start);
  }



  template <class System>
  void
  FrictionSubsteps<System>::register_state(CheckpointArchive &archive)
  {
    // A snapshot holds them whether or not the solver reads them (zero for
    // the closed form): the same snapshot for every friction solver. A
    // replicated system's are the same on every rank, so a snapshot's rank
    // 0 arrays serve any number of ranks.
    size_warm_starts();
    for (auto &warm_start : warm_starts)
      register_vector(archive, warm_start);
  }



  template class FrictionSubsteps<FrictionSystem>;
  template class FrictionSubsteps<ReplicatedSystem>;
} // namespace stickslip
