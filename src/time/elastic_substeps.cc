#include <base/local_values.h>
#include <time/elastic_substeps.h>
#include <time/stability.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  ElasticSubsteps::ElasticSubsteps(
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



  void
  ElasticSubsteps::check_stability(
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



  void
  ElasticSubsteps::set_up_operator_matrix()
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



  void
  ElasticSubsteps::set_up_matrix_free_operator()
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



  void
  ElasticSubsteps::advance(const TimeStep    &step,
                           DistributedVector &displacement,
                           DistributedVector &velocity)
  {
    if (!system.has_stiffness)
      {
        displacement.add(tau * n_sub, velocity);
        return;
      }
    if (previous.size() != system.size())
      for (auto *v : {&previous, &current, &next, &rhs, &scratch})
        v->reinit(system.locally_owned, system.comm);
    const double tau2 = tau * tau;
    // With prescribed values the right-hand sides use the unconstrained
    // operators (X holds the prescribed values); otherwise the system's own.
    const bool prescribe = static_cast<bool>(system.prescribed_values);
    // A lumped M multiplies entrywise (no sparse matrix-vector product).
    const bool diagonal   = !prescribe && system.mass_is_diagonal();
    const auto apply_mass = [&](const DistributedVector &x,
                                DistributedVector       &y) {
      if (diagonal)
        {
          ConstLocalValues m(system.mass_diagonal());
          ConstLocalValues in(x);
          LocalValues      out(y);
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
    DistributedVector *x_previous = &previous, *x_current = &current,
                      *x_next = &next;

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
    if (prescribe)
      system.impose_prescribed(step.substep_time(1, n_sub),
                               alpha * tau2,
                               operator_diagonal,
                               rhs,
                               prescribed,
                               scratch);
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
        if (prescribe)
          system.impose_prescribed(step.substep_time(q + 1, n_sub),
                                   alpha * tau2,
                                   operator_diagonal,
                                   rhs,
                                   prescribed,
                                   scratch);
        solver.solve(*x_next, rhs);
      }

    // (57): X^{n+1} = X^Q, V^{n+1} = (X^{Q+1} - X^{Q-1})/(2 tau)
    displacement = *x_current;
    velocity     = *x_next;
    velocity.add(-1., *x_previous);
    velocity /= 2 * tau;
  }



  void
  ElasticSubsteps::explicit_leapfrog(DistributedVector &displacement,
                                     DistributedVector &velocity)
  {
    // (55)-(57) with alpha = 0 and a diagonal M is the leapfrog scheme
    //   X^{q+1} = 2 X^q - X^{q-1} - tau^2 M^{-1} A X^q,
    //   X^1 = X^0 + tau V - tau^2/2 M^{-1} A X^0:
    // one product with A and one fused pass per sub-step (memory bound).
    const double     tau2 = tau * tau;
    ConstLocalValues inverse_mass(inverse_mass_diagonal);
    system.apply_stiffness(rhs, displacement);
    {
      ConstLocalValues x(displacement);
      ConstLocalValues v(velocity);
      ConstLocalValues ax(rhs);
      LocalValues      x_previous(previous);
      LocalValues      x_next(next);
      for (std::size_t k = 0; k < x.size(); ++k)
        {
          x_previous[k] = x[k];
          x_next[k] = x[k] + tau * v[k] - 0.5 * tau2 * inverse_mass[k] * ax[k];
        }
    }
    // X^0 is in previous, X^1 in next; the rotation below makes them
    // X^{q-1} and X^q.
    DistributedVector *x_previous = &current, *x_current = &previous,
                      *x_next = &next;
    for (unsigned int q = 1; q <= n_sub; ++q)
      {
        std::swap(x_previous, x_current);
        std::swap(x_current, x_next);
        system.apply_stiffness(rhs, *x_current);
        ConstLocalValues ax(rhs);
        ConstLocalValues xc(*x_current);
        ConstLocalValues xp(*x_previous);
        LocalValues      xn(*x_next);
        for (std::size_t k = 0; k < xn.size(); ++k)
          xn[k] = 2. * xc[k] - xp[k] - tau2 * inverse_mass[k] * ax[k];
      }
    ConstLocalValues xc(*x_current);
    ConstLocalValues xp(*x_previous);
    ConstLocalValues xn(*x_next);
    LocalValues      x(displacement);
    LocalValues      v(velocity);
    const double     inverse_two_tau = 0.5 / tau;
    for (std::size_t k = 0; k < x.size(); ++k)
      {
        x[k] = xc[k];
        v[k] = (xn[k] - xp[k]) * inverse_two_tau;
      }
  }



  double
  ElasticSubsteps::largest_frequency_squared() const
  {
    return nu_d;
  }



  std::string
  ElasticSubsteps::description() const
  {
    std::ostringstream out;
    out << "centered elastic step, Q = " << n_sub << ", alpha = " << alpha;
    // The leapfrog divides by m: what the solver of K = M would do.
    if (system.has_stiffness)
      out << ", solver " << (leapfrog ? "diagonal" : solver.description());
    return out.str();
  }
} // namespace stickslip
