#ifndef stickslip_models_body_assembled_stiffness_h
#define stickslip_models_body_assembled_stiffness_h

#include <deal.II/base/partitioner.h>

#include <deal.II/lac/affine_constraints.h>

#include <models/body/stiffness_operator.h>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscvec.h>
#endif

#include <array>
#include <memory>

namespace stickslip
{
  namespace Body
  {
    /**
     * The stiffness operator as an assembled sparse matrix of the project's
     * linear-algebra backend (LA::MPI::SparseMatrix: PETSc, or Trilinos with
     * -DSTICKSLIP_USE_TRILINOS=ON), rows distributed as the owned unknowns,
     * the periodic constraints condensed (the rows of constrained unknowns
     * are zero). K u is one sparse matrix-vector product, memory-bound: 12 B
     * per entry (value and column index), 18 entries per row for Q1 in 2D,
     * 81 in 3D. The body's vectors are deal.II's; the product reads and
     * writes their owned entries in place (PETSc vectors created on their
     * memory; Trilinos' vmult takes deal.II vectors), and the backend
     * exchanges the ghost values it needs.
     */
    template <int dim>
    class AssembledStiffness : public StiffnessOperator<dim>
    {
    public:
      AssembledStiffness(const DoFHandler<dim>           &dof_handler,
                         const AffineConstraints<double> &constraints,
                         const unsigned int               degree,
                         const double                     lambda,
                         const double                     shear_modulus);

      ~AssembledStiffness() override;

      void
      initialize_dof_vector(BodyVector &vector) const override;

      void
      apply(BodyVector &product, const BodyVector &displacement) const override;

      std::size_t
      memory_consumption() const override;

      std::string
      description() const override;

    private:
      /** The sparsity of K (constraints condensed) and the matrix, allocated.
       */
      void
      create_matrix(const DoFHandler<dim>           &dof_handler,
                    const AffineConstraints<double> &constraints);

      /** The element matrices added up; the rows of constrained unknowns
       * zeroed. */
      void
      assemble(const DoFHandler<dim>           &dof_handler,
               const AffineConstraints<double> &constraints,
               const unsigned int               degree,
               const double                     lambda,
               const double                     shear_modulus);

      std::shared_ptr<const Utilities::MPI::Partitioner> partitioner;
      DistributedMatrix                                  matrix;
#ifdef STICKSLIP_USE_PETSC_LA
      /** PETSc vectors without arrays of their own: K u reads and writes
       * deal.II's. */
      mutable std::array<Vec, 2> views;
#endif
    };
  } // namespace Body
} // namespace stickslip

#endif
