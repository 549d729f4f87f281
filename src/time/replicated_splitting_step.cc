#include <friction/closed_form_solver.h>
#include <time/replicated_splitting_step.h>

#include <algorithm>
#include <utility>

namespace stickslip
{
  bool
  ReplicatedSplittingStep::applies(const Parameters::Numerics &run,
                                   const FrictionSystem       &system)
  {
    const auto solver = run.friction.solver;
    return ReplicatedSystem::applies(system) &&
           run.linear_solver.type != Parameters::LinearSolverType::cg &&
           (solver == Parameters::FrictionSolverType::semismooth_newton ||
            (solver == Parameters::FrictionSolverType::closed_form &&
             system.mass_is_diagonal()));
  }



  ReplicatedSplittingStep::ReplicatedSplittingStep(
    const Parameters::Numerics &run,
    const FrictionSystem       &system,
    const double                dt)
    : data(system)
    , d(data.size())
    , strang(run.time.scheme == Parameters::Scheme::strang)
    , n_friction(run.splitting.friction_substeps)
    , n_elastic(run.splitting.elastic_substeps)
    , tau_friction((strang ? dt / 2 : dt) / n_friction)
    , tau_elastic(dt / n_elastic)
    , alpha(run.splitting.alpha)
    , warm_starts(n_friction * (strang ? 2 : 1), std::vector<double>(d, 0.))
  {
    if (run.friction.solver ==
        Parameters::FrictionSolverType::semismooth_newton)
      {
        newton = std::make_unique<ReplicatedSemismoothNewton>(
          data.mass_matrix, data.weights, run.friction.max_iterations);
        newton->set_substep(tau_friction);
      }
    // K = M + alpha tau^2 A, entry by entry as the matrices are added.
    FullMatrix<double> operator_matrix = data.mass_matrix;
    if (alpha > 0)
      for (unsigned int i = 0; i < d; ++i)
        for (unsigned int j = 0; j < d; ++j)
          operator_matrix(i, j) =
            data.mass_matrix(i, j) +
            alpha * tau_elastic * tau_elastic * data.stiffness_matrix(i, j);
    if (bandwidth(operator_matrix) == 0)
      for (unsigned int i = 0; i < d; ++i)
        inverse_elastic_diagonal.push_back(1. / operator_matrix(i, i));
    else
      elastic_factor.factorize(operator_matrix);
    for (auto *array : {&x,
                        &v,
                        &multiplier_sum,
                        &stick,
                        &force,
                        &rhs,
                        &lambda,
                        &previous,
                        &current,
                        &next,
                        &scratch})
      array->resize(d);
  }



  void
  ReplicatedSplittingStep::advance(const TimeStep       &step,
                                   FrictionState        &state,
                                   IntegratorStatistics &statistics)
  {
    data.gather(state.displacement, x.data());
    data.gather(state.velocity, v.data());
    std::fill(multiplier_sum.begin(), multiplier_sum.end(), 0.);
    std::fill(stick.begin(), stick.end(), 1.);
    if (strang)
      {
        const double weight = 0.5 / n_friction;
        friction_substeps(step.part(0, 2), 0, weight, statistics);
        elastic_substeps();
        friction_substeps(step.part(1, 2), 1, weight, statistics);
      }
    else
      {
        friction_substeps(step, 0, 1. / n_friction, statistics);
        elastic_substeps();
      }
    data.scatter(x.data(), state.displacement);
    data.scatter(v.data(), state.velocity);
    data.scatter(multiplier_sum.data(), state.multiplier);
    data.scatter(stick.data(), state.stick);
  }



  void
  ReplicatedSplittingStep::friction_substeps(const TimeStep       &interval,
                                             const unsigned int    phase,
                                             const double          weight,
                                             IntegratorStatistics &statistics)
  {
    const double tau = tau_friction;
    for (unsigned int p = 1; p <= n_friction; ++p)
      {
        // b^p = M W^{p-1} + tau (f(t^p) + C gamma(W^{p-1}) + g(t^p, W^{p-1})).
        data.explicit_force(interval.substep_time(p, n_friction),
                            v.data(),
                            force.data());
        if (data.diagonal_mass)
          for (unsigned int k = 0; k < d; ++k)
            rhs[k] = data.mass_diagonal[k] * v[k] + tau * force[k];
        else
          {
            data.mass.vmult(rhs.data(), v.data());
            for (unsigned int k = 0; k < d; ++k)
              rhs[k] = rhs[k] + tau * force[k];
          }
        statistics.friction_iterations +=
          friction_solve(phase * n_friction + p - 1);
        ++statistics.friction_solves;

        // Average multiplier (37), this rank's friction work, stick flag.
        double work = 0;
        for (unsigned int k = 0; k < d; ++k)
          {
            multiplier_sum[k] += weight * lambda[k];
            if (k >= data.first_owned && k < data.end_owned)
              work += data.weights[k] * lambda[k] * v[k];
            if (v[k] != 0.)
              stick[k] = 0.;
          }
        statistics.local_dissipated_energy += tau * work;
      }
  }



