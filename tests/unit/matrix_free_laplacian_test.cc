// Unit tests of MatrixFreeLaplacian (src/models/string/matrix_free_laplacian.h):
// String/Stiffness operator = matrix-free must apply the same A as the
// assembled matrix of StringAssembler, constrained rows included, for every
// vector (not only for vectors that vanish on the Dirichlet boundary), and
// its Gershgorin row sums must bound those of the assembled matrix (equal
// for P1 and for Q1 on a square mesh). Meshes: the interval and the unit
// square with all boundary DoFs constrained, the square also mapped by a
// smooth non-affine map (x, y) -> (x + y(1-y)x/5, y + x(1-x)y/4); degrees 1
// to 4 (1D) and 1 to 3 (2D). The unconstrained operator (a driven boundary)
// is compared with the unconstrained assembled matrix. Tolerance: 1e-12 of
// the largest entry of A x; measured at most 2.3e-15 (round-off of the two
// summation orders). The whole executable also runs under mpirun -np 2.
#include <deal.II/base/function.h>
#include <deal.II/distributed/shared_tria.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_tools.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>

#include <base/local_values.h>
#include <models/string/matrix_free_laplacian.h>
#include <models/string/string_assembler.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>

namespace
{
  using namespace stickslip;

  /** max_i |a_i - b_i| / max_i |a_i| over all ranks. */
  double
  relative_difference(const DistributedVector &a, const DistributedVector &b)
  {
    ConstLocalValues x(a), y(b);
    double           difference = 0, scale = 0;
    for (std::size_t k = 0; k < x.size(); ++k)
      {
        difference = std::max(difference, std::abs(x[k] - y[k]));
        scale      = std::max(scale, std::abs(x[k]));
      }
    const MPI_Comm comm = a.get_mpi_communicator();
    return Utilities::MPI::max(difference, comm) /
           Utilities::MPI::max(scale, comm);
  }

  /** The string's operators on one mesh, assembled and matrix-free. */
  template <int dim>
  class Operators
  {
  public:
    Operators(const unsigned int degree, const bool distort)
      : comm(MPI_COMM_WORLD)
      , triangulation(comm)
      , fe(degree)
      , dof_handler(triangulation)
      , system(comm)
    {
      GridGenerator::hyper_cube(triangulation, 0., 1.);
      triangulation.refine_global(dim == 1 ? 5 : 3);
      if (distort)
        GridTools::transform(
          [](const Point<dim> &p) {
            Point<dim> q = p;
            q[0] += p[dim - 1] * (1 - p[dim - 1]) * p[0] / 5;
            q[dim - 1] += p[0] * (1 - p[0]) * p[dim - 1] / 4;
            return q;
          },
          triangulation);
      dof_handler.distribute_dofs(fe);
      const IndexSet owned = dof_handler.locally_owned_dofs();
      IndexSet       relevant;
      DoFTools::extract_locally_relevant_dofs(dof_handler, relevant);
      constraints.reinit(relevant);
      DoFTools::make_zero_boundary_constraints(dof_handler, 0, constraints);
      constraints.close();

      system.locally_owned = owned;
      DynamicSparsityPattern pattern(relevant);
      DoFTools::make_sparsity_pattern(dof_handler, pattern);
      SparsityTools::distribute_sparsity_pattern(pattern, owned, comm, relevant);
      for (DistributedMatrix *matrix :
           {&system.mass, &system.stiffness, &full_mass, &full_stiffness})
        matrix->reinit(owned, owned, pattern, comm);
      for (DistributedVector *vector :
           {&weights, &system.friction_weights, &rows.diagonal, &rows.row_sums})
        vector->reinit(owned, comm);

      // Assembled (with the unconstrained copies), then the row data only.
      const Functions::ConstantFunction<dim> one(1.);
      NonFiniteData                          non_finite;
      const ParameterSource                  source;
      StringAssembler<dim>(dof_handler, degree, true, one, one, "1", "1", non_finite)
        .assemble(constraints, system, &full_mass, &full_stiffness, weights, nullptr, source);
      weights = 0;
      StringAssembler<dim>(dof_handler, degree, true, one, one, "1", "1", non_finite)
        .assemble(constraints, system, nullptr, nullptr, weights, &rows, source);

      AffineConstraints<double> none(relevant);
      none.close();
      matrix_free = std::make_unique<MatrixFreeLaplacian<dim>>(
        dof_handler, constraints, degree, rows.diagonal, rows.row_sums, "test");
      unconstrained = std::make_unique<MatrixFreeLaplacian<dim>>(
        dof_handler, none, degree, rows.diagonal, rows.row_sums, "test");
    }

