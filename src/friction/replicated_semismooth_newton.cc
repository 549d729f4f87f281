#include <friction/closed_form_solver.h>
#include <friction/replicated_semismooth_newton.h>

#include <algorithm>

namespace stickslip
{
  ReplicatedSemismoothNewton::ReplicatedSemismoothNewton(
    const FullMatrix<double>  &matrix,
    const std::vector<double> &weights,
    const unsigned int         max_iterations)
    : sparse(matrix)
    , weights(weights)
    , diagonal(weights.size())
    , max_iterations(max_iterations)
    , tau(1.)
    , states(weights.size(), State::stick)
    , unstuck(weights.size())
    , factors(matrix)
    , rhs(weights.size())
    , product(weights.size())
  {
    for (unsigned int i = 0; i < weights.size(); ++i)
      diagonal[i] = matrix(i, i);
    set_substep(1.);
  }



  void
  ReplicatedSemismoothNewton::set_substep(const double new_tau)
  {
    tau = new_tau;
    // Multiplied rather than divided by, as the distributed solver does:
    // the two solvers then agree to the last bit.
    inverse_thresholds.resize(weights.size());
    for (unsigned int k = 0; k < weights.size(); ++k)
      inverse_thresholds[k] = weights[k] > 0 ? 1. / (tau * weights[k]) : 0.;
  }



  unsigned int
  ReplicatedSemismoothNewton::solve(const double *b,
                                    double       *w,
                                    double       *lambda,
                                    double       *warm_start)
  {
    const unsigned int d = weights.size();
    for (unsigned int k = 0; k < d; ++k)
      states[k] =
        StickSlipSets::initial_state(false, weights[k], warm_start[k]);
    unsigned int last_changed = 0;
    for (unsigned int iteration = 1; iteration <= max_iterations; ++iteration)
      {
        // K_SS w_S = rhs_S on the unstuck rows S, w = 0 off S; then the
        // residual b - K w gives the multiplier on the stuck rows.
        StickSlipSets::set_up_masked_system(
          d, states.data(), b, weights.data(), tau, rhs.data(), unstuck.data());
        factors.solve(unstuck, rhs.data(), w);
        sparse.vmult(product.data(), w);
        last_changed = StickSlipSets::update(d,
                                             states.data(),
                                             b,
                                             product.data(),
                                             diagonal.data(),
                                             w,
                                             inverse_thresholds.data(),
                                             lambda,
                                             false)
                         .first;
        if (last_changed == 0)
          {
            if (warm_start != lambda)
              std::copy(lambda, lambda + d, warm_start);
            return iteration;
          }
      }
    throw StickSlipSets::not_settled(
      "the semismooth Newton friction solver",
      max_iterations,
      last_changed,
      "Raise the limit or use Friction/Solver = projection");
  }



  ReplicatedFrictionSolver::ReplicatedFrictionSolver(
    const FullMatrix<double>   &matrix,
    const ReplicatedVector     &weights,
    const Parameters::Friction &parameters)
    : diagonal(matrix.m())
    , weights(weights.data(), weights.data() + weights.size())
    , tau(1.)
  {
    for (unsigned int i = 0; i < matrix.m(); ++i)
      diagonal[i] = matrix(i, i);
    if (parameters.solver != Parameters::FrictionSolverType::closed_form)
      newton =
        std::make_unique<ReplicatedSemismoothNewton>(matrix,
                                                     this->weights,
                                                     parameters.max_iterations);
  }



  void
  ReplicatedFrictionSolver::set_substep(const double new_tau)
  {
    tau = new_tau;
    if (newton)
      newton->set_substep(tau);
  }



  unsigned int
  ReplicatedFrictionSolver::solve(const ReplicatedVector &b,
                                  ReplicatedVector       &w,
                                  ReplicatedVector       &lambda,
                                  ReplicatedVector       &warm_start)
  {
    if (newton)
      return newton->solve(b.data(),
                           w.data(),
                           lambda.data(),
                           warm_start.data());
    // The closed form (53), componentwise (ClosedFormSolver::solve()).
    for (std::size_t k = 0; k < b.size(); ++k)
      ClosedFormSolver::solve_component(
        b[k], diagonal[k], weights[k] * tau, w[k], lambda[k]);
    return 0;
  }



  bool
  ReplicatedFrictionSolver::closed_form() const
  {
    return !newton;
  }
} // namespace stickslip
