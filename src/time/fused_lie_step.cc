#include <base/local_values.h>
#include <time/fused_lie_step.h>
#include <time/lie_step_entries.h>

#include <cstdint>
#include <cstring>
#include <optional>

namespace stickslip
{
  namespace
  {
    // The bit pattern of a double: the reuse of A X needs the displacement
    // unchanged to the bit (a -0 for a +0 would change a product's sign of
    // zero), which == does not say.
    inline std::uint64_t
    bits(const double value)
    {
      std::uint64_t pattern;
      std::memcpy(&pattern, &value, sizeof(pattern));
      return pattern;
    }
  } // namespace



  bool
  FusedLieStep::applies(const Parameters::Numerics &run,
                        const FrictionSystem       &system,
                        const bool                  closed_form_solver)
  {
    return run.time.scheme == Parameters::Scheme::lie &&
           run.splitting.friction_substeps == 1 &&
           run.splitting.elastic_substeps == 1 && run.splitting.alpha == 0 &&
           closed_form_solver && system.has_stiffness &&
           system.mass_is_diagonal() && !system.prescribed_values;
  }



  FusedLieStep::FusedLieStep(const FrictionSystem &system, const double dt)
    : system(system)
    , dt(dt)
    , with_force(!system.forcing_is_zero || !system.gamma.is_zero() ||
                 static_cast<bool>(system.extra_force))
    , have_product(false)
  {
    if (with_force)
      force.reinit(system.locally_owned, system.comm);
    new_displacement.reinit(system.locally_owned, system.comm);
    product_of_x.reinit(system.locally_owned, system.comm);
  }



  void
  FusedLieStep::advance(const TimeStep       &step,
                        FrictionState        &state,
                        IntegratorStatistics &statistics)
  {
    // f at the end of the step, from the velocity before the friction step
    // (Glowinski et al. 2006, eq. (26), P = 1).
    if (with_force)
      system.explicit_force(step.next_time, state.velocity, force);
    const auto run_pass_a = [&](const bool verify, double &work) {
      return with_force ? pass_a<true>(state, verify, work) :
                          pass_a<false>(state, verify, work);
    };
    double     work;
    const bool multiple_ranks =
      Utilities::MPI::n_mpi_processes(system.comm) > 1;
    // The product with A is collective: on several ranks they recompute it
    // together if the displacement changed on any of them.
    const auto unchanged = [&](const bool local) {
      return multiple_ranks ?
               Utilities::MPI::min(local ? 1u : 0u, system.comm) == 1 :
               local;
    };
    if (!have_product || !unchanged(run_pass_a(true, work)))
      {
        // First step, or a displacement changed since the last step.
        system.apply_stiffness(product_of_x, state.displacement);
        run_pass_a(false, work);
      }
    statistics.local_dissipated_energy += dt * work;
    ++statistics.friction_solves;

    system.apply_stiffness(product_of_x, new_displacement);
    pass_b(state);
    have_product = true;
  }



  template <bool with_force>
  bool
  FusedLieStep::pass_a(FrictionState &state, const bool verify, double &work)
  {
    const double tau = dt, tau2 = dt * dt;
    // The sub-step of FrictionSubsteps adds tau f with f = +0 when the
    // force is zero: tau * 0. keeps the sign of zero of that sum.
    const double                    zero_force_term = tau * 0.;
    ConstLocalValues                x(state.displacement);
    ConstLocalValues                v(state.velocity);
    ConstLocalValues                m(system.mass_diagonal());
    ConstLocalValues                c(system.friction_weights);
    ConstLocalValues                ax(product_of_x);
    std::optional<ConstLocalValues> f;
    if constexpr (with_force)
      f.emplace(force);
    LocalValues   x1(new_displacement);
    LocalValues   multiplier(state.multiplier);
    LocalValues   stick(state.stick);
    std::uint64_t difference = 0;
    double        local_work = 0; // a local sum: no store per entry
    for (std::size_t k = 0; k < x.size(); ++k)
      {
        if (verify)
          difference |= bits(x[k]) ^ bits(x1[k]);
        // The friction sub-step (53): b = M W^0 + tau f, W and lambda.
        const double mk = m[k];
        double       w  = v[k], lambda;
        if constexpr (with_force)
          LieStepEntries::closed_form_substep(
            mk, c[k], tau, tau * (*f)[k], w, lambda);
        else
          LieStepEntries::closed_form_substep(
            mk, c[k], tau, zero_force_term, w, lambda);
        // The average (37) over the one sub-step, summed from zero with
        // weight 1 as FrictionSubsteps does (0. + turns a -0 into +0).
        multiplier[k] = 0. + lambda;
        local_work += c[k] * lambda * w;
        stick[k] = w != 0. ? 0. : 1.;
        // The first leapfrog sub-step (55): X^1 = X + tau W - tau^2/2 M^{-1} A
        // X.
        x1[k] =
          LieStepEntries::first_position(x[k], w, 1. / mk, ax[k], tau, tau2);
      }
    work = local_work;
    return difference == 0;
  }



  void
  FusedLieStep::pass_b(FrictionState &state)
  {
    // (56)-(57) with Q = 1: X^2 = 2 X^1 - X - tau^2 M^{-1} A X^1,
    // V = (X^2 - X)/(2 tau), and X^{n+1} = X^1 over X.
    const double     tau2 = dt * dt, inverse_two_tau = 0.5 / dt;
    ConstLocalValues x1(new_displacement);
    ConstLocalValues m(system.mass_diagonal());
    ConstLocalValues ax(product_of_x);
    LocalValues      x(state.displacement);
    LocalValues      v(state.velocity);
    for (std::size_t k = 0; k < x.size(); ++k)
      {
        const double x0 = x[k];
        const double x2 =
          LieStepEntries::next_position(x1[k], x0, 1. / m[k], ax[k], tau2);
        v[k] = LieStepEntries::velocity(x2, x0, inverse_two_tau);
        x[k] = x1[k];
      }
  }
} // namespace stickslip
