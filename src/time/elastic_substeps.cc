#include <base/local_values.h>
#include <time/elastic_substeps.h>
#include <time/lie_step_entries.h>
#include <time/stability.h>

#include <cmath>
#include <sstream>
#include <utility>

namespace stickslip
{
  template <class System>
  ElasticSubsteps<System>::~ElasticSubsteps() = default;



  template <>
  void
  ElasticSubsteps<FrictionSystem>::check_stability(
    const Parameters::LinearSolver &linear_solver,
    const ParameterSource          &source)
  {
    nu_d = stickslip::largest_frequency_squared(system, linear_solver);
    const double limit = 1. / std::sqrt((0.25 - alpha) * nu_d);
    if (tau < limit)
      return;
    std::ostringstream message;
    message.precision(6);
    message
      << "the elastic sub-step tau_2 = dt/Q = " << tau
      << " violates the stability condition of Glowinski et al. 2006, §4, "
         "tau_2 < 1/sqrt((1/4 - alpha) nu_d) = "
      << limit << " (alpha = " << alpha
      << ", nu_d = lambda_max(M^{-1}A) = " << nu_d
      << "; for the wave equation this is the CFL condition, "
         "about tau_2 < h/c for a lumped P1 mass). Reduce "
         "'Time/Time step', raise 'Splitting/Elastic "
         "substeps' (Q = "
      << n_sub
      << "), or choose 'Splitting/Elastic implicitness' >= 0.25 "
         "(unconditionally stable)";
    std::ostringstream value;
    value << alpha;
    throw_bad_parameter(source,
                        "Splitting/Elastic implicitness",
                        value.str(),
                        message.str());
  }



  template <>
  void
  ElasticSubsteps<FrictionSystem>::set_up_operator_matrix()
  {
    const DistributedMatrix &mass = system.mass_matrix();
#ifdef STICKSLIP_USE_PETSC_LA
    operator_matrix.reinit(mass); // layout first: MatCopy needs it
#endif
    operator_matrix.copy_from(mass);
    if (alpha > 0)
      operator_matrix.add(alpha * tau * tau, system.stiffness);
    solver.initialize(operator_matrix);
    if (system.prescribed_values)
      extract_diagonal(operator_matrix, operator_diagonal, system.comm);
  }



  template <>
  void
  ElasticSubsteps<FrictionSystem>::set_up_matrix_free_operator()
  {
    // The constrained rows of M and A keep their diagonal, as those of the
    // assembled K do, so diag(K) = diag(M) + alpha tau^2 diag(A) on every
    // row, prescribed ones included.
    const double factor = alpha * tau * tau;
    operator_diagonal.reinit(system.locally_owned, system.comm);
    operator_diagonal = system.mass_diagonal();
    if (factor > 0)
      {
        stiffness_product.reinit(system.locally_owned, system.comm);
        if (system.stiffness_is_assembled())
          {
            extract_diagonal(system.stiffness, stiffness_product, system.comm);
            operator_diagonal.add(factor, stiffness_product);
          }
        else
          operator_diagonal.add(factor, system.stiffness_action->diagonal());
      }
    solver.initialize(
      [this, factor](DistributedVector &product, const DistributedVector &x) {
        system.apply_mass(product, x);
        if (factor > 0)
          {
            system.apply_stiffness(stiffness_product, x);
            product.add(factor, stiffness_product);
          }
      },
      operator_diagonal);
  }



  template <>
  ElasticSubsteps<FrictionSystem>::ElasticSubsteps(
    const FrictionSystem           &system,
    const Parameters::Splitting    &splitting,
    const Parameters::LinearSolver &linear_solver,
    const ParameterSource          &source,
    const double                    step_length,
    const bool                      fused)
    : system(system)
    , alpha(splitting.alpha)
    , n_sub(splitting.elastic_substeps)
    , tau(step_length / splitting.elastic_substeps)
    , leapfrog(splitting.alpha == 0 && system.mass_is_diagonal() &&
               !system.prescribed_values)
    , solver(linear_solver, system.comm)
    , nu_d(0)
  {
    // The work vectors of advance() are sized on its first call: a run
    // whose steps are fused (FusedLieStep) never holds them (40 B per
    // unknown), nor K, its solver or 1/m.
    if (!system.has_stiffness)
      return; // M X'' = 0: the step is exact, X += dt V.
    if (alpha < 0.25)
      check_stability(linear_solver, source);
    if (fused)
      return;
    if (system.prescribed_values)
      for (auto *v : {&prescribed, &operator_diagonal})
        v->reinit(system.locally_owned, system.comm);
    if (leapfrog)
      {
        // 1/m is all the explicit step needs (K = M would be solved by
        // the same division).
        inverse_mass_diagonal.reinit(system.locally_owned, system.comm);
        ConstLocalValues m(system.mass_diagonal());
        LocalValues      inverse(inverse_mass_diagonal);
        for (std::size_t k = 0; k < m.size(); ++k)
          inverse[k] = 1. / m[k];
      }
    else if (!system.mass_is_assembled() ||
             (alpha > 0 && !system.stiffness_is_assembled()))
      set_up_matrix_free_operator();
    else
      set_up_operator_matrix();
  }



