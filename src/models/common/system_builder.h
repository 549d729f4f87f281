#ifndef stickslip_models_common_system_builder_h
#define stickslip_models_common_system_builder_h

#include <deal.II/lac/full_matrix.h>

#include <base/input_error.h>
#include <friction/friction_system.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * What the models share to build their friction systems from parameters:
   * the distributed operators of a small dense system, the checks of the
   * matrices, replicated per-component lists and gamma laws.
   *
   * Fill the distributed operators of @p system from small dense data given
   * on every rank: rows are split evenly over the ranks, M and A share one
   * sparsity pattern (the nonzeros of either, plus the diagonal).
   */
  void
  build_small_system(const FullMatrix<double>  &mass,
                     const FullMatrix<double>  &stiffness,
                     const std::vector<double> &friction_weights,
                     FrictionSystem            &system);

  /** Owned entries of @p vector from the replicated @p values. */
  void
  set_owned_values(const std::vector<double> &values,
                   DistributedVector         &vector);

  /** Whether the symmetric @p matrix is positive definite (Cholesky). */
  bool
  is_positive_definite(const FullMatrix<double> &matrix);

  /** Smallest eigenvalue of the symmetric @p matrix (LAPACK). */
  double
  smallest_eigenvalue(const FullMatrix<double> &matrix);

  /** Largest |m_ij - m_ji| relative to the largest |m_ij|. */
  double
  relative_asymmetry(const FullMatrix<double> &matrix);

  /**
   * The comma-separated list @p text of the parameter @p path, replicated
   * on every rank, with one value per component: an InputError naming
   * @p path if it has another number of entries than @p n_components.
   */
  std::vector<double>
  parse_component_values(const std::string     &text,
                         const unsigned int     n_components,
                         const std::string     &path,
                         const ParameterSource &source);

  /** The Patterns::Selection of the gamma laws of the model subsections. */
  std::string
  gamma_law_names();

  /**
   * The gamma law named @p name by the parameter @p path (one of
   * gamma_law_names()); any other name is an InputError.
   */
  GammaLaw::Type
  parse_gamma_law(const std::string &name, const std::string &path);

  /**
   * Check the parameters of a gamma law (Glowinski et al. 2006, eqs. (2), (3)):
   * unless
   * @p type is none, every beta_i lies in (0, 1) and every eps_i is
   * positive. InputErrors name @p beta_path or @p epsilon_path (and the
   * component, if there are several).
   */
  void
  check_gamma_law(const GammaLaw::Type       type,
                  const std::vector<double> &beta,
                  const std::vector<double> &epsilon,
                  const std::string         &beta_path,
                  const std::string         &epsilon_path,
                  const ParameterSource     &source);
} // namespace stickslip

#endif
