#include <base/local_values.h>
#include <friction/replicated_semismooth_newton.h>
#include <time/centered_fixed_point.h>
#include <time/centered_steps.h>

#include <cmath>
#include <limits>

namespace stickslip
{
  template <class System>
  CenteredSteps<System>::CenteredSteps(const System               &system,
                                       const Parameters::Centered &parameters,
                                       const double                alpha,
                                       const double                dt,
                                       const double                r,
                                       const double                epsilon,
                                       const double                delta,
                                       const bool                  any_friction,
                                       const Operators            &operators)
    : system(system)
    , parameters(parameters)
    , alpha(alpha)
    , step(dt)
    , r(r)
    , epsilon(epsilon)
    , delta(delta)
    , any_friction(any_friction)
    , operators(operators)
    , started(false)
    , expected_time(0)
    , next_time(0)
  {
    for (auto *v : {&x_previous,
                    &x_current,
                    &x_next,
                    &lambda,
                    &lambda_previous,
                    &warm_start,
                    &rhs,
                    &base,
                    &scratch,
                    &change,
                    &prescribed})
      system.reinit_vector(*v);
  }



  template <class System>
  bool
  CenteredSteps<System>::continues(const TimeStep &time_step) const
  {
    return started &&
           std::abs(time_step.time - expected_time) <= 1e-9 * time_step.size;
  }



  template <class System>
  void
  CenteredSteps<System>::impose_prescribed(const double dt, Vector &rhs)
  {
    if constexpr (!on_arrays)
      if (system.prescribed_values)
        system.impose_prescribed(next_time,
                                 alpha * dt * dt,
                                 *operators.diagonal,
                                 rhs,
                                 prescribed,
                                 scratch);
  }



  template <class System>
  void
  CenteredSteps<System>::first_step(const double  t,
                                    const double  dt,
                                    const Vector &velocity)
  {
    const bool   prescribe = static_cast<bool>(system.prescribed_values);
    const double dt2       = dt * dt;

    // (1.5)-(1.6): lambda^0 = sign(x_1) where c_i > 0 and x_1,i != 0.
    {
      const auto c = read_values(system.friction_weights);
      const auto v = read_values(velocity);
      auto       l = write_values(lambda);
      for (std::size_t k = 0; k < l.size(); ++k)
        l[k] = (c[k] > 0 && v[k] != 0) ? (v[k] > 0 ? 1. : -1.) : 0.;
    }
    // (M + a dt^2 A) x^1 = (M + a dt^2 A) dt x_1
    //   + (M - (1-2a)/2 dt^2 A) x^0 + dt^2/2 (f^0 - C lambda^0)
    base = velocity;
    base *= dt;
    base.add(1., x_current);
    system.apply_mass(rhs, base, prescribe);
    if (system.has_stiffness)
      {
        base = x_current;
        base *= -0.5 * (1 - 2 * alpha) * dt2;
        if (alpha > 0)
          base.add(alpha * dt2 * dt, velocity);
        system.apply_stiffness(scratch, base, prescribe);
        rhs += scratch;
      }
    system.forcing(t, base);
    {
      const auto c = read_values(system.friction_weights);
      const auto l = read_values(lambda);
      auto       f = write_values(base);
      for (std::size_t k = 0; k < f.size(); ++k)
        f[k] -= c[k] * l[k];
    }
    rhs.add(0.5 * dt2, base);
    impose_prescribed(dt, rhs);
    operators.solver->solve(x_next, rhs);

    // x^{-1} = x^1 - 2 dt x_1 (1.4)
    x_previous = x_next;
    x_previous.add(-2. * dt, velocity);
    warm_start = 0;
  }



  template <class System>
  void
  CenteredSteps<System>::assemble_rhs(const double t, const double dt)
  {
    const bool   prescribe = static_cast<bool>(system.prescribed_values);
    const double dt2       = dt * dt;

    base = x_current;
    base.sadd(2., -1., x_previous);
    system.apply_mass(rhs, base, prescribe);
    if (system.has_stiffness)
      {
        base = x_current;
        base.sadd(-dt2 * (1 - 2 * alpha), -dt2 * alpha, x_previous);
        system.apply_stiffness(scratch, base, prescribe);
        rhs += scratch;
      }
    system.forcing(t, scratch);
    rhs.add(dt2, scratch);
    impose_prescribed(dt, rhs);
  }



