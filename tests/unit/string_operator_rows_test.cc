// Unit tests of the 1D string's operators made row by row
// (StringAssembler::assemble_by_rows, CompressedRows, make_matrix; doc/
// cookbook_string_membrane.md, "Large strings"): each rank sums its own rows
// of A and the consistent M from the cells around them into compressed-row
// arrays, and PETSc takes the arrays as they are (one rank) or copies them
// (several). They must hold the entries of the route they replace, a
// DynamicSparsityPattern of every coupling and AffineConstraints::
// distribute_local_to_global of the same cell matrices (Dirichlet rows and
// columns eliminated, a constrained row keeping |B_e(i,i)|), and the
// unconstrained copies of a driven boundary those of plain additions: same
// rows and columns, values to round-off (tolerance 1e-14 of the matrix's
// largest entry; measured 0: the same sums of at most two cell values,
// which commute). Cases: FE_Q(1), FE_Q(2), FE_Q(3); with and without
// Dirichlet rows; a constant and a variable wave speed; the uniform
// interval as stickslip builds it (make_string_grid: one level on one rank,
// the fully distributed interval with ghost cells on several) and the same
// interval with its vertices moved. Also:
// - with c and g plain numbers a cell reuses the last cell's matrices when
//   its length has the same bits: the matrices, weights and friction
//   weights must be those of the same run with c written as an expression
//   (FEValues on every cell), to the bit (tolerance 0);
// - a lumped M given as its diagonal (FrictionSystem::set_diagonal_mass):
//   products with it before the matrix exists and with the matrix built on
//   request must agree to the bit, and the matrix must hold the diagonal;
// - for_each_local_entry (reading the CSR arrays in place) visits what
//   MatGetRow returns, row by row in column order, for the sequential
//   matrices made here and the parallel ones of deal.II.
// The whole executable also runs under mpirun -np 2.
#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>

#include <deal.II/grid/grid_tools.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>

