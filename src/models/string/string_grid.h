#ifndef stickslip_models_string_string_grid_h
#define stickslip_models_string_string_grid_h

#include <deal.II/grid/tria.h>

#include <base/global.h>
#include <base/input_error.h>
#include <models/string/string_parameters.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * The mesh of the string (dim = 1) or membrane (dim = 2) of
   * @p parameters on @p comm, globally refined (collective): the interval on
   * several ranks as a parallel::fullydistributed::Triangulation<1> built
   * from a per-rank description (a contiguous block of cells plus one ghost
   * cell per side, inside coarse blocks of 2^10 cells; deal.II 9.4 has no
   * p4est in 1D), on one rank or with String/Triangulation = shared as a
   * parallel::shared one of 2^r coarse cells (one level), a 1D gmsh mesh on
   * parallel::shared, and in 2D parallel::distributed (p4est).
   * InputErrors name the parameter (an unreadable mesh file, fewer cells
   * than ranks).
   */
  template <int dim>
  std::unique_ptr<Triangulation<dim>>
  make_string_grid(const StringParameters &parameters,
                   const ParameterSource  &source,
                   const MPI_Comm          comm);

  /**
   * Check that each of @p ids is the id of a boundary of the owned cells of
   * some rank (collective); an InputError naming String/Dirichlet boundary
   * ids lists the ids the mesh has.
   */
  template <int dim>
  void
  check_boundary_ids(const Triangulation<dim>              &triangulation,
                     const std::vector<types::boundary_id> &ids,
                     const ParameterSource                 &source,
                     const MPI_Comm                         comm);

  /** The smallest diameter of an active cell, over all ranks. */
  template <int dim>
  double
  smallest_cell_diameter(const Triangulation<dim> &triangulation,
                         const MPI_Comm            comm);
} // namespace stickslip

#endif
