#include <deal.II/base/geometry_info.h>

#include <deal.II/grid/grid_in.h>

#include <base/expressions.h>
#include <models/common/mesh_file.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace stickslip
{
  namespace
  {
    /** "(x, y)" of @p point. */
    template <int dim>
    std::string
    coordinates(const Point<dim> &point)
    {
      std::string text = "(";
      for (unsigned int d = 0; d < dim; ++d)
        text += (d == 0 ? "" : ", ") + format_number(point[d]);
      return text + ")";
    }



    /**
     * The first coarse cell of @p triangulation whose Jacobian determinant
     * is not positive at one of its vertices (deal.II's criterion of a
     * distorted cell: <= 1e-9 diameter^dim), described with its vertices
     * and what is wrong; "" if there is none. A cell with two vertices at
     * the same place is degenerate; one whose determinant changes sign
     * between its vertices is twisted (vertices out of order); one with
     * every determinant negative is inverted.
     */
    template <int dim>
    std::string
    first_distorted_cell(const Triangulation<dim> &triangulation)
    {
      constexpr unsigned int n_vertices = GeometryInfo<dim>::vertices_per_cell;
      for (const auto &cell : triangulation.cell_iterators_on_level(0))
        {
          if (!cell->reference_cell().is_hyper_cube())
            continue;
          Point<dim>     vertices[n_vertices];
          Tensor<0, dim> forms[n_vertices];
          for (unsigned int v = 0; v < n_vertices; ++v)
            vertices[v] = cell->vertex(v);
          GeometryInfo<dim>::alternating_form_at_vertices(vertices, forms);
          const double scale = 1e-9 * std::pow(cell->diameter(), 1. * dim);
          unsigned int bad = n_vertices, negative = 0;
          for (unsigned int v = 0; v < n_vertices; ++v)
            {
              negative += forms[v] < 0 ? 1 : 0;
              if (bad == n_vertices && !(forms[v] > scale))
                bad = v;
            }
          if (bad == n_vertices)
            continue;
          std::string listed, what;
          for (unsigned int v = 0; v < n_vertices; ++v)
            {
              listed += (v == 0 ? "" : ", ") + coordinates(vertices[v]);
              for (unsigned int w = 0; w < v; ++w)
                if (what.empty() && vertices[v].distance(vertices[w]) <=
                                      1e-12 * cell->diameter())
                  what = "is degenerate: two of its vertices lie at " +
                         coordinates(vertices[v]);
            }
          if (what.empty())
            what = negative == n_vertices ?
                     "is inverted: its vertices run the wrong way round" :
                     "is twisted: its Jacobian determinant is " +
                       format_number(forms[bad]) + " at the vertex " +
                       coordinates(vertices[bad]) +
                       " (vertices out of order, or a cell that is not "
                       "convex)";
          return "its cell with the vertices " + listed + " " + what;
        }
      return "";
    }
  } // namespace



  template <int dim>
  void
  read_mesh_file(const std::string     &mesh_file,
                 const std::string     &path,
                 Triangulation<dim>    &triangulation,
                 const ParameterSource &source)
  {
    std::ifstream in(mesh_file);
    if (mesh_file.empty() || !std::filesystem::is_regular_file(mesh_file) ||
        !in.good())
      throw_bad_parameter(source,
                          path,
                          mesh_file,
                          "the mesh file cannot be read (it must be an "
                          "existing gmsh .msh file; relative paths start "
                          "at the working directory)");
    try
      {
        GridIn<dim> grid_in;
        grid_in.attach_triangulation(triangulation);
        grid_in.read_msh(in);
      }
    catch (std::exception &)
      {
        throw_bad_parameter(source,
                            path,
                            mesh_file,
                            "deal.II's GridIn cannot read it as a gmsh "
                            "mesh of dimension " +
                              std::to_string(dim));
      }
    // A distorted cell would only show later, as a stiffness or a
    // stability bound that is not finite.
    const std::string distorted = first_distorted_cell(triangulation);
    if (!distorted.empty())
      throw_bad_parameter(source,
                          path,
                          mesh_file,
                          distorted +
                            ". Every cell must have a positive Jacobian "
                            "determinant at each vertex: correct the cell in "
                            "the mesh generator");
  }



  template void
  read_mesh_file<1>(const std::string &,
                    const std::string &,
                    Triangulation<1> &,
                    const ParameterSource &);
  template void
  read_mesh_file<2>(const std::string &,
                    const std::string &,
                    Triangulation<2> &,
                    const ParameterSource &);
  template void
  read_mesh_file<3>(const std::string &,
                    const std::string &,
                    Triangulation<3> &,
                    const ParameterSource &);
} // namespace stickslip
