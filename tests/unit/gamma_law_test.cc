// Unit tests of the velocity-weakening laws gamma (src/friction/gamma_law.h,
// Glowinski et al. 2006, Remark 2.1): gamma(0) = 0, gamma odd, |gamma| < beta
// (smooth) or
// <= beta (piecewise linear), gamma(+-inf) = +-beta, so that the kinetic
// friction c (1 - beta) stays below the static c. Values are compared with
// the closed forms
//   smooth (2):            beta xi / sqrt(eps^2 + xi^2),
//   piecewise linear (3):  beta clamp(xi/eps, -1, 1),
// at points where they are simple numbers (a 3-4-5 triangle, xi = eps/2).
// Tolerances: a handful of correctly rounded operations on numbers of order
// beta, so 4 eps_mach relative; exact (==) where every operation is exact
// (xi/eps = 1, the clamp, odd symmetry, which flips only the sign bit).
// The apply() test runs on the ranks' parts of a distributed vector and
// also under mpirun -np 2.
#include <base/global.h>
#include <friction/gamma_law.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_gamma_law
{
  using namespace stickslip;
  using Type = GammaLaw::Type;

  constexpr double eps_mach = std::numeric_limits<double>::epsilon();

  TEST(GammaLaw, ParseTypeNames)
  {
    EXPECT_EQ(GammaLaw::parse_type("none"), Type::none);
    EXPECT_EQ(GammaLaw::parse_type("smooth"), Type::smooth);
    EXPECT_EQ(GammaLaw::parse_type("piecewise linear"), Type::piecewise_linear);
  }

  TEST(GammaLaw, NoneIsZero)
  {
    for (const double xi : {-1e3, -1., 0., 1e-8, 5.})
      EXPECT_EQ(GammaLaw::value(Type::none, 0.4, 1e-3, xi), 0.);
    EXPECT_TRUE(GammaLaw().is_zero()) << "the default law is pure Coulomb";
  }

  // beta = 0.4, eps = 4: gamma(3) = 0.4 * 3/sqrt(16 + 9) = 0.4 * 3/5 = 0.24;
  // gamma(eps) = beta/sqrt(2); gamma(0) = 0 exactly; odd.
  TEST(GammaLaw, SmoothValues)
  {
    const double beta = 0.4, epsilon = 4.;
    EXPECT_NEAR(GammaLaw::value(Type::smooth, beta, epsilon, 3.),
                0.24,
                4 * eps_mach * 0.24);
    EXPECT_NEAR(GammaLaw::value(Type::smooth, beta, epsilon, epsilon),
                beta / std::sqrt(2.),
                4 * eps_mach * beta);
    EXPECT_EQ(GammaLaw::value(Type::smooth, beta, epsilon, 0.), 0.);
    for (const double xi : {1e-9, 0.3, 3., 40., 1e6})
      EXPECT_EQ(GammaLaw::value(Type::smooth, beta, epsilon, -xi),
                -GammaLaw::value(Type::smooth, beta, epsilon, xi))
        << "xi = " << xi;
  }

  // Near 0 gamma is linear with slope beta/eps: gamma(xi) = beta xi/eps
  // (1 - xi^2/(2 eps^2) + ...), a relative difference of 5e-13 at
  // xi = 1e-6 eps. Far away gamma(xi) = +-beta (1 - eps^2/(2 xi^2) + ...):
  // beta - |gamma| = beta eps^2/(2 xi^2), which is below round-off
  // (beta eps_mach) once |xi| >= 1e8 eps (at 1e6 eps it is 1.5e-13, the
  // asymptotic term, computed to 1e-3 relative: the subtraction cancels
  // 13 of 16 digits); below that, strictly inside (-beta, beta), increasing.
  TEST(GammaLaw, SmoothLimits)
  {
    const double beta = 0.3, epsilon = 1e-3;
    const double tiny = 1e-6 * epsilon;
    EXPECT_NEAR(GammaLaw::value(Type::smooth, beta, epsilon, tiny),
                beta * tiny / epsilon,
                1e-12 * beta * tiny / epsilon);
    const double far = 1e6 * epsilon;
    EXPECT_NEAR(beta - GammaLaw::value(Type::smooth, beta, epsilon, far),
                beta * epsilon * epsilon / (2 * far * far),
                1e-3 * beta * epsilon * epsilon / (2 * far * far))
      << "beta - gamma = beta eps^2/(2 xi^2) = 1.5e-13 at xi = 1e6 eps";
    for (const double xi : {1e8 * epsilon, 1e12 * epsilon, 1e150})
      {
        EXPECT_NEAR(GammaLaw::value(Type::smooth, beta, epsilon, xi),
                    beta,
                    eps_mach * beta);
        EXPECT_NEAR(GammaLaw::value(Type::smooth, beta, epsilon, -xi),
                    -beta,
                    eps_mach * beta);
      }
    double previous = -beta;
    for (double xi = -100 * epsilon; xi <= 100 * epsilon; xi += epsilon / 8)
      {
        const double value = GammaLaw::value(Type::smooth, beta, epsilon, xi);
        EXPECT_LT(std::abs(value), beta) << "xi = " << xi;
        EXPECT_GT(value, previous) << "xi = " << xi;
        previous = value;
      }
  }

  // beta = 0.4, eps = 0.01: gamma(eps/2) = beta/2; gamma(+-eps) = +-beta
  // exactly (xi/eps = 1); constant +-beta beyond; linear in between.
  TEST(GammaLaw, PiecewiseLinearValuesAndLimits)
  {
    const double beta = 0.4, epsilon = 0.01;
    EXPECT_NEAR(GammaLaw::value(Type::piecewise_linear, beta, epsilon, 0.005),
                0.2,
                4 * eps_mach * 0.2);
    EXPECT_EQ(GammaLaw::value(Type::piecewise_linear, beta, epsilon, 0.), 0.);
    EXPECT_EQ(GammaLaw::value(Type::piecewise_linear, beta, epsilon, epsilon),
              beta);
    EXPECT_EQ(GammaLaw::value(Type::piecewise_linear, beta, epsilon, -epsilon),
              -beta);
    for (const double xi : {1.5 * epsilon, 1., 1e300})
      {
        EXPECT_EQ(GammaLaw::value(Type::piecewise_linear, beta, epsilon, xi),
                  beta);
        EXPECT_EQ(GammaLaw::value(Type::piecewise_linear, beta, epsilon, -xi),
                  -beta);
      }
    for (const double xi : {1e-7, 0.002, 0.0075})
      EXPECT_NEAR(GammaLaw::value(Type::piecewise_linear, beta, epsilon, xi),
                  beta * xi / epsilon,
                  4 * eps_mach * beta);
  }

  // apply(): componentwise with per-component beta and eps, on the owned
  // entries of distributed vectors; equals value() bitwise.
  TEST(GammaLaw, ApplyComponentwiseOnDistributedVectors)
  {
    const MPI_Comm     comm = MPI_COMM_WORLD;
    const unsigned int n    = 5;
    const IndexSet owned    = Utilities::create_evenly_distributed_partitioning(
      Utilities::MPI::this_mpi_process(comm),
      Utilities::MPI::n_mpi_processes(comm),
      n);
    const std::vector<double> beta    = {0.1, 0.2, 0.3, 0.4, 0.5};
    const std::vector<double> epsilon = {1., 0.5, 1e-3, 2., 0.25};
    const std::vector<double> w       = {0.5, -1., 3e-3, 0., -0.1};
    DistributedVector beta_vector(owned, comm), epsilon_vector(owned, comm),
      w_vector(owned, comm), out(owned, comm);
    for (const auto i : owned)
      {
        beta_vector[i]    = beta[i];
        epsilon_vector[i] = epsilon[i];
        w_vector[i]       = w[i];
      }
    for (auto *vector : {&beta_vector, &epsilon_vector, &w_vector})
      vector->compress(VectorOperation::insert);

    for (const Type type : {Type::smooth, Type::piecewise_linear})
      {
        GammaLaw gamma;
        gamma.reinit(type, beta_vector, epsilon_vector);
        EXPECT_FALSE(gamma.is_zero());
        gamma.apply(w_vector, out);
        for (const auto i : owned)
          EXPECT_EQ(out(i), GammaLaw::value(type, beta[i], epsilon[i], w[i]))
            << i;
      }

    GammaLaw none;
    none.reinit(Type::none, beta_vector, epsilon_vector);
    EXPECT_TRUE(none.is_zero());
    out = 1.;
    none.apply(w_vector, out);
    EXPECT_EQ(out.linfty_norm(), 0.);
  }
} // namespace unit_gamma_law
