#ifndef stickslip_models_chain_static_increment_solver_h
#define stickslip_models_chain_static_increment_solver_h

#include <base/global.h>
#include <friction/semismooth_newton_solver.h>

#include <vector>

namespace stickslip
{
  /**
   * Solves the incremental problem of the massless masses of a chain,
   *
   *   K dV + alpha lambda = b,   lambda_i in Sgn(dV_i)   (static rows),
   *   dV_i = 0                                          (other rows),
   *
   * i.e. dV = argmin 1/2 dV.K dV - b.dV + sum alpha_i |dV_i|, the dual of
   * the projection onto the box C in the metric of K^{-1} of Bastien & Lamarque
   * 2009, §5 case 2 (doc/theory.md §5.6: G^{n+1} = -alpha lambda). It is the
   * friction step of Glowinski et al. 2006, eq. (38) with M = K, tau C =
   * diag(alpha), so this class only configures the core's
   * SemismoothNewtonSolver: operator K, thresholds alpha, the massive rows
   * fixed, and the masked K_SS solved by conjugate gradients from zero,
   * preconditioned with exact per-rank tridiagonal solves
   * (TridiagonalBlockPreconditioner), which keeps the number of CG iterations
   * small however long the chain.
   */
  class StaticIncrementSolver
  {
  public:
    /**
     * @p diagonal and @p upper: the owned rows of the tridiagonal K (upper[r]
     * couples owned row r to the next global row, 0 for the last row).
     * @p is_static flags the owned rows of the inclusion.
     */
    StaticIncrementSolver(const DistributedMatrix          &stiffness,
                          const std::vector<double>        &diagonal,
                          const std::vector<double>        &upper,
                          const DistributedVector          &thresholds,
                          const std::vector<unsigned char> &is_static,
                          const double                      linear_tolerance,
                          const unsigned int                max_iterations);

    /**
     * Solve for @p increment and @p lambda (on static rows; other rows
     * untouched in lambda, zero in increment). The stick/slip sets start
     * from @p lambda. Returns the number of active-set iterations.
     */
    unsigned int
    solve(const DistributedVector &b,
          DistributedVector       &increment,
          DistributedVector       &lambda);

    /** CG iterations so far. */
    unsigned long
    n_linear_iterations() const;

  private:
    /** The diagonal of K as a vector, for the solver's set update. */
    const DistributedVector stiffness_diagonal;
    SemismoothNewtonSolver  solver;
  };
} // namespace stickslip

#endif
