#ifndef stickslip_friction_replicated_semismooth_newton_h
#define stickslip_friction_replicated_semismooth_newton_h

#include <deal.II/lac/full_matrix.h>

#include <base/global.h>
#include <linear_algebra/dense_tools.h>

#include <list>
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
   * scheme), on plain arrays. The stick/slip sets, their update and the
   * hysteresis are SemismoothNewtonSolver's (same decisions, same messages);
   * the masked solves use the Cholesky factor of K restricted to the
   * unstuck rows, banded when K is (O(d b^2) per new set, O(d b) per
   * solve), and the factors of the last sets are kept. The iterates are
   * those of SemismoothNewtonSolver's dense path up to the sign of zeros
   * (unit test replicated_small_systems).
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

    /** The largest number of restricted factors kept. */
    static constexpr unsigned int max_cached_factors = 24;

  private:
    enum class State : unsigned char
    {
      stick,
      slip_positive,
      slip_negative,
      free ///< c_i = 0: never constrained
    };

    /** The restricted factor of one set of unstuck rows. */
    struct MaskedFactor
    {
      std::vector<unsigned char> unstuck; ///< per row: 1 if not stuck
      std::vector<unsigned int>  rows;    ///< the unstuck rows
      DenseCholesky              cholesky;
    };

    /** The factor of the current sets, from the kept ones or new. */
    const MaskedFactor &
    factor_of_current_sets();

    /** Factorize K restricted to the rows of @p factor.unstuck. */
    void
    factorize_restricted(MaskedFactor &factor) const;

    /**
     * lambda from the residual on the stuck rows and the new sets (the
     * rules of SemismoothNewtonSolver::update_sets()); returns how many
     * rows changed set.
     */
    unsigned int
    update_sets(const double *w, double *lambda);

    const FullMatrix<double>     matrix;
    const ReplicatedSparseMatrix sparse;
    /** The half-bandwidth of K. */
    const unsigned int        band;
    const std::vector<double> weights;
    std::vector<double>       diagonal;
    const unsigned int        max_iterations;
    double                    tau;
    /** 1/(tau c_i) where c_i > 0, else 0. */
    std::vector<double>        inverse_thresholds;
    std::vector<State>         states;
    std::vector<unsigned char> unstuck;
    std::list<MaskedFactor>    factors;
    std::vector<double>        rhs, residual, restricted;
  };
} // namespace stickslip

#endif
