#include <base/expressions.h>
#include <friction/closed_form_solver.h>
#include <time/centered_fixed_point.h>
#include <time/replicated_centered_step.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stickslip
{
  namespace
  {
    /** The Euclidean norm of the @p n entries at @p x. */
    double
    l2_norm(const std::vector<double> &x)
    {
      double sum = 0;
      for (const double value : x)
        sum += value * value;
      return std::sqrt(sum);
    }
  } // namespace



  bool
  ReplicatedCenteredStep::applies(const Parameters::Numerics &run,
                                  const FrictionSystem       &system)
  {
    const auto solver = run.friction.solver;
    return ReplicatedSystem::applies(system) &&
           run.linear_solver.type != Parameters::LinearSolverType::cg &&
           (run.centered.multiplier_solver ==
              Parameters::CenteredMultiplierSolver::fixed_point ||
            solver == Parameters::FrictionSolverType::semismooth_newton ||
            solver == Parameters::FrictionSolverType::closed_form);
  }



  ReplicatedCenteredStep::ReplicatedCenteredStep(
    const Parameters::Numerics &run,
    const FrictionSystem       &system,
    const double                dt,
    const double                r,
    const double                epsilon,
    const double                delta)
    : data(system)
    , d(data.size())
    , parameters(run.centered)
    , alpha(run.splitting.alpha)
    , dt(dt)
    , r(r)
    , epsilon(epsilon)
    , delta(delta)
    , any_friction(false)
    , uses_friction_solver(
        run.centered.multiplier_solver ==
        Parameters::CenteredMultiplierSolver::friction_solver)
    , operator_matrix(data.mass_matrix)
    , started(false)
    , expected_time(0)
  {
    // K = M + alpha dt^2 A, entry by entry as the matrices are added.
    if (data.has_stiffness && alpha > 0)
      for (unsigned int i = 0; i < d; ++i)
        for (unsigned int j = 0; j < d; ++j)
          operator_matrix(i, j) = data.mass_matrix(i, j) +
                                  alpha * dt * dt * data.stiffness_matrix(i, j);
    operator_rows = ReplicatedSparseMatrix(operator_matrix);
    if (bandwidth(operator_matrix) == 0)
      for (unsigned int i = 0; i < d; ++i)
        inverse_diagonal.push_back(1. / operator_matrix(i, i));
    else
      factor.factorize(operator_matrix);
    for (const double c : data.weights)
      any_friction = any_friction || c > 0;
    if (uses_friction_solver &&
        run.friction.solver ==
          Parameters::FrictionSolverType::semismooth_newton)
      {
        newton = std::make_unique<ReplicatedSemismoothNewton>(
          operator_matrix, data.weights, run.friction.max_iterations);
        newton->set_substep(dt / 2);
      }
    for (auto *array : {&x_previous,
                        &x_current,
                        &x_next,
                        &lambda,
                        &lambda_previous,
                        &warm_start,
                        &v,
                        &rhs,
                        &base,
                        &scratch,
                        &change})
      array->resize(d);
  }



  void
  ReplicatedCenteredStep::solve_operator(double *values) const
  {
    if (inverse_diagonal.empty())
      factor.solve(values);
    else
      for (unsigned int k = 0; k < d; ++k)
        values[k] = inverse_diagonal[k] * values[k];
  }



  void
  ReplicatedCenteredStep::advance(const TimeStep       &time_step,
                                  FrictionState        &state,
                                  IntegratorStatistics &statistics)
  {
    const double t        = time_step.time;
    const bool continuing = started && std::abs(t - expected_time) <= 1e-9 * dt;
    unsigned int iterations = 0;
    data.gather(state.displacement, x_current.data());
    if (!continuing)
      first_step(t, state);
    else
      {
        assemble_rhs(t);
        iterations = uses_friction_solver ? friction_solve() : fixed_point(t);
      }
    ++statistics.friction_solves;
    statistics.friction_iterations += iterations;
    finish_step(continuing, state, statistics);
    lambda_previous = lambda;
    std::swap(x_previous, x_current);
    std::swap(x_current, x_next);
    started       = true;
    expected_time = time_step.next_time;
  }



  void
  ReplicatedCenteredStep::first_step(const double t, const FrictionState &state)
  {
    // (1.4)-(1.6), as CenteredIntegrator::first_step().
    const double dt2 = dt * dt;
    data.gather(state.velocity, v.data());
    for (unsigned int k = 0; k < d; ++k)
      {
        lambda[k] =
          (data.weights[k] > 0 && v[k] != 0) ? (v[k] > 0 ? 1. : -1.) : 0.;
        base[k] = v[k] * dt + x_current[k];
      }
    // (M + a dt^2 A) x^1 = (M + a dt^2 A) dt x_1
    //   + (M - (1-2a)/2 dt^2 A) x^0 + dt^2/2 (f^0 - C lambda^0)
    data.mass.vmult(rhs.data(), base.data());
    if (data.has_stiffness)
      {
        for (unsigned int k = 0; k < d; ++k)
          {
            base[k] = x_current[k] * (-0.5 * (1 - 2 * alpha) * dt2);
            if (alpha > 0)
              base[k] = base[k] + alpha * dt2 * dt * v[k];
          }
        data.stiffness.vmult(scratch.data(), base.data());
        for (unsigned int k = 0; k < d; ++k)
          rhs[k] = rhs[k] + scratch[k];
      }
    data.explicit_force(t, v.data(), base.data());
    for (unsigned int k = 0; k < d; ++k)
      {
        base[k] -= data.weights[k] * lambda[k];
        x_next[k] = rhs[k] + 0.5 * dt2 * base[k];
      }
    solve_operator(x_next.data());
    // x^{-1} = x^1 - 2 dt x_1 (1.4)
    for (unsigned int k = 0; k < d; ++k)
      x_previous[k] = x_next[k] + -2. * dt * v[k];
    std::fill(warm_start.begin(), warm_start.end(), 0.);
  }



  void
  ReplicatedCenteredStep::assemble_rhs(const double t)
  {
    // rhs = dt^2 f^n + M (2x^n - x^{n-1}) - dt^2 A ((1-2a) x^n + a x^{n-1})
    const double dt2 = dt * dt;
    for (unsigned int k = 0; k < d; ++k)
      base[k] = -1. * x_previous[k] + 2. * x_current[k];
    data.mass.vmult(rhs.data(), base.data());
    if (data.has_stiffness)
      {
        const double previous_factor = -dt2 * alpha;
        const double current_factor  = -dt2 * (1 - 2 * alpha);
        for (unsigned int k = 0; k < d; ++k)
          base[k] =
            previous_factor * x_previous[k] + current_factor * x_current[k];
        data.stiffness.vmult(scratch.data(), base.data());
        for (unsigned int k = 0; k < d; ++k)
          rhs[k] = rhs[k] + scratch[k];
      }
    data.explicit_force(t, v.data(), scratch.data());
    for (unsigned int k = 0; k < d; ++k)
      rhs[k] = rhs[k] + dt2 * scratch[k];
  }



  void
  ReplicatedCenteredStep::solve_for_displacement()
  {
    // x^{n+1,k} from (1.13) for the current lambda.
    const double dt2 = dt * dt;
    for (unsigned int k = 0; k < d; ++k)
      x_next[k] = rhs[k] - dt2 * data.weights[k] * lambda[k];
    solve_operator(x_next.data());
  }



  unsigned int
  ReplicatedCenteredStep::fixed_point(const double t)
  {
    if (parameters.warm_start)
      lambda = lambda_previous; // (1.12) lambda^{n,0} = lambda^{n-1}
    else
      std::fill(lambda.begin(), lambda.end(), 0.);
    solve_for_displacement();
    if (!any_friction)
      return 0;

    const double gain                 = r / (2. * dt);
    const double keep                 = epsilon / (epsilon + dt);
    unsigned int iteration            = 0;
    double       last_relative_change = std::numeric_limits<double>::infinity();
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
        // (1.14), or (1.19) when regularized (keep > 0)
        for (unsigned int k = 0; k < d; ++k)
          lambda[k] = CenteredFixedPoint::updated_multiplier(lambda[k],
                                                             data.weights[k],
                                                             x_next[k],
                                                             x_previous[k],
                                                             lambda_previous[k],
                                                             gain,
                                                             keep);
        change = x_next;
        solve_for_displacement();
        ++iteration;
        // (1.15): ||x^{n+1,k} - x^{n+1,k-1}|| / (||x^{n+1,k-1}|| + 1) <= eta
        const double previous_norm = l2_norm(change);
        for (unsigned int k = 0; k < d; ++k)
          change[k] = change[k] + -1. * x_next[k];
        const double change_norm = l2_norm(change);
        last_relative_change     = change_norm / (previous_norm + 1.);
        if (change_norm <= parameters.tolerance * (previous_norm + 1.))
          return iteration;
      }
  }



  unsigned int
  ReplicatedCenteredStep::friction_solve()
  {
    // b = (rhs - K x^{n-1}) / (2 dt), W = (x^{n+1} - x^{n-1}) / (2 dt)
    operator_rows.vmult(scratch.data(), x_previous.data());
    const double inverse_two_dt = 1. / (2. * dt);
    for (unsigned int k = 0; k < d; ++k)
      base[k] = (rhs[k] + -1. * scratch[k]) * inverse_two_dt;
    unsigned int iterations = 0;
    if (newton)
      iterations = newton->solve(base.data(),
                                 change.data(),
                                 lambda.data(),
                                 warm_start.data());
    else // the closed form (53) with the diagonal K and tau = dt/2
      for (unsigned int k = 0; k < d; ++k)
        ClosedFormSolver::solve_component(base[k],
                                          operator_matrix(k, k),
                                          data.weights[k] * (dt / 2),
                                          change[k],
                                          lambda[k]);
    for (unsigned int k = 0; k < d; ++k)
      x_next[k] = x_previous[k] + 2. * dt * change[k];
    return iterations;
  }



  void
  ReplicatedCenteredStep::finish_step(const bool            continuing,
                                      FrictionState        &state,
                                      IntegratorStatistics &statistics)
  {
    // Velocity (x^{n+1} - x^{n-1})/(2 dt), friction work
    // c_i lambda_i (x^{n+1} - x^{n-1})/2 (this rank's rows) and stick.
    const double gain = r / (2. * dt);
    double       work = 0;
    for (unsigned int k = 0; k < d; ++k)
      {
        const double c    = data.weights[k];
        const double jump = x_next[k] - x_previous[k];
        v[k]              = jump / (2. * dt);
        if (k >= data.first_owned && k < data.end_owned)
          work += 0.5 * c * lambda[k] * jump;
        bool stuck = false;
        if (c > 0)
          // exact steps: x^{n+1} = x^{n-1}; the fixed point: the
          // projection of (1.14) inactive, |lambda| < 1 in the interior
          stuck = (!continuing || uses_friction_solver) ?
                    x_next[k] == x_previous[k] :
                    std::abs(lambda[k] + gain * c * jump) < 1.;
        // change is free here: it holds the stick flags for the scatter.
        change[k] = stuck ? 1. : 0.;
      }
    statistics.local_dissipated_energy += work;
    data.scatter(v.data(), state.velocity);
    data.scatter(change.data(), state.stick);
    data.scatter(x_next.data(), state.displacement);
    data.scatter(lambda.data(), state.multiplier);
  }



  void
  ReplicatedCenteredStep::register_state(CheckpointArchive &archive)
  {
    // Replicated: the same on every rank, so a snapshot's rank 0 arrays
    // serve any number of ranks.
    archive.add(x_previous);
    archive.add(x_current);
    archive.add(lambda_previous);
    archive.add(warm_start);
    archive.add(started);
    archive.add(expected_time);
  }
} // namespace stickslip
