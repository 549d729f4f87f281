#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_tools.h>

#include <base/expressions.h>
#include <models/body/body_grid.h>
#include <models/common/mesh_file.h>

#include <algorithm>
#include <cmath>


namespace stickslip
{
  namespace Body
  {
    namespace
    {
      std::string
      list_of(const std::set<types::boundary_id> &ids)
      {
        std::string text;
        for (const auto id : ids)
          text += (text.empty() ? "" : ", ") + std::to_string(id);
        return text.empty() ? "none" : text;
      }



      /** Every boundary id the parameters name exists in @p present. */
      void
      check_boundary_ids(const BodyParameters               &parameters,
                         const std::set<types::boundary_id> &present,
                         const ParameterSource              &source)
      {
        const auto check = [&](const types::boundary_id id,
                               const std::string       &path) {
          if (present.count(id) == 0)
            throw_bad_parameter(source,
                                path,
                                std::to_string(id),
                                "the mesh has no boundary with this id (its "
                                "boundary ids are " +
                                  list_of(present) + ")");
        };
        for (const auto &condition : parameters.displacements)
          for (const auto id : condition.boundary_ids)
            check(id, condition.path + "/Boundary ids");
        for (const auto &condition : parameters.tractions)
          for (const auto id : condition.boundary_ids)
            check(id, condition.path + "/Boundary ids");
        if (parameters.contact.enabled)
          check(parameters.contact.boundary_id, "Body/Contact/Boundary id");
        for (const auto &pair : parameters.periodic_pairs)
          {
            check(pair.first, "Body/Periodic boundary pairs");
            check(pair.second, "Body/Periodic boundary pairs");
          }
      }



      /** Register the periodic pairs on the coarse mesh (collective). */
      template <int dim>
      void
      add_periodicity(const BodyParameters                      &parameters,
                      parallel::distributed::Triangulation<dim> &triangulation,
                      const ParameterSource                     &source)
      {
        std::vector<GridTools::PeriodicFacePair<
          typename Triangulation<dim>::cell_iterator>>
          matched;
        for (const auto &pair : parameters.periodic_pairs)
          {
            const std::size_t before = matched.size();
            try
              {
                GridTools::collect_periodic_faces(triangulation,
                                                  pair.first,
                                                  pair.second,
                                                  pair.direction,
                                                  matched);
              }
            catch (std::exception &)
              {
                matched.resize(before);
              }
            if (matched.size() == before)
              throw_bad_parameter(source,
                                  "Body/Periodic boundary pairs",
                                  std::to_string(pair.first) + ":" +
                                    std::to_string(pair.second) + ":" +
                                    std::string(1, "xyz"[pair.direction]),
                                  "the faces of the two boundaries do not "
                                  "match: the second must be the first "
                                  "translated along the direction, face for "
                                  "face");
          }
        if (!matched.empty())
          triangulation.add_periodicity(matched);
      }


      /**
       * The largest k such that 2^k divides every Body/Subdivisions entry
       * and every periodic direction keeps at least 2 coarse cells (at most
       * 10).
       */
      unsigned int
      coarse_block_refinements(const BodyParameters &parameters)
      {
        unsigned int k       = 0;
        const auto   divides = [&](const unsigned int level) {
          for (unsigned int d = 0; d < parameters.subdivisions.size(); ++d)
            if (parameters.subdivisions[d] % (1u << level) != 0)
              return false;
          for (const auto &pair : parameters.periodic_pairs)
            if ((parameters.subdivisions[pair.direction] >> level) < 2)
              return false;
          return true;
        };
        while (k < 10 && divides(k + 1))
          ++k;
        return k;
      }
    } // namespace