  template <>
  ElasticSubsteps<ReplicatedSystem>::ElasticSubsteps(
    const ReplicatedSystem      &system,
    const Parameters::Splitting &splitting,
    const Parameters::LinearSolver &,
    const ParameterSource &,
    const double step_length,
    const bool)
    : system(system)
    , alpha(splitting.alpha)
    , n_sub(splitting.elastic_substeps)
    , tau(step_length / splitting.elastic_substeps)
    , leapfrog(splitting.alpha == 0 && system.mass_is_diagonal())
    , nu_d(0)
  {
    // The distributed step of the same system checked the stability.
    if (!system.has_stiffness)
      return;
    const unsigned int d = system.size();
    if (leapfrog)
      {
        system.reinit_vector(inverse_mass_diagonal);
        for (unsigned int k = 0; k < d; ++k)
          inverse_mass_diagonal[k] = 1. / system.mass_diagonal()[k];
        return;
      }
    // K = M + alpha tau^2 A, entry by entry as the matrices are added.
    FullMatrix<double> operator_entries = system.mass_matrix;
    if (alpha > 0)
      for (unsigned int i = 0; i < d; ++i)
        for (unsigned int j = 0; j < d; ++j)
          operator_entries(i, j) =
            system.mass_matrix(i, j) +
            alpha * tau * tau * system.stiffness_matrix(i, j);
    solver.initialize(operator_entries);
  }



  template <class System>
  void
  ElasticSubsteps<System>::impose_prescribed(const double time, Vector &rhs)
  {
    if constexpr (!on_arrays)
      if (system.prescribed_values)
        system.impose_prescribed(
          time, alpha * tau * tau, operator_diagonal, rhs, prescribed, scratch);
  }



  template <class System>
  void
  ElasticSubsteps<System>::advance(const TimeStep &step,
                                   Vector         &displacement,
                                   Vector         &velocity)
  {
    if (!system.has_stiffness)
      {
        displacement.add(tau * n_sub, velocity);
        return;
      }
    if (previous.size() != system.size())
      for (auto *v : {&previous, &current, &next, &rhs, &scratch})
        system.reinit_vector(*v);
    const double tau2 = tau * tau;
    // With prescribed values the right-hand sides use the unconstrained
    // operators (X holds the prescribed values); otherwise the system's own.
    const bool prescribe = static_cast<bool>(system.prescribed_values);
    // A lumped M multiplies entrywise (no sparse matrix-vector product); a
    // replicated system multiplies by its rows as PETSc's AIJ product does.
    const bool diagonal = !on_arrays && !prescribe && system.mass_is_diagonal();
    const auto apply_mass = [&](const Vector &x, Vector &y) {
      if (diagonal)
        {
          const auto m   = read_values(system.mass_diagonal());
          const auto in  = read_values(x);
          auto       out = write_values(y);
          for (std::size_t k = 0; k < out.size(); ++k)
            out[k] = m[k] * in[k];
        }
      else
        system.apply_mass(y, x, prescribe);
    };

    if (leapfrog)
      {
        explicit_leapfrog(displacement, velocity);
        return;
      }

    // X^{q-1}, X^q, X^{q+1} rotate through three vectors: no copies.
    Vector *x_previous = &previous, *x_current = &current, *x_next = &next;

    // (55) and the first step of (56), X^{-1} = X^1 - 2 tau V eliminated:
    // K X^1 = K tau V + (M - (1-2a)/2 tau^2 A) X^0
    *x_current = displacement;
    scratch    = *x_current;
    scratch.add(tau, velocity);
    apply_mass(scratch, rhs);
    scratch = *x_current;
    scratch *= -0.5 * (1 - 2 * alpha) * tau2;
    if (alpha > 0)
      scratch.add(alpha * tau2 * tau, velocity);
    // A X into X^{1}'s storage, then added: the sum stays in the row order
    // of a serial product, so tiny systems give the same bits on any number
    // of ranks (a fused MatMultAdd would not).
    system.apply_stiffness(*x_next, scratch, prescribe);
    rhs += *x_next;
    impose_prescribed(step.substep_time(1, n_sub), rhs);
    solver.solve(*x_next, rhs);

    // (56) for q = 1..Q:
    // K X^{q+1} = M (2X^q - X^{q-1}) - tau^2 A ((1-2a) X^q + a X^{q-1})
    for (unsigned int q = 1; q <= n_sub; ++q)
      {
        std::swap(x_previous, x_current);
        std::swap(x_current, x_next);
        scratch = *x_current;
        scratch.sadd(2., -1., *x_previous);
        apply_mass(scratch, rhs);
        scratch = *x_current;
        scratch.sadd(-tau2 * (1 - 2 * alpha), -tau2 * alpha, *x_previous);
        system.apply_stiffness(*x_next, scratch, prescribe);
        rhs += *x_next;
        impose_prescribed(step.substep_time(q + 1, n_sub), rhs);
        solver.solve(*x_next, rhs);
      }

    // (57): X^{n+1} = X^Q, V^{n+1} = (X^{Q+1} - X^{Q-1})/(2 tau)
    displacement = *x_current;
    velocity     = *x_next;
    velocity.add(-1., *x_previous);
    velocity /= 2 * tau;
  }



