#ifndef stickslip_base_hdf5_field_writer_h
#define stickslip_base_hdf5_field_writer_h

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/lac/la_parallel_vector.h>

#include <base/field_files.h>
#include <base/global.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * The nodal values of fields of FE_Q(p)^n on a fixed mesh written
   * straight into HDF5 (Output/Field format = hdf5), without DataOut's
   * patches: the mesh once per run as SERIES_mesh.h5 (/nodes: the support
   * points, /cells: each cell split into p^dim linear cells of its support
   * points), and output K as SERIES_KKKKK.h5 (one dataset per field, nodes
   * x components; each rank's nodes one hyperslab of a collective MPI-IO
   * write) with SERIES_KKKKK.xdmf, the XDMF record that names both files,
   * all in DIRECTORY/solution; PvdRecord gathers the records into
   * DIRECTORY/SERIES.xdmf, the time series ParaView opens (XDMF3 reader).
   *
   * The nodes are numbered independently of the partition: by the first
   * cell, in the order of the cells' CellIds (p4est's space-filling curve,
   * along which it partitions), that holds them, and within it by the
   * cell's numbering of its support points. Every rank writes the nodes
   * whose first cell it owns, so 1 and N ranks write the same files.
   * Cell data (write()'s cell fields: one value per linear cell) follow the
   * cells, each rank's owned cells in CellId order (cells()), each split
   * into its linear cells as sub_cell_corners() lists them.
   *
   * Every file is written under a temporary name and renamed, the record
   * last, so a run killed at any moment leaves no partial file under a final
   * name and no record of a missing one (FieldFiles::write()).
   */
  template <int dim>
  class Hdf5FieldWriter
  {
  public:
    using Vector = LinearAlgebra::distributed::Vector<double>;
    /** A scalar cell field: its name and one value per linear cell of this
     * rank, in the order of cells() and sub_cell_corners(). */
    using CellField = std::pair<std::string, const std::vector<double> *>;

    /**
     * Number the nodes of @p dofs (FE_Q(p)^n: every base element the same
     * FE_Q) and write the mesh file of @p series into @p files (collective).
     */
    Hdf5FieldWriter(const DoFHandler<dim> &dofs,
                    const FieldFiles      &files,
                    const std::string     &series = FieldFiles::main_series);

    /**
     * Write output @p index at time @p t into @p files (collective): each field
     * a name and a vector of @p dofs with its ghosts set (the values of the
     * nodes of every owned cell). A vector field of 2 components is written
     * with a third, zero, one (ParaView's vectors have 3). @p cell_fields
     * are written as XDMF attributes with Center="Cell". Returns the record's
     * name relative to the output directory.
     */
    std::string
    write(const double                                               t,
          const unsigned int                                         index,
          const std::vector<std::pair<std::string, const Vector *>> &fields,
          const std::vector<CellField> &cell_fields,
          const FieldFiles             &files) const;

    /** This rank's cells in the order of the files (CellId order). */
    const std::vector<typename DoFHandler<dim>::active_cell_iterator> &
    cells() const;

    /**
     * The linear cells of one cell: for each, its 2^dim corners in VTK's
     * order as indices into the base element's unit support points
     * (FiniteElement::get_unit_support_points(), hierarchic numbering).
     */
    const std::vector<std::vector<unsigned int>> &
    sub_cell_corners() const;

    /** Nodes of the mesh file (all ranks). */
    std::uint64_t
    n_nodes() const;

  private:
    /**
     * The indices of node_dofs in the partition of @p vector (computed at
     * the first vector of a partition).
     */
    const std::vector<unsigned int> &
    local_indices(const Vector &vector) const;

    /** The XDMF record of output @p stem at @p t (SERIES_KKKKK.xdmf). */
    std::string
    xdmf_record(
      const double                                               t,
      const std::string                                         &stem,
      const std::vector<std::pair<std::string, const Vector *>> &fields,
      const std::vector<CellField>                              &cell_fields,
      const bool single_precision) const;

    const DoFHandler<dim> &dofs;
    const std::string      series;
    const unsigned int     n_components;
    /** Values per node in the files (n_components, 3 for 2 of them). */
    const unsigned int n_file_components;
    /** The dofs of this rank's nodes, node by node, component by component. */
    std::vector<types::global_dof_index> node_dofs;
    /** cells(), sub_cell_corners(). */
    std::vector<typename DoFHandler<dim>::active_cell_iterator> owned_cells;
    std::vector<std::vector<unsigned int>>                      corners;
    std::uint64_t                                               first_node;
    std::uint64_t                                               n_global_nodes;
    std::uint64_t                                               n_global_cells;
    /** This rank's linear cells: the number of its first one, how many. */
    std::uint64_t                              first_cell;
    std::uint64_t                              n_local_cells;
    mutable const Utilities::MPI::Partitioner *partitioner = nullptr;
    mutable std::vector<unsigned int>          indices_in_partition;
  };
} // namespace stickslip

#endif