    template <int dim>
    std::set<types::boundary_id>
    boundary_ids_of(const Triangulation<dim> &triangulation,
                    const MPI_Comm            comm)
    {
      std::set<types::boundary_id> present;
      for (const auto &cell : triangulation.active_cell_iterators())
        if (cell->is_locally_owned())
          for (const auto face : cell->face_indices())
            if (cell->face(face)->at_boundary())
              present.insert(cell->face(face)->boundary_id());
      const std::vector<types::boundary_id> local(present.begin(),
                                                  present.end());
      const auto all = Utilities::MPI::compute_set_union(local, comm);
      return std::set<types::boundary_id>(all.begin(), all.end());
    }



    template <int dim>
    std::unique_ptr<parallel::distributed::Triangulation<dim>>
    make_body_grid(const BodyParameters  &parameters,
                   const ParameterSource &source,
                   const MPI_Comm         comm)
    {
      auto triangulation =
        std::make_unique<parallel::distributed::Triangulation<dim>>(comm);
      if (parameters.mesh == MeshKind::file)
        read_mesh_file(parameters.mesh_file,
                       "Body/Mesh file",
                       *triangulation,
                       source);
      unsigned int block_refinements = 0;
      if (parameters.mesh == MeshKind::block)
        {
          // The block of n_d cells per direction as a coarse block of
          // n_d/2^k cells refined k times: the same mesh, but p4est's coarse
          // mesh, which every rank holds, is 4^k (8^k) times smaller.
          block_refinements = coarse_block_refinements(parameters);
          std::vector<unsigned int> coarse(parameters.subdivisions);
          for (auto &n : coarse)
            n >>= block_refinements;
          Point<dim> corner;
          for (unsigned int d = 0; d < dim; ++d)
            corner[d] = parameters.size[d];
          GridGenerator::subdivided_hyper_rectangle(
            *triangulation, coarse, Point<dim>(), corner, true);
        }
      // The coarse mesh is on every rank: its ids are those of the mesh.
      std::set<types::boundary_id> present;
      for (const auto &cell : triangulation->cell_iterators_on_level(0))
        for (const auto face : cell->face_indices())
          if (cell->face(face)->at_boundary())
            present.insert(cell->face(face)->boundary_id());
      check_boundary_ids(parameters, present, source);
      add_periodicity(parameters, *triangulation, source);
      triangulation->refine_global(block_refinements +
                                   parameters.global_refinements);
      return triangulation;
    }



    namespace
    {
      /** A face of the boundary: its outward unit normal, centre, size. */
      template <int dim>
      struct BoundaryFace
      {
        Tensor<1, dim> normal;
        Point<dim>     center;
        double         size;
      };



      /**
       * The outward normal of @p face of @p cell, of the length of the face
       * (2D) or of twice its area for a parallelogram (3D: the cross
       * product of its diagonals).
       */
      template <int dim, typename Cell, typename Face>
      Tensor<1, dim>
      scaled_outward_normal(const Cell &cell, const Face &face)
      {
        Tensor<1, dim> normal;
        if constexpr (dim == 2)
          {
            const Tensor<1, dim> along = face->vertex(1) - face->vertex(0);
            normal[0]                  = along[1];
            normal[1]                  = -along[0];
          }
        else
          normal = cross_product_3d(face->vertex(3) - face->vertex(0),
                                    face->vertex(2) - face->vertex(1));
        return (face->center() - cell->center()) * normal < 0 ? -normal :
                                                                normal;
      }



      template <int dim>
      std::string
      vector_text(const Tensor<1, dim> &vector)
      {
        std::string text;
        for (unsigned int d = 0; d < dim; ++d)
          text += (d == 0 ? "" : ", ") + format_number(vector[d]);
        return text;
      }
    } // namespace



