#include <base/expressions.h>
#include <base/local_values.h>
#include <friction/replicated_semismooth_newton.h>
#include <linear_algebra/dense_tools.h>
#include <time/centered_integrator.h>
#include <time/stability.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /**
     * Whether the steps of @p run for @p system run on a ReplicatedSystem:
     * a replicable system, a direct linear solver, and the fixed point or
     * the closed-form or semismooth Newton friction solver.
     */
    bool
    centered_replicable(const Parameters::Numerics &run,
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
  } // namespace



  /**
   * The steps of a tiny system on plain arrays: the system, K = M + alpha
   * dt^2 A summed entry by entry and its solver, the multiplier's solver,
   * and the state during a step.
   */
  struct CenteredIntegrator::Replicated
  {
    Replicated(const Parameters::Numerics &run,
               const FrictionSystem       &distributed,
               const double                dt,
               const double                r,
               const double                epsilon,
               const double                delta,
               const bool                  any_friction)
      : system(distributed)
      , operator_entries(system.mass_matrix)
    {
      const unsigned int d     = system.size();
      const double       alpha = run.splitting.alpha;
      if (system.has_stiffness && alpha > 0)
        for (unsigned int i = 0; i < d; ++i)
          for (unsigned int j = 0; j < d; ++j)
            operator_entries(i, j) =
              system.mass_matrix(i, j) +
              alpha * dt * dt * system.stiffness_matrix(i, j);
      solver.initialize(operator_entries);
      CenteredSteps<ReplicatedSystem>::Operators operators;
      operators.apply = [this](ReplicatedVector       &product,
                               const ReplicatedVector &x) {
        solver.vmult(product, x);
      };
      operators.solver = &solver;
      if (run.centered.multiplier_solver ==
          Parameters::CenteredMultiplierSolver::friction_solver)
        {
          step_solver =
            std::make_unique<ReplicatedFrictionSolver>(operator_entries,
                                                       system.friction_weights,
                                                       run.friction);
          step_solver->set_substep(dt / 2);
          operators.step_solver = step_solver.get();
        }
      steps = std::make_unique<CenteredSteps<ReplicatedSystem>>(system,
                                                                run.centered,
                                                                alpha,
                                                                dt,
                                                                r,
                                                                epsilon,
                                                                delta,
                                                                any_friction,
                                                                operators);
      for (auto *v : {&displacement, &velocity, &multiplier, &stick})
        system.reinit_vector(*v);
    }

    ReplicatedSystem                                 system;
    FullMatrix<double>                               operator_entries;
    ReplicatedSpdSolver                              solver;
    std::unique_ptr<ReplicatedFrictionSolver>        step_solver;
    std::unique_ptr<CenteredSteps<ReplicatedSystem>> steps;
    ReplicatedVector displacement, velocity, multiplier, stick;
  };



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
  {
    if (!system.gamma.is_zero() || system.extra_force)
      throw_bad_parameter(
        source,
        "Time/Scheme",
        "centered",
        "the centered scheme of Glowinski & Kearsley 1995 is written for "
        "gamma = 0 and no model-specific force (the gear "
        "box); use lie or strang for this model");
    operator_diagonal.reinit(system.locally_owned, system.comm);
    build_operator(dt);
    check_stability(run.linear_solver, dt);

    any_friction = system.friction_weights.linfty_norm() > 0;
    if (parameters.multiplier_solver ==
        Parameters::CenteredMultiplierSolver::friction_solver)
      set_up_friction_step_solver(run, dt);
    else if (any_friction) // else lambda = 0: r and delta are not needed
      set_up_fixed_point(dt);
    if (centered_replicable(run, system))
      {
        replicated = std::make_unique<Replicated>(
          run, system, dt, r, epsilon, delta, any_friction);
        return;
      }
    CenteredSteps<FrictionSystem>::Operators operators;
    operators.apply = [this](DistributedVector       &product,
                             const DistributedVector &x) {
      apply_operator(product, x);
    };
    operators.solver      = &solver;
    operators.step_solver = step_solver.get();
    operators.diagonal    = &operator_diagonal;
    steps = std::make_unique<CenteredSteps<FrictionSystem>>(system,
                                                            parameters,
                                                            alpha,
                                                            dt,
                                                            r,
                                                            epsilon,
                                                            delta,
                                                            any_friction,
                                                            operators);
  }



  CenteredIntegrator::~CenteredIntegrator() = default;



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
        // Each power-iteration step would be a CG solve with K: minutes of
        // set-up for seconds of time steps (BENCHMARKS.md, "Measurements
        // behind design choices in the code").
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
  CenteredIntegrator::advance(const TimeStep &time_step, FrictionState &state)
  {
    if (!replicated)
      {
        steps->advance(time_step,
                       state.displacement,
                       state.velocity,
                       state.multiplier,
                       state.stick,
                       statistics);
        return;
      }
    // The state is read once and written once per step (the velocity only
    // by a first step).
    Replicated &r = *replicated;
    r.system.gather(state.displacement, r.displacement);
    if (!r.steps->continues(time_step))
      r.system.gather(state.velocity, r.velocity);
    r.steps->advance(
      time_step, r.displacement, r.velocity, r.multiplier, r.stick, statistics);
    r.system.scatter(r.velocity, state.velocity);
    r.system.scatter(r.stick, state.stick);
    r.system.scatter(r.displacement, state.displacement);
    r.system.scatter(r.multiplier, state.multiplier);
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
      replicated->steps->register_state(archive);
    else
      steps->register_state(archive);
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
