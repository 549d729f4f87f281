#ifndef stickslip_linear_algebra_dense_tools_h
#define stickslip_linear_algebra_dense_tools_h

#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <base/global.h>

#include <functional>

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

  void
  copy_owned(const dealii::Vector<double> &replicated, DistributedVector &vector);

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
