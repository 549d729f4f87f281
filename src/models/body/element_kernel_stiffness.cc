#include <deal.II/base/quadrature_lib.h>

#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_values.h>

#include <models/body/element_kernel_stiffness.h>
#include <models/body/element_kernels.h>

#include <limits>
#include <map>

namespace stickslip
{
  namespace Body
  {
    template <int dim>
    ElementKernelStiffness<dim>::ElementKernelStiffness(
      const DoFHandler<dim>           &dof_handler,
      const AffineConstraints<double> &constraints,
      const unsigned int               degree,
      const double                     lambda,
      const double                     shear_modulus)
      : dofs_per_cell(dof_handler.get_fe().n_dofs_per_cell())
      , block(1)
    {
      std::vector<types::global_dof_index> cell_dofs;
      std::vector<unsigned int>            cell_groups;
      collect_cells(dof_handler,
                    constraints,
                    degree,
                    lambda,
                    shear_modulus,
                    cell_dofs,
                    cell_groups);
      make_cell_lists(dof_handler, cell_dofs, cell_groups);
      // The matrices grew one shape at a time: without the spare capacity
      // the memory the run summary reports is theirs (n x length doubles
      // each).
      matrices.shrink_to_fit();
    }



    template <int dim>
    void
    ElementKernelStiffness<dim>::collect_cells(
      const DoFHandler<dim>                &dof_handler,
      const AffineConstraints<double>      &constraints,
      const unsigned int                    degree,
      const double                          lambda,
      const double                          shear_modulus,
      std::vector<types::global_dof_index> &cell_dofs,
      std::vector<unsigned int>            &cell_groups)
    {
      const unsigned int                   n = dofs_per_cell;
      FEValues<dim>                        values(dof_handler.get_fe(),
                           QGauss<dim>(degree + 1),
                           update_gradients | update_JxW_values);
      FullMatrix<double>                   local(n, n);
      std::vector<types::global_dof_index> dofs(n);
      std::map<std::vector<long long>, unsigned int> known;
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            const auto key   = cell_shape_key<dim>(cell);
            auto       group = known.find(key);
            if (group == known.end())
              {
                values.reinit(cell);
                cell_stiffness(values, lambda, shear_modulus, local);
                // Column by column, each padded to the kernels' length.
                groups.push_back({0, 0, matrices.size()});
                const unsigned int length = element_kernel_column_length(n);
                matrices.resize(matrices.size() + n * length, 0.);
                for (unsigned int j = 0; j < n; ++j)
                  for (unsigned int i = 0; i < n; ++i)
                    matrices[groups.back().matrix + j * length + i] =
                      local(i, j);
                group = known.emplace(key, groups.size() - 1).first;
              }
            cell_groups.push_back(group->second);
            ++groups[group->second].n_cells;
            cell->get_dof_indices(dofs);
            // A periodic copy reads and adds into its master (u_c = u_m:
            // one entry of weight 1, which close() has resolved to the end
            // of a chain).
            for (types::global_dof_index &dof : dofs)
              if (constraints.is_constrained(dof))
                {
                  const auto *entries = constraints.get_constraint_entries(dof);
                  AssertThrow(
                    entries != nullptr && entries->size() == 1 &&
                      (*entries)[0].second == 1. &&
                      constraints.is_inhomogeneously_constrained(dof) == false,
                    ExcMessage("Body/Stiffness operator = element kernels "
                               "supports constraints u_c = u_m (periodic "
                               "pairs) only."));
                  dof = (*entries)[0].first;
                }
            cell_dofs.insert(cell_dofs.end(), dofs.begin(), dofs.end());
          }
    }



