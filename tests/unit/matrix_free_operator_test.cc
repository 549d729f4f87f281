// Unit tests of MatrixFreeStringOperator
// (src/models/string/matrix_free_operator.h): String/Stiffness operator =
// matrix-free and String/Mass operator = matrix-free must apply the same A and
// consistent M = (phi_i/c^2, phi_j) as the assembled matrices of
// StringAssembler, constrained rows included, for every vector (not only for
// vectors that vanish on the Dirichlet boundary), and their Gershgorin row sums
// must bound those of the assembled matrices (equal for P1 and for Q1 on a
// square mesh). The mass is tested with a constant c (read once) and a variable
// c(x) = 1 + x/2 (read at every quadrature point). The assembler's element
// bound of lambda_max(M^{-1} A) (the stability checks' estimate for a
// consistent M) must be at least the eigenvalue of the assembled, constrained
// pair (rigorous, to round-off) and is expected below twice it: measured 1.0004
// to 1.0018 (1D) and 1.04 to 1.12 (2D) for a constant c, up to 1.60 on the
// mapped square with the variable c (8 x 8 cells: the bound takes each
// cell's largest c, the global mode spreads over cells). Meshes: the interval
// and the unit square with all boundary DoFs constrained, the square also
// mapped by a smooth non-affine map (x, y) -> (x + y(1-y)x/5, y + x(1-x)y/4);
// degrees 1 to 4 (1D) and 1 to 3 (2D). The unconstrained operator (a driven
// boundary) is compared with the unconstrained assembled matrix. Tolerance:
// 1e-12 of the largest entry of A x; measured at most 2.3e-15 (round-off of the
// two summation orders). The whole executable also runs under mpirun -np 2.
#include <deal.II/base/function.h>

#include <deal.II/distributed/shared_tria.h>

#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_q.h>

#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_tools.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>

