#include <deal.II/base/quadrature_lib.h>

#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>

#include <models/body/assembled_stiffness.h>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscmat.h>
#endif

namespace stickslip
{
  namespace Body
  {
    template <int dim>
    AssembledStiffness<dim>::AssembledStiffness(
      const DoFHandler<dim>           &dof_handler,
      const AffineConstraints<double> &constraints,
      const unsigned int               degree,
      const double                     lambda,
      const double                     shear_modulus)
#ifdef STICKSLIP_USE_PETSC_LA
      : views{{nullptr, nullptr}}
#endif
    {
      IndexSet relevant;
      DoFTools::extract_locally_relevant_dofs(dof_handler, relevant);
      partitioner = std::make_shared<Utilities::MPI::Partitioner>(
        dof_handler.locally_owned_dofs(),
        relevant,
        dof_handler.get_communicator());
      create_matrix(dof_handler, constraints);
      assemble(dof_handler, constraints, degree, lambda, shear_modulus);
    }



    template <int dim>
    AssembledStiffness<dim>::~AssembledStiffness()
    {
#ifdef STICKSLIP_USE_PETSC_LA
      for (Vec &view : views)
        if (view != nullptr)
          VecDestroy(&view);
#endif
    }



    template <int dim>
    void
    AssembledStiffness<dim>::create_matrix(
      const DoFHandler<dim>           &dof_handler,
      const AffineConstraints<double> &constraints)
    {
      const IndexSet &owned    = partitioner->locally_owned_range();
      const IndexSet &relevant = partitioner->ghost_indices();
      IndexSet        rows     = owned;
      rows.add_indices(relevant);
      // The pattern is freed before the matrix is filled: it is the largest
      // object of the set-up.
      DynamicSparsityPattern pattern(rows);
      DoFTools::make_sparsity_pattern(dof_handler, pattern, constraints, false);
      SparsityTools::distribute_sparsity_pattern(pattern,
                                                 owned,
                                                 dof_handler.get_communicator(),
                                                 rows);
      matrix.reinit(owned, owned, pattern, dof_handler.get_communicator());
    }



    template <int dim>
    void
    AssembledStiffness<dim>::assemble(
      const DoFHandler<dim>           &dof_handler,
      const AffineConstraints<double> &constraints,
      const unsigned int               degree,
      const double                     lambda,
      const double                     shear_modulus)
    {
      const FiniteElement<dim>            &fe = dof_handler.get_fe();
      FEValues<dim>                        values(fe,
                           QGauss<dim>(degree + 1),
                           update_gradients | update_JxW_values);
      const unsigned int                   n = fe.n_dofs_per_cell();
      FullMatrix<double>                   local(n, n);
      std::vector<types::global_dof_index> indices(n);
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            values.reinit(cell);
            cell_stiffness(values, lambda, shear_modulus, local);
            cell->get_dof_indices(indices);
            constraints.distribute_local_to_global(local, indices, matrix);
          }
      matrix.compress(VectorOperation::add);
      // distribute_local_to_global() puts a diagonal entry on the rows of
      // constrained unknowns (to keep a matrix invertible); K must be zero
      // there, so that K u holds the condensed forces only.
      std::vector<types::global_dof_index> constrained;
      for (const auto i : partitioner->locally_owned_range())
        if (constraints.is_constrained(i))
          constrained.push_back(i);
      matrix.clear_rows(constrained, 0.);
    }



    template <int dim>
    void
    AssembledStiffness<dim>::initialize_dof_vector(BodyVector &vector) const
    {
      vector.reinit(partitioner);
    }



    template <int dim>
    void
    AssembledStiffness<dim>::apply(BodyVector       &product,
                                   const BodyVector &displacement) const
    {
#ifdef STICKSLIP_USE_PETSC_LA
      // PETSc vectors on the owned entries of the deal.II vectors, created
      // once (their layout setup is collective) and pointed at the arrays
      // of each call: no copy, no communication but MatMult's own.
      if (views[0] == nullptr)
        for (Vec &view : views)
          VecCreateMPIWithArray(partitioner->get_mpi_communicator(),
                                1,
                                partitioner->locally_owned_size(),
                                partitioner->size(),
                                nullptr,
                                &view);
      VecPlaceArray(views[0], displacement.begin());
      VecPlaceArray(views[1], product.begin());
      const PetscErrorCode error = MatMult(matrix, views[0], views[1]);
      VecResetArray(views[0]);
      VecResetArray(views[1]);
      AssertThrow(error == 0, ExcPETScError(error));
#else
      matrix.vmult(product, displacement);
#endif
    }



    template <int dim>
    std::size_t
    AssembledStiffness<dim>::memory_consumption() const
    {
#ifdef STICKSLIP_USE_PETSC_LA
      // PETSc no longer counts its memory (MatInfo::memory is 0): the AIJ
      // arrays are the values, the column indices and the row offsets.
      MatInfo info;
      MatGetInfo(matrix, MAT_LOCAL, &info);
      return static_cast<std::size_t>(info.nz_allocated) *
               (sizeof(PetscScalar) + sizeof(PetscInt)) +
             (partitioner->locally_owned_size() + 1) * sizeof(PetscInt);
#else
      return matrix.memory_consumption();
#endif
    }



    template <int dim>
    std::string
    AssembledStiffness<dim>::description() const
    {
#ifdef STICKSLIP_USE_PETSC_LA
      return "assembled (PETSc)";
#else
      return "assembled (Trilinos)";
#endif
    }



    template class AssembledStiffness<2>;
    template class AssembledStiffness<3>;
  } // namespace Body
} // namespace stickslip