    template <int dim>
    void
    ElementKernelStiffness<dim>::make_cell_lists(
      const DoFHandler<dim>                      &dof_handler,
      const std::vector<types::global_dof_index> &cell_dofs,
      const std::vector<unsigned int>            &cell_groups)
    {
      const IndexSet &owned = dof_handler.locally_owned_dofs();
      IndexSet        ghosts;
      DoFTools::extract_locally_relevant_dofs(dof_handler, ghosts);
      for (const types::global_dof_index dof : cell_dofs)
        if (!owned.is_element(dof))
          ghosts.add_index(dof);
      partitioner = std::make_shared<Utilities::MPI::Partitioner>(
        owned, ghosts, dof_handler.get_communicator());
      AssertThrow(partitioner->locally_owned_size() +
                      partitioner->n_ghost_indices() <=
                    std::numeric_limits<unsigned int>::max(),
                  ExcMessage("too many unknowns on one rank for the element "
                             "kernels' unsigned int indices"));

      // The cells in the order of their groups, each group's cells in the
      // mesh's order (the cache sees neighbours one after the other).
      std::size_t first = 0;
      for (Group &group : groups)
        {
          group.first_cell = first;
          first += group.n_cells;
        }
      std::vector<std::size_t> position(groups.size());
      for (unsigned int g = 0; g < groups.size(); ++g)
        position[g] = groups[g].first_cell;
      const unsigned int        n = dofs_per_cell;
      std::vector<unsigned int> local(cell_dofs.size());
      for (std::size_t cell = 0; cell < cell_groups.size(); ++cell)
        {
          const std::size_t to = position[cell_groups[cell]]++;
          for (unsigned int i = 0; i < n; ++i)
            local[to * n + i] = static_cast<unsigned int>(
              partitioner->global_to_local(cell_dofs[cell * n + i]));
        }

      // One index per node if every node's dim unknowns are consecutive
      // (local dof k * dim + c is component c of node k in FESystem's order
      // of FE_Q^dim).
      bool nodes_consecutive = true;
      for (std::size_t i = 0; i < local.size() && nodes_consecutive; ++i)
        nodes_consecutive = local[i] == local[i - i % dim] + i % dim;
      block = nodes_consecutive ? dim : 1;
      indices.resize(local.size() / block);
      for (std::size_t k = 0; k < indices.size(); ++k)
        indices[k] = local[k * block];
    }



    template <int dim>
    void
    ElementKernelStiffness<dim>::initialize_dof_vector(BodyVector &vector) const
    {
      vector.reinit(partitioner);
    }



    template <int dim>
    void
    ElementKernelStiffness<dim>::apply(BodyVector       &product,
                                       const BodyVector &displacement) const
    {
      Assert(displacement.get_partitioner()->ghost_indices() ==
               partitioner->ghost_indices(),
             ExcMessage("a vector of another partition"));
      const bool had_ghosts = displacement.has_ghost_elements();
      if (!had_ghosts)
        displacement.update_ghost_values();
      product.zero_out_ghost_values();
      product                           = 0.;
      const unsigned int nodes_per_cell = dofs_per_cell / block;
      // The local arrays: owned entries, then the ghosts.
      const double *source      = displacement.begin();
      double       *destination = product.begin();
      for (const Group &group : groups)
        apply_element_kernel(dofs_per_cell,
                             block,
                             matrices.data() + group.matrix,
                             indices.data() + group.first_cell * nodes_per_cell,
                             group.n_cells,
                             source,
                             destination);
      product.compress(VectorOperation::add);
      if (!had_ghosts)
        displacement.zero_out_ghost_values();
    }



    template <int dim>
    std::size_t
    ElementKernelStiffness<dim>::memory_consumption() const
    {
      return matrices.capacity() * sizeof(double) +
             indices.capacity() * sizeof(unsigned int) +
             groups.capacity() * sizeof(Group) +
             partitioner->memory_consumption();
    }



    template <int dim>
    std::string
    ElementKernelStiffness<dim>::description() const
    {
      return element_kernels_native() ? "element kernels (native)" :
                                        "element kernels (portable)";
    }



    template <int dim>
    std::size_t
    ElementKernelStiffness<dim>::n_element_matrices() const
    {
      return groups.size();
    }



    template <int dim>
    unsigned int
    ElementKernelStiffness<dim>::block_size() const
    {
      return block;
    }



    template class ElementKernelStiffness<2>;
    template class ElementKernelStiffness<3>;
  } // namespace Body
} // namespace stickslip