    template <int dim>
    std::vector<double>
    plane_normal_of_boundary(const Triangulation<dim> &triangulation,
                             const types::boundary_id  id,
                             const ParameterSource    &source)
    {
      std::vector<BoundaryFace<dim>> faces;
      std::vector<Point<dim>>        vertices;
      Tensor<1, dim>                 sum;
      for (const auto &cell : triangulation.cell_iterators_on_level(0))
        for (const auto f : cell->face_indices())
          if (cell->face(f)->at_boundary() &&
              cell->face(f)->boundary_id() == id)
            {
              const auto           face = cell->face(f);
              const Tensor<1, dim> normal =
                scaled_outward_normal<dim>(cell, face);
              sum += normal;
              faces.push_back(
                {normal / normal.norm(), face->center(), normal.norm()});
              for (const auto v : face->vertex_indices())
                vertices.push_back(face->vertex(v));
            }
      const std::string here = "Body/Contact/Normal";
      if (faces.empty() || !(sum.norm() > 0))
        throw_bad_parameter(source,
                            here,
                            "auto",
                            "the contact boundary " + std::to_string(id) +
                              " has no faces with a mean normal: give the "
                              "normal");
      const Tensor<1, dim> mean = sum / sum.norm();
      // 1e-6: a plane written by a mesh generator is flat to round-off
      // (1e-15 of its size); a curved boundary of 100 faces on a quarter
      // circle turns by 1.6e-2 from face to face.
      constexpr double tolerance = 1e-6;
      double           extent = 0, worst_turn = 0, worst_offset = 0;
      std::size_t      worst_face = 0;
      for (const Point<dim> &x : vertices)
        extent = std::max(extent, x.distance(vertices[0]));
      for (std::size_t k = 0; k < faces.size(); ++k)
        {
          const double turn = (faces[k].normal - mean).norm();
          if (turn > worst_turn)
            worst_turn = turn, worst_face = k;
        }
      for (const Point<dim> &x : vertices)
        worst_offset =
          std::max(worst_offset, std::abs(mean * (x - faces[0].center)));
      if (worst_turn > tolerance || worst_offset > tolerance * extent)
        throw_bad_parameter(
          source,
          here,
          "auto",
          "auto needs the faces of the contact boundary " + std::to_string(id) +
            " to lie in one plane, and they do not: " +
            "the outward normal of the face at (" +
            vector_text<dim>(faces[worst_face].center) + ") is (" +
            vector_text<dim>(faces[worst_face].normal) + "), the mean (" +
            vector_text<dim>(mean) + ") (differing by " +
            format_number(worst_turn) + "; a vertex lies " +
            format_number(worst_offset) + " off the mean plane, " +
            format_number(worst_offset / std::max(extent, 1e-300)) +
            " of the boundary's extent; the tolerance of both is 1e-6). Give "
            "the foundation's normal explicitly (" +
            std::to_string(dim) + " numbers)");
      std::vector<double> normal(dim);
      for (unsigned int d = 0; d < dim; ++d)
        normal[d] = std::abs(mean[d]) < 1e-12 ? 0. : mean[d];
      double length = 0;
      for (const double n : normal)
        length += n * n;
      for (double &n : normal)
        n /= std::sqrt(length);
      return normal;
    }



    template std::vector<double>
    plane_normal_of_boundary<2>(const Triangulation<2> &,
                                const types::boundary_id,
                                const ParameterSource &);
    template std::vector<double>
    plane_normal_of_boundary<3>(const Triangulation<3> &,
                                const types::boundary_id,
                                const ParameterSource &);
    template std::unique_ptr<parallel::distributed::Triangulation<2>>
    make_body_grid<2>(const BodyParameters &,
                      const ParameterSource &,
                      const MPI_Comm);
    template std::unique_ptr<parallel::distributed::Triangulation<3>>
    make_body_grid<3>(const BodyParameters &,
                      const ParameterSource &,
                      const MPI_Comm);
    template std::set<types::boundary_id>
    boundary_ids_of<2>(const Triangulation<2> &, const MPI_Comm);
    template std::set<types::boundary_id>
    boundary_ids_of<3>(const Triangulation<3> &, const MPI_Comm);
  } // namespace Body
} // namespace stickslip
