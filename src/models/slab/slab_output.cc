#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/tria_description.h>

#include <deal.II/numerics/data_out.h>

#include <models/slab/slab_output.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace stickslip
{
  namespace Slab
  {
    namespace
    {
      const char *profile_names[profile_width] = {"z",
                                                  "velocity_1",
                                                  "velocity_2",
                                                  "velocity_3",
                                                  "strain_1",
                                                  "strain_2",
                                                  "strain_3",
                                                  "displacement_1",
                                                  "displacement_2",
                                                  "displacement_3"};
    } // namespace



    std::vector<double>
    local_profile(CharacteristicTransport &transport,
                  const double             compression,
                  const MPI_Comm           comm)
    {
      transport.exchange_ghosts();
      const unsigned int first = transport.first_node(),
                         end = transport.end_node(), n_z = transport.n_cells();
      const double dz = transport.cell_size();
      // Integral of u_,3 over the cells [i, i+1] with i owned.
      std::array<double, 3> block = {{0, 0, 0}};
      for (unsigned int i = first; i < end && i < n_z; ++i)
        for (unsigned int k = 0; k < 3; ++k)
          block[k] += 0.5 * dz *
                      (transport.gradient(k, i) + transport.gradient(k, i + 1));
      const unsigned int  rank    = Utilities::MPI::this_mpi_process(comm);
      const unsigned int  n_ranks = Utilities::MPI::n_mpi_processes(comm);
      std::vector<double> blocks(3 * n_ranks);
      MPI_Allgather(
        block.data(), 3, MPI_DOUBLE, blocks.data(), 3, MPI_DOUBLE, comm);
      std::array<double, 3> u = {{0, 0, -compression}};
      for (unsigned int r = n_ranks - 1; r > rank; --r)
        for (unsigned int k = 0; k < 3; ++k)
          u[k] -= blocks[3 * r + k];
      // u now holds u(z_end) (u(H) on the last rank).
      std::vector<double> rows((end - first) * profile_width);
      for (unsigned int i = end; i-- > first;)
        {
          if (i < n_z)
            for (unsigned int k = 0; k < 3; ++k)
              u[k] -= 0.5 * dz *
                      (transport.gradient(k, i) + transport.gradient(k, i + 1));
          double *row = &rows[(i - first) * profile_width];
          row[0]      = i * dz;
          for (unsigned int k = 0; k < 3; ++k)
            {
              row[1 + k] = transport.velocity(k, i);
              row[4 + k] = transport.gradient(k, i);
              row[7 + k] = u[k];
            }
        }
      return rows;
    }



    void
    write_profile_csv(const std::vector<double> &rows,
                      const std::string         &name,
                      const OutputDirectory     &output,
                      const MPI_Comm             comm)
    {
      const std::vector<std::vector<double>> all =
        Utilities::MPI::gather(comm, rows, 0);
      CsvTable table(
        std::vector<std::string>(profile_names, profile_names + profile_width));
      for (const auto &block : all) // empty but on rank 0
        for (std::size_t r = 0; r < block.size(); r += profile_width)
          table.add_row(std::vector<double>(block.begin() + r,
                                            block.begin() + r + profile_width));
      output.write_atomically(name, table.to_string());
    }



    ProfileWriter::ProfileWriter(const CharacteristicTransport &transport,
                                 const MPI_Comm                 comm)
      : comm(comm)
      , fe(FE_Q<1, 3>(1), 3)
      , dof_handler(triangulation)
    {
      const unsigned int first = transport.first_node();
      const unsigned int last =
        std::min(transport.end_node(), transport.n_cells());
      const double             dz = transport.cell_size();
      std::vector<Point<3>>    vertices;
      std::vector<CellData<1>> cells(last - first);
      for (unsigned int node = first; node <= last; ++node)
        vertices.emplace_back(0., 0., node * dz);
      for (unsigned int c = 0; c < cells.size(); ++c)
        cells[c].vertices = {c, c + 1};
      triangulation.create_triangulation(vertices, cells, SubCellData());
      dof_handler.distribute_dofs(fe);
      node_of_dof.resize(dof_handler.n_dofs());
      component_of_dof.resize(dof_handler.n_dofs());
      for (const auto &cell : dof_handler.active_cell_iterators())
        for (unsigned int v = 0; v < 2; ++v)
          for (unsigned int k = 0; k < 3; ++k)
            {
              const auto dof        = cell->vertex_dof_index(v, k);
              node_of_dof[dof]      = std::lround(cell->vertex(v)[2] / dz);
              component_of_dof[dof] = k;
            }
      first_node = first;
    }



    std::string
    ProfileWriter::write(CharacteristicTransport   &transport,
                         const std::vector<double> &profile,
                         const double               t,
                         const unsigned int         index,
                         const FieldFiles          &files)
    {
      DataOut<1, 3> data_out;
      data_out.attach_dof_handler(dof_handler);
      const unsigned int n_owned = transport.end_node() - first_node;
      // velocity, strain, displacement: component k of node n at the dof
      // of (n, k); the profile holds them at 1 + 3 g + k.
      std::vector<dealii::Vector<double>> fields(
        3, dealii::Vector<double>(dof_handler.n_dofs()));
      for (unsigned int dof = 0; dof < node_of_dof.size(); ++dof)
        {
          const unsigned int node = node_of_dof[dof];
          const unsigned int k    = component_of_dof[dof];
          if (node - first_node < n_owned)
            for (unsigned int g = 0; g < 3; ++g)
              fields[g][dof] =
                profile[(node - first_node) * profile_width + 1 + 3 * g + k];
          else
            {
              // The right neighbour's first node (ghost): u_t and u_,3
              // from the ghost values; u continued by one trapezoid.
              const unsigned int last = n_owned - 1;
              fields[0][dof]          = transport.velocity(k, node);
              fields[1][dof]          = transport.gradient(k, node);
              fields[2][dof]          = profile[last * profile_width + 7 + k] +
                               0.5 * transport.cell_size() *
                                 (transport.gradient(k, node - 1) +
                                  transport.gradient(k, node));
            }
        }
      const std::vector<
        DataComponentInterpretation::DataComponentInterpretation>
        vector(3, DataComponentInterpretation::component_is_part_of_vector);
      const char *names[3] = {"velocity", "strain", "displacement"};
      for (unsigned int g = 0; g < 3; ++g)
        data_out.add_data_vector(fields[g],
                                 std::vector<std::string>(3, names[g]),
                                 DataOut<1, 3>::type_dof_data,
                                 vector);
      dealii::Vector<float> subdomain(triangulation.n_active_cells());
      subdomain = Utilities::MPI::this_mpi_process(comm);
      data_out.add_data_vector(subdomain, "subdomain");
      data_out.build_patches();
      DataOutBase::VtkFlags flags(t, index);
      flags.compression_level = DataOutBase::VtkFlags::best_speed;
      data_out.set_flags(flags);
      return files.write(index, data_out);
    }
  } // namespace Slab
} // namespace stickslip
