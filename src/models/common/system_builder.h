#ifndef stickslip_models_common_system_builder_h
#define stickslip_models_common_system_builder_h

#include <deal.II/lac/full_matrix.h>

#include <friction/friction_system.h>

#include <vector>

namespace stickslip
{
  /**
   * Fill the distributed operators of @p system from small dense data given
   * on every rank: rows are split evenly over the ranks, M and A share one
   * sparsity pattern (the nonzeros of either, plus the diagonal).
   */
  void
  build_small_system(const FullMatrix<double> & mass,
                     const FullMatrix<double> & stiffness,
                     const std::vector<double> &friction_weights,
                     FrictionSystem &           system);

  /** Owned entries of @p vector from the replicated @p values. */
  void
  set_owned_values(const std::vector<double> &values, DistributedVector &vector);

  /** Whether the symmetric @p matrix is positive definite (Cholesky). */
  bool
  is_positive_definite(const FullMatrix<double> &matrix);

  /** Smallest eigenvalue of the symmetric @p matrix (LAPACK). */
  double
  smallest_eigenvalue(const FullMatrix<double> &matrix);

  /** Largest |m_ij - m_ji| relative to the largest |m_ij|. */
  double
  relative_asymmetry(const FullMatrix<double> &matrix);
} // namespace stickslip

#endif
