#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature.h>
#include <deal.II/base/utilities.h>

#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_tools.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>

#include <base/hdf5_field_writer.h>
#include <base/output_files.h>

#include <fcntl.h>
#include <hdf5.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace stickslip
{
  namespace Hdf5
  {
    namespace
    {
      /**
       * Whether @p ok holds on every rank (collective if @p parallel): an
       * HDF5 call that fails on one rank of a parallel file must stop the
       * collective calls after it on all of them, not on that rank alone.
       */
      bool
      on_every_rank(const bool ok, const bool parallel, const MPI_Comm comm)
      {
        return parallel ? Utilities::MPI::min(ok ? 1 : 0, comm) == 1 : ok;
      }



      /**
       * Write @p set into the open @p file (collective if @p parallel: the
       * file is open through MPI-IO); "" or the reason, the same on every
       * rank.
       */
      std::string
      write_dataset_collectively(const hid_t    file,
                                 const Dataset &set,
                                 const bool     parallel,
                                 const MPI_Comm comm)
      {
        const hsize_t global[2] = {set.global_rows, set.columns};
        const hsize_t local[2]  = {set.local_rows, set.columns};
        const hsize_t start[2]  = {set.first_row, 0};
        const hid_t   space     = H5Screate_simple(2, global, nullptr);
        const hid_t   memory    = H5Screate_simple(2, local, nullptr);
        // No modification times: the same data give the same bytes.
        const hid_t creation = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_obj_track_times(creation, false);
        const hid_t dataset = H5Dcreate2(file,
                                         set.name.c_str(),
                                         set.file_type,
                                         space,
                                         H5P_DEFAULT,
                                         creation,
                                         H5P_DEFAULT);
        H5Pclose(creation);
        if (set.local_rows > 0)
          H5Sselect_hyperslab(
            space, H5S_SELECT_SET, start, nullptr, local, nullptr);
        else
          {
            H5Sselect_none(space);
            H5Sselect_none(memory);
          }
        const hid_t transfer = H5Pcreate(H5P_DATASET_XFER);
        if (parallel)
          H5Pset_dxpl_mpio(transfer, H5FD_MPIO_COLLECTIVE);
        const bool created = on_every_rank(dataset >= 0, parallel, comm);
        const bool written = created && on_every_rank(H5Dwrite(dataset,
                                                               set.memory_type,
                                                               memory,
                                                               space,
                                                               transfer,
                                                               set.data) >= 0,
                                                      parallel,
                                                      comm);
        H5Pclose(transfer);
        if (dataset >= 0)
          H5Dclose(dataset);
        H5Sclose(memory);
        H5Sclose(space);
        const std::string reason = system_error();
        return written ? "" :
                         "HDF5 could not write the dataset /" + set.name +
                           (reason.empty() ? "" : ": " + reason);
      }



      /**
       * Room on the disk for an HDF5 file, taken before HDF5 opens it
       * (create_file_atomically() says why): on rank 0 a reserve file
       * (the file's temporary name + ".reserve", itself a temporary name)
       * is given the blocks of the file's data and a margin for HDF5's
       * metadata (fallocate: no bytes are written), then shrunk to the
       * margin while the file is written, and removed right before the file
       * is closed. Where the file system cannot reserve space (fallocate
       * unsupported), nothing is reserved. The other ranks hold nothing.
       */
      class DiskReserve
      {
      public:
        DiskReserve(const std::string &temporary,
                    const FileSpace   &space,
                    const bool         root)
        {
          if (!root)
            return;
          // HDF5's metadata (superblock, groups, object headers, the
          // attribute): about 3 kB for a file of a few datasets, measured;
          // 64 kB leaves room for larger metadata blocks.
          const std::uint64_t margin = 64 * 1024;
          struct rlimit       limit;
          if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 &&
              limit.rlim_cur != RLIM_INFINITY &&
              space.size + margin > limit.rlim_cur)
            {
              reason = "it would take " + std::to_string(space.size) +
                       " bytes, above this process's file size limit of " +
                       std::to_string(limit.rlim_cur) + " bytes (ulimit -f)";
              return;
            }
          name = temporary_name(temporary + ".reserve");
          descriptor =
            ::open(name.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
          if (descriptor < 0)
            {
              reason = std::strerror(errno);
              name.clear();
              return;
            }
          if (::fallocate(descriptor, 0, 0, space.written + margin) != 0)
            {
              if (errno != EOPNOTSUPP)
                reason = std::string(std::strerror(errno)) +
                         " (the file needs " + std::to_string(space.written) +
                         " bytes)";
              release();
              return;
            }
          // The data's room goes to the file; the margin stays reserved.
          if (::ftruncate(descriptor, margin) != 0)
            release();
        }

        ~DiskReserve()
        {
          release();
        }

        DiskReserve(const DiskReserve &) = delete;
        DiskReserve &
        operator=(const DiskReserve &) = delete;

        /** Why the room could not be taken ("" if it was, or not needed). */
        const std::string &
        error() const
        {
          return reason;
        }

        /** Give the margin back (right before the file is closed). */
        void
        release()
        {
          if (descriptor >= 0)
            ::close(descriptor);
          descriptor = -1;
          if (!name.empty())
            ::unlink(name.c_str());
          name.clear();
        }

      private:
        std::string name;
        int         descriptor = -1;
        std::string reason;
      };
    } // namespace



    Dataset
    table(const std::string  &name,
          const std::uint64_t global_rows,
          const std::uint64_t columns,
          const std::uint64_t first_row,
          const std::uint64_t local_rows,
          const bool          single,
          const void         *data)
    {
      return {name,
              global_rows,
              columns,
              first_row,
              local_rows,
              single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE,
              single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE,
              data};
    }



    Dataset
    integer_table(const std::string  &name,
                  const std::uint64_t global_rows,
                  const std::uint64_t columns,
                  const std::uint64_t first_row,
                  const std::uint64_t local_rows,
                  const std::int64_t *data)
    {
      return {name,
              global_rows,
              columns,
              first_row,
              local_rows,
              H5T_NATIVE_INT64,
              H5T_STD_I64LE,
              data};
    }



    void
    create_file_atomically(const std::string &path,
                           const bool         parallel,
                           const MPI_Comm     comm,
                           const FileSpace   &space,
                           const std::function<std::string(std::int64_t)> &fill)
    {
      const bool        root = Utilities::MPI::this_mpi_process(comm) == 0;
      const std::string temporary =
        Utilities::MPI::broadcast(comm, root ? temporary_name(path) : "", 0);
      DiskReserve reserve(temporary, space, root);
      throw_if_any_failed(reserve.error().empty() ?
                            "" :
                            "cannot write the file " + path + ": " +
                              reserve.error(),
                          comm);
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
      const hid_t access = H5Pcreate(H5P_FILE_ACCESS);
      if (parallel)
        H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL);
      const hid_t file =
        H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access);
      H5Pclose(access);
      std::string error;
      if (!on_every_rank(file >= 0, parallel, comm))
        error = "HDF5 could not create the file";
      else
        error = fill(file);
      reserve.release();
      if (file >= 0 && H5Fclose(file) < 0 && error.empty())
        {
          const std::string reason = system_error();
          error =
            "HDF5 could not close it" + (reason.empty() ? "" : ": " + reason);
        }
      if (!on_every_rank(error.empty(), parallel, comm) && error.empty())
        error = "another rank failed";
      if (root && error.empty() &&
          std::rename(temporary.c_str(), path.c_str()) != 0)
        error = std::string("cannot rename ") + temporary + " to " + path +
                ": " + std::strerror(errno);
      else if (!error.empty())
        error = "cannot write the file " + path + ": " + error;
      if (root && !error.empty())
        ::unlink(temporary.c_str());
      throw_if_any_failed(error, comm);
    }



    void
    write_file_atomically(const std::string          &path,
                          const std::vector<Dataset> &datasets,
                          const double                t,
                          const MPI_Comm              comm,
                          const bool                  same_bytes_on_any_ranks)
    {
      // On one rank HDF5's default (POSIX) driver: MPI-IO's opening and
      // closing of a file cost about 4 ms more per file (body_fronts_2d's
      // contact surface, 1500 files; doc/outputs.md).
      const bool parallel =
        same_bytes_on_any_ranks || Utilities::MPI::n_mpi_processes(comm) > 1;
      std::uint64_t bytes = 0;
      for (const Dataset &set : datasets)
        bytes += set.global_rows * set.columns * H5Tget_size(set.file_type);
      create_file_atomically(
        path, parallel, comm, {bytes, bytes}, [&](const hid_t file) {
          std::string error;
          for (const Dataset &set : datasets)
            if (error.empty())
              error = write_dataset_collectively(file, set, parallel, comm);
          if (error.empty() && !std::isnan(t))
            {
              const hid_t scalar    = H5Screate(H5S_SCALAR);
              const hid_t attribute = H5Acreate2(
                file, "time", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
              if (!on_every_rank(attribute >= 0 &&
                                   H5Awrite(attribute, H5T_NATIVE_DOUBLE, &t) >=
                                     0,
                                 parallel,
                                 comm))
                error = "HDF5 could not write the attribute time";
              if (attribute >= 0)
                H5Aclose(attribute);
              H5Sclose(scalar);
            }
          return error;
        });
    }



    std::string
    system_error()
    {
      std::string reason;
      H5Ewalk2(
        H5E_DEFAULT,
        H5E_WALK_UPWARD,
        [](unsigned int, const H5E_error2_t *entry, void *found) -> herr_t {
          const std::string text =
            entry->desc == nullptr ? "" : std::string(entry->desc);
          const std::string marker = "error message = '";
          const auto        begin  = text.find(marker);
          const auto        end    = begin == std::string::npos ?
                                       std::string::npos :
                                       text.find('\'', begin + marker.size());
          if (end != std::string::npos)
            *static_cast<std::string *>(found) =
              text.substr(begin + marker.size(), end - begin - marker.size());
          return 0;
        },
        &reason);
      return reason;
    }



    std::pair<std::uint64_t, std::uint64_t>
    offset_and_total(const std::uint64_t local, const MPI_Comm comm)
    {
      std::uint64_t offset = 0;
      MPI_Exscan(&local, &offset, 1, MPI_UINT64_T, MPI_SUM, comm);
      if (Utilities::MPI::this_mpi_process(comm) == 0)
        offset = 0; // MPI_Exscan leaves rank 0's result undefined
      return {offset, Utilities::MPI::sum(local, comm)};
    }



    std::string
    xdmf_data_item(const std::uint64_t rows,
                   const unsigned int  columns,
                   const std::string  &type,
                   const unsigned int  precision,
                   const std::string  &source)
    {
      return "<DataItem Dimensions=\"" + std::to_string(rows) + " " +
             std::to_string(columns) + "\" NumberType=\"" + type +
             "\" Precision=\"" + std::to_string(precision) +
             "\" Format=\"HDF\">" + source + "</DataItem>";
    }
  } // namespace Hdf5



  namespace
  {



    /**
     * The corners of the linear cells of a cell's (p+1)^dim lattice of
     * support points, lexicographic indices in VTK's (and XDMF's) order of
     * a quadrilateral or hexahedron's vertices, cell after cell.
     */
    template <int dim>
    std::vector<unsigned int>
    linear_cell_corners(const unsigned int p)
    {
      const unsigned int        n = p + 1;
      std::vector<unsigned int> corners;
      const unsigned int        offsets[8][3] = {{0, 0, 0},
                                                 {1, 0, 0},
                                                 {1, 1, 0},
                                                 {0, 1, 0},
                                                 {0, 0, 1},
                                                 {1, 0, 1},
                                                 {1, 1, 1},
                                                 {0, 1, 1}};
      for (unsigned int k = 0; k < (dim == 3 ? p : 1); ++k)
        for (unsigned int j = 0; j < p; ++j)
          for (unsigned int i = 0; i < p; ++i)
            for (unsigned int v = 0; v < (1u << dim); ++v)
              corners.push_back((i + offsets[v][0]) + n * (j + offsets[v][1]) +
                                (dim == 3 ? n * n * (k + offsets[v][2]) : 0));
      return corners;
    }


    /**
     * The locally owned cells of @p dofs in the order of their CellIds
     * (p4est's space-filling curve). The ids are taken once: CellAccessor::
     * id() walks up to the coarse cell, and a sort calling it in every
     * comparison took 0.1 s at 8e4 cells.
     */
    template <int dim>
    std::vector<typename DoFHandler<dim>::active_cell_iterator>
    owned_cells_by_id(const DoFHandler<dim> &dofs)
    {
      using Iterator = typename DoFHandler<dim>::active_cell_iterator;
      std::vector<std::pair<CellId, Iterator>> by_id;
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned())
          by_id.emplace_back(cell->id(), cell);
      std::sort(by_id.begin(), by_id.end(), [](const auto &a, const auto &b) {
        return a.first < b.first;
      });
      std::vector<Iterator> cells;
      for (const auto &entry : by_id)
        cells.push_back(entry.second);
      return cells;
    }



    /**
     * The linear cells of @p cells (p^dim per cell), their corners as the
     * global numbers of the nodes, given this rank's nodes by the dofs of
     * their components, @p node_dofs, numbered from @p first_node
     * (collective).
     */
    template <int dim>
    std::vector<std::int64_t>
    linear_cells(
      const DoFHandler<dim>                                             &dofs,
      const std::vector<typename DoFHandler<dim>::active_cell_iterator> &cells,
      const std::vector<types::global_dof_index> &node_dofs,
      const std::uint64_t                         first_node,
      const MPI_Comm                              comm)
    {
      const FiniteElement<dim> &fe           = dofs.get_fe();
      const unsigned int        n_components = fe.n_components();
      const unsigned int        degree       = fe.base_element(0).degree;
      const std::uint64_t       n_local      = node_dofs.size() / n_components;
      // Every owned cell's nodes' numbers + 1, by the dof of component 0.
      IndexSet relevant;
      DoFTools::extract_locally_relevant_dofs(dofs, relevant);
      LinearAlgebra::distributed::Vector<double> numbers(
        dofs.locally_owned_dofs(), relevant, comm);
      for (std::uint64_t k = 0; k < n_local; ++k)
        numbers(node_dofs[k * n_components]) = first_node + k + 1;
      numbers.compress(VectorOperation::add);
      numbers.update_ghost_values();
      const std::vector<unsigned int> lexicographic =
        FETools::lexicographic_to_hierarchic_numbering<dim>(degree);
      const std::vector<unsigned int> corners =
        linear_cell_corners<dim>(degree);
      std::vector<types::global_dof_index> indices(fe.n_dofs_per_cell());
      std::vector<std::int64_t>            connectivity;
      connectivity.reserve(cells.size() * corners.size());
      for (const auto &cell : cells)
        {
          cell->get_dof_indices(indices);
          for (const unsigned int corner : corners)
            connectivity.push_back(
              static_cast<std::int64_t>(numbers(
                indices[fe.component_to_system_index(0,
                                                     lexicographic[corner])])) -
              1);
        }
      return connectivity;
    }
  } // namespace



  template <int dim>
  Hdf5FieldWriter<dim>::Hdf5FieldWriter(const DoFHandler<dim> &dofs,
                                        const FieldFiles      &files,
                                        const std::string     &series)
    : dofs(dofs)
    , series(series)
    , n_components(dofs.get_fe().n_components())
    , n_file_components(n_components == 2 ? 3 : n_components)
    , first_node(0)
    , n_global_nodes(0)
    , n_global_cells(0)
    , first_cell(0)
    , n_local_cells(0)
  {
    const FiniteElement<dim> &fe   = dofs.get_fe();
    const FiniteElement<dim> &base = fe.base_element(0);
    const MPI_Comm            comm = files.output_directory().communicator();
    const unsigned int        rank = Utilities::MPI::this_mpi_process(comm);
    const auto node_dof = [&](const std::vector<types::global_dof_index> &cell,
                              const unsigned int                          c,
                              const unsigned int                          j) {
      return cell[fe.component_to_system_index(c, j)];
    };

    // The nodes of lower ranks' cells are theirs.
    std::vector<types::global_dof_index>        indices(fe.n_dofs_per_cell());
    std::unordered_set<types::global_dof_index> taken;
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_ghost() && cell->subdomain_id() < rank)
        {
          cell->get_dof_indices(indices);
          for (unsigned int j = 0; j < base.n_dofs_per_cell(); ++j)
            taken.insert(node_dof(indices, 0, j));
        }

    // This rank's cells in CellId order; its nodes numbered by first cell.
    std::vector<typename DoFHandler<dim>::active_cell_iterator> &cells =
      owned_cells;
    cells = owned_cells_by_id(dofs);
    const std::vector<unsigned int> lexicographic =
      FETools::lexicographic_to_hierarchic_numbering<dim>(base.degree);
    const std::vector<unsigned int> flat_corners =
      linear_cell_corners<dim>(base.degree);
    for (std::size_t k = 0; k < flat_corners.size(); k += 1u << dim)
      {
        corners.emplace_back();
        for (unsigned int v = 0; v < (1u << dim); ++v)
          corners.back().push_back(lexicographic[flat_corners[k + v]]);
      }
    const MappingQ1<dim>       mapping;
    FEValues<dim>              support(mapping,
                          fe,
                          Quadrature<dim>(base.get_unit_support_points()),
                          update_quadrature_points);
    std::vector<double>        points;
    std::vector<std::uint64_t> first_cells;
    for (const auto &cell : cells)
      {
        cell->get_dof_indices(indices);
        bool reinitialized = false;
        for (unsigned int j = 0; j < base.n_dofs_per_cell(); ++j)
          if (taken.insert(node_dof(indices, 0, j)).second)
            {
              if (!reinitialized)
                support.reinit(cell);
              reinitialized = true;
              for (unsigned int c = 0; c < n_components; ++c)
                node_dofs.push_back(node_dof(indices, c, j));
              for (unsigned int d = 0; d < dim; ++d)
                points.push_back(support.quadrature_point(j)[d]);
            }
      }
    const std::uint64_t n_local = node_dofs.size() / n_components;
    std::tie(first_node, n_global_nodes) =
      Hdf5::offset_and_total(n_local, comm);

    const std::vector<std::int64_t> connectivity =
      linear_cells(dofs, cells, node_dofs, first_node, comm);

    const unsigned int n_corners = 1u << dim;
    n_local_cells                = connectivity.size() / n_corners;
    std::tie(first_cell, n_global_cells) =
      Hdf5::offset_and_total(n_local_cells, comm);
    Hdf5::write_file_atomically(files.output_directory().file(
                                  OutputDirectory::field_folder) +
                                  "/" + series + "_mesh.h5",
                                {Hdf5::table("nodes",
                                             n_global_nodes,
                                             dim,
                                             first_node,
                                             n_local,
                                             false,
                                             points.data()),
                                 Hdf5::integer_table("cells",
                                                     n_global_cells,
                                                     n_corners,
                                                     first_cell,
                                                     n_local_cells,
                                                     connectivity.data())},
                                std::numeric_limits<double>::quiet_NaN(),
                                comm,
                                true);
  }



  template <int dim>
  std::uint64_t
  Hdf5FieldWriter<dim>::n_nodes() const
  {
    return n_global_nodes;
  }



  template <int dim>
  std::string
  Hdf5FieldWriter<dim>::write(
    const double                                               t,
    const unsigned int                                         index,
    const std::vector<std::pair<std::string, const Vector *>> &fields,
    const std::vector<CellField>                              &cell_fields,
    const FieldFiles                                          &files) const
  {
    const MPI_Comm      comm    = files.output_directory().communicator();
    const bool          single  = files.single_precision();
    const std::uint64_t n_local = node_dofs.size() / n_components;
    // Each field's values in the file's precision, node by node.
    std::vector<std::vector<double>> doubles(single ? 0 : fields.size());
    std::vector<std::vector<float>>  floats(single ? fields.size() : 0);
    std::vector<Hdf5::Dataset>       datasets;
    for (unsigned int f = 0; f < fields.size(); ++f)
      {
        const Vector &vector  = *fields[f].second;
        const auto   &indices = local_indices(vector);
        if (single)
          floats[f].assign(n_local * n_file_components, 0.f);
        else
          doubles[f].assign(n_local * n_file_components, 0.);
        for (std::uint64_t k = 0; k < n_local; ++k)
          for (unsigned int c = 0; c < n_components; ++c)
            {
              const double value =
                vector.local_element(indices[k * n_components + c]);
              if (single)
                floats[f][k * n_file_components + c] = value;
              else
                doubles[f][k * n_file_components + c] = value;
            }
        datasets.push_back(
          Hdf5::table(fields[f].first,
                      n_global_nodes,
                      n_file_components,
                      first_node,
                      n_local,
                      single,
                      single ? static_cast<const void *>(floats[f].data()) :
                               static_cast<const void *>(doubles[f].data())));
      }
    std::vector<std::vector<float>> cell_floats(single ? cell_fields.size() :
                                                         0);
    for (unsigned int f = 0; f < cell_fields.size(); ++f)
      {
        const std::vector<double> &values = *cell_fields[f].second;
        AssertDimension(values.size(), n_local_cells);
        if (single)
          cell_floats[f].assign(values.begin(), values.end());
        datasets.push_back(
          Hdf5::table(cell_fields[f].first,
                      n_global_cells,
                      1,
                      first_cell,
                      n_local_cells,
                      single,
                      single ?
                        static_cast<const void *>(cell_floats[f].data()) :
                        static_cast<const void *>(values.data())));
      }
    const std::string stem = series + "_" + Utilities::int_to_string(index, 5);
    const std::string folder =
      files.output_directory().file(OutputDirectory::field_folder) + "/";
    Hdf5::write_file_atomically(folder + stem + ".h5", datasets, t, comm);

    // The record, once the data are complete.
    std::string error;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      error =
        write_file_atomically(folder + stem + ".xdmf",
                              xdmf_record(t, stem, fields, cell_fields, single),
                              false);
    throw_if_any_failed(error, comm);
    return std::string(OutputDirectory::field_folder) + "/" + stem + ".xdmf";
  }



  template <int dim>
  const std::vector<typename DoFHandler<dim>::active_cell_iterator> &
  Hdf5FieldWriter<dim>::cells() const
  {
    return owned_cells;
  }



  template <int dim>
  const std::vector<std::vector<unsigned int>> &
  Hdf5FieldWriter<dim>::sub_cell_corners() const
  {
    return corners;
  }



  template <int dim>
  const std::vector<unsigned int> &
  Hdf5FieldWriter<dim>::local_indices(const Vector &vector) const
  {
    if (vector.get_partitioner().get() != partitioner)
      {
        partitioner = vector.get_partitioner().get();
        indices_in_partition.resize(node_dofs.size());
        for (std::size_t i = 0; i < node_dofs.size(); ++i)
          indices_in_partition[i] = partitioner->global_to_local(node_dofs[i]);
      }
    return indices_in_partition;
  }



  template <int dim>
  std::string
  Hdf5FieldWriter<dim>::xdmf_record(
    const double                                               t,
    const std::string                                         &stem,
    const std::vector<std::pair<std::string, const Vector *>> &fields,
    const std::vector<CellField>                              &cell_fields,
    const bool single_precision) const
  {
    const auto        &data_item = Hdf5::xdmf_data_item;
    std::ostringstream xml;
    xml.precision(17);
    xml
      << "<?xml version=\"1.0\" ?>\n"
      << "<Xdmf Version=\"3.0\">\n"
      << "<Domain>\n"
      << "<Grid Name=\"" << stem << "\" GridType=\"Uniform\">\n"
      << "<Time Value=\"" << t << "\"/>\n"
      << "<Geometry GeometryType=\"" << (dim == 2 ? "XY" : "XYZ") << "\">"
      << data_item(n_global_nodes, dim, "Float", 8, series + "_mesh.h5:/nodes")
      << "</Geometry>\n"
      << "<Topology TopologyType=\""
      << (dim == 2 ? "Quadrilateral" : "Hexahedron") << "\" NumberOfElements=\""
      << n_global_cells << "\">"
      << data_item(
           n_global_cells, 1u << dim, "Int", 8, series + "_mesh.h5:/cells")
      << "</Topology>\n";
    for (const auto &field : fields)
      xml << "<Attribute Name=\"" << field.first << "\" AttributeType=\""
          << (n_file_components == 1 ? "Scalar" : "Vector")
          << "\" Center=\"Node\">"
          << data_item(n_global_nodes,
                       n_file_components,
                       "Float",
                       single_precision ? 4 : 8,
                       stem + ".h5:/" + field.first)
          << "</Attribute>\n";
    for (const auto &field : cell_fields)
      xml << "<Attribute Name=\"" << field.first
          << "\" AttributeType=\"Scalar\" Center=\"Cell\">"
          << data_item(n_global_cells,
                       1,
                       "Float",
                       single_precision ? 4 : 8,
                       stem + ".h5:/" + field.first)
          << "</Attribute>\n";
    xml << "</Grid>\n"
        << "</Domain>\n"
        << "</Xdmf>\n";
    return xml.str();
  }



  template class Hdf5FieldWriter<2>;
  template class Hdf5FieldWriter<3>;
} // namespace stickslip
