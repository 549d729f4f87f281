#include <deal.II/lac/lapack_full_matrix.h>

#include <friction/penalty_newton_solver.h>
#include <linear_algebra/dense_tools.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  PenaltyNewtonSolver::PenaltyNewtonSolver(
    const FrictionSystem       &system,
    const Parameters::Friction &parameters,
    const ParameterSource      &source)
    : system(system)
    , parameters(parameters)
    , tau(0)
  {
    if (system.size() > max_size)
      throw_bad_parameter(
        source,
        "Friction/Solver",
        "penalty newton",
        "the penalty/Newton method works on the dense "
        "matrix tau C M^{-1} C (Glowinski et al. 2006, eq. (63)) and accepts "
        "at most " +
          std::to_string(max_size) + " unknowns; this system has " +
          std::to_string(system.size()) +
          ". Use semismooth newton (or closed form with a "
          "lumped mass)");
    const FullMatrix<double> M = system.replicated_mass();
    LAPACKFullMatrix<double> inverse(M.m());
    inverse = M;
    inverse.invert();
    mass_inverse.reinit(M.m(), M.m());
    for (unsigned int i = 0; i < M.m(); ++i)
      for (unsigned int j = 0; j < M.m(); ++j)
        mass_inverse(i, j) = inverse(i, j);
    c = replicate(system.friction_weights, system.comm);
    for (unsigned int i = 0; i < c.size(); ++i)
      if (c[i] > 0)
        frictional.push_back(i);
  }



  void
  PenaltyNewtonSolver::set_substep(const double new_tau)
  {
    tau                  = new_tau;
    const unsigned int n = frictional.size();
    obstacle_matrix.reinit(n, n);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        obstacle_matrix(i, j) = tau * c[frictional[i]] *
                                mass_inverse(frictional[i], frictional[j]) *
                                c[frictional[j]];
  }



  unsigned int
  PenaltyNewtonSolver::solve(const DistributedVector &b_distributed,
                             DistributedVector       &w_distributed,
                             DistributedVector       &lambda_distributed,
                             DistributedVector       &warm_start)
  {
    const unsigned int           n = frictional.size();
    const dealii::Vector<double> b = replicate(b_distributed, system.comm);
    dealii::Vector<double>       mass_inverse_b(b.size());
    mass_inverse.vmult(mass_inverse_b, b);

    // beta = C M^{-1} b on the frictional components; lambda_eps warm start.
    const dealii::Vector<double> start = replicate(warm_start, system.comm);
    dealii::Vector<double>       beta(n), mu(n), residual(n), step(n);
    for (unsigned int i = 0; i < n; ++i)
      {
        beta[i] = c[frictional[i]] * mass_inverse_b[frictional[i]];
        mu[i]   = start[frictional[i]];
      }

    const double             inverse_epsilon = 1. / parameters.penalty_epsilon;
    unsigned int             iteration       = 0;
    LAPACKFullMatrix<double> jacobian(n);
    while (true)
      {
        // (70): F = A mu - beta + [((mu-1)^+)^2 - ((mu+1)^-)^2] / eps
        obstacle_matrix.vmult(residual, mu);
        residual -= beta;
        for (unsigned int i = 0; i < n; ++i)
          {
            const double over  = std::max(0., mu[i] - 1.);
            const double under = std::max(0., -(mu[i] + 1.));
            residual[i] += inverse_epsilon * (over * over - under * under);
          }
        // (74): F' = A + 2/eps [diag((mu-1)^+) + diag((mu+1)^-)], in a
        // matrix reset each iteration (the last one holds its Cholesky
        // factor) and marked symmetric: LAPACKFullMatrix factorizes only
        // such a matrix (deal.II asserts both in debug builds).
        jacobian.reinit(n);
        jacobian.set_property(LAPACKSupport::symmetric);
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int j = 0; j < n; ++j)
            jacobian(i, j) = obstacle_matrix(i, j);
        for (unsigned int i = 0; i < n; ++i)
          jacobian(i, i) +=
            2. * inverse_epsilon *
            (std::max(0., mu[i] - 1.) + std::max(0., -(mu[i] + 1.)));
        // Stop when the Jacobi-scaled residual, an estimate of the next
        // Newton step, is below the tolerance: a converged warm start then
        // costs no factorization at all.
        double scaled_residual = 0;
        for (unsigned int i = 0; i < n; ++i)
          scaled_residual =
            std::max(scaled_residual, std::abs(residual[i]) / jacobian(i, i));
        if (scaled_residual <= parameters.tolerance)
          break;
        if (iteration >= parameters.max_iterations)
          {
            std::ostringstream message;
            message
              << "penalty/Newton (Glowinski et al. 2006, eqs. (72)-(74)) did not converge "
                 "in 'Friction/Maximum iterations' = "
              << parameters.max_iterations << " iterations (residual "
              << residual.linfty_norm() << ")";
            throw RunError(message.str());
          }
        jacobian.compute_cholesky_factorization();
        step = residual;
        jacobian.solve(step);
        mu -= step;
        ++iteration;
        if (step.linfty_norm() <= parameters.tolerance)
          break;
      }

    // W = M^{-1}(b - tau C P_Lambda(lambda_eps)).
    dealii::Vector<double> lambda(b.size()), rhs(b), w(b.size()),
      unclipped(b.size());
    for (unsigned int i = 0; i < n; ++i)
      {
        unclipped[frictional[i]] = mu[i];
        lambda[frictional[i]]    = std::min(1., std::max(-1., mu[i]));
        rhs[frictional[i]] -= tau * c[frictional[i]] * lambda[frictional[i]];
      }
    mass_inverse.vmult(w, rhs);
    copy_owned(w, w_distributed);
    copy_owned(lambda, lambda_distributed);
    copy_owned(unclipped, warm_start);
    return iteration;
  }



  std::string
  PenaltyNewtonSolver::name() const
  {
    return "penalty newton";
  }
} // namespace stickslip
