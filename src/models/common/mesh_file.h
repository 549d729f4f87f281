#ifndef stickslip_models_common_mesh_file_h
#define stickslip_models_common_mesh_file_h

#include <deal.II/grid/tria.h>

#include <base/global.h>
#include <base/input_error.h>

#include <string>

namespace stickslip
{
  /**
   * Read the gmsh file @p mesh_file, the value of the parameter @p path,
   * into @p triangulation (deal.II's GridIn; physical tags become boundary
   * ids). A file that does not exist or that GridIn cannot read as a mesh
   * of dimension dim is an InputError naming the parameter.
   */
  template <int dim>
  void
  read_mesh_file(const std::string     &mesh_file,
                 const std::string     &path,
                 Triangulation<dim>    &triangulation,
                 const ParameterSource &source);
} // namespace stickslip

#endif
