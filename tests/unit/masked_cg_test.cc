// Unit tests of MaskedCG (src/linear_algebra/masked_cg.h): preconditioned
// conjugate gradients for A_SS w_S = rhs_S on a subset S of the rows, w = 0
// off S, the masked solves of SemismoothNewtonSolver.
//
// The system: A = tridiag(-1, 4, -1) of n = 60 rows (SPD, eigenvalues in
// (2, 6)), S the rows i with i % 7 != 0 (A_SS: blocks of 6 rows and a last
// one of 3, 9 distinct eigenvalues: CG needs 9 iterations, a loose target
// fewer), rhs_i = sin(0.7 i) + 0.3 on S.
// A_SS is a principal submatrix of A, so its eigenvalues lie in (2, 6) too:
// condition number below 3. The reference is the Cholesky solve of the
// dense A_SS (DenseCholesky, backward stable): with a CG tolerance of 1e-14
// relative to |rhs|_2 (about 5.5), the error of w is at most cond * 1e-14
// |rhs| / lambda_min < 3e-14 plus the round-off of both solves; 1e-12 is
// the bound asserted (measured: 2.2e-16, 1 and 2 ranks). The product A w
// that the CG keeps by its recurrence differs from a fresh product by
// round-off only (relative 1e-16 per step over 9 steps): 1e-12 (measured
// 6.7e-16).
// Off S, w is exactly zero. The executable also runs under mpirun -np 2
// (the rows split over the ranks): the same checks.
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>

