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
     * Refinement levels inside one coarse cell of the fully distributed
     * interval: its coarse cells are blocks of 2^10 cells that every rank
     * refines down to its own cells. One coarse cell per cell made deal.II
     * look coarse-cell ids up in a table of N entries for every cell (most
     * of the set-up: BENCHMARKS.md, "Measurements behind design choices in
     * the code"); with blocks the table has
     * N / 1024 entries and the cell ids are 10 levels deep.
     */
    constexpr unsigned int block_levels = 10;



    /**
     * The CellId of the cell of global index @p index on level @p level
     * below the coarse cells (blocks of 2^level cells on that level): the
     * block number, then the binary digits of the index within the block,
     * most significant first (child 0 is the left half).
     */
    CellId::binary_type
    interval_cell_id(const std::uint64_t index, const unsigned int level)
    {
      std::vector<std::uint8_t> children(level);
      for (unsigned int i = 0; i < level; ++i)
        children[i] = (index >> (level - 1 - i)) & 1;
      return CellId(index >> level, children).template to_binary<1>();
    }



    /**
     * The description of the uniform mesh of (0, @p length) into 2^@p r
     * cells that this rank holds in a parallel::fullydistributed::
     * Triangulation<1>: its contiguous block of cells [floor(N p / P),
     * floor(N (p + 1) / P)) plus one ghost cell on each side, as the
     * coarse cells (blocks of 2^b cells, b = min(r, block_levels)) that
     * contain them, refined b times along the paths to them: on each level
     * the ancestors of those cells. Coarse cell ids are the block indices;
     * the end faces carry boundary ids 0 (x = 0) and 1 (x = L). Nothing of
     * size N is built on any rank.
     */
    TriangulationDescription::Description<1, 1>
    interval_description(const double       length,
                         const unsigned int r,
                         const MPI_Comm     comm)
    {
      const std::uint64_t n_cells  = std::uint64_t(1) << r;
      const std::uint64_t n_ranks  = Utilities::MPI::n_mpi_processes(comm);
      const std::uint64_t rank     = Utilities::MPI::this_mpi_process(comm);
      const auto          first_of = [&](const std::uint64_t p) {
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
      const std::uint64_t begin       = owned_begin > 0 ? owned_begin - 1 : 0;
      const std::uint64_t end = owned_end < n_cells ? owned_end + 1 : n_cells;

      const unsigned int  b           = std::min(r, block_levels);
      const std::uint64_t first_block = begin >> b;
      const std::uint64_t last_block  = (end - 1) >> b;
      const std::uint64_t n_blocks    = n_cells >> b;

      TriangulationDescription::Description<1, 1> description;
      description.comm     = comm;
      description.settings = TriangulationDescription::default_setting;
      for (std::uint64_t k = first_block; k <= last_block + 1; ++k)
        description.coarse_cell_vertices.emplace_back(
          k == n_blocks ?
            length :
            length * static_cast<double>(k) / static_cast<double>(n_blocks));
      for (std::uint64_t k = first_block; k <= last_block; ++k)
        {
          CellData<1> cell;
          cell.vertices = {static_cast<unsigned int>(k - first_block),
                           static_cast<unsigned int>(k - first_block + 1)};
          description.coarse_cells.push_back(cell);
          description.coarse_cell_index_to_coarse_cell_id.push_back(k);
        }

      description.cell_infos.resize(b + 1);
      for (unsigned int level = 0; level <= b; ++level)
        {
          const unsigned int  shift         = b - level;
          const std::uint64_t last_on_level = (n_cells >> shift) - 1;
          auto               &infos         = description.cell_infos[level];
          infos.reserve(((end - 1) >> shift) - (begin >> shift) + 1);
          for (std::uint64_t c = begin >> shift; c <= (end - 1) >> shift; ++c)
            {
              TriangulationDescription::CellData<1> info;
              info.id = interval_cell_id(c, level);
              // Only active cells have an owner; their ancestors are
              // artificial (no multigrid levels).
              info.subdomain_id =
                level == b ? owner_of(c) : numbers::artificial_subdomain_id;
              info.level_subdomain_id = numbers::artificial_subdomain_id;
              info.manifold_id        = numbers::flat_manifold_id;
              if (c == 0)
                info.boundary_ids.emplace_back(0, 0);
              if (c == last_on_level)
                info.boundary_ids.emplace_back(1, 1);
              infos.push_back(std::move(info));
            }
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
                               const ParameterSource  &source,
                               const MPI_Comm          comm)
    {
      const unsigned int refinements = parameters.global_refinements;
      if (refinements > 40 || (std::uint64_t(1) << refinements) <
                                Utilities::MPI::n_mpi_processes(comm))
        throw_bad_parameter(source,
                            "String/Global refinements",
                            std::to_string(refinements),
                            "the fully distributed interval needs at least "
                            "one cell per MPI rank (2^r >= ranks)");
      auto tria =
        std::make_unique<parallel::fullydistributed::Triangulation<dim>>(comm);
      if constexpr (dim == 1)
        tria->create_triangulation(
          interval_description(parameters.length, refinements, comm));
      return tria;
    }



  } // namespace



  template <int dim>
  std::unique_ptr<Triangulation<dim>>
  make_string_grid(const StringParameters &parameters,
                   const ParameterSource  &source,
                   const MPI_Comm          comm)
  {
    Assert(parameters.dimension == dim, ExcInternalError());
    // On one rank the fully distributed mesh is the whole mesh: the shared
    // one below is the same mesh built without deal.II's description (whose
    // per-level sorts cost O(N log N), 12 times the uniform mesh's time at
    // 2^20 cells).
    if (parameters.fully_distributed() &&
        Utilities::MPI::n_mpi_processes(comm) > 1)
      return fully_distributed_interval<dim>(parameters, source, comm);

    std::unique_ptr<Triangulation<dim>> triangulation;
    if (dim == 1 && Utilities::MPI::n_mpi_processes(comm) == 1)
      // One rank: a serial triangulation, the same cells and DoF numbering
      // without parallel::shared's partition, its copies of the subdomain
      // ids and the renumbering of its DoF policy (a sixth of the 1D mesh
      // and DoF set-up).
      triangulation = std::make_unique<Triangulation<dim>>();
    else if (dim == 1)
      triangulation = std::make_unique<parallel::shared::Triangulation<dim>>(
        comm,
        Triangulation<dim>::none,
        false,
        parallel::shared::Triangulation<dim>::partition_zorder);
    else
      triangulation =
        std::make_unique<parallel::distributed::Triangulation<dim>>(comm);

    if (parameters.mesh == StringMesh::file)
      {
        read_mesh_file(parameters.mesh_file,
                       "String/Mesh file",
                       *triangulation,
                       source);
        triangulation->refine_global(parameters.global_refinements);
        return triangulation;
      }
    Point<dim> corner;
    corner[0] = parameters.length;
    if (dim == 2)
      corner[1] = parameters.height;
    if (dim == 1)
      {
        // The 2^r cells as one level of coarse cells: the mesh of r global
        // refinements without its r coarser levels, built in a fifth of
        // their time and half their memory.
        const unsigned int refinements = parameters.global_refinements;
        if (refinements > 30)
          throw_bad_parameter(source,
                              "String/Global refinements",
                              std::to_string(refinements),
                              "the interval on one rank or on the shared "
                              "triangulation has at most 2^30 cells");
        GridGenerator::subdivided_hyper_rectangle(
          *triangulation,
          std::vector<unsigned int>(1, 1u << refinements),
          Point<dim>(),
          corner,
          true);
      }
    else
      {
        GridGenerator::hyper_rectangle(*triangulation,
                                       Point<dim>(),
                                       corner,
                                       true);
        triangulation->refine_global(parameters.global_refinements);
      }
    return triangulation;
  }



  template <int dim>
  void
  check_boundary_ids(const Triangulation<dim>              &triangulation,
                     const std::vector<types::boundary_id> &ids,
                     const ParameterSource                 &source,
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