#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <models/string/matrix_free_operator.h>
#include <models/string/string_assembler.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_matrix_free_operator
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
    Operators(const unsigned int degree,
              const bool         distort,
              const bool         variable_speed)
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
      SparsityTools::distribute_sparsity_pattern(pattern,
                                                 owned,
                                                 comm,
                                                 relevant);
      for (DistributedMatrix *matrix :
           {&system.mass, &system.stiffness, &full_mass, &full_stiffness})
        matrix->reinit(owned, owned, pattern, comm);
      for (DistributedVector *vector : {&weights,
                                        &system.friction_weights,
                                        &rows.diagonal,
                                        &rows.row_sums,
                                        &mass_rows.diagonal,
                                        &mass_rows.row_sums})
        vector->reinit(owned, comm);

      // Assembled (with the unconstrained copies), then the row data only.
      // c = 2 as a plain number, or c(x) = 1 + x/2 as a function.
      const Functions::ConstantFunction<dim>      one(1.), two(2.);
      const ScalarFunctionFromFunctionObject<dim> ramp(
        [](const Point<dim> &p) { return 1. + 0.5 * p[0]; });
      const Function<dim> &speed =
        variable_speed ? static_cast<const Function<dim> &>(ramp) : two;
      const std::string     speed_text = variable_speed ? "1 + x/2" : "2";
      NonFiniteData         non_finite;
      const ParameterSource source;
      StringAssembler<dim>  assembler(
        dof_handler, degree, false, speed, one, speed_text, "1", non_finite);
      assembler.assemble(constraints,
                         system,
                         &full_mass,
                         &full_stiffness,
                         weights,
                         nullptr,
                         nullptr,
                         source);
      element_frequency = assembler.largest_element_frequency();
      weights           = 0;
      StringAssembler<dim>(
        dof_handler, degree, false, speed, one, speed_text, "1", non_finite)
        .assemble(constraints,
                  system,
                  nullptr,
                  nullptr,
                  weights,
                  &rows,
                  &mass_rows,
                  source);

      AffineConstraints<double> none(relevant);
      none.close();
      const std::optional<double> constant_speed =
        variable_speed ? std::optional<double>() : std::optional<double>(2.);
      using Operator = MatrixFreeStringOperator<dim>;
      for (const bool constrained : {true, false})
        {
          const auto cells =
            std::make_shared<const MatrixFreeCells<dim>>(dof_handler,
                                                         constrained ?
                                                           constraints :
                                                           none,
                                                         degree,
                                                         variable_speed);
          (constrained ? matrix_free : unconstrained) =
            std::make_unique<Operator>(cells,
                                       Operator::Form::stiffness,
                                       rows.diagonal,
                                       rows.row_sums,
                                       "test");
          (constrained ? mass : unconstrained_mass) =
            std::make_unique<Operator>(cells,
                                       Operator::Form::mass,
                                       mass_rows.diagonal,
                                       mass_rows.row_sums,
                                       "test",
                                       &speed,
                                       constant_speed);
        }
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

    /** sum_j |B_ij| of an assembled (constrained) matrix, owned rows. */
    DistributedVector
    assembled_row_sums(const DistributedMatrix &matrix) const
    {
      DistributedVector sums(system.locally_owned, comm);
      const auto        range = matrix.local_range();
      for (auto row = range.first; row < range.second; ++row)
        {
          double sum = 0;
          for (auto entry = matrix.begin(row); entry != matrix.end(row);
               ++entry)
            sum += std::abs(entry->value());
          sums[row] = sum;
        }
      sums.compress(VectorOperation::insert);
      return sums;
    }

    /** The largest relative excess of the assembled row sums over the bound. */
    double
    row_sum_excess(const DistributedMatrix &matrix,
                   const OperatorAction    &action) const
    {
      const DistributedVector sums = assembled_row_sums(matrix);
      ConstLocalValues        assembled(sums), bound(action.row_sum_bound());
      double                  excess = 0;
      for (std::size_t k = 0; k < assembled.size(); ++k)
        excess = std::max(excess, (assembled[k] - bound[k]) / bound[k]);
      return Utilities::MPI::max(excess, comm);
    }

    const MPI_Comm                                 comm;
    parallel::shared::Triangulation<dim>           triangulation;
    FE_Q<dim>                                      fe;
    DoFHandler<dim>                                dof_handler;
    AffineConstraints<double>                      constraints;
    FrictionSystem                                 system;
    DistributedMatrix                              full_mass, full_stiffness;
    DistributedVector                              weights;
    OperatorRows                                   rows, mass_rows;
    double                                         element_frequency;
    std::unique_ptr<MatrixFreeStringOperator<dim>> matrix_free, unconstrained,
      mass, unconstrained_mass;
  };

  /**
   * The matrix-free @p action against the assembled @p matrix (constrained)
   * and @p unconstrained_action against @p full_matrix, on x and -2x (the
   * ghost values of the first product must not be reused); returns the
   * largest relative difference.
   */
  double
  compare_products(const DistributedMatrix &matrix,
                   const OperatorAction    &action,
                   const DistributedMatrix &full_matrix,
                   const OperatorAction    &unconstrained_action,
                   const DistributedVector &x)
  {
    DistributedVector assembled(x), matrix_free(x), minus_two_x(x);
    minus_two_x *= -2.;
    const DistributedVector &y       = minus_two_x;
    double                   largest = 0;
    for (const DistributedVector *input : {&x, &y})
      {
        matrix.vmult(assembled, *input);
        action.vmult(matrix_free, *input);
        largest =
          std::max(largest, relative_difference(assembled, matrix_free));
      }
    full_matrix.vmult(assembled, x);
    unconstrained_action.vmult(matrix_free, x);
    return std::max(largest, relative_difference(assembled, matrix_free));
  }

  template <int dim>
  void
  expect_same_operators(const unsigned int degree,
                        const bool         distort,
                        const bool         variable_speed)
  {
    Operators<dim>          operators(degree, distort, variable_speed);
    const DistributedVector x = operators.test_vector();
    const std::string       where =
      "dim " + std::to_string(dim) + ", degree " + std::to_string(degree) +
      (distort ? ", mapped" : "") +
      (variable_speed ? ", variable c" : ", constant c");
    const double stiffness = compare_products(operators.system.stiffness,
                                              *operators.matrix_free,
                                              operators.full_stiffness,
                                              *operators.unconstrained,
                                              x);
    const double mass      = compare_products(operators.system.mass,
                                         *operators.mass,
                                         operators.full_mass,
                                         *operators.unconstrained_mass,
                                         x);
    EXPECT_LT(stiffness, 1e-12) << "A, " << where;

    // The element bound of lambda_max(M^{-1} A) against the eigenvalue of
    // the assembled, constrained pair.
    const double exact = largest_generalized_eigenvalue(
      replicate(operators.system.stiffness, operators.comm),
      replicate(operators.system.mass, operators.comm));
    const double bound_ratio = operators.element_frequency / exact;
    EXPECT_GE(bound_ratio, 1. - 1e-12)
      << "element bound below lambda_max, " << where;
    EXPECT_LT(bound_ratio, 2.)
      << "element bound far above lambda_max, " << where;
    EXPECT_LT(mass, 1e-12) << "M, " << where;
    if (Utilities::MPI::this_mpi_process(operators.comm) == 0)
      std::cout << where << ": |A x - A_mf x| / |A x| = " << stiffness
                << ", |M x - M_mf x| / |M x| = " << mass
                << ", element bound / lambda_max(M^-1 A) = " << bound_ratio
                << std::endl;

    EXPECT_LT(operators.row_sum_excess(operators.system.stiffness,
                                       *operators.matrix_free),
              1e-12)
      << "Gershgorin bound below a row sum of A, " << where;
    EXPECT_LT(operators.row_sum_excess(operators.system.mass, *operators.mass),
              1e-12)
      << "Gershgorin bound below a row sum of M, " << where;
    if (degree == 1 && !distort)
      {
        for (const auto &[matrix, action] :
             {std::make_pair(&operators.system.stiffness,
                             operators.matrix_free.get()),
              std::make_pair(&operators.system.mass, operators.mass.get())})
          EXPECT_LT(relative_difference(operators.assembled_row_sums(*matrix),
                                        action->row_sum_bound()),
                    1e-12)
            << "P1/Q1 row sums, " << where;
      }
  }



  TEST(MatrixFreeStringOperator, IntervalDegreesOneToFour)
  {
    for (unsigned int degree = 1; degree <= 4; ++degree)
      for (const bool variable_speed : {false, true})
        expect_same_operators<1>(degree, false, variable_speed);
  }



  TEST(MatrixFreeStringOperator, SquareDegreesOneToThree)
  {
    for (unsigned int degree = 1; degree <= 3; ++degree)
      for (const bool variable_speed : {false, true})
        expect_same_operators<2>(degree, false, variable_speed);
  }



  TEST(MatrixFreeStringOperator, MappedSquareDegreesOneToThree)
  {
    for (unsigned int degree = 1; degree <= 3; ++degree)
      expect_same_operators<2>(degree, true, true);
  }

} // namespace unit_matrix_free_operator
