#ifndef stickslip_models_body_elastic_operator_h
#define stickslip_models_body_elastic_operator_h

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/fe/mapping_q1.h>

#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/la_parallel_vector.h>

#include <deal.II/matrix_free/matrix_free.h>

#include <base/global.h>

namespace stickslip
{
  namespace Body
  {
    /** The vectors of the body: deal.II's, as MatrixFree works on them. */
    using BodyVector = LinearAlgebra::distributed::Vector<double>;

    /**
     * The stiffness operator of isotropic linear elasticity,
     * (K u)_i = int sigma(u) : eps(phi_i), sigma = lambda tr(eps) I + 2G eps
     * (plane strain in 2D), applied without a matrix by deal.II's MatrixFree
     * and FEEvaluation (sum factorization, the pattern of step-48 for
     * explicit waves): an explicit step needs K u once, and a matrix-free
     * product reads the vector and little else, where an assembled matrix
     * would read 18 (2D, Q1) to 375 (3D, Q2) matrix entries per unknown.
     * The constraints (periodic pairs) are applied in the cell loop: a
     * constrained unknown reads its master's value and its row is added to
     * the master's.
     */
    template <int dim>
    class ElasticOperator
    {
    public:
      ElasticOperator(const DoFHandler<dim>           &dof_handler,
                      const AffineConstraints<double> &constraints,
                      const unsigned int               degree,
                      const double                     lambda,
                      const double                     shear_modulus);

      /** A vector of the operator's partition (owned plus the ghosts the cells
       * read). */
      void
      initialize_dof_vector(BodyVector &vector) const;

      /** @p product = K @p displacement (collective; @p displacement's ghosts
       * are updated). */
      void
      apply(BodyVector &product, const BodyVector &displacement) const;

      const MatrixFree<dim, double> &
      matrix_free() const;

      /** Bytes the MatrixFree object holds (for the memory report). */
      std::size_t
      memory_consumption() const;

    private:
      template <int degree>
      void
      local_apply(const MatrixFree<dim, double>               &data,
                  BodyVector                                  &product,
                  const BodyVector                            &displacement,
                  const std::pair<unsigned int, unsigned int> &cells) const;

      const MappingQ1<dim>    mapping;
      MatrixFree<dim, double> data;
      const unsigned int      degree;
      const double            lambda;
      const double            shear_modulus;
    };



    /**
     * An upper bound of the largest eigenvalue of M^{-1} K, the lumped mass
     * M and the stiffness K assembled from the elements: the largest
     * eigenvalue of M_e^{-1} K_e over the owned cells (the element bound of
     * Fried, 1972: x^T K x = sum_e x_e^T K_e x_e <= max_e lambda_e sum_e
     * x_e^T M_e x_e = max_e lambda_e x^T M x, for any assembly, periodic
     * identifications included). The central-difference scheme is stable
     * for dt <= 2/sqrt(bound). Cells of the same shape (a block mesh) are
     * computed once. Collective.
     */
    template <int dim>
    double
    element_eigenvalue_bound(const DoFHandler<dim> &dof_handler,
                             const unsigned int     degree,
                             const double           density,
                             const double           lambda,
                             const double           shear_modulus,
                             const MPI_Comm         comm);
  } // namespace Body
} // namespace stickslip

#endif
