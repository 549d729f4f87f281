#ifndef stickslip_models_body_body_grid_h
#define stickslip_models_body_body_grid_h

#include <deal.II/distributed/tria.h>

#include <base/global.h>
#include <base/input_error.h>
#include <models/body/body_parameters.h>

#include <memory>
#include <set>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /**
     * The mesh of the body on @p comm (collective): a p4est
     * parallel::distributed::Triangulation<dim> of the block (a subdivided
     * rectangle or box, colorized boundary ids) or of a gmsh file, with the
     * periodic pairs of Body/Periodic boundary pairs registered on the coarse
     * mesh (so that p4est keeps the matched cells' neighbours as ghosts),
     * then globally refined. Every boundary id the parameters name must
     * exist, and the periodic faces must match: an InputError names the
     * parameter otherwise.
     */
    template <int dim>
    std::unique_ptr<parallel::distributed::Triangulation<dim>>
    make_body_grid(const BodyParameters  &parameters,
                   const ParameterSource &source,
                   const MPI_Comm         comm);

    /**
     * Body/Contact/Normal = auto: the outward unit normal of the faces of
     * the coarse mesh with the boundary id @p id (the coarse mesh is on
     * every rank, so every rank finds the same). The faces must lie in one
     * plane: every face's normal within 1e-6 of their area-weighted mean,
     * every vertex within 1e-6 of the boundary's extent from the plane;
     * an InputError naming Body/Contact/Normal and the face farthest off
     * otherwise. Components below 1e-12 (round-off) are set to 0.
     */
    template <int dim>
    std::vector<double>
    plane_normal_of_boundary(const Triangulation<dim> &triangulation,
                             const types::boundary_id  id,
                             const ParameterSource    &source);

    /** The boundary ids of the owned cells' faces, over all ranks (collective).
     */
    template <int dim>
    std::set<types::boundary_id>
    boundary_ids_of(const Triangulation<dim> &triangulation,
                    const MPI_Comm            comm);
  } // namespace Body
} // namespace stickslip

#endif
