#include <base/expressions.h>
#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <time/centered_fixed_point.h>
#include <time/centered_integrator.h>
#include <time/stability.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace stickslip
{
  CenteredIntegrator::CenteredIntegrator(const Parameters::Numerics &run,
                                         const FrictionSystem       &system,
                                         const ParameterSource      &source,
                                         const double                dt)
    : system(system)
    , parameters(run.centered)
    , source(source)
    , alpha(run.splitting.alpha)
    , step(dt)
    , epsilon(0)
    , delta(0)
    , r(0)
    , solver(run.linear_solver, system.comm)
    , step_system(system.comm)
    , started(false)
    , expected_time(0)
  {
    if (!system.gamma.is_zero() || system.extra_force)
      throw_bad_parameter(
        source,
        "Time/Scheme",
        "centered",
        "the centered scheme of Glowinski & Kearsley 1995 is written for "
        "gamma = 0 and no model-specific force (the gear "
        "box); use lie or strang for this model");
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
                    &operator_diagonal,
                    &prescribed})
      v->reinit(system.locally_owned, system.comm);

    build_operator(dt);
    check_stability(run.linear_solver, dt);

    any_friction = system.friction_weights.linfty_norm() > 0;
    if (parameters.multiplier_solver ==
        Parameters::CenteredMultiplierSolver::friction_solver)
      set_up_friction_step_solver(run, dt);
    else if (any_friction) // else lambda = 0: r and delta are not needed
      set_up_fixed_point(dt);
    if (ReplicatedCenteredStep::applies(run, system))
      replicated = std::make_unique<ReplicatedCenteredStep>(
        run, system, dt, r, epsilon, delta);
  }



  void
  CenteredIntegrator::build_operator(const double dt)
  {
    // A matrix-free M or A (String/Mass operator, String/Stiffness
    // operator) is summed term by term; alpha = 0 needs no A at all, so a
    // lumped M keeps its diagonal matrix (explicit steps) whatever A is.
    const bool uses_stiffness = system.has_stiffness && alpha > 0;
    if (system.mass_is_assembled() &&
        (!uses_stiffness || system.stiffness_is_assembled()))
      build_operator_matrix(dt);
    else
      build_matrix_free_operator(dt);
  }



  void
  CenteredIntegrator::build_operator_matrix(const double dt)
  {
#ifdef STICKSLIP_USE_PETSC_LA
    operator_matrix.reinit(
      system.mass_matrix()); // layout first: MatCopy needs it
#endif
    operator_matrix.copy_from(system.mass_matrix());
    if (system.has_stiffness && alpha > 0)
      operator_matrix.add(alpha * dt * dt, system.stiffness);
    solver.initialize(operator_matrix);
    if (system.prescribed_values)
      extract_diagonal(operator_matrix, operator_diagonal, system.comm);
  }



  void
  CenteredIntegrator::build_matrix_free_operator(const double dt)
  {
    operator_action =
      std::make_shared<OperatorSum>(system.locally_owned, system.comm);
    if (system.mass_is_assembled())
      operator_action->add(1., system.mass_matrix());
    else
      operator_action->add(1., *system.mass_action);
    if (system.has_stiffness && alpha > 0)
      {
        if (system.stiffness_is_assembled())
          operator_action->add(alpha * dt * dt, system.stiffness);
        else
          operator_action->add(alpha * dt * dt, *system.stiffness_action);
      }
    // The constrained rows of M and A keep their diagonal, as those of the
    // assembled K do, so the summed diagonal is K's on every row, the
    // prescribed ones included (what impose_prescribed() needs).
    solver.initialize(
      [this](DistributedVector &product, const DistributedVector &x) {
        operator_action->vmult(product, x);
      },
      operator_action->diagonal());
    if (system.prescribed_values)
      operator_diagonal = operator_action->diagonal();
    // The system of the friction step (38) and of the eigenvalue bound:
    // mass K, known by its action.
    step_system.locally_owned = system.locally_owned;
    step_system.mass_action   = operator_action;
  }



  void
  CenteredIntegrator::apply_operator(DistributedVector       &product,
                                     const DistributedVector &x) const
  {
    if (operator_action)
      operator_action->vmult(product, x);
    else
      operator_matrix.vmult(product, x);
  }



  void
  CenteredIntegrator::check_stability(
    const Parameters::LinearSolver &linear_solver,
    const double                    dt) const
  {
    // Theorem 1.1 / Remark 2.1 of Glowinski & Kearsley 1995: dt < [(1/4 -
    // alpha) delta_M]^{-1/2}.
    if (!(alpha < 0.25 && system.has_stiffness))
      return;
    const double nu    = largest_frequency_squared(system, linear_solver);
    const double limit = 1. / std::sqrt((0.25 - alpha) * nu);
    if (!(dt < limit))
      throw_bad_parameter(
        source,
        "Splitting/Elastic implicitness",
        format_number(alpha),
        "the centered scheme (Glowinski & Kearsley 1995, Remark 2.1) with alpha < 1/4 needs "
        "dt < 1/sqrt((1/4 - alpha) delta_M) = " +
          format_number(limit) + ", delta_M = lambda_max(M^{-1}A) = " +
          format_number(nu) + ", and dt = " + format_number(dt) +
          ". Reduce the time step or choose alpha >= 1/4 (unconditionally "
          "stable)");
  }



  void
  CenteredIntegrator::set_up_friction_step_solver(
    const Parameters::Numerics &run,
    const double                dt)
  {
    if (!operator_action)
      {
        step_system.locally_owned = system.locally_owned;
#ifdef STICKSLIP_USE_PETSC_LA
        step_system.mass.reinit(operator_matrix);
#endif
        step_system.mass.copy_from(operator_matrix);
      }
    else if (run.friction.solver == Parameters::FrictionSolverType::projection)
      throw_bad_parameter(
        source,
        "Friction/Solver",
        "projection",
        "with Time/Scheme = centered the friction step "
        "(38) has the matrix M + alpha dt^2 A, here applied "
        "without a matrix ('" +
          operator_action->chosen_by() +
          "'), and the projection iteration (Glowinski et al. 2006, eqs. "
          "(39)-(41)) needs exact solves with it at every "
          "iteration (a factorization). Use semismooth "
          "newton, Centered scheme/Multiplier solver = "
          "fixed point, or the assembled operators");
    step_system.friction_weights = system.friction_weights;
    step_system.finalize();
    if (run.friction.solver == Parameters::FrictionSolverType::closed_form &&
        !step_system.mass_is_diagonal())
      throw_bad_parameter(
        source,
        "Friction/Solver",
        "closed form",
        "with Time/Scheme = centered the friction step "
        "(38) has the matrix M + alpha dt^2 A, diagonal "
        "only for a diagonal M and Splitting/Elastic implicitness = 0; "
        "use semismooth newton, or alpha = 0");
    step_solver = create_friction_step_solver(run.friction,
                                              run.linear_solver,
                                              step_system,
                                              source);
    step_solver->set_substep(dt / 2);
  }



  double
  CenteredIntegrator::friction_operator_bound()
  {
    // delta = lambda_max((M + alpha dt^2 A)^{-1} C^2), Glowinski & Kearsley
    // 1995, §1.3.
    if (system.size() <= 1000)
      {
        const FullMatrix<double>     k = operator_action ?
                                           step_system.replicated_mass() :
                                           replicate(operator_matrix, system.comm);
        const dealii::Vector<double> c =
          replicate(system.friction_weights, system.comm);
        FullMatrix<double> c2(c.size(), c.size());
        for (unsigned int i = 0; i < c.size(); ++i)
          c2(i, i) = c[i] * c[i];
        return largest_generalized_eigenvalue(c2, k);
      }
    if (operator_action)
      {
        // Each power-iteration step would be a CG solve with K: at 2^14
        // cells 4.5 minutes of set-up against 10 s for 100 steps.
        const double bound = friction_bound_from_mass();
        if (bound > 0)
          {
            delta_is_mass_bound = true;
            return bound;
          }
      }
    return 1.01 * power_iteration_generalized(
                    [&](const DistributedVector &x, DistributedVector &y) {
                      ConstLocalValues c(system.friction_weights);
                      ConstLocalValues in(x);
                      LocalValues      out(y);
                      for (std::size_t k = 0; k < out.size(); ++k)
                        out[k] = c[k] * c[k] * in[k];
                    },
                    [&](const DistributedVector &x, DistributedVector &y) {
                      apply_operator(y, x);
                    },
                    [&](const DistributedVector &x, DistributedVector &y) {
                      solver.solve(y, x);
                    },
                    system.locally_owned,
                    system.comm);
  }



  double
  CenteredIntegrator::friction_bound_from_mass() const
  {
    // K = M + alpha dt^2 A >= M (A is positive semidefinite), so delta <=
    // lambda_max(M^{-1} C^2): max c_i^2/m_ii for a diagonal M (as sharp as
    // the power iteration's 1% margin when C^2 is proportional to M^2, as
    // for a uniform friction coefficient, where the top mode is smooth);
    // otherwise max c_i^2 / lambda_min(M), with Gershgorin's lower bound
    // min_i (2 m_ii - sum_j |m_ij|) of lambda_min(M) (h/3 for the P1 mass,
    // its exact smallest eigenvalue).
    ConstLocalValues c(system.friction_weights);
    double           largest = 0;
    if (system.mass_is_diagonal())
      {
        ConstLocalValues m(system.mass_diagonal());
        for (std::size_t k = 0; k < c.size(); ++k)
          largest = std::max(largest, c[k] * c[k] / m[k]);
        return Utilities::MPI::max(largest, system.comm);
      }
    OperatorSum mass(system.locally_owned, system.comm);
    if (system.mass_is_assembled())
      mass.add(1., system.mass_matrix());
    else
      mass.add(1., *system.mass_action);
    ConstLocalValues m(mass.diagonal());
    ConstLocalValues sums(mass.row_sum_bound());
    double           lowest = std::numeric_limits<double>::max();
    for (std::size_t k = 0; k < c.size(); ++k)
      {
        largest = std::max(largest, c[k] * c[k]);
        lowest  = std::min(lowest, 2 * m[k] - sums[k]);
      }
    largest = Utilities::MPI::max(largest, system.comm);
    lowest  = Utilities::MPI::min(lowest, system.comm);
    return lowest > 0 ? largest / lowest : 0.;
  }



  void
  CenteredIntegrator::set_up_fixed_point(const double dt)
  {
    delta                = friction_operator_bound();
    const double r_limit = 4. / (delta * dt);
    if (parameters.r > 0)
      {
        if (!(parameters.r < r_limit))
          throw_bad_parameter(source,
                              "Centered scheme/Multiplier relaxation",
                              format_number(parameters.r),
                              "the fixed-point iteration (1.14) converges "
                              "only for 0 < r < 4/(delta dt) = " +
                                format_number(r_limit) +
                                " (delta = " + format_number(delta) +
                                ", dt = " + format_number(dt) +
                                "); 0 chooses 2/(delta dt)");
        r = parameters.r;
      }
    else
      r = 2. / (delta * dt);
    if (parameters.regularization)
      epsilon = parameters.epsilon(dt, source);
  }



  void
  CenteredIntegrator::first_step(const double   t,
                                 const double   dt,
                                 FrictionState &state)
  {
    const bool   prescribe = static_cast<bool>(system.prescribed_values);
    const double dt2       = dt * dt;

    x_current = state.displacement;
    // (1.5)-(1.6): lambda^0 = sign(x_1) where c_i > 0 and x_1,i != 0.
    {
      ConstLocalValues c(system.friction_weights);
      ConstLocalValues v(state.velocity);
      LocalValues      l(lambda);
      for (std::size_t k = 0; k < l.size(); ++k)
        l[k] = (c[k] > 0 && v[k] != 0) ? (v[k] > 0 ? 1. : -1.) : 0.;
    }
    // (M + a dt^2 A) x^1 = (M + a dt^2 A) dt x_1
    //   + (M - (1-2a)/2 dt^2 A) x^0 + dt^2/2 (f^0 - C lambda^0)
    base = state.velocity;
    base *= dt;
    base.add(1., x_current);
    system.apply_mass(rhs, base, prescribe);
    if (system.has_stiffness)
      {
        base = x_current;
        base *= -0.5 * (1 - 2 * alpha) * dt2;
        if (alpha > 0)
          base.add(alpha * dt2 * dt, state.velocity);
        system.apply_stiffness(scratch, base, prescribe);
        rhs += scratch;
      }
    system.forcing(t, base);
    {
      ConstLocalValues c(system.friction_weights);
      ConstLocalValues l(lambda);
      LocalValues      f(base);
      for (std::size_t k = 0; k < f.size(); ++k)
        f[k] -= c[k] * l[k];
    }
    rhs.add(0.5 * dt2, base);
    if (prescribe)
      system.impose_prescribed(next_time,
                               alpha * dt * dt,
                               operator_diagonal,
                               rhs,
                               prescribed,
                               scratch);
    solver.solve(x_next, rhs);

    // x^{-1} = x^1 - 2 dt x_1 (1.4)
    x_previous = x_next;
    x_previous.add(-2. * dt, state.velocity);
    warm_start = 0;
    ++statistics.friction_solves;
  }



  void
  CenteredIntegrator::assemble_rhs(const double t, const double dt)
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
    if (prescribe)
      system.impose_prescribed(next_time,
                               alpha * dt * dt,
                               operator_diagonal,
                               rhs,
                               prescribed,
                               scratch);
  }



  unsigned int
  CenteredIntegrator::fixed_point(const double dt, const double t)
  {
    const double dt2 = dt * dt;
    // x^{n+1,k} from (1.13) for the current lambda.
    const auto solve_for_displacement = [&]() {
      {
        ConstLocalValues c(system.friction_weights);
        ConstLocalValues l(lambda);
        ConstLocalValues b(rhs);
        LocalValues      out(base);
        for (std::size_t k = 0; k < out.size(); ++k)
          out[k] = b[k] - dt2 * c[k] * l[k];
      }
      solver.solve(x_next, base);
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
          ConstLocalValues c(system.friction_weights);
          ConstLocalValues xn(x_next);
          ConstLocalValues xp(x_previous);
          ConstLocalValues lp(lambda_previous);
          LocalValues      l(lambda);
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



  unsigned int
  CenteredIntegrator::friction_solve(const double dt)
  {
    // b = (rhs - K x^{n-1}) / (2 dt), W = (x^{n+1} - x^{n-1}) / (2 dt)
    apply_operator(scratch, x_previous);
    base = rhs;
    base -= scratch;
    base /= 2. * dt;
    const unsigned int iterations =
      step_solver->solve(base, change, lambda, warm_start);
    x_next = x_previous;
    x_next.add(2. * dt, change);
    return iterations;
  }



  void
  CenteredIntegrator::advance(const TimeStep &time_step, FrictionState &state)
  {
    if (replicated)
      {
        replicated->advance(time_step, state, statistics);
        return;
      }
    const double t = time_step.time, dt = time_step.size;
    next_time = time_step.next_time;
    Assert(std::abs(dt - step) <= 1e-12 * step,
           ExcMessage("the centered integrator is built for one step size"));
    const bool continuing = started && std::abs(t - expected_time) <= 1e-9 * dt;
    unsigned int iterations = 0;
    if (!continuing)
      first_step(t, dt, state);
    else
      {
        x_current = state.displacement;
        assemble_rhs(t, dt);
        if (step_solver)
          iterations = friction_solve(dt);
        else
          iterations = fixed_point(dt, t);
        ++statistics.friction_solves;
      }
    statistics.friction_iterations += iterations;
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

    // Velocity (x^{n+1} - x^{n-1})/(2 dt), friction work
    // c_i lambda_i (x^{n+1} - x^{n-1})/2 and stick.
    {
      ConstLocalValues c(system.friction_weights);
      ConstLocalValues xn(x_next);
      ConstLocalValues xc(x_current);
      ConstLocalValues xp(x_previous);
      ConstLocalValues l(lambda);
      LocalValues      v(state.velocity);
      LocalValues      stick(state.stick);
      const double     gain = r / (2. * dt);
      double           work = 0;
      for (std::size_t k = 0; k < v.size(); ++k)
        {
          v[k] = (xn[k] - xp[k]) / (2. * dt);
          work += 0.5 * c[k] * l[k] * (xn[k] - xp[k]);
          bool stuck = false;
          if (c[k] > 0)
            // exact steps: x^{n+1} = x^{n-1}; the fixed point: the
            // projection of (1.14) inactive, |lambda| < 1 in the interior
            stuck = (!continuing || step_solver) ?
                      xn[k] == xp[k] :
                      std::abs(l[k] + gain * c[k] * (xn[k] - xp[k])) < 1.;
          stick[k] = stuck ? 1. : 0.;
        }
      statistics.local_dissipated_energy += work;
    }
    state.displacement = x_next;
    state.multiplier   = lambda;
    lambda_previous    = lambda;
    x_previous         = x_current;
    x_current          = x_next;
    started            = true;
    expected_time      = time_step.next_time;
  }



  std::string
  CenteredIntegrator::description() const
  {
    std::ostringstream out;
    out << "centered multiplier scheme (Glowinski & Kearsley 1995), alpha = "
        << alpha << ", ";
    if (step_solver)
      out << "lambda by the friction solver " << step_solver->name();
    else
      {
        out << "lambda by the fixed point (1.12)-(1.15), r = " << r
            << " (delta = " << delta
            << (delta_is_mass_bound ? ", its bound from M" : "")
            << "), eta = " << parameters.tolerance;
        if (parameters.regularization)
          out << ", regularized (1.19) with epsilon = " << epsilon;
        if (!parameters.warm_start)
          out << ", cold start";
      }
    out << "; solver " << solver.description();
    if (replicated)
      out << "; steps on plain arrays (tiny system)";
    return out.str();
  }



  void
  CenteredIntegrator::register_state(CheckpointArchive &archive)
  {
    if (replicated)
      {
        replicated->register_state(archive);
        return;
      }
    // the two-step scheme's levels x^{n-1}, x^n and lambda^{n-1}
    archive.add(x_previous);
    archive.add(x_current);
    archive.add(lambda_previous);
    archive.add(warm_start);
    archive.add(started);
    archive.add(expected_time);
  }



  double
  CenteredIntegrator::largest_friction_eigenvalue() const
  {
    return delta;
  }



  double
  CenteredIntegrator::fixed_point_parameter() const
  {
    return r;
  }
} // namespace stickslip
