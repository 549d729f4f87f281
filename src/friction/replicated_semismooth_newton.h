#ifndef stickslip_friction_replicated_semismooth_newton_h
#define stickslip_friction_replicated_semismooth_newton_h

#include <deal.II/lac/full_matrix.h>

#include <base/global.h>
#include <friction/friction_parameters.h>
#include <friction/stick_slip_sets.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/replicated_vector.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * The semismooth Newton (primal-dual active set) iteration of
   * SemismoothNewtonSolver, default configuration with exact solves, for a
   * system replicated on every rank (ReplicatedSystem): the friction step
   * (38)
   *
   *   K W + tau C lambda = b,   lambda_i in Sgn(w_i) (c_i > 0),
   *   lambda_i = 0 (c_i = 0),
   *
   * with K SPD (M of the split schemes, M + alpha dt^2 A of the centered
   * scheme), on plain arrays. The stick/slip sets and their update are
   * StickSlipSets', as SemismoothNewtonSolver's, and so are the masked
   * solves (MaskedCholeskyFactors): the iterates are those of
   * SemismoothNewtonSolver's dense path up to the sign of zeros (unit test
   * replicated_steps). What is left here is the iteration on arrays,
   * without messages between the ranks.
   */
  class ReplicatedSemismoothNewton
  {
  public:
    /**
     * @p matrix K (replicated, symmetric positive definite), @p weights
     * the c_i, @p max_iterations the limit (Friction/Maximum iterations).
     */
    ReplicatedSemismoothNewton(const FullMatrix<double>  &matrix,
                               const std::vector<double> &weights,
                               const unsigned int         max_iterations);

    /** The sub-step tau of the thresholds tau c_i. */
    void
    set_substep(const double tau);

    /**
     * Solve with right-hand side @p b (d entries) for @p w and @p lambda,
     * from the sets of the multiplier @p warm_start, which receives lambda
     * (it may be @p lambda itself). Returns the number of iterations; a
     * RunError if the sets do not settle within the limit.
     */
    unsigned int
    solve(const double *b, double *w, double *lambda, double *warm_start);

  private:
    using State = StickSlipSets::State;

    const ReplicatedSparseMatrix sparse;
    const std::vector<double>    weights;
    std::vector<double>          diagonal;
    const unsigned int           max_iterations;
    double                       tau;
    /** 1/(tau c_i) where c_i > 0, else 0. */
    std::vector<double>        inverse_thresholds;
    std::vector<State>         states;
    std::vector<unsigned char> unstuck;
    MaskedCholeskyFactors      factors;
    std::vector<double>        rhs, product;
  };



  /**
   * The friction step (38) of a replicated system, with the interface the
   * step kernels use (FrictionStepSolver's, on ReplicatedVectors): the
   * semismooth Newton iteration, or for a diagonal K the closed form (53)
   * componentwise, as ClosedFormSolver.
   */
  class ReplicatedFrictionSolver
  {
  public:
    /**
     * For K = @p matrix and the weights @p weights: the closed form if
     * @p parameters choose it (K must then be diagonal), else the
     * semismooth Newton iteration.
     */
    ReplicatedFrictionSolver(const FullMatrix<double>   &matrix,
                             const ReplicatedVector     &weights,
                             const Parameters::Friction &parameters);

    void
    set_substep(const double tau);

    /** As FrictionStepSolver::solve(). */
    unsigned int
    solve(const ReplicatedVector &b,
          ReplicatedVector       &w,
          ReplicatedVector       &lambda,
          ReplicatedVector       &warm_start);

    /** As FrictionStepSolver::closed_form(). */
    bool
    closed_form() const;

  private:
    /** Null: the closed form. */
    std::unique_ptr<ReplicatedSemismoothNewton> newton;
    std::vector<double>                         diagonal, weights;
    double                                      tau;
  };
} // namespace stickslip

#endif
