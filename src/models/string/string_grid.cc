#include <deal.II/distributed/fully_distributed_tria.h>
#include <deal.II/distributed/shared_tria.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/grid/tria_description.h>

#include <models/common/mesh_file.h>
#include <models/string/string_grid.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

namespace stickslip
{
  namespace
  {
    /**
     * The description of the uniform mesh of (0, @p length) into @p n_cells
     * cells that rank @p rank of @p n_ranks holds in a
     * parallel::fullydistributed::Triangulation<1>: its contiguous block of
     * cells [floor(N p / P), floor(N (p + 1) / P)) plus one ghost cell on
     * each side, as
     * coarse cells of one level. Coarse cell ids are the global cell
     * indices; the end faces carry boundary ids 0 (x = 0) and 1 (x = L).
     * Nothing of size N is built on any rank.
     */
    TriangulationDescription::Description<1, 1>
    interval_description(const double          length,
                         const std::uint64_t   n_cells,
                         const MPI_Comm        comm)
    {
      const std::uint64_t n_ranks = Utilities::MPI::n_mpi_processes(comm);
      const std::uint64_t rank    = Utilities::MPI::this_mpi_process(comm);
      const auto first_of = [&](const std::uint64_t p) {
        return n_cells * p / n_ranks;
      };
      const auto owner_of = [&](const std::uint64_t c) {
        // The largest p with first_of(p) <= c.
        std::uint64_t p = (c * n_ranks) / n_cells;
        while (p + 1 < n_ranks && first_of(p + 1) <= c)
          ++p;
        while (first_of(p) > c)
          --p;
        return p;
      };
      const std::uint64_t owned_begin = first_of(rank);
      const std::uint64_t owned_end   = first_of(rank + 1);
      const std::uint64_t begin = owned_begin > 0 ? owned_begin - 1 : 0;
      const std::uint64_t end = owned_end < n_cells ? owned_end + 1 : n_cells;

      TriangulationDescription::Description<1, 1> description;
      description.comm = comm;
      description.settings = TriangulationDescription::default_setting;
      description.coarse_cell_vertices.reserve(end - begin + 1);
      for (std::uint64_t v = begin; v <= end; ++v)
        description.coarse_cell_vertices.emplace_back(
          v == n_cells ? length :
                         length * static_cast<double>(v) /
                           static_cast<double>(n_cells));
      description.coarse_cells.resize(end - begin);
      description.coarse_cell_index_to_coarse_cell_id.resize(end - begin);
      description.cell_infos.resize(1);
      description.cell_infos[0].resize(end - begin);
      for (std::uint64_t c = begin; c < end; ++c)
        {
          const std::size_t k = c - begin;
          description.coarse_cells[k].vertices = {static_cast<unsigned int>(k),
                                                  static_cast<unsigned int>(k + 1)};
          description.coarse_cell_index_to_coarse_cell_id[k] = c;

          auto &info = description.cell_infos[0][k];
          info.id = CellId(c, std::vector<std::uint8_t>()).template to_binary<1>();
          info.subdomain_id = owner_of(c);
          info.level_subdomain_id = info.subdomain_id;
          info.manifold_id = numbers::flat_manifold_id;
          if (c == 0)
            info.boundary_ids.emplace_back(0, 0);
          if (c + 1 == n_cells)
            info.boundary_ids.emplace_back(1, 1);
        }
      return description;
    }



    /**
     * The fully distributed interval of 2^r cells (String/Global
     * refinements = r), already at its final resolution.
     */
    template <int dim>
    std::unique_ptr<Triangulation<dim>>
    fully_distributed_interval(const StringParameters &parameters,
                               const ParameterSource & source,
                               const MPI_Comm          comm)
    {
      const unsigned int refinements = parameters.global_refinements;
      if (refinements > 40 ||
          (std::uint64_t(1) << refinements) <
            Utilities::MPI::n_mpi_processes(comm))
        throw_bad_parameter(source,
                            "String/Global refinements",
                            std::to_string(refinements),
                            "the fully distributed interval needs at least "
                            "one cell per MPI rank (2^r >= ranks)");
      auto tria =
        std::make_unique<parallel::fullydistributed::Triangulation<dim>>(comm);
      if constexpr (dim == 1)
        tria->create_triangulation(interval_description(
          parameters.length, std::uint64_t(1) << refinements, comm));
      return tria;
    }



  } // namespace



