// Unit tests of the body's three stiffness operators
// (src/models/body/assembled_stiffness.h, matrix_free_stiffness.h,
// element_kernel_stiffness.h): Body/Stiffness operator = assembled,
// matrix-free and element kernels must give the same K u, periodic
// constraints condensed (K u = 0 at a periodic copy, its row added to its
// master's), for every vector (the values at the copies are ignored). Meshes:
// the body's own set-up (BodyDiscretization) of a 2D and a 3D block with
// periodic pairs (one element matrix for all cells) and of the gmsh mesh
// meshes/membrane.msh refined twice, Q1 and Q2; a 3D ball (49 shapes
// among its 56 cells) without constraints; and the block with
// its unknowns renumbered component-wise (the kernels' fallback of one index
// per unknown instead of per node). Each product is taken twice, of x and of
// -2x, so that stale ghost values would show. Tolerance: 1e-12 of the
// largest |K x|; measured at most 6.2e-15 (the round-off of three summation
// orders; the block's cells share one element matrix to 1e-12 of their
// diameter by construction, measured equal to round-off). The executable
// also runs under mpirun -np 2.
#include <deal.II/base/parameter_handler.h>

#include <deal.II/distributed/tria.h>

#include <deal.II/dofs/dof_renumbering.h>

#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>

#include <deal.II/grid/grid_generator.h>

