#ifndef stickslip_models_string_matrix_free_operator_h
#define stickslip_models_string_matrix_free_operator_h

#include <deal.II/base/function.h>

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/fe/mapping_q1.h>

#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/la_parallel_vector.h>

#include <deal.II/matrix_free/matrix_free.h>

#include <base/global.h>
#include <linear_algebra/operator_action.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * What the matrix-free operators of the string or membrane share for one
   * set of constraints: deal.II's MatrixFree data (DoF indices and cell
   * geometry of FE_Q(p), Gauss rule with p + 1 points per direction, the
   * assembler's rule) and the two work vectors a product copies through.
   * The stiffness and the consistent mass read the same cells, so they hold
   * them once.
   *
   * The schemes hold PETSc (or Trilinos) vectors; MatrixFree reads deal.II's
   * own distributed vectors with ghost entries. A product copies the owned
   * entries in and out of the two vectors (16 B per unknown, two streams
   * per product), the price of keeping the schemes' vectors unchanged.
   */
  template <int dim>
  class MatrixFreeCells
  {
  public:
    using WorkVector = LinearAlgebra::distributed::Vector<double>;

    /**
     * On the FE_Q(@p degree) of @p dof_handler (kept by reference) with
     * @p constraints (copied into MatrixFree's own storage); with
     * @p quadrature_points the points are kept too (a variable
     * coefficient is evaluated there once).
     */
    MatrixFreeCells(const DoFHandler<dim>           &dof_handler,
                    const AffineConstraints<double> &constraints,
                    const unsigned int               degree,
                    const bool                       quadrature_points);

    const MatrixFree<dim, double> &
    data() const;

    unsigned int
    degree() const;

    /** Owned positions of the constrained rows. */
    const std::vector<unsigned int> &
    constrained_rows() const;

    /** @p x's owned entries into source(), its ghosts marked stale. */
    void
    copy_in(const DistributedVector &x) const;

    /** result()'s owned entries into @p product. */
    void
    copy_out(DistributedVector &product) const;

    WorkVector &
    source() const;

    WorkVector &
    result() const;

    /** MatrixFree's data and the two work vectors. */
    std::size_t
    memory_consumption() const;

  private:
    const MappingQ1<dim>      mapping;
    MatrixFree<dim, double>   matrix_free;
    const unsigned int        fe_degree;
    std::vector<unsigned int> constrained;
    mutable WorkVector        source_vector, result_vector;
  };



  /**
   * The stiffness A = (grad phi_i, grad phi_j) or the consistent mass
   * M = (phi_i / c^2, phi_j) of the string or membrane (doc/theory.md
   * §2.3), applied without a matrix by FEEvaluation (sum factorization;
   * step-48's explicit wave operator, step-37's coefficient at the
   * quadrature points): each product recomputes the operator on the cells
   * from the vector, the DoF indices and the cells' Jacobians instead of
   * reading an assembled matrix. Same rule as the assembled operators, so
   * both agree to round-off.
   *
   * The homogeneous Dirichlet constraints are eliminated as
   * AffineConstraints::distribute_local_to_global eliminates them from the
   * assembled matrix: a constrained unknown is read as 0 by its neighbours
   * and its own row keeps only the diagonal sum_e |B_e(i,i)|. So B X is the
   * assembled product for every X, not only for X = 0 on the boundary.
   */
  template <int dim>
  class MatrixFreeStringOperator : public OperatorAction
  {
  public:
    enum class Form
    {
      stiffness, ///< A = (grad phi_i, grad phi_j)
      mass       ///< M = (phi_i / c^2, phi_j)
    };

    /**
     * @p form on @p cells. @p diagonal holds sum_e |B_e(i,i)| on the owned
     * rows (used on the constrained ones, and which is B's diagonal on
     * all), @p row_sums an upper bound of sum_j |B_ij| (row_sum_bound()).
     * For the mass, @p wave_speed is c(x), read once at every quadrature
     * point unless @p constant_speed is set.
     */
    MatrixFreeStringOperator(std::shared_ptr<const MatrixFreeCells<dim>> cells,
                             const Form                                  form,
                             const DistributedVector     &diagonal,
                             const DistributedVector     &row_sums,
                             const std::string           &chosen_by,
                             const Function<dim>         *wave_speed = nullptr,
                             const std::optional<double> &constant_speed = {});

    void
    vmult(DistributedVector       &product,
          const DistributedVector &x) const override;

    const DistributedVector &
    diagonal() const override;

    const DistributedVector &
    row_sum_bound() const override;

    std::string
    chosen_by() const override;

    /**
     * The row data, the coefficient and the cells (which the stiffness and
     * the mass of one run share: each counts them).
     */
    std::size_t
    memory_consumption() const override;

  private:
    using WorkVector = typename MatrixFreeCells<dim>::WorkVector;

    /** 1/c^2 at every quadrature point of every cell batch. */
    void
    set_coefficient(const Function<dim> &wave_speed);

    /** The cells' contributions to B X, for FE_Q(p). */
    template <int p>
    void
    local_apply(const MatrixFree<dim, double>               &data,
                WorkVector                                  &product,
                const WorkVector                            &x,
                const std::pair<unsigned int, unsigned int> &cells) const;

    /** The cell loop for the cells' degree. */
    void
    cell_loop() const;

    const std::shared_ptr<const MatrixFreeCells<dim>> cells;
    const Form                                        form;
    const std::string                                 setting;
    DistributedVector                                 diagonal_values, row_sums;

    /** 1/c^2: one number, or one per quadrature point (cell batch major). */
    double                                 constant_coefficient;
    AlignedVector<VectorizedArray<double>> coefficient;
  };
} // namespace stickslip

#endif