  template <int dim>
  std::unique_ptr<Triangulation<dim>>
  make_string_grid(const StringParameters &parameters,
                   const ParameterSource & source,
                   const MPI_Comm          comm)
  {
    Assert(parameters.dimension == dim, ExcInternalError());
    if (parameters.fully_distributed())
      return fully_distributed_interval<dim>(parameters, source, comm);

    std::unique_ptr<Triangulation<dim>> triangulation;
    if (dim == 1)
      triangulation = std::make_unique<parallel::shared::Triangulation<dim>>(
        comm,
        Triangulation<dim>::none,
        false,
        parallel::shared::Triangulation<dim>::partition_zorder);
    else
      triangulation =
        std::make_unique<parallel::distributed::Triangulation<dim>>(comm);

    if (parameters.mesh == StringMesh::file)
      read_mesh_file(parameters.mesh_file, "String/Mesh file", *triangulation, source);
    else
      {
        Point<dim> corner;
        corner[0] = parameters.length;
        if (dim == 2)
          corner[1] = parameters.height;
        GridGenerator::hyper_rectangle(*triangulation, Point<dim>(), corner, true);
      }
    triangulation->refine_global(parameters.global_refinements);
    return triangulation;
  }



  template <int dim>
  void
  check_boundary_ids(const Triangulation<dim> &             triangulation,
                     const std::vector<types::boundary_id> &ids,
                     const ParameterSource &                source,
                     const MPI_Comm                         comm)
  {
    // Only owned cells count: the outer face of a ghost cell of the fully
    // distributed mesh is an artificial boundary.
    std::set<types::boundary_id> present;
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        for (const auto face : cell->face_indices())
          if (cell->face(face)->at_boundary())
            present.insert(cell->face(face)->boundary_id());
    std::vector<types::boundary_id> local(present.begin(), present.end());
    const auto all = Utilities::MPI::compute_set_union(local, comm);
    for (const auto id : ids)
      if (std::find(all.begin(), all.end(), id) == all.end())
        {
          std::string existing;
          for (const auto e : all)
            existing += (existing.empty() ? "" : ", ") + std::to_string(e);
          throw_bad_parameter(source,
                              "String/Dirichlet boundary ids",
                              std::to_string(id),
                              "the mesh has no boundary with this id (its "
                              "boundary ids are " +
                                existing + ")");
        }
  }



  template <int dim>
  double
  smallest_cell_diameter(const Triangulation<dim> &triangulation,
                         const MPI_Comm            comm)
  {
    double smallest = std::numeric_limits<double>::max();
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        smallest = std::min(smallest, cell->diameter());
    return Utilities::MPI::min(smallest, comm);
  }



  template std::unique_ptr<Triangulation<1>>
  make_string_grid<1>(const StringParameters &,
                      const ParameterSource &,
                      const MPI_Comm);
  template std::unique_ptr<Triangulation<2>>
  make_string_grid<2>(const StringParameters &,
                      const ParameterSource &,
                      const MPI_Comm);
  template void
  check_boundary_ids<1>(const Triangulation<1> &,
                        const std::vector<types::boundary_id> &,
                        const ParameterSource &,
                        const MPI_Comm);
  template void
  check_boundary_ids<2>(const Triangulation<2> &,
                        const std::vector<types::boundary_id> &,
                        const ParameterSource &,
                        const MPI_Comm);
  template double
  smallest_cell_diameter<1>(const Triangulation<1> &, const MPI_Comm);
  template double
  smallest_cell_diameter<2>(const Triangulation<2> &, const MPI_Comm);
} // namespace stickslip