  template <class System>
  unsigned int
  CenteredSteps<System>::fixed_point(const double dt, const double t)
  {
    const double dt2 = dt * dt;
    // x^{n+1,k} from (1.13) for the current lambda.
    const auto solve_for_displacement = [&]() {
      {
        const auto c   = read_values(system.friction_weights);
        const auto l   = read_values(lambda);
        const auto b   = read_values(rhs);
        auto       out = write_values(base);
        for (std::size_t k = 0; k < out.size(); ++k)
          out[k] = b[k] - dt2 * c[k] * l[k];
      }
      operators.solver->solve(x_next, base);
    };

    if (parameters.warm_start)
      lambda = lambda_previous; // (1.12) lambda^{n,0} = lambda^{n-1}
    else
      lambda = 0;
    solve_for_displacement();
    if (!any_friction)
      return 0;

    const double gain      = r / (2. * dt);
    const double keep      = epsilon / (epsilon + dt);
    unsigned int iteration = 0;
    // The stopping quantity of (1.15), for the message at the limit.
    double last_relative_change = std::numeric_limits<double>::infinity();
    while (true)
      {
        if (iteration == parameters.max_iterations)
          throw CenteredFixedPoint::not_converged({iteration,
                                                   t,
                                                   dt,
                                                   r,
                                                   delta,
                                                   parameters.tolerance,
                                                   last_relative_change});
        {
          // (1.14), or (1.19) when regularized (keep > 0)
          const auto c  = read_values(system.friction_weights);
          const auto xn = read_values(x_next);
          const auto xp = read_values(x_previous);
          const auto lp = read_values(lambda_previous);
          auto       l  = write_values(lambda);
          for (std::size_t k = 0; k < l.size(); ++k)
            l[k] = CenteredFixedPoint::updated_multiplier(
              l[k], c[k], xn[k], xp[k], lp[k], gain, keep);
        }
        change = x_next;
        solve_for_displacement();
        ++iteration;
        // (1.15): ||x^{n+1,k} - x^{n+1,k-1}|| / (||x^{n+1,k-1}|| + 1) <= eta
        const double previous_norm = change.l2_norm();
        change -= x_next;
        const double change_norm = change.l2_norm();
        last_relative_change     = change_norm / (previous_norm + 1.);
        if (change_norm <= parameters.tolerance * (previous_norm + 1.))
          break;
      }
    return iteration;
  }



  template <class System>
  unsigned int
  CenteredSteps<System>::friction_solve(const double dt)
  {
    // b = (rhs - K x^{n-1}) / (2 dt), W = (x^{n+1} - x^{n-1}) / (2 dt)
    operators.apply(scratch, x_previous);
    base = rhs;
    base -= scratch;
    base /= 2. * dt;
    const unsigned int iterations =
      operators.step_solver->solve(base, change, lambda, warm_start);
    x_next = x_previous;
    x_next.add(2. * dt, change);
    return iterations;
  }



  template <class System>
  void
  CenteredSteps<System>::advance(const TimeStep       &time_step,
                                 Vector               &displacement,
                                 Vector               &velocity,
                                 Vector               &multiplier,
                                 Vector               &stick,
                                 IntegratorStatistics &statistics)
  {
    const double t = time_step.time, dt = time_step.size;
    next_time = time_step.next_time;
    Assert(std::abs(dt - step) <= 1e-12 * step,
           ExcMessage("the centered integrator is built for one step size"));
    const bool   continuing = continues(time_step);
    unsigned int iterations = 0;
    x_current               = displacement;
    if (!continuing)
      first_step(t, dt, velocity);
    else
      {
        assemble_rhs(t, dt);
        iterations =
          operators.step_solver ? friction_solve(dt) : fixed_point(dt, t);
      }
    ++statistics.friction_solves;
    statistics.friction_iterations += iterations;
    if constexpr (!on_arrays)
      if (system.prescribed_values)
        {
          // exact Dirichlet values whatever the solver's tolerance
          ConstLocalValues mask(system.prescribed_mask);
          ConstLocalValues g(prescribed);
          LocalValues      x(x_next);
          for (std::size_t k = 0; k < x.size(); ++k)
            if (mask[k] > 0)
              x[k] = g[k];
        }
    finish(continuing, dt, velocity, stick, statistics);
    displacement    = x_next;
    multiplier      = lambda;
    lambda_previous = lambda;
    x_previous      = x_current;
    x_current       = x_next;
    started         = true;
    expected_time   = time_step.next_time;
  }



  template <class System>
  void
  CenteredSteps<System>::finish(const bool            continuing,
                                const double          dt,
                                Vector               &velocity,
                                Vector               &stick,
                                IntegratorStatistics &statistics) const
  {
    const auto [owned_begin, owned_end] = system.owned_range();
    const auto   c                      = read_values(system.friction_weights);
    const auto   xn                     = read_values(x_next);
    const auto   xp                     = read_values(x_previous);
    const auto   l                      = read_values(lambda);
    auto         v                      = write_values(velocity);
    auto         stuck                  = write_values(stick);
    const double gain                   = r / (2. * dt);
    double       work                   = 0;
    for (std::size_t k = 0; k < v.size(); ++k)
      {
        const double jump = xn[k] - xp[k];
        v[k]              = jump / (2. * dt);
        if (k >= owned_begin && k < owned_end)
          work += 0.5 * c[k] * l[k] * jump;
        bool at_rest = false;
        if (c[k] > 0)
          // exact steps: x^{n+1} = x^{n-1}; the fixed point: the
          // projection of (1.14) inactive, |lambda| < 1 in the interior
          at_rest = (!continuing || operators.step_solver) ?
                      xn[k] == xp[k] :
                      std::abs(l[k] + gain * c[k] * jump) < 1.;
        stuck[k] = at_rest ? 1. : 0.;
      }
    statistics.local_dissipated_energy += work;
  }



  template <class System>
  void
  CenteredSteps<System>::register_state(CheckpointArchive &archive)
  {
    // the two-step scheme's levels x^{n-1}, x^n and lambda^{n-1}
    register_vector(archive, x_previous);
    register_vector(archive, x_current);
    register_vector(archive, lambda_previous);
    register_vector(archive, warm_start);
    archive.add(started);
    archive.add(expected_time);
  }



  template class CenteredSteps<FrictionSystem>;
  template class CenteredSteps<ReplicatedSystem>;
} // namespace stickslip
