#ifndef stickslip_base_hdf5_field_writer_h
#define stickslip_base_hdf5_field_writer_h

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/lac/la_parallel_vector.h>

#include <base/field_files.h>
#include <base/global.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * The HDF5 writing of the field output, shared by Hdf5FieldWriter (the
   * volume) and the body's ContactOutput (the contact surface): tables of
   * which each rank writes its rows, in files written under a temporary
   * name and renamed, and the XDMF text that names them.
   */
  namespace Hdf5
  {
    /** One two-dimensional dataset: this rank's rows of a global table. */
    struct Dataset
    {
      std::string   name;
      std::uint64_t global_rows;
      std::uint64_t columns;
      std::uint64_t first_row;
      std::uint64_t local_rows;
      /** HDF5's memory type of @p data (an hid_t; the file stores it
       * little-endian as @p file_type). */
      std::int64_t memory_type;
      std::int64_t file_type;
      const void  *data;
    };

    /**
     * A dataset of doubles (@p single: stored as 32-bit floats; @p data is
     * then a float array, see float_type()).
     */
    Dataset
    table(const std::string  &name,
          const std::uint64_t global_rows,
          const std::uint64_t columns,
          const std::uint64_t first_row,
          const std::uint64_t local_rows,
          const bool          single,
          const void         *data);

    /** A dataset of 64-bit integers. */
    Dataset
    integer_table(const std::string  &name,
                  const std::uint64_t global_rows,
                  const std::uint64_t columns,
                  const std::uint64_t first_row,
                  const std::uint64_t local_rows,
                  const std::int64_t *data);

    /**
     * The room a file takes on the disk: the bytes @p fill writes into it
     * (create_file_atomically()), and its size, holes included (an HDF5
     * series file is laid out for outputs not written yet), both without
     * HDF5's own metadata.
     */
    struct FileSpace
    {
      std::uint64_t written;
      std::uint64_t size;
    };

    /**
     * Create the HDF5 file @p path under a temporary name (collective;
     * through MPI-IO if @p parallel, else HDF5's default driver), let
     * @p fill write into it (given the open file, an hid_t; it returns ""
     * or what failed, the same on every rank), close it, and rename it
     * (rank 0). A failure is a RunError on every rank, naming the file,
     * and leaves no temporary file.
     *
     * The disk's room for @p space (and HDF5's metadata) is taken first
     * (rank 0, where the file system can reserve space), and a margin for
     * the metadata is held until the file is closed: HDF5 1.10 cannot
     * close a file whose metadata it failed to write (a full disk); the
     * file then stays half open in the library, which crashes when MPI
     * ends. A file larger than the process's file size limit (ulimit -f)
     * is refused before it is started.
     */
    void
    create_file_atomically(
      const std::string                              &path,
      const bool                                      parallel,
      const MPI_Comm                                  comm,
      const FileSpace                                &space,
      const std::function<std::string(std::int64_t)> &fill);

    /**
     * Write @p datasets to the HDF5 file @p path (collective, MPI-IO) under
     * a temporary name, and rename it (rank 0); with the attribute "time"
     * = @p t if @p t is not NaN. A failure is a RunError on every rank.
     * On one rank through HDF5's default (POSIX) driver, unless
     * @p same_bytes_on_any_ranks (a mesh file: 1 and N ranks then write
     * the same bytes; the two drivers lay a file out differently).
     */
    void
    write_file_atomically(const std::string          &path,
                          const std::vector<Dataset> &datasets,
                          const double                t,
                          const MPI_Comm              comm,
                          const bool same_bytes_on_any_ranks = false);

    /**
     * The system's reason for the last failed HDF5 call of this rank, as
     * HDF5's error stack records it (its POSIX driver's "error message =
     * '...'": "No space left on device"), or "" if it holds none.
     */
    std::string
    system_error();

    /** The exclusive prefix sum of @p local over the ranks, and the total. */
    std::pair<std::uint64_t, std::uint64_t>
    offset_and_total(const std::uint64_t local, const MPI_Comm comm);

    /** An XDMF DataItem naming the HDF5 dataset @p source ("FILE:/NAME"). */
    std::string
    xdmf_data_item(const std::uint64_t rows,
                   const unsigned int  columns,
                   const std::string  &type,
                   const unsigned int  precision,
                   const std::string  &source);
  } // namespace Hdf5



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
