#ifndef stickslip_models_string_string_assembler_h
#define stickslip_models_string_string_assembler_h

#include <deal.II/base/function.h>
#include <deal.II/base/quadrature_lib.h>

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <base/expressions.h>
#include <base/input_error.h>
#include <friction/friction_system.h>

#include <optional>
#include <vector>

namespace stickslip
{
  /**
   * The operators of the string or membrane (doc/theory.md §2.3) on the owned
   * cells: with FE_Q(p) and its Gauss-Lobatto support points,
   *   M = (1/c^2) (phi_i, phi_j), consistent (Gauss rule) or lumped (the
   *       Gauss-Lobatto rule, exactly diagonal),
   *   A = (grad phi_i, grad phi_j),
   *   w_i = int phi_i and C = diag(g_i w_i) by the nodal (Gauss-Lobatto)
   *       rule, so that lambda is nodal and Lambda a box.
   * c and g are checked where they are evaluated (finite, c > 0, g >= 0).
   */
  /**
   * What a matrix-free operator B (A or a consistent M) needs of the
   * assembled one, per owned row: the diagonal sum_e |B_e(i,i)| (which
   * AffineConstraints puts on a constrained row) and the Gershgorin row sum
   * of the constrained matrix, sum_j |B_ij| bounded by sum_e sum_j
   * |B_e(i,j)| over the unconstrained columns (equal for P1 and for
   * matrices with entries of one sign).
   */
  struct OperatorRows
  {
    DistributedVector diagonal;
    DistributedVector row_sums;
  };



  template <int dim>
  class StringAssembler
  {
  public:
    /**
     * @p wave_speed c(x) and @p friction g(x) are kept by reference, as is
     * @p dof_handler, for the lifetime of the assembler.
     */
    StringAssembler(const DoFHandler<dim> &dof_handler,
                    const unsigned int     degree,
                    const bool             lumped,
                    const Function<dim>   &wave_speed,
                    const Function<dim>   &friction,
                    const std::string     &wave_speed_text,
                    const std::string     &friction_text,
                    NonFiniteData         &non_finite_data);

    /**
     * Add M and A, with the Dirichlet rows and columns of @p constraints
     * decoupled, to system.mass and system.stiffness, and without them to
     * @p full_mass and @p full_stiffness unless these are null; w_i to
     * @p nodal_weights and g_i w_i to system.friction_weights (collective:
     * every object is compressed). A lumped M is summed as a vector and
     * given to the system as its diagonal (FrictionSystem::
     * set_diagonal_mass(): no matrix unless a scheme asks for one). With
     * @p stiffness_rows (a matrix-free A), system.stiffness is left alone
     * and only the rows' data are summed there; likewise system.mass with
     * @p mass_rows (a matrix-free consistent M). For dim = 1 the matrices
     * are made here (assemble_by_rows()); for dim = 2 they must be sized.
     * Then check c and g on every rank: an InputError naming String/Wave
     * speed or String/Friction.
     */
    void
    assemble(const AffineConstraints<double> &constraints,
             FrictionSystem                  &system,
             DistributedMatrix               *full_mass,
             DistributedMatrix               *full_stiffness,
             DistributedVector               &nodal_weights,
             OperatorRows                    *stiffness_rows,
             OperatorRows                    *mass_rows,
             const ParameterSource           &source);

    /**
     * For a consistent M: max over the cells of the largest eigenvalue of
     * A_e x = lambda M_e x, an upper bound of lambda_max(M^{-1} A) for the
     * assembled (and constrained) pair: the Rayleigh quotient x.Ax / x.Mx
     * is a ratio of sums of the cells' quotients (Irons' element bound).
     * 0 for a lumped M. Valid after assemble() (collective there).
     */
    double
    largest_element_frequency() const;

  private:
    /**
     * Fold the cell's largest generalized eigenvalue into the bound; cells
     * whose matrices are bitwise those of the last solved cell (a uniform
     * mesh with constant c) reuse its eigenvalue.
     */
    void
    note_element_frequency();

    /** The nodal sums of the owned cells (defined in string_assembler.cc). */
    struct Sums;

    /** The matrices an assembly pass fills (see assemble()). */
    struct MatrixTargets
    {
      /** system.mass, with the Dirichlet rows and columns decoupled. */
      bool assembled_mass;
      /** system.stiffness, likewise. */
      bool assembled_stiffness;
      /** M and A without constraints, each unless null. */
      DistributedMatrix *full_mass;
      DistributedMatrix *full_stiffness;
    };

