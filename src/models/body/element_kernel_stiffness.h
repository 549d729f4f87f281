#ifndef stickslip_models_body_element_kernel_stiffness_h
#define stickslip_models_body_element_kernel_stiffness_h

#include <deal.II/base/partitioner.h>

#include <deal.II/lac/affine_constraints.h>

#include <models/body/stiffness_operator.h>

#include <memory>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /**
     * The stiffness operator applied cell by cell with dense element
     * matrices, one per distinct cell shape: the owned cells are grouped by
     * their vertex offsets up to a translation (cell_shape_key(), to 1e-12
     * of the cell's diameter; the body has one material), and each group
     * holds one element matrix K_e, computed once (a block mesh has one
     * group; a cell of an unstructured mesh is a group of its own, with its
     * own matrix). K u gathers each cell's unknowns, multiplies them by its
     * group's K_e (apply_element_kernel(), compiled for the build machine's
     * vector units) and adds the product into K u. In memory: the element
     * matrices and one unsigned int per node of each cell (the local index
     * of the node's first unknown when the dim unknowns of a node are
     * numbered consecutively, as distribute_dofs() does; one per unknown
     * otherwise): about 11 B per unknown for Q1 in 3D, against 12 B per
     * entry (81 entries per row) assembled.
     *
     * The periodic constraints are condensed as by the other two operators:
     * a constrained unknown's index is replaced by its master's in the cell
     * lists, so that the cell reads the master's value and its row is added
     * to the master's; K u is 0 at constrained unknowns. The vectors are
     * distributed with the locally relevant unknowns and the masters of the
     * constrained ones as ghosts; K u updates the ghosts of its argument and
     * adds the ghost contributions to their owners (compress(add)).
     */
    template <int dim>
    class ElementKernelStiffness : public StiffnessOperator<dim>
    {
    public:
      ElementKernelStiffness(const DoFHandler<dim>           &dof_handler,
                             const AffineConstraints<double> &constraints,
                             const unsigned int               degree,
                             const double                     lambda,
                             const double                     shear_modulus);

      void
      initialize_dof_vector(BodyVector &vector) const override;

      /** @p product = K @p displacement (collective; @p displacement's ghosts
       * are updated, and zeroed again if they were not set). */
      void
      apply(BodyVector &product, const BodyVector &displacement) const override;

      std::size_t
      memory_consumption() const override;

      std::string
      description() const override;

      /** The number of distinct element matrices on this rank. */
      std::size_t
      n_element_matrices() const;

      /** 1, or dim when the cells list one index per node. */
      unsigned int
      block_size() const;

    private:
      /** Cells of one shape: [first_cell, first_cell + n_cells) of the cell
       * lists, their element matrix at matrices[matrix]. */
      struct Group
      {
        std::size_t first_cell;
        std::size_t n_cells;
        std::size_t matrix;
      };

      /** The unknowns of each owned cell (constraints resolved) as global
       * indices, the cell's group, and the groups' matrices. */
      void
      collect_cells(const DoFHandler<dim>                &dof_handler,
                    const AffineConstraints<double>      &constraints,
                    const unsigned int                    degree,
                    const double                          lambda,
                    const double                          shear_modulus,
                    std::vector<types::global_dof_index> &cell_dofs,
                    std::vector<unsigned int>            &cell_groups);

      /** The partitioner (owned, ghosts: every index the cells name that is
       * not owned, and the locally relevant unknowns); the cells' local
       * indices sorted by group, in blocks where possible. */
      void
      make_cell_lists(const DoFHandler<dim>                      &dof_handler,
                      const std::vector<types::global_dof_index> &cell_dofs,
                      const std::vector<unsigned int>            &cell_groups);

      unsigned int                                       dofs_per_cell;
      unsigned int                                       block;
      std::shared_ptr<const Utilities::MPI::Partitioner> partitioner;
      std::vector<Group>                                 groups;
      std::vector<double>                                matrices;
      std::vector<unsigned int>                          indices;
    };
  } // namespace Body
} // namespace stickslip

#endif
