// The memory floor of the string and membrane meshes (issue 17, "a few
// hundred bytes per unknown"): deal.II's triangulation and DoF handler of
// the mesh stickslip builds for String/Global refinements = r, made by the
// same function (make_string_grid(): the one-level serial interval on one
// rank, the fully distributed one on several, p4est in 2D)
// and numbered by the same FE_Q(p), and nothing else. Its resident set once
// built (held for the whole run) and its peak (the construction's
// temporaries included), the largest rank's, are what deal.II itself needs;
// bench/sections/25_memory.sh subtracts them, less a tiny run's, from
// stickslip's.
//
//   stickslip_mesh_floor DIM REFINEMENTS [DEGREE]
//
// prints "unknowns N rss_kb R peak_rss_kb P".
#include <deal.II/base/mpi.h>

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_q.h>

#include <base/input_error.h>
#include <models/string/string_grid.h>
#include <models/string/string_parameters.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

namespace
{
  using namespace stickslip;

  /** The resident set of this process (VmRSS) or its peak (VmHWM), in kB. */
  unsigned long
  rss_kb(const std::string &field)
  {
    std::ifstream status("/proc/self/status");
    std::string   line;
    while (std::getline(status, line))
      if (line.rfind(field + ":", 0) == 0)
        return std::stoul(line.substr(field.size() + 1));
    return 0;
  }



  /** Build the mesh and its DoFs; @p held: the resident set while they live. */
  template <int dim>
  types::global_dof_index
  build(const unsigned int refinements,
        const unsigned int degree,
        const MPI_Comm     comm,
        unsigned long     &held)
  {
    // The defaults of prm/string.prm and prm/membrane_manufactured.prm:
    // the interval (0, 1) or the unit square.
    StringParameters parameters{};
    parameters.dimension = dim;
    parameters.mesh   = dim == 1 ? StringMesh::interval : StringMesh::rectangle;
    parameters.length = 1;
    parameters.height = 1;
    parameters.global_refinements = refinements;
    parameters.triangulation      = StringTriangulation::fully_distributed;
    parameters.degree             = degree;
    const ParameterSource source;
    const auto triangulation = make_string_grid<dim>(parameters, source, comm);
    const FE_Q<dim> fe(degree);
    DoFHandler<dim> dof_handler(*triangulation);
    dof_handler.distribute_dofs(fe);
    IndexSet relevant;
    DoFTools::extract_locally_relevant_dofs(dof_handler, relevant);
    const types::global_dof_index n = dof_handler.n_dofs();
    held                            = rss_kb("VmRSS");
    dof_handler.clear();
    return n;
  }
} // namespace



int
main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  if (argc < 3)
    {
      std::cerr << "usage: stickslip_mesh_floor DIM REFINEMENTS [DEGREE]\n";
      return 1;
    }
  const int          dim         = std::atoi(argv[1]);
  const unsigned int refinements = std::atoi(argv[2]);
  const unsigned int degree      = argc > 3 ? std::atoi(argv[3]) : 1;
  const MPI_Comm     comm        = MPI_COMM_WORLD;
  unsigned long      held        = 0;
  const auto         n = dim == 1 ? build<1>(refinements, degree, comm, held) :
                                    build<2>(refinements, degree, comm, held);
  held                 = dealii::Utilities::MPI::max(held, comm);
  const unsigned long peak = dealii::Utilities::MPI::max(rss_kb("VmHWM"), comm);
  if (dealii::Utilities::MPI::this_mpi_process(comm) == 0)
    std::cout << "unknowns " << n << " rss_kb " << held << " peak_rss_kb "
              << peak << std::endl;
  return 0;
}
