#ifndef stickslip_models_string_matrix_free_laplacian_h
#define stickslip_models_string_matrix_free_laplacian_h

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/la_parallel_vector.h>
#include <deal.II/matrix_free/matrix_free.h>

#include <base/global.h>
#include <linear_algebra/stiffness_action.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The stiffness of the string or membrane, A = (grad phi_i, grad phi_j)
   * (doc/theory.md §2.3), applied without a matrix by deal.II's MatrixFree
   * and FEEvaluation (sum factorization; the explicit wave pattern of
   * step-48): each product recomputes A on the cells from the vector, the
   * DoF indices and the cells' Jacobians, instead of reading an assembled
   * matrix. Same rule as the assembled A (Gauss, p + 1 points per
   * direction, exact on affine cells), so both agree to round-off.
   *
   * The homogeneous Dirichlet constraints are eliminated as
   * AffineConstraints::distribute_local_to_global eliminates them from the
   * assembled matrix: a constrained unknown is read as 0 by its neighbours
   * and its own row keeps only the diagonal sum_e |A_e(i,i)|. So A X is the
   * assembled product for every X, not only for X = 0 on the boundary.
   *
   * The schemes hold PETSc (or Trilinos) vectors; MatrixFree reads deal.II's
   * own distributed vectors with ghost entries. vmult() copies the owned
   * entries in and out of two such vectors (16 B per unknown, two streams
   * per product), the price of keeping the schemes' vectors unchanged.
   */
  template <int dim>
  class MatrixFreeLaplacian : public StiffnessAction
  {
  public:
    /**
     * On the FE_Q(@p degree) of @p dof_handler (kept by reference) with
     * @p constraints (copied into MatrixFree's own storage). @p diagonal
     * holds sum_e |A_e(i,i)| on the owned rows (used on the constrained
     * ones, and which is A's diagonal on all), @p row_sums an upper bound
     * of sum_j |A_ij| (row_sum_bound()).
     */
    MatrixFreeLaplacian(const DoFHandler<dim> &          dof_handler,
                        const AffineConstraints<double> &constraints,
                        const unsigned int               degree,
                        const DistributedVector &        diagonal,
                        const DistributedVector &        row_sums,
                        const std::string &              chosen_by);

    void
    vmult(DistributedVector &product, const DistributedVector &x) const override;

    const DistributedVector &
    diagonal() const override;

    const DistributedVector &
    row_sum_bound() const override;

    std::string
    chosen_by() const override;

    /** MatrixFree's data, the two work vectors and the row data. */
    std::size_t
    memory_consumption() const override;

  private:
    using WorkVector = LinearAlgebra::distributed::Vector<double>;

    /** The cells' contributions to A X, for FE_Q(p). */
    template <int p>
    void
    local_apply(const MatrixFree<dim, double> &              data,
                WorkVector &                                 product,
                const WorkVector &                           x,
                const std::pair<unsigned int, unsigned int> &cells) const;

    const MappingQ1<dim>    mapping;
    MatrixFree<dim, double> data;
    const unsigned int      degree;
    const std::string       setting;

    /** Owned positions of the constrained rows. */
    std::vector<unsigned int> constrained_rows;
    DistributedVector         diagonal_values, row_sums;

    mutable WorkVector source, result;
  };
} // namespace stickslip

#endif
