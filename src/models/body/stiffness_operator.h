#ifndef stickslip_models_body_stiffness_operator_h
#define stickslip_models_body_stiffness_operator_h

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/la_parallel_vector.h>

#include <base/global.h>
#include <models/body/body_parameters.h>

#include <string>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /**
     * The vectors of the body: deal.II's distributed vectors, which both
     * stiffness operators read (MatrixFree natively; the assembled PETSc or
     * Trilinos matrix through views of their owned entries).
     */
    using BodyVector = LinearAlgebra::distributed::Vector<double>;

    /**
     * The stiffness operator of isotropic linear elasticity,
     * (K u)_i = int sigma(u) : eps(phi_i), sigma = lambda tr(eps) I + 2G eps
     * (plane strain in 2D), with the periodic constraints condensed: the row
     * of a constrained unknown is added to its master's, and K u is 0 there.
     * Three implementations: an assembled sparse matrix (memory-bound, a
     * handful of flops per entry), deal.II's matrix-free cell loop (no
     * matrix in memory, compute-bound) and element kernels (one dense
     * element matrix per cell shape, applied cell by cell); Body/Stiffness
     * operator chooses.
     */
    template <int dim>
    class StiffnessOperator
    {
    public:
      virtual ~StiffnessOperator() = default;

      /** A vector of the operator's partition: owned entries and the ghosts it
       * reads. */
      virtual void
      initialize_dof_vector(BodyVector &vector) const = 0;

      /** @p product = K @p displacement (collective). */
      virtual void
      apply(BodyVector &product, const BodyVector &displacement) const = 0;

      /** Bytes this rank holds for the operator. */
      virtual std::size_t
      memory_consumption() const = 0;

      /** "assembled (PETSc)", "matrix-free" or "element kernels". */
      virtual std::string
      description() const = 0;
    };



    /**
     * The element stiffness K_e(i, j) = int sigma(phi_j) : eps(phi_i) of the
     * cell of @p fe_values (reinitialized on it, with gradients and JxW)
     * into @p matrix (n x n).
     */
    template <int dim>
    void
    cell_stiffness(const FEValues<dim> &fe_values,
                   const double         lambda,
                   const double         shear_modulus,
                   FullMatrix<double>  &matrix);



    /**
     * The shape of a cell up to translation: its vertices' offsets from its
     * first vertex, rounded to 1e-12 of its diameter, and its diameter's
     * logarithm. Cells with the same key have the same element matrices
     * (to a relative 1e-12: the geometry enters K_e through the vertices
     * only, MappingQ1).
     */
    template <int dim>
    std::vector<long long>
    cell_shape_key(const typename DoFHandler<dim>::active_cell_iterator &cell);



    /**
     * The number of distinct cell shapes (cell_shape_key()) among this
     * rank's owned cells, counted up to @p limit + 1 (the count stops
     * there: an unstructured mesh need not have all its keys in memory).
     */
    template <int dim>
    unsigned int
    count_cell_shapes(const DoFHandler<dim> &dof_handler,
                      const unsigned int     limit);



    /** What Body/Stiffness operator = auto chose and why (for the log). */
    struct StiffnessChoice
    {
      StiffnessKind kind;
      std::string   reason;
    };



    /**
     * Body/Stiffness operator = auto, resolved on the mesh: the element
     * kernels if every rank has at most one distinct cell shape per
     * cells_per_kernel_shape owned cells (in the .cc file, with the
     * measurement behind it; at least one shape allowed: a block mesh
     * always qualifies), else the faster of the other two for the degree
     * (assembled for Q1, matrix-free for Q2). Not @p explicit_scheme
     * (implicit, quasi-static): always those two, the operator of the
     * linear solver's matrix for Q1. Every rank takes the same choice
     * (collective).
     */
    template <int dim>
    StiffnessChoice
    choose_stiffness_operator(const DoFHandler<dim> &dof_handler,
                              const unsigned int     degree,
                              const bool             explicit_scheme);



    /**
     * An upper bound of the largest eigenvalue of M^{-1} K, the lumped mass
     * M and the stiffness K assembled from the elements: the largest
     * eigenvalue of M_e^{-1} K_e over the owned cells (the element bound of
     * Fried, 1972: x^T K x = sum_e x_e^T K_e x_e <= max_e lambda_e sum_e
     * x_e^T M_e x_e = max_e lambda_e x^T M x, for any assembly, periodic
     * identifications included). The central-difference scheme is stable
     * for dt <= 2/sqrt(bound). Cells of the same shape (a block mesh) are
     * computed once. NaN if the element matrices over- or underflow (data
     * of absurd size). Collective.
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
