#include <deal.II/grid/grid_in.h>

#include <models/common/mesh_file.h>

#include <filesystem>
#include <fstream>

namespace stickslip
{
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
