#include <deal.II/base/geometry_info.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <deal.II/grid/grid_in.h>

#include <base/expressions.h>
#include <models/common/mesh_file.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

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



    /** A gmsh element type of the MSH 2 format: name, dimension, nodes. */
    struct GmshElementType
    {
      const char  *name;
      unsigned int dimension;
      unsigned int n_nodes;
    };



    /**
     * The gmsh element types (gmsh's reference manual, "MSH file format
     * version 2", element types 1 to 15) a mesh may contain, with their
     * dimension and number of nodes; nullptr for a number not listed.
     */
    const GmshElementType *
    gmsh_element_type(const long type)
    {
      static const std::map<long, GmshElementType> types = {
        {1, {"2-node line", 1, 2}},
        {2, {"3-node triangle", 2, 3}},
        {3, {"4-node quadrilateral", 2, 4}},
        {4, {"4-node tetrahedron", 3, 4}},
        {5, {"8-node hexahedron", 3, 8}},
        {6, {"6-node prism", 3, 6}},
        {7, {"5-node pyramid", 3, 5}},
        {8, {"3-node line (second order)", 1, 3}},
        {9, {"6-node triangle (second order)", 2, 6}},
        {10, {"9-node quadrilateral (second order)", 2, 9}},
        {11, {"10-node tetrahedron (second order)", 3, 10}},
        {12, {"27-node hexahedron (second order)", 3, 27}},
        {13, {"18-node prism (second order)", 3, 18}},
        {14, {"14-node pyramid (second order)", 3, 14}},
        {15, {"1-node point", 0, 1}},
        {16, {"8-node quadrilateral (second order)", 2, 8}},
        {17, {"20-node hexahedron (second order)", 3, 20}}};
      const auto found = types.find(type);
      return found == types.end() ? nullptr : &found->second;
    }



    /**
     * The element type allowed in a mesh of dimension dim at dimension
     * @p d <= dim: the first-order hypercube (point, line, quadrilateral,
     * hexahedron): cells of dimension dim, boundary faces, edges and points
     * with physical tags.
     */
    long
    allowed_gmsh_type(const unsigned int d)
    {
      static const long hypercube[] = {15, 1, 3, 5};
      return hypercube[d];
    }



    /** What gmsh should be told to write a mesh that stickslip reads. */
    template <int dim>
    std::string
    how_to_write_it()
    {
      const std::string cells = dim == 1 ? "lines" :
                                dim == 2 ? "quadrilaterals" :
                                           "hexahedra";
      return "stickslip reads gmsh meshes of " + cells + " (the boundary " +
             (dim == 3 ? "faces quadrilaterals, " : std::string()) +
             "lines and points with physical tags allowed) in the MSH 2.2 "
             "ASCII format: write it with gmsh -format msh22 (or "
             "Mesh.MshFileVersion = 2.2)" +
             (dim == 2 ? ", quadrilaterals with Mesh.RecombineAll = 1 (or "
                         "Mesh.SubdivisionAlgorithm = 1)" :
              dim == 3 ? ", hexahedra from a structured (transfinite or "
                         "extruded) recombined mesh or with "
                         "Mesh.SubdivisionAlgorithm = 2" :
                         std::string());
    }



    /**
     * Why the gmsh file @p mesh_file (opened as @p in) is not a mesh that
     * GridIn::read_msh can give a parallel::distributed::Triangulation of
     * dimension dim; "" if it is. deal.II 9.4 accepts simplices and mixed
     * meshes, which p4est then cannot take (a segmentation fault), and
     * reads a body written in another format version than its header says
     * out of bounds (a corrupted heap): so the header, the element types
     * and their node counts are checked here first.
     */
    template <int dim>
    std::string
    msh_problem(std::istream &in, const std::string &mesh_file)
    {
      std::string  line;
      unsigned int line_number = 0;
      const auto   next_line   = [&]() {
        ++line_number;
        return static_cast<bool>(std::getline(in, line));
      };
      const auto at = [&]() {
        return " (line " + std::to_string(line_number) + " of " + mesh_file +
               ")";
      };
      if (!next_line() || Utilities::trim(line) != "$MeshFormat")
        return "its first line is not $MeshFormat" + at() +
               ": it is not a gmsh file of format 2";
      std::istringstream header(next_line() ? line : std::string());
      std::string        version;
      int                file_type = -1;
      header >> version >> file_type;
      if (version.compare(0, 2, "2.") != 0 || file_type != 0)
        return "its $MeshFormat is '" + Utilities::trim(line) + "'" + at() +
               ": the format version " + version +
               (file_type == 1 ? ", binary" : "") +
               " is not read (the MSH 2.2 ASCII format is: '2.2 0 8')";
      while (next_line() && Utilities::trim(line) != "$Elements")
        continue;
      unsigned long n_elements = 0;
      if (!(next_line() && std::istringstream(line) >> n_elements))
        return "it has no $Elements section with the number of elements" + at();
      unsigned long n_cells = 0;
      for (unsigned long e = 0; e < n_elements; ++e)
        {
          std::istringstream element(next_line() ? line : std::string());
          long               number = 0, type = 0, n_tags = -1;
          if (!(element >> number >> type >> n_tags) || n_tags < 0)
            return "its element " + std::to_string(e + 1) +
                   " is not a line 'number type tags ...'" + at();
          const GmshElementType *known = gmsh_element_type(type);
          if (known == nullptr || known->dimension > unsigned(dim) ||
              type != allowed_gmsh_type(known->dimension))
            return "its element " + std::to_string(number) + at() + " is a " +
                   (known ? std::string(known->name) : "element") +
                   " (gmsh element type " + std::to_string(type) + ")";
          long value = 0, n_values = 0;
          while (element >> value)
            ++n_values;
          if (n_values != n_tags + long(known->n_nodes))
            return "its element " + std::to_string(number) + at() + " has " +
                   std::to_string(n_values) + " tags and nodes, not the " +
                   std::to_string(n_tags) + " tags and " +
                   std::to_string(known->n_nodes) + " nodes of a " +
                   known->name;
          n_cells += known->dimension == unsigned(dim) ? 1 : 0;
        }
      if (n_cells == 0)
        return "it has no cell of dimension " + std::to_string(dim) +
               " in its $Elements section";
      return "";
    }



    /**
     * The mesh file the value @p mesh_file of the parameter @p path
     * names: an absolute path as it is; a relative one set in the
     * parameter file is looked up next to that file, then (as before) in
     * the working directory; one set on the command line in the working
     * directory. An InputError naming the places looked in if none exists.
     */
    std::string
    find_mesh_file(const std::string     &mesh_file,
                   const std::string     &path,
                   const ParameterSource &source)
    {
      namespace fs = std::filesystem;
      const fs::path        given(mesh_file);
      std::vector<fs::path> candidates;
      // The file whose line holds the value of the run (the last place
      // that sets it: an include's own folder for a value set there).
      const auto places      = source.file_places().find(path);
      const bool set_in_file = places != source.file_places().end() &&
                               !places->second.empty() &&
                               source.command_line_paths().count(path) == 0;
      if (!mesh_file.empty() && given.is_relative() && set_in_file)
        candidates.push_back(
          fs::path(places->second.back().file).parent_path() / given);
      candidates.push_back(given);
      std::vector<std::string> looked_in;
      for (const fs::path &candidate : candidates)
        {
          std::error_code error;
          if (!mesh_file.empty() && fs::is_regular_file(candidate, error) &&
              std::ifstream(candidate).good())
            return candidate.string();
          looked_in.push_back("'" +
                              (candidate.is_absolute() ?
                                 candidate.string() :
                                 (fs::current_path(error) / candidate)
                                   .lexically_normal()
                                   .string()) +
                              "'");
        }
      throw_bad_parameter(source,
                          path,
                          mesh_file,
                          "the mesh file cannot be read: " +
                            (candidates.size() > 1 ?
                               "there is no readable file at " + looked_in[0] +
                                 " (next to the parameter file) nor at " +
                                 looked_in[1] + " (in the working directory)" :
                               "there is no readable file at " + looked_in[0] +
                                 (!given.is_relative() ?
                                    std::string() :
                                  source.command_line_paths().count(path) == 0 ?
                                    std::string(" (in the working directory)") :
                                    std::string(" (a relative path given on "
                                                "the command line starts at "
                                                "the working directory)"))) +
                            "; it must be an existing gmsh .msh file");
    }
  } // namespace



  template <int dim>
  void
  read_mesh_file(const std::string     &mesh_file,
                 const std::string     &path,
                 Triangulation<dim>    &triangulation,
                 const ParameterSource &source)
  {
    const std::string file = find_mesh_file(mesh_file, path, source);
    // Rank 0 checks the file for every rank: one message, and no rank
    // hands GridIn a file it cannot read safely.
    const MPI_Comm comm    = triangulation.get_communicator();
    std::string    problem = "";
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        std::ifstream in(file);
        problem = msh_problem<dim>(in, file);
      }
    problem = Utilities::MPI::broadcast(comm, problem, 0);
    if (!problem.empty())
      throw_bad_parameter(source,
                          path,
                          mesh_file,
                          problem + ". " + how_to_write_it<dim>());
    try
      {
        std::ifstream in(file);
        GridIn<dim>   grid_in;
        grid_in.attach_triangulation(triangulation);
        grid_in.read_msh(in);
      }
    catch (std::exception &)
      {
        throw_bad_parameter(source,
                            path,
                            mesh_file,
                            "deal.II's GridIn cannot read " + file +
                              " as a gmsh mesh of dimension " +
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
