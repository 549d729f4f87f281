// The cost of one field write in the formats deal.II offers, to choose how
// stickslip writes its fields: VTU (what every model writes
// today, zlib at best_speed; also without compression) against HDF5 + XDMF
// (DataOutBase::write_hdf5_parallel, one file for all ranks, with the mesh in
// every file or written once for a series on a fixed mesh), with the floor
// of the file system (one fwrite of as many bytes as the uncompressed VTU)
// and the two parts of the HDF5 path (deal.II's vertex filter, the file),
// and stickslip's own writer of the nodal values (Hdf5FieldWriter, Output/
// Field format = hdf5: the mesh once, each write the values as HDF5
// hyperslabs plus an XDMF record), in double and single precision.
//
// usage: stickslip_field_output_formats DIM CELLS WRITES DIRECTORY
// (CELLS per direction of a unit hypercube)
//
// The fields are those of the body's volume output: displacement and
// velocity (vectors, Q1 nodal values) and a scalar per cell. Prints one line
// per format: seconds per write (the slowest rank, a barrier before and after
// each write; the smallest of WRITES writes, after one untimed write that
// warms the file system's cache), bytes per write, and both per million
// unknowns of the displacement.

#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <deal.II/distributed/tria.h>

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>

#include <deal.II/grid/grid_generator.h>

#include <deal.II/lac/la_parallel_vector.h>
#include <deal.II/lac/vector.h>

#include <deal.II/numerics/data_out.h>

#include <base/field_files.h>
#include <base/hdf5_field_writer.h>
#include <base/output_files.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace dealii;

namespace
{
  /** Bytes of the files under @p directory (rank 0 reads, all return it). */
  double
  folder_bytes(const std::string &directory, const MPI_Comm comm)
  {
    double bytes = 0;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      for (const auto &entry :
           std::filesystem::recursive_directory_iterator(directory))
        if (entry.is_regular_file())
          bytes += entry.file_size();
    return Utilities::MPI::broadcast(comm, bytes, 0);
  }

  /** The smallest time of @p writes calls of @p write (after one untimed
   * call), the slowest rank's; the folder emptied before each. */
  double
  time_writes(const unsigned int           writes,
              const std::string           &directory,
              const std::function<void()> &write,
              const MPI_Comm               comm)
  {
    double best = std::numeric_limits<double>::max();
    for (unsigned int k = 0; k <= writes; ++k)
      {
        if (Utilities::MPI::this_mpi_process(comm) == 0)
          {
            std::filesystem::remove_all(directory);
            std::filesystem::create_directories(directory);
          }
        MPI_Barrier(comm);
        const double start = MPI_Wtime();
        write();
        MPI_Barrier(comm);
        const double seconds = Utilities::MPI::max(MPI_Wtime() - start, comm);
        if (k > 0)
          best = std::min(best, seconds);
      }
    return best;
  }