    /** A vector with no special values, non-zero on the boundary too. */
    DistributedVector
    test_vector() const
    {
      DistributedVector x(system.locally_owned, comm);
      for (const auto i : system.locally_owned)
        x[i] = std::sin(1.3 * i + 0.7) + 0.25;
      x.compress(VectorOperation::insert);
      return x;
    }

    /** sum_j |A_ij| of the assembled (constrained) matrix, owned rows. */
    DistributedVector
    assembled_row_sums() const
    {
      DistributedVector sums(system.locally_owned, comm);
      const auto        range = system.stiffness.local_range();
      for (auto row = range.first; row < range.second; ++row)
        {
          double sum = 0;
          for (auto entry = system.stiffness.begin(row);
               entry != system.stiffness.end(row);
               ++entry)
            sum += std::abs(entry->value());
          sums[row] = sum;
        }
      sums.compress(VectorOperation::insert);
      return sums;
    }

    /** The largest relative excess of the assembled row sums over the bound. */
    double
    row_sum_excess() const
    {
      const DistributedVector sums = assembled_row_sums();
      ConstLocalValues        assembled(sums), bound(matrix_free->row_sum_bound());
      double                  excess = 0;
      for (std::size_t k = 0; k < assembled.size(); ++k)
        excess = std::max(excess, (assembled[k] - bound[k]) / bound[k]);
      return Utilities::MPI::max(excess, comm);
    }

    const MPI_Comm                                    comm;
    parallel::shared::Triangulation<dim>              triangulation;
    FE_Q<dim>                                         fe;
    DoFHandler<dim>                                   dof_handler;
    AffineConstraints<double>                         constraints;
    FrictionSystem                                    system;
    DistributedMatrix                                 full_mass, full_stiffness;
    DistributedVector                                 weights;
    StiffnessRows                                     rows;
    std::unique_ptr<MatrixFreeLaplacian<dim>>         matrix_free, unconstrained;
  };

  template <int dim>
  void
  expect_same_operator(const unsigned int degree, const bool distort)
  {
    Operators<dim>          operators(degree, distort);
    const DistributedVector x = operators.test_vector();
    DistributedVector       assembled(x), matrix_free(x);
    operators.system.stiffness.vmult(assembled, x);
    operators.matrix_free->vmult(matrix_free, x);
    const double difference = relative_difference(assembled, matrix_free);
    EXPECT_LT(difference, 1e-12)
      << "constrained A, dim " << dim << ", degree " << degree;
    if (Utilities::MPI::this_mpi_process(operators.comm) == 0)
      std::cout << "dim " << dim << ", degree " << degree
                << (distort ? ", mapped" : "") << ": |A x - A_mf x| / |A x| = "
                << difference << std::endl;
    // Twice: the ghost values of the first product must not be reused.
    DistributedVector y(x);
    y *= -2.;
    operators.system.stiffness.vmult(assembled, y);
    operators.matrix_free->vmult(matrix_free, y);
    EXPECT_LT(relative_difference(assembled, matrix_free), 1e-12)
      << "second product, dim " << dim << ", degree " << degree;

    operators.full_stiffness.vmult(assembled, x);
    operators.unconstrained->vmult(matrix_free, x);
    EXPECT_LT(relative_difference(assembled, matrix_free), 1e-12)
      << "unconstrained A, dim " << dim << ", degree " << degree;

    EXPECT_LT(operators.row_sum_excess(), 1e-12)
      << "Gershgorin bound below a row sum, dim " << dim << ", degree " << degree;
    if (degree == 1 && !distort)
      EXPECT_LT(relative_difference(operators.assembled_row_sums(),
                                    operators.matrix_free->row_sum_bound()),
                1e-12)
        << "P1/Q1 row sums, dim " << dim;
  }
} // namespace



TEST(MatrixFreeLaplacian, IntervalDegreesOneToFour)
{
  for (unsigned int degree = 1; degree <= 4; ++degree)
    expect_same_operator<1>(degree, false);
}



TEST(MatrixFreeLaplacian, SquareDegreesOneToThree)
{
  for (unsigned int degree = 1; degree <= 3; ++degree)
    expect_same_operator<2>(degree, false);
}



TEST(MatrixFreeLaplacian, MappedSquareDegreesOneToThree)
{
  for (unsigned int degree = 1; degree <= 3; ++degree)
    expect_same_operator<2>(degree, true);
}