#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/masked_cg.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_masked_cg
{
  using namespace stickslip;

  constexpr unsigned int n         = 60;
  constexpr double       tolerance = 1e-14;

  bool
  in_s(const unsigned int i)
  {
    return i % 7 != 0;
  }

  double
  rhs_of(const unsigned int i)
  {
    return std::sin(0.7 * i) + 0.3;
  }



  /** The rows of the test: S and rhs by global index, owned rows from k. */
  struct Rows
  {
    types::global_dof_index first;
    bool                    zero_rhs;

    bool
    in_set(const std::size_t k) const
    {
      return in_s(first + k);
    }

    double
    rhs(const std::size_t k) const
    {
      return zero_rhs ? 0. : rhs_of(first + k);
    }
  };



  /** Jacobi: 1/4 on every row. */
  class Jacobi : public MaskedPreconditioner
  {
  public:
    explicit Jacobi(const DistributedVector &layout)
      : inverse(layout)
    {
      inverse = 0.25;
    }

    void
    initialize(const DistributedVector &) override
    {}

    void
    vmult(DistributedVector &dst, const DistributedVector &src) const override
    {
      dst = src;
      dst *= 0.25;
    }

    const DistributedVector *
    jacobi_inverse_diagonal() const override
    {
      return &inverse;
    }

  private:
    DistributedVector inverse;
  };



  /** No preconditioning: the general path (vmult, not the fused Jacobi). */
  class Identity : public MaskedPreconditioner
  {
  public:
    void
    initialize(const DistributedVector &) override
    {
      ++initializations;
    }

    void
    vmult(DistributedVector &dst, const DistributedVector &src) const override
    {
      dst = src;
    }

    unsigned int initializations = 0;
  };



  class MaskedCGTest : public ::testing::Test
  {
  protected:
    MaskedCGTest()
      : comm(MPI_COMM_WORLD)
      , owned(Utilities::create_evenly_distributed_partitioning(
          Utilities::MPI::this_mpi_process(comm),
          Utilities::MPI::n_mpi_processes(comm),
          n))
      , w(owned, comm)
      , product(owned, comm)
      , limits(owned.n_elements(), 1.)
    {
      DynamicSparsityPattern pattern(n, n, owned);
      for (const auto i : owned)
        for (unsigned int j = (i > 0 ? i - 1 : 0); j <= std::min(i + 1, n - 1);
             ++j)
          pattern.add(i, j);
      matrix.reinit(owned, owned, pattern, comm);
      for (const auto i : owned)
        {
          matrix.set(i, i, 4.);
          if (i > 0)
            matrix.set(i, i - 1, -1.);
          if (i + 1 < n)
            matrix.set(i, i + 1, -1.);
        }
      matrix.compress(VectorOperation::insert);
      apply = [this](DistributedVector &y, const DistributedVector &x) {
        matrix.vmult(y, x);
      };
      rows.first    = owned.n_elements() > 0 ? *owned.begin() : 0;
      rows.zero_rhs = false;
    }

    /** The solution of the dense A_SS, by global index (0 off S). */
    std::vector<double>
    reference() const
    {
      std::vector<unsigned int> set;
      for (unsigned int i = 0; i < n; ++i)
        if (in_s(i))
          set.push_back(i);
      FullMatrix<double> restricted(set.size(), set.size());
      for (unsigned int a = 0; a < set.size(); ++a)
        for (unsigned int b = 0; b < set.size(); ++b)
          restricted(a, b) = set[a] == set[b] ? 4. :
                             set[a] + 1 == set[b] || set[b] + 1 == set[a] ?
                                                -1. :
                                                0.;
      DenseCholesky cholesky;
      cholesky.factorize(restricted);
      std::vector<double> x(set.size());
      for (unsigned int a = 0; a < set.size(); ++a)
        x[a] = rhs_of(set[a]);
      cholesky.solve(x.data());
      std::vector<double> all(n, 0.);
      for (unsigned int a = 0; a < set.size(); ++a)
        all[set[a]] = x[a];
      return all;
    }

    /** max |w_i - reference_i| over the ranks; w_i exactly 0 off S. */
    double
    error_of_w() const
    {
      const std::vector<double> exact = reference();
      ConstLocalValues          values(w);
      double                    error = 0;
      for (std::size_t k = 0; k < values.size(); ++k)
        {
          const auto i = rows.first + k;
          if (!in_s(i))
            {
              EXPECT_EQ(values[k], 0.) << "row " << i;
            }
          error = std::max(error, std::abs(values[k] - exact[i]));
        }
      return Utilities::MPI::max(error, comm);
    }

    /** max |(A w)_i - product_i| over the ranks. */
    double
    error_of_product() const
    {
      DistributedVector fresh(owned, comm);
      matrix.vmult(fresh, w);
      fresh -= product;
      return fresh.linfty_norm();
    }

    const MPI_Comm      comm;
    const IndexSet      owned;
    DistributedMatrix   matrix;
    MaskedCG::Product   apply;
    DistributedVector   w, product;
    std::vector<double> limits;
    Rows                rows;
  };



  TEST_F(MaskedCGTest, SolvesTheRestrictedSystemFromZero)
  {
    Jacobi   jacobi(w);
    MaskedCG cg(apply, jacobi, tolerance, false);
    bool     w_is_zero = true;
    EXPECT_TRUE(cg.solve(rows, limits.data(), 0., w, product, w_is_zero));
    EXPECT_FALSE(w_is_zero);
    const double w_error = error_of_w(), product_error = error_of_product();
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      std::cout << "  " << cg.n_iterations() << " iterations; error of w "
                << w_error << ", of A w " << product_error << std::endl;
    EXPECT_LE(w_error, 1e-12);
    EXPECT_LE(product_error, 1e-12);
    EXPECT_GT(cg.n_iterations(), 0u);
  }



  // A start that is non-zero everywhere is first restricted to S: the same
  // solution, exactly zero off S.
  TEST_F(MaskedCGTest, RestrictsAWarmStartToTheSet)
  {
    w = 1.;
    Jacobi   jacobi(w);
    MaskedCG cg(apply, jacobi, tolerance, false);
    bool     w_is_zero = false;
    EXPECT_TRUE(cg.solve(rows, limits.data(), 0., w, product, w_is_zero));
    EXPECT_FALSE(w_is_zero);
    EXPECT_LE(error_of_w(), 1e-12);
    EXPECT_LE(error_of_product(), 1e-12);
  }



  // rhs = 0 on S: w = 0 at once, no iteration, and the caller is told.
  TEST_F(MaskedCGTest, ZeroRightHandSideGivesZero)
  {
    w             = 1.;
    rows.zero_rhs = true;
    Jacobi   jacobi(w);
    MaskedCG cg(apply, jacobi, tolerance, false);
    bool     w_is_zero = false;
    EXPECT_TRUE(cg.solve(rows, limits.data(), 0., w, product, w_is_zero));
    EXPECT_TRUE(w_is_zero);
    EXPECT_EQ(w.linfty_norm(), 0.);
    EXPECT_EQ(cg.n_iterations(), 0u);
  }



  // With a target eta, the CG stops as soon as every |r_i| l_i <= eta, in
  // fewer iterations than the tight solve, and says it did not reach the
  // tolerance.
  TEST_F(MaskedCGTest, StopsAtTheTarget)
  {
    Jacobi   tight_jacobi(w);
    MaskedCG tight(apply, tight_jacobi, tolerance, false);
    bool     w_is_zero = true;
    tight.solve(rows, limits.data(), 0., w, product, w_is_zero);

    const double target = 1e-3;
    for (double &l : limits)
      l = 2.; // |r_i| <= 5e-4
    w = 0.;
    Jacobi   jacobi(w);
    MaskedCG loose(apply, jacobi, tolerance, false);
    w_is_zero = true;
    EXPECT_FALSE(
      loose.solve(rows, limits.data(), target, w, product, w_is_zero));
    EXPECT_LT(loose.n_iterations(), tight.n_iterations());
    // The residual rhs - A w on S, with A w from a fresh product.
    DistributedVector fresh(owned, comm);
    matrix.vmult(fresh, w);
    ConstLocalValues aw(fresh);
    double           largest = 0;
    for (std::size_t k = 0; k < aw.size(); ++k)
      if (rows.in_set(k))
        largest = std::max(largest, std::abs(rows.rhs(k) - aw[k]) * limits[k]);
    // The recurrence's A w differs from the fresh one by round-off only.
    EXPECT_LE(Utilities::MPI::max(largest, comm), target * (1 + 1e-9));
    EXPECT_GT(Utilities::MPI::max(largest, comm), 0.);
  }



  // A preconditioner that is not Jacobi goes through its vmult(): the same
  // solution (the caller initializes it for the mask).
  TEST_F(MaskedCGTest, GeneralPreconditioner)
  {
    Identity identity;
    MaskedCG cg(apply, identity, tolerance, false);
    bool     w_is_zero = true;
    EXPECT_TRUE(cg.solve(rows, limits.data(), 0., w, product, w_is_zero));
    EXPECT_LE(error_of_w(), 1e-12);
    EXPECT_LE(error_of_product(), 1e-12);
    EXPECT_EQ(identity.initializations, 0u);
  }



  // zero_start: a warm start is ignored (the solve starts from zero).
  TEST_F(MaskedCGTest, ZeroStartIgnoresTheWarmStart)
  {
    w = 7.;
    Jacobi   jacobi(w);
    MaskedCG cg(apply, jacobi, tolerance, true);
    bool     w_is_zero = false;
    EXPECT_TRUE(cg.solve(rows, limits.data(), 0., w, product, w_is_zero));
    EXPECT_LE(error_of_w(), 1e-12);
    EXPECT_LE(error_of_product(), 1e-12);
  }
} // namespace unit_masked_cg