#include <base/expressions.h>
#include <base/local_values.h>
#include <linear_algebra/matrix_rows.h>
#include <linear_algebra/spd_solver.h>
#include <models/string/string_assembler.h>
#include <models/string/string_grid.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>
#include <tuple>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_string_operator_rows
{
  using namespace stickslip;
  using Entry =
    std::tuple<types::global_dof_index, types::global_dof_index, double>;

  /** Every stored entry of the owned rows, as for_each_local_entry visits them.
   */
  std::vector<Entry>
  entries(const DistributedMatrix &matrix)
  {
    std::vector<Entry> all;
    for_each_local_entry(
      matrix, [&](const auto row, const auto column, const double value) {
        all.emplace_back(row, column, value);
      });
    return all;
  }

  /** The same, one MatGetRow (deal.II's row iterators) per row. */
  std::vector<Entry>
  entries_by_rows(const DistributedMatrix &matrix)
  {
    std::vector<Entry> all;
    const auto         range = matrix.local_range();
    for (auto row = range.first; row < range.second; ++row)
      for (auto entry = matrix.begin(row); entry != matrix.end(row); ++entry)
        all.emplace_back(row, entry->column(), entry->value());
    return all;
  }

  /**
   * max |a - b| / max |a| over the entries of two matrices that must have
   * the same rows and columns (EXPECTed), over all ranks.
   */
  double
  entry_difference(const DistributedMatrix &a,
                   const DistributedMatrix &b,
                   const std::string       &what)
  {
    const std::vector<Entry> x = entries(a), y = entries(b);
    EXPECT_EQ(x.size(), y.size()) << what;
    double difference = 0, scale = 0;
    for (std::size_t k = 0; k < std::min(x.size(), y.size()); ++k)
      {
        EXPECT_EQ(std::get<0>(x[k]), std::get<0>(y[k])) << what;
        EXPECT_EQ(std::get<1>(x[k]), std::get<1>(y[k])) << what;
        difference =
          std::max(difference, std::abs(std::get<2>(x[k]) - std::get<2>(y[k])));
        scale = std::max(scale, std::abs(std::get<2>(x[k])));
      }
    const MPI_Comm comm = MPI_COMM_WORLD;
    return Utilities::MPI::max(difference, comm) /
           Utilities::MPI::max(scale, comm);
  }

  /** Whether two vectors hold the same bits on every rank. */
  bool
  same_bits(const DistributedVector &a, const DistributedVector &b)
  {
    ConstLocalValues x(a), y(b);
    bool             same = x.size() == y.size();
    for (std::size_t k = 0; same && k < x.size(); ++k)
      {
        const double u = x[k], v = y[k];
        same = std::memcmp(&u, &v, sizeof(double)) == 0;
      }
    return Utilities::MPI::min(same ? 1u : 0u, MPI_COMM_WORLD) == 1;
  }

  /** The interval (0, 1) of 2^r cells as stickslip builds it, P = degree. */
  struct Interval
  {
    Interval(const unsigned int degree, const bool moved)
      : comm(MPI_COMM_WORLD)
      , fe(degree)
      , system(comm)
    {
      StringParameters parameters{};
      parameters.dimension          = 1;
      parameters.mesh               = StringMesh::interval;
      parameters.length             = 1;
      parameters.global_refinements = 6;
      parameters.triangulation      = StringTriangulation::fully_distributed;
      parameters.degree             = degree;
      triangulation = make_string_grid<1>(parameters, ParameterSource(), comm);
      if (moved)
        // Cells of alternating lengths (1.3 h, 0.7 h), ends kept.
        GridTools::transform(
          [](const Point<1> &p) {
            const double h = 1. / 64, k = std::round(p[0] / h);
            return Point<1>(static_cast<long>(k) % 2 == 1 ? p[0] + 0.3 * h :
                                                            p[0]);
          },
          *triangulation);
      dof_handler = std::make_unique<DoFHandler<1>>(*triangulation);
      dof_handler->distribute_dofs(fe);
      owned = dof_handler->locally_owned_dofs();
      DoFTools::extract_locally_relevant_dofs(*dof_handler, relevant);
      system.locally_owned = owned;
      for (DistributedVector *v : {&weights, &system.friction_weights})
        v->reinit(owned, comm);
    }

    /** Homogeneous constraints on both ends, or none. */
    AffineConstraints<double>
    constraints(const bool dirichlet) const
    {
      AffineConstraints<double> result(relevant);
      if (dirichlet)
        for (const auto i : DoFTools::extract_boundary_dofs(*dof_handler))
          if (relevant.is_element(i))
            result.add_line(i);
      result.close();
      return result;
    }

    const MPI_Comm                    comm;
    std::unique_ptr<Triangulation<1>> triangulation;
    FE_Q<1>                           fe;
    std::unique_ptr<DoFHandler<1>>    dof_handler;
    IndexSet                          owned, relevant;
    FrictionSystem                    system;
    DistributedVector                 weights;
  };

  /**
   * The route the rows replace: the pattern of every coupling, the cell
   * matrices of the owned cells (the assembler's formulas) added by
   * distribute_local_to_global, and plainly for the unconstrained copies.
   */
  void
  assemble_by_pattern(const Interval                  &interval,
                      const AffineConstraints<double> &constraints,
                      const Function<1>               &speed,
                      DistributedMatrix               &mass,
                      DistributedMatrix               &stiffness,
                      DistributedMatrix               &full_mass,
                      DistributedMatrix               &full_stiffness)
  {
    DynamicSparsityPattern pattern(interval.relevant);
    DoFTools::make_sparsity_pattern(*interval.dof_handler, pattern);
    SparsityTools::distribute_sparsity_pattern(pattern,
                                               interval.owned,
                                               interval.comm,
                                               interval.relevant);
    for (DistributedMatrix *m :
         {&mass, &stiffness, &full_mass, &full_stiffness})
      m->reinit(interval.owned, interval.owned, pattern, interval.comm);
    const unsigned int                   n = interval.fe.n_dofs_per_cell();
    FEValues<1>                          values(interval.fe,
                       QGauss<1>(interval.fe.degree + 1),
                       update_values | update_gradients |
                         update_quadrature_points | update_JxW_values);
    FullMatrix<double>                   cell_mass(n, n), cell_stiffness(n, n);
    std::vector<types::global_dof_index> dofs(n);
    for (const auto &cell : interval.dof_handler->active_cell_iterators())
      if (cell->is_locally_owned())
        {
          values.reinit(cell);
          cell_mass      = 0;
          cell_stiffness = 0;
          for (const unsigned int q : values.quadrature_point_indices())
            {
              const double c   = speed.value(values.quadrature_point(q)),
                           JxW = values.JxW(q);
              for (unsigned int i = 0; i < n; ++i)
                for (unsigned int j = 0; j < n; ++j)
                  {
                    cell_stiffness(i, j) +=
                      values.shape_grad(i, q) * values.shape_grad(j, q) * JxW;
                    cell_mass(i, j) += values.shape_value(i, q) *
                                       values.shape_value(j, q) * JxW / (c * c);
                  }
            }
          cell->get_dof_indices(dofs);
          constraints.distribute_local_to_global(cell_mass, dofs, mass);
          constraints.distribute_local_to_global(cell_stiffness,
                                                 dofs,
                                                 stiffness);
          full_mass.add(dofs, cell_mass);
          full_stiffness.add(dofs, cell_stiffness);
        }
    for (DistributedMatrix *m :
         {&mass, &stiffness, &full_mass, &full_stiffness})
      m->compress(VectorOperation::add);
  }

  void
  expect_same_entries(const unsigned int degree,
                      const bool         dirichlet,
                      const bool         variable_speed,
                      const bool         moved)
  {
    Interval                        interval(degree, moved);
    const AffineConstraints<double> constraints =
      interval.constraints(dirichlet);
    const std::string speed_text = variable_speed ? "1 + x/2" : "2";
    const auto        speed      = parse_function<1>(speed_text,
                                         "x,t",
                                         "String/Wave speed",
                                         ParameterSource());
    const auto        friction =
      parse_function<1>("1", "x,t", "String/Friction", ParameterSource());
    NonFiniteData     non_finite;
    DistributedMatrix full_mass, full_stiffness;
    StringAssembler<1>(*interval.dof_handler,
                       degree,
                       false,
                       *speed,
                       *friction,
                       speed_text,
                       "1",
                       non_finite)
      .assemble(constraints,
                interval.system,
                &full_mass,
                &full_stiffness,
                interval.weights,
                nullptr,
                nullptr,
                ParameterSource());

    DistributedMatrix mass, stiffness, pattern_full_mass,
      pattern_full_stiffness;
    assemble_by_pattern(interval,
                        constraints,
                        *speed,
                        mass,
                        stiffness,
                        pattern_full_mass,
                        pattern_full_stiffness);
    const std::string where =
      "degree " + std::to_string(degree) +
      (dirichlet ? ", Dirichlet rows" : ", no constraints") +
      (variable_speed ? ", variable c" : ", constant c") +
      (moved ? ", moved vertices" : "");
    const double differences[4] = {
      entry_difference(stiffness, interval.system.stiffness, "A, " + where),
      entry_difference(mass, interval.system.mass, "M, " + where),
      entry_difference(pattern_full_stiffness,
                       full_stiffness,
                       "unconstrained A, " + where),
      entry_difference(pattern_full_mass,
                       full_mass,
                       "unconstrained M, " + where)};
    for (const double difference : differences)
      EXPECT_LE(difference, 1e-14) << where;
    // The rows made here read in place agree with MatGetRow's.
    EXPECT_EQ(entries(interval.system.stiffness),
              entries_by_rows(interval.system.stiffness))
      << where;
    EXPECT_EQ(entries(stiffness), entries_by_rows(stiffness)) << where;
    if (Utilities::MPI::this_mpi_process(interval.comm) == 0)
      std::cout
        << where
        << ": largest entry difference (A, M, unconstrained A, M) / largest entry: "
        << differences[0] << ", " << differences[1] << ", " << differences[2]
        << ", " << differences[3] << std::endl;
  }



  TEST(StringOperatorRows, SameEntriesAsThePatternRoute)
  {
    for (const unsigned int degree : {1u, 2u, 3u})
      for (const bool dirichlet : {true, false})
        for (const bool variable_speed : {false, true})
          for (const bool moved : {false, true})
            expect_same_entries(degree, dirichlet, variable_speed, moved);
  }



  TEST(StringOperatorRows, KnownCellsGiveTheBitsOfFEValues)
  {
    for (const unsigned int degree : {1u, 2u})
      for (const bool lumped : {false, true})
        {
          // c = 2 as a plain number (a cell of a known length reuses the
          // last cell's data) and as an expression (FEValues on every cell).
          Interval plain(degree, true), expression(degree, true);
          const AffineConstraints<double> constraints = plain.constraints(true);
          const auto                      two         = parse_function<1>("2",
                                             "x,t",
                                             "String/Wave speed",
                                             ParameterSource());
          const auto                      friction =
            parse_function<1>("1", "x,t", "String/Friction", ParameterSource());
          NonFiniteData non_finite;
          StringAssembler<1>(*plain.dof_handler,
                             degree,
                             lumped,
                             *two,
                             *friction,
                             "2",
                             "1",
                             non_finite)
            .assemble(constraints,
                      plain.system,
                      nullptr,
                      nullptr,
                      plain.weights,
                      nullptr,
                      nullptr,
                      ParameterSource());
          StringAssembler<1>(*expression.dof_handler,
                             degree,
                             lumped,
                             *two,
                             *friction,
                             "2 + 0*x",
                             "1 + 0*x",
                             non_finite)
            .assemble(constraints,
                      expression.system,
                      nullptr,
                      nullptr,
                      expression.weights,
                      nullptr,
                      nullptr,
                      ParameterSource());
          ASSERT_FALSE(plain_number("2 + 0*x"));
          const std::string where = "degree " + std::to_string(degree) +
                                    (lumped ? ", lumped" : ", consistent");
          EXPECT_EQ(entry_difference(plain.system.stiffness,
                                     expression.system.stiffness,
                                     where),
                    0.)
            << where;
          if (!lumped)
            {
              EXPECT_EQ(entry_difference(plain.system.mass,
                                         expression.system.mass,
                                         where),
                        0.)
                << where;
            }
          EXPECT_TRUE(same_bits(plain.weights, expression.weights)) << where;
          EXPECT_TRUE(same_bits(plain.system.friction_weights,
                                expression.system.friction_weights))
            << where;
          if (lumped)
            {
              plain.system.finalize();
              expression.system.finalize();
              EXPECT_TRUE(same_bits(plain.system.mass_diagonal(),
                                    expression.system.mass_diagonal()))
                << where;
            }
        }
  }



  TEST(StringOperatorRows, DiagonalMassBuiltOnRequest)
  {
    Interval                        interval(2, true);
    const AffineConstraints<double> constraints = interval.constraints(true);
    const auto                      speed       = parse_function<1>("1 + x/2",
                                         "x,t",
                                         "String/Wave speed",
                                         ParameterSource());
    const auto                      friction =
      parse_function<1>("1", "x,t", "String/Friction", ParameterSource());
    NonFiniteData non_finite;
    StringAssembler<1>(*interval.dof_handler,
                       2,
                       true,
                       *speed,
                       *friction,
                       "1 + x/2",
                       "1",
                       non_finite)
      .assemble(constraints,
                interval.system,
                nullptr,
                nullptr,
                interval.weights,
                nullptr,
                nullptr,
                ParameterSource());
    FrictionSystem &system = interval.system;
    system.finalize();
    ASSERT_TRUE(system.mass_is_diagonal());
    EXPECT_EQ(system.mass.m(), 0u) << "a lumped M is no matrix until asked for";

    DistributedVector x(system.locally_owned, interval.comm), before(x),
      after(x);
    for (const auto i : system.locally_owned)
      x[i] = (i % 3 == 0 ? -1. : 1.) * (std::sin(0.9 * i) + 0.1 * (i % 2));
    x.compress(VectorOperation::insert);
    system.apply_mass(before, x);
    const DistributedMatrix &mass = system.mass_matrix();
    ASSERT_EQ(mass.m(), system.size());
    system.apply_mass(after, x);
    EXPECT_TRUE(same_bits(before, after));
    mass.vmult(after, x);
    EXPECT_TRUE(same_bits(before, after));
    DistributedVector diagonal(system.locally_owned, interval.comm);
    EXPECT_TRUE(extract_diagonal(mass, diagonal, interval.comm))
      << "off-diagonal entries";
    EXPECT_TRUE(same_bits(diagonal, system.mass_diagonal()));
  }
} // namespace unit_string_operator_rows