#include <base/input_error.h>
#include <models/body/assembled_stiffness.h>
#include <models/body/body_discretization.h>
#include <models/body/body_parameters.h>
#include <models/body/element_kernel_stiffness.h>
#include <models/body/matrix_free_stiffness.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <string>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_body_stiffness_operators
{
  using namespace stickslip;
  using namespace stickslip::Body;

  constexpr double lambda = 3.5, shear_modulus = 1.2;

  /** K x - K' x relative to max |K x| over all ranks (owned entries). */
  double
  relative_difference(const BodyVector &a, const BodyVector &b)
  {
    double difference = 0, scale = 0;
    for (unsigned int k = 0; k < a.locally_owned_size(); ++k)
      {
        difference =
          std::max(difference,
                   std::abs(a.local_element(k) - b.local_element(k)));
        scale = std::max(scale, std::abs(a.local_element(k)));
      }
    const MPI_Comm comm = a.get_mpi_communicator();
    return Utilities::MPI::max(difference, comm) /
           Utilities::MPI::max(scale, comm);
  }

  /**
   * K x and K (-2 x) of @p stiffness on its own vectors, x_i = sin(1.3 i +
   * 0.7) + 0.25 of the global index i; the second with x's ghosts set.
   */
  template <int dim>
  std::array<BodyVector, 2>
  products(const StiffnessOperator<dim> &stiffness)
  {
    BodyVector x, y;
    stiffness.initialize_dof_vector(x);
    stiffness.initialize_dof_vector(y);
    for (unsigned int k = 0; k < x.locally_owned_size(); ++k)
      x.local_element(k) =
        std::sin(1.3 * x.get_partitioner()->local_to_global(k) + 0.7) + 0.25;
    std::array<BodyVector, 2> result;
    stiffness.apply(y, x);
    result[0] = y;
    x *= -2.;
    x.update_ghost_values();
    stiffness.apply(y, x);
    result[1] = y;
    return result;
  }

  /**
   * The three operators on @p dof_handler with @p constraints: the largest
   * relative differences of the matrix-free and the element-kernel K x from
   * the assembled one are asserted; returns the kernels' block size.
   */
  template <int dim>
  unsigned int
  compare_operators(const DoFHandler<dim>           &dof_handler,
                    const AffineConstraints<double> &constraints,
                    const unsigned int               degree,
                    const std::string               &where,
                    const std::size_t                expected_matrices = 0)
  {
    const AssembledStiffness<dim> assembled(
      dof_handler, constraints, degree, lambda, shear_modulus);
    const MatrixFreeStiffness<dim> matrix_free(
      dof_handler, constraints, degree, lambda, shear_modulus);
    const ElementKernelStiffness<dim> kernels(
      dof_handler, constraints, degree, lambda, shear_modulus);
    const auto reference = products(assembled);
    const auto other     = products(matrix_free);
    const auto kernel    = products(kernels);
    double     mf = 0, ek = 0;
    for (unsigned int k = 0; k < 2; ++k)
      {
        mf = std::max(mf, relative_difference(reference[k], other[k]));
        ek = std::max(ek, relative_difference(reference[k], kernel[k]));
      }
    EXPECT_LT(mf, 1e-12) << "matrix-free, " << where;
    EXPECT_LT(ek, 1e-12) << "element kernels, " << where;
    if (expected_matrices > 0)
      EXPECT_EQ(kernels.n_element_matrices(), expected_matrices) << where;
    const unsigned int matrices =
      Utilities::MPI::max(static_cast<unsigned int>(
                            kernels.n_element_matrices()),
                          dof_handler.get_communicator());
    if (Utilities::MPI::this_mpi_process(dof_handler.get_communicator()) == 0)
      std::cout << where << ": matrix-free " << mf << ", element kernels " << ek
                << " (" << matrices << " element matrices, blocks of "
                << kernels.block_size() << ")" << std::endl;
    return kernels.block_size();
  }

  /** The body's parameters from Body/<key> = <value> pairs. */
  BodyParameters
  body_parameters(const unsigned int                        dim,
                  const std::map<std::string, std::string> &settings)
  {
    stickslip::ParameterHandler prm;
    BodyParameters::declare_parameters(prm);
    prm.enter_subsection("Body");
    for (const auto &[key, value] : settings)
      prm.set(key, value);
    prm.leave_subsection();
    BodyParameters parameters;
    parameters.parse(prm, ParameterSource(), dim);
    return parameters;
  }

  /** The operators on BodyDiscretization's DoFs and periodic constraints. */
  template <int dim>
  void
  compare_on_body(std::map<std::string, std::string> settings,
                  const unsigned int                 degree,
                  const std::string                 &where,
                  const std::size_t                  expected_matrices)
  {
    settings["Finite element degree"]        = std::to_string(degree);
    settings["Lame lambda"]                  = std::to_string(lambda);
    settings["Shear modulus"]                = std::to_string(shear_modulus);
    const BodyParameters          parameters = body_parameters(dim, settings);
    const BodyDiscretization<dim> mesh(parameters,
                                       ParameterSource(),
                                       MPI_COMM_WORLD);
    const std::string             here = where + ", Q" + std::to_string(degree);
    if (settings.count("Periodic boundary pairs") > 0)
      EXPECT_GT(Utilities::MPI::sum(mesh.constraints().n_constraints(),
                                    MPI_COMM_WORLD),
                0u)
        << here;
    const unsigned int block = compare_operators(
      mesh.dof_handler(), mesh.constraints(), degree, here, expected_matrices);
    EXPECT_EQ(block, static_cast<unsigned int>(dim)) << here;
  }

  const std::map<std::string, std::string> block_2d = {
    {"Size", "2, 1"},
    {"Subdivisions", "8, 5"},
    {"Periodic boundary pairs", "0:1:x"}};
  const std::map<std::string, std::string> block_3d = {
    {"Size", "0.2, 0.12, 0.1"},
    {"Subdivisions", "4, 3, 3"},
    {"Periodic boundary pairs", "0:1:x"}};



  TEST(BodyStiffnessOperators, PeriodicBlock2d)
  {
    for (const unsigned int degree : {1u, 2u})
      compare_on_body<2>(block_2d, degree, "2D block, periodic in x", 1);
  }



  TEST(BodyStiffnessOperators, PeriodicBlock3d)
  {
    for (const unsigned int degree : {1u, 2u})
      compare_on_body<3>(block_3d, degree, "3D block, periodic in x", 1);
  }



  TEST(BodyStiffnessOperators, GmshMembrane)
  {
    const std::map<std::string, std::string> membrane = {
      {"Mesh", "file"},
      {"Mesh file", STICKSLIP_SOURCE_DIR "/meshes/membrane.msh"},
      {"Global refinements", "2"}};
    for (const unsigned int degree : {1u, 2u})
      compare_on_body<2>(membrane, degree, "gmsh membrane.msh", 0);
  }



  TEST(BodyStiffnessOperators, Ball3dManyShapes)
  {
    parallel::distributed::Triangulation<3> triangulation(MPI_COMM_WORLD);
    GridGenerator::hyper_ball(triangulation);
    triangulation.refine_global(1);
    for (const unsigned int degree : {1u, 2u})
      {
        DoFHandler<3> dof_handler(triangulation);
        dof_handler.distribute_dofs(FESystem<3>(FE_Q<3>(degree), 3));
        AffineConstraints<double> none;
        none.close();
        compare_operators(dof_handler,
                          none,
                          degree,
                          "3D ball, Q" + std::to_string(degree));
      }
  }



  TEST(BodyStiffnessOperators, ComponentWiseNumberingOneIndexPerUnknown)
  {
    // On 2 ranks, deal.II 9.4 hangs building a Partitioner of this numbering
    // (in ComputeIndexOwner::Dictionary::reinit, every operator's set-up);
    // the kernels' index layout is rank-local, so one rank tests it.
    if (Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) > 1)
      GTEST_SKIP() << "one rank only";
    for (const unsigned int degree : {1u, 2u})
      {
        parallel::distributed::Triangulation<2> triangulation(MPI_COMM_WORLD);
        GridGenerator::subdivided_hyper_rectangle(triangulation,
                                                  {6, 4},
                                                  Point<2>(),
                                                  Point<2>(1.5, 1.));
        DoFHandler<2> dof_handler(triangulation);
        dof_handler.distribute_dofs(FESystem<2>(FE_Q<2>(degree), 2));
        DoFRenumbering::component_wise(dof_handler);
        AffineConstraints<double> none;
        none.close();
        const unsigned int block =
          compare_operators(dof_handler,
                            none,
                            degree,
                            "2D block numbered component-wise, Q" +
                              std::to_string(degree),
                            1);
        EXPECT_EQ(block, 1u);
      }
  }

} // namespace unit_body_stiffness_operators
