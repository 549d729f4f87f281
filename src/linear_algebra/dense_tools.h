#ifndef stickslip_linear_algebra_dense_tools_h
#define stickslip_linear_algebra_dense_tools_h

#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <base/global.h>

#include <functional>
#include <vector>

namespace stickslip
{
  /**
   * Small-system helpers: replicate a distributed matrix or vector on every
   * rank (for the dense penalty/Newton solver and exact eigenvalues of small
   * systems) and copy a replicated vector back into the owned entries.
   * Replication is exact (a sum with zeros) and gives every rank the same
   * numbers, so replicated computations are rank-independent.
   */
  FullMatrix<double>
  replicate(const DistributedMatrix &matrix, const MPI_Comm comm);

  dealii::Vector<double>
  replicate(const DistributedVector &vector, const MPI_Comm comm);

  /** As above, into @p all (resized; no allocation when its size fits). */
  void
  replicate(const DistributedVector &vector,
            const MPI_Comm           comm,
            dealii::Vector<double> & all);

  void
  copy_owned(const dealii::Vector<double> &replicated, DistributedVector &vector);

  /**
   * The Cholesky factorization L L^T of a small SPD matrix on plain arrays,
   * for systems solved many times per time step (a few to a few hundred
   * unknowns): no library call, no allocation per solve, and the same
   * operations in the same order on every rank.
   */
  class DenseCholesky
  {
  public:
    /** Factorize @p matrix (symmetric positive definite; throws if not). */
    void
    factorize(const FullMatrix<double> &matrix);

    /** x = matrix^{-1} x, for the size() entries at @p x. */
    void
    solve(double *x) const;

    /** The number of unknowns (0 before factorize()). */
    unsigned int
    size() const;

  private:
    unsigned int        n = 0;
    std::vector<double> factor; ///< L, row-major, n x n
  };

  /**
   * Largest lambda with K x = lambda M x, for symmetric K and SPD M given
   * densely (LAPACK).
   */
  double
  largest_generalized_eigenvalue(const FullMatrix<double> &K,
                                 const FullMatrix<double> &M);

  /**
   * Largest lambda with K x = lambda M x for distributed operators, by the
   * power iteration on M^{-1} K (Rayleigh quotients converge from below;
   * iterates until the relative change is below 1e-10 or 2000 iterations).
   * Every function maps (source, destination).
   */
  double
  power_iteration_generalized(
    const std::function<void(const DistributedVector &, DistributedVector &)>
      &apply_K,
    const std::function<void(const DistributedVector &, DistributedVector &)>
      &                      apply_M,
    const std::function<void(const DistributedVector &, DistributedVector &)>
      &                      solve_M,
    const IndexSet &         owned,
    const MPI_Comm           comm);
} // namespace stickslip

#endif