  unsigned int
  ReplicatedSplittingStep::friction_solve(const unsigned int substep)
  {
    if (newton)
      return newton->solve(rhs.data(),
                           v.data(),
                           lambda.data(),
                           warm_starts[substep].data());
    // The closed form (53), componentwise.
    for (unsigned int k = 0; k < d; ++k)
      ClosedFormSolver::solve_component(rhs[k],
                                        data.mass_diagonal[k],
                                        data.weights[k] * tau_friction,
                                        v[k],
                                        lambda[k]);
    return 0;
  }



  void
  ReplicatedSplittingStep::solve_elastic(double *values) const
  {
    if (inverse_elastic_diagonal.empty())
      elastic_factor.solve(values);
    else
      for (unsigned int k = 0; k < d; ++k)
        values[k] = inverse_elastic_diagonal[k] * values[k];
  }



  void
  ReplicatedSplittingStep::elastic_substeps()
  {
    const double tau = tau_elastic;
    if (!data.has_stiffness)
      {
        // M X'' = 0: exact, X += dt V.
        for (unsigned int k = 0; k < d; ++k)
          x[k] = x[k] + tau * n_elastic * v[k];
        return;
      }
    if (data.diagonal_mass && alpha == 0)
      {
        explicit_leapfrog();
        return;
      }
    const double tau2       = tau * tau;
    double      *x_previous = previous.data(), *x_current = current.data(),
           *x_next = next.data();
    // (55) and the first step of (56), X^{-1} eliminated:
    // K X^1 = K tau V + (M - (1-2a)/2 tau^2 A) X^0
    for (unsigned int k = 0; k < d; ++k)
      {
        x_current[k] = x[k];
        scratch[k]   = x[k] + tau * v[k];
      }
    data.mass.vmult(rhs.data(), scratch.data());
    for (unsigned int k = 0; k < d; ++k)
      {
        scratch[k] = x_current[k] * (-0.5 * (1 - 2 * alpha) * tau2);
        if (alpha > 0)
          scratch[k] = scratch[k] + alpha * tau2 * tau * v[k];
      }
    data.stiffness.vmult(x_next, scratch.data());
    for (unsigned int k = 0; k < d; ++k)
      rhs[k] = rhs[k] + x_next[k];
    std::copy(rhs.begin(), rhs.end(), x_next);
    solve_elastic(x_next);

    // (56): K X^{q+1} = M (2X^q - X^{q-1}) - tau^2 A ((1-2a) X^q + a X^{q-1})
    for (unsigned int q = 1; q <= n_elastic; ++q)
      {
        std::swap(x_previous, x_current);
        std::swap(x_current, x_next);
        for (unsigned int k = 0; k < d; ++k)
          scratch[k] = -1. * x_previous[k] + 2. * x_current[k];
        data.mass.vmult(rhs.data(), scratch.data());
        for (unsigned int k = 0; k < d; ++k)
          scratch[k] = -tau2 * alpha * x_previous[k] +
                       -tau2 * (1 - 2 * alpha) * x_current[k];
        data.stiffness.vmult(x_next, scratch.data());
        for (unsigned int k = 0; k < d; ++k)
          x_next[k] = rhs[k] + x_next[k];
        solve_elastic(x_next);
      }

    // (57): X^{n+1} = X^Q, V^{n+1} = (X^{Q+1} - X^{Q-1})/(2 tau)
    const double inverse_two_tau = 1. / (2 * tau);
    for (unsigned int k = 0; k < d; ++k)
      {
        x[k] = x_current[k];
        v[k] = (x_next[k] + -1. * x_previous[k]) * inverse_two_tau;
      }
  }



  void
  ReplicatedSplittingStep::explicit_leapfrog()
  {
    // ElasticSubsteps::explicit_leapfrog(): X^{q+1} = 2 X^q - X^{q-1} -
    // tau^2 M^{-1} A X^q, X^1 = X^0 + tau V - tau^2/2 M^{-1} A X^0.
    const double tau  = tau_elastic;
    const double tau2 = tau * tau;
    data.stiffness.vmult(rhs.data(), x.data());
    for (unsigned int k = 0; k < d; ++k)
      {
        const double inverse_mass = 1. / data.mass_diagonal[k];
        previous[k]               = x[k];
        next[k] = x[k] + tau * v[k] - 0.5 * tau2 * inverse_mass * rhs[k];
      }
    double *x_previous = current.data(), *x_current = previous.data(),
           *x_next = next.data();
    for (unsigned int q = 1; q <= n_elastic; ++q)
      {
        std::swap(x_previous, x_current);
        std::swap(x_current, x_next);
        data.stiffness.vmult(rhs.data(), x_current);
        for (unsigned int k = 0; k < d; ++k)
          {
            const double inverse_mass = 1. / data.mass_diagonal[k];
            x_next[k] =
              2. * x_current[k] - x_previous[k] - tau2 * inverse_mass * rhs[k];
          }
      }
    const double inverse_two_tau = 0.5 / tau;
    for (unsigned int k = 0; k < d; ++k)
      {
        x[k] = x_current[k];
        v[k] = (x_next[k] - x_previous[k]) * inverse_two_tau;
      }
  }



  void
  ReplicatedSplittingStep::register_state(CheckpointArchive &archive)
  {
    // Replicated: the same on every rank, so a snapshot's rank 0 arrays
    // serve any number of ranks.
    for (auto &warm_start : warm_starts)
      archive.add(warm_start);
  }
} // namespace stickslip