  template <int dim>
  void
  run(const unsigned int cells,
      const unsigned int writes,
      const std::string &directory,
      const MPI_Comm     comm)
  {
    parallel::distributed::Triangulation<dim> triangulation(comm);
    GridGenerator::subdivided_hyper_cube(triangulation, cells);
    const FESystem<dim> fe(FE_Q<dim>(1), dim);
    DoFHandler<dim>     dof_handler(triangulation);
    dof_handler.distribute_dofs(fe);

    const IndexSet owned = dof_handler.locally_owned_dofs();
    IndexSet       relevant;
    DoFTools::extract_locally_relevant_dofs(dof_handler, relevant);
    LinearAlgebra::distributed::Vector<double> displacement(owned,
                                                            relevant,
                                                            comm);
    LinearAlgebra::distributed::Vector<double> velocity(owned, relevant, comm);
    for (const auto i : owned)
      {
        displacement[i] = std::sin(1e-3 * i);
        velocity[i]     = std::cos(1e-3 * i);
      }
    displacement.update_ghost_values();
    velocity.update_ghost_values();
    Vector<float> rank(triangulation.n_active_cells());
    rank = Utilities::MPI::this_mpi_process(comm);

    DataOut<dim> data_out;
    data_out.attach_dof_handler(dof_handler);
    const std::vector<DataComponentInterpretation::DataComponentInterpretation>
      vector(dim, DataComponentInterpretation::component_is_part_of_vector);
    data_out.add_data_vector(displacement,
                             std::vector<std::string>(dim, "displacement"),
                             DataOut<dim>::type_dof_data,
                             vector);
    data_out.add_data_vector(velocity,
                             std::vector<std::string>(dim, "velocity"),
                             DataOut<dim>::type_dof_data,
                             vector);
    data_out.add_data_vector(rank, "subdomain");

    const double patches = time_writes(
      writes, directory, [&]() { data_out.build_patches(); }, comm);

    const double      million = dof_handler.n_dofs() / 1e6;
    const std::string folder  = directory + "/";
    auto              report  = [&](const std::string           &format,
                      const std::function<void()> &write) {
      const double seconds = time_writes(writes, directory, write, comm);
      const double bytes = folder_bytes(directory, comm);
      if (Utilities::MPI::this_mpi_process(comm) == 0)
        std::printf(
          "%dD %9u unknowns %u ranks  %-28s %8.4f s/write %9.1f MB/write"
                        "  %7.4f s and %6.1f MB per million unknowns\n",
          dim,
          static_cast<unsigned int>(dof_handler.n_dofs()),
          Utilities::MPI::n_mpi_processes(comm),
          format.c_str(),
          seconds,
          bytes / 1e6,
          seconds / million,
          bytes / 1e6 / million);
    };

    if (Utilities::MPI::this_mpi_process(comm) == 0)
      std::printf("%dD %9u unknowns %u ranks  %-28s %8.4f s/write\n",
                  dim,
                  static_cast<unsigned int>(dof_handler.n_dofs()),
                  Utilities::MPI::n_mpi_processes(comm),
                  "build_patches (all formats)",
                  patches);
    for (const auto level : {DataOutBase::VtkFlags::best_speed,
                             DataOutBase::VtkFlags::no_compression})
      {
        DataOutBase::VtkFlags flags;
        flags.compression_level = level;
        data_out.set_flags(flags);
        report(
          level == DataOutBase::VtkFlags::best_speed ? "VTU, zlib best_speed" :
                                                       "VTU, no compression",
          [&]() {
            data_out.write_vtu_with_pvtu_record(folder, "solution", 0, comm, 5);
          });
      }
    // The floor: this rank's share of the uncompressed VTU's bytes written
    // by one fwrite (the file system's speed from the page cache).
    const double vtu_bytes = folder_bytes(directory, comm);
    {
      const std::vector<char> buffer(static_cast<std::size_t>(
                                       vtu_bytes /
                                       Utilities::MPI::n_mpi_processes(comm)),
                                     'x');
      report("floor: fwrite of those bytes", [&]() {
        const std::string name =
          folder + "raw." +
          std::to_string(Utilities::MPI::this_mpi_process(comm));
        std::FILE *file = std::fopen(name.c_str(), "wb");
        std::fwrite(buffer.data(), 1, buffer.size(), file);
        std::fclose(file);
      });
    }
    // HDF5 through the filtered data: shared vertices merged (the fields are
    // continuous), one file for all ranks.
    report("HDF5+XDMF, mesh every write", [&]() {
      DataOutBase::DataOutFilter filter(
        DataOutBase::DataOutFilterFlags(true, true));
      data_out.write_filtered_data(filter);
      data_out.write_hdf5_parallel(filter, folder + "solution.h5", comm);
      const auto entry =
        data_out.create_xdmf_entry(filter, "solution.h5", 0.0, comm);
      data_out.write_xdmf_file({entry}, folder + "solution.xdmf", comm);
    });
    // Where the HDF5 path spends its time: merging the shared vertices
    // (write_filtered_data) or writing the file.
    DataOutBase::DataOutFilter filtered(
      DataOutBase::DataOutFilterFlags(true, true));
    report("  of which: vertex filter", [&]() {
      filtered =
        DataOutBase::DataOutFilter(DataOutBase::DataOutFilterFlags(true, true));
      data_out.write_filtered_data(filtered);
    });
    report("  of which: HDF5 file", [&]() {
      data_out.write_hdf5_parallel(filtered, folder + "solution.h5", comm);
    });
    report("  of which: filter, no merge", [&]() {
      filtered = DataOutBase::DataOutFilter(
        DataOutBase::DataOutFilterFlags(false, true));
      data_out.write_filtered_data(filtered);
    });
    report("HDF5+XDMF, fields only", [&]() {
      DataOutBase::DataOutFilter filter(
        DataOutBase::DataOutFilterFlags(true, true));
      data_out.write_filtered_data(filter);
      data_out.write_hdf5_parallel(
        filter, false, "mesh.h5", folder + "solution.h5", comm);
    });
    // stickslip's writer: the numbering of the nodes and the mesh file once
    // (reported as one "write"), then the nodal values alone.
    const stickslip::OutputDirectory output(directory, comm);
    for (const bool single : {false, true})
      {
        const stickslip::FieldFiles                      files(output,
                                          stickslip::FieldFiles::Format::hdf5,
                                          single);
        std::unique_ptr<stickslip::Hdf5FieldWriter<dim>> writer;
        const auto                                       make_folder = [&]() {
          if (Utilities::MPI::this_mpi_process(comm) == 0)
            std::filesystem::create_directories(folder + "solution");
          MPI_Barrier(comm);
        };
        if (!single)
          report("HDF5 direct: nodes + mesh, once", [&]() {
            make_folder();
            writer =
              std::make_unique<stickslip::Hdf5FieldWriter<dim>>(dof_handler,
                                                                files);
          });
        else
          {
            make_folder();
            writer =
              std::make_unique<stickslip::Hdf5FieldWriter<dim>>(dof_handler,
                                                                files);
          }
        report(single ? "HDF5 direct, single" : "HDF5 direct, double", [&]() {
          make_folder();
          writer->write(0.0,
                        0,
                        {{"displacement", &displacement},
                         {"velocity", &velocity}},
                        {},
                        files);
        });
      }
  }
} // namespace

int
main(int argc, char **argv)
{
  Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  if (argc != 5)
    {
      std::cerr << "usage: " << argv[0]
                << " DIM CELLS_PER_DIRECTION WRITES DIRECTORY\n";
      return 2;
    }
  const int          dim    = std::stoi(argv[1]);
  const unsigned int cells  = std::stoul(argv[2]);
  const unsigned int writes = std::stoul(argv[3]);
  if (dim == 2)
    run<2>(cells, writes, argv[4], MPI_COMM_WORLD);
  else
    run<3>(cells, writes, argv[4], MPI_COMM_WORLD);
  return 0;
}
