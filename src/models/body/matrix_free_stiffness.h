#ifndef stickslip_models_body_matrix_free_stiffness_h
#define stickslip_models_body_matrix_free_stiffness_h

#include <deal.II/fe/mapping_q1.h>

#include <deal.II/lac/affine_constraints.h>

#include <deal.II/matrix_free/matrix_free.h>

#include <models/body/stiffness_operator.h>

namespace stickslip
{
  namespace Body
  {
    /**
     * The stiffness operator applied without a matrix by deal.II's
     * MatrixFree and FEEvaluation (sum factorization, the pattern of step-48
     * for explicit waves): K u reads the vector and the cells' index and
     * Jacobian data, where an assembled matrix reads 18 (2D, Q1) to 375 (3D,
     * Q2) entries per unknown; it holds about 30 B per unknown instead of
     * 12 B per entry. The constraints (periodic pairs) are applied in the
     * cell loop: a constrained unknown reads its master's value and its row
     * is added to the master's.
     */
    template <int dim>
    class MatrixFreeStiffness : public StiffnessOperator<dim>
    {
    public:
      MatrixFreeStiffness(const DoFHandler<dim>           &dof_handler,
                          const AffineConstraints<double> &constraints,
                          const unsigned int               degree,
                          const double                     lambda,
                          const double                     shear_modulus);

      /** A vector of the operator's partition (owned plus the ghosts the cells
       * read). */
      void
      initialize_dof_vector(BodyVector &vector) const override;

      /** @p product = K @p displacement (collective; @p displacement's ghosts
       * are updated). */
      void
      apply(BodyVector &product, const BodyVector &displacement) const override;

      const MatrixFree<dim, double> &
      matrix_free() const;

      /** Bytes the MatrixFree object holds (for the memory report). */
      std::size_t
      memory_consumption() const override;

      std::string
      description() const override;

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



  } // namespace Body
} // namespace stickslip

#endif