  template <class System>
  void
  ElasticSubsteps<System>::explicit_leapfrog(Vector &displacement,
                                             Vector &velocity)
  {
    // (55)-(57) with alpha = 0 and a diagonal M is the leapfrog scheme
    //   X^{q+1} = 2 X^q - X^{q-1} - tau^2 M^{-1} A X^q,
    //   X^1 = X^0 + tau V - tau^2/2 M^{-1} A X^0:
    // one product with A and one fused pass per sub-step (memory bound).
    const double tau2         = tau * tau;
    const auto   inverse_mass = read_values(inverse_mass_diagonal);
    system.apply_stiffness(rhs, displacement);
    {
      const auto x          = read_values(displacement);
      const auto v          = read_values(velocity);
      const auto ax         = read_values(rhs);
      auto       x_previous = write_values(previous);
      auto       x_next     = write_values(next);
      for (std::size_t k = 0; k < x.size(); ++k)
        {
          x_previous[k] = x[k];
          x_next[k]     = LieStepEntries::first_position(
            x[k], v[k], inverse_mass[k], ax[k], tau, tau2);
        }
    }
    // X^0 is in previous, X^1 in next; the rotation below makes them
    // X^{q-1} and X^q.
    Vector *x_previous = &current, *x_current = &previous, *x_next = &next;
    for (unsigned int q = 1; q <= n_sub; ++q)
      {
        std::swap(x_previous, x_current);
        std::swap(x_current, x_next);
        system.apply_stiffness(rhs, *x_current);
        const auto ax = read_values(rhs);
        const auto xc = read_values(std::as_const(*x_current));
        const auto xp = read_values(std::as_const(*x_previous));
        auto       xn = write_values(*x_next);
        for (std::size_t k = 0; k < xn.size(); ++k)
          xn[k] = LieStepEntries::next_position(
            xc[k], xp[k], inverse_mass[k], ax[k], tau2);
      }
    const auto   xc              = read_values(std::as_const(*x_current));
    const auto   xp              = read_values(std::as_const(*x_previous));
    const auto   xn              = read_values(std::as_const(*x_next));
    auto         x               = write_values(displacement);
    auto         v               = write_values(velocity);
    const double inverse_two_tau = 0.5 / tau;
    for (std::size_t k = 0; k < x.size(); ++k)
      {
        x[k] = xc[k];
        v[k] = LieStepEntries::velocity(xn[k], xp[k], inverse_two_tau);
      }
  }



  template <class System>
  double
  ElasticSubsteps<System>::largest_frequency_squared() const
  {
    return nu_d;
  }



  template <class System>
  std::string
  ElasticSubsteps<System>::description() const
  {
    std::ostringstream out;
    out << "centered elastic step, Q = " << n_sub << ", alpha = " << alpha;
    // The leapfrog divides by m: what the solver of K = M would do.
    if (system.has_stiffness)
      out << ", solver " << (leapfrog ? "diagonal" : solver.description());
    return out.str();
  }


  template class ElasticSubsteps<FrictionSystem>;
  template class ElasticSubsteps<ReplicatedSystem>;
} // namespace stickslip