    /**
     * What the owned cell with @p dof_indices adds to the nodal sums (and
     * to the element frequency bound), its matrices already computed.
     */
    void
    add_owned_cell(const AffineConstraints<double>            &constraints,
                   const std::vector<types::global_dof_index> &dof_indices,
                   Sums                                       &sums);

    /**
     * dim > 1: M and A of the owned cells through
     * AffineConstraints::distribute_local_to_global into the matrices
     * sized by the caller (other ranks' rows travel with compress()).
     */
    void
    assemble_by_cells(const AffineConstraints<double> &constraints,
                      FrictionSystem                  &system,
                      const MatrixTargets             &targets,
                      Sums                            &sums);

    /**
     * dim = 1: each rank sums its own rows of M and A from the cells that
     * touch them (owned or ghost: a DoF lies in at most two cells) into
     * compressed-row arrays, with the elimination distribute_local_to_global
     * does (a constrained row keeps |B_e(i,i)| of each cell on its
     * diagonal, a free row drops the constrained columns; the pattern keeps
     * every coupling), and makes the matrices from them (make_matrix()): no
     * sparsity pattern, no insertion per cell, no messages.
     */
    void
    assemble_by_rows(const AffineConstraints<double> &constraints,
                     FrictionSystem                  &system,
                     const MatrixTargets             &targets,
                     Sums                            &sums);

    /**
     * assemble_cell(), unless the last cell's matrices and vectors are
     * this cell's already: in 1D with c and g plain numbers they depend on
     * the cell only through its length, so a cell with a length of the same
     * bits (every cell of a uniform mesh) reuses them (the same numbers
     * FEValues would give, checked bit by bit by the unit test
     * unit.string_operator_rows).
     */
    void
    assemble_cell_unless_known(
      const typename DoFHandler<dim>::active_cell_iterator &cell);

    /**
     * The cell's |B_e(i,i)| and sum_j |B_e(i,j)| of @p cell_matrix over the
     * columns the constrained matrix keeps, into cell_diagonal and
     * cell_row_sums.
     */
    void
    cell_operator_rows(const FullMatrix<double>                   &cell_matrix,
                       const AffineConstraints<double>            &constraints,
                       const std::vector<types::global_dof_index> &dof_indices);

    /** The cell matrices and vectors of @p cell. */
    void
    assemble_cell(const typename DoFHandler<dim>::active_cell_iterator &cell);

    /** c > 0 and g >= 0 everywhere they were evaluated (collective). */
    void
    check_coefficients(const ParameterSource &source, const MPI_Comm comm);

    /**
     * Keep the smallest finite @p value in @p smallest; count the others
     * (std::min would drop a nan from 0/0 or sqrt(-1)).
     */
    static void
    note(const double value, double &smallest, unsigned int &n_not_finite);

    const DoFHandler<dim> &dof_handler;
    const bool             lumped;
    const Function<dim>   &wave_speed;
    const Function<dim>   &friction;
    const std::string      wave_speed_text, friction_text;
    /**
     * c and g when their texts are plain numbers (the usual case): a
     * muParser evaluation per point was a third of the set-up of a large
     * string.
     */
    const std::optional<double> constant_speed, constant_friction;
    NonFiniteData              &non_finite_data;

    const QGauss<dim>        gauss;
    const QGaussLobatto<dim> lobatto;
    FEValues<dim>            fe_values;
    FEValues<dim>            nodal_values;

    FullMatrix<double>     cell_mass, cell_stiffness;
    dealii::Vector<double> cell_weights, cell_friction, cell_lumped_mass;
    dealii::Vector<double> cell_diagonal, cell_row_sums;

    /** The last cell matrices whose eigenvalue was computed, and it. */
    FullMatrix<double> solved_mass, solved_stiffness;
    double             solved_frequency, element_frequency;

    double       min_speed, max_speed, min_g;
    unsigned int n_bad_speed, n_bad_g;

    /** The length of the cell whose data the cell arrays hold, if known. */
    std::optional<double> known_cell_length;

    /** Note @p value of String/@p name at @p x for the finiteness check. */
    /** @p function at @p x, or @p constant if there is one. */
    static double
    value_at(const std::optional<double> &constant,
             const Function<dim>         &function,
             const Point<dim>            &x);

    void
    note_data(const std::string &name,
              const std::string &text,
              const Point<dim>  &x,
              const double       value);
  };
} // namespace stickslip

#endif
