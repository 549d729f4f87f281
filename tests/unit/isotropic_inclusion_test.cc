// Unit tests of the exact solver of the isotropic friction inclusion of
// Renard 2001, eq. (52) and of its selection rule
// (src/friction/isotropic_inclusion.h, doc/theory.md §4.7), shared by the slab
// and the body through ContactNode:
//
//   a s + S mu(|s|) Dir(s) \ni r,   a > 0, S >= 0,  s, r in R^2.
//
// s = 0 (stick) solves it iff |r| <= S mu(0); a slip solution is
// s = sigma r/|r| with a sigma > 0 solving a sigma + S mu(sigma) = |r|.
// For a constant mu this is the closed form sigma = (|r| - S mu)/a.
// Tolerances: the solver iterates to machine precision (relative
// 4 eps_mach on the scalar equation), so residuals and slips of order 1
// are compared to 1e-14 (about 50 eps_mach); stick is exactly s = 0.
#include <friction/isotropic_inclusion.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_isotropic_inclusion
{
  using namespace stickslip;

  using Law = FrictionCoefficient::Law;

  constexpr unsigned int scan_points = 256;

  /** max-norm residual of (52) at the solution; for stick, the excess of |r|.
   */
  double
  residual(const double               a,
           const double               S,
           const Tangential          &r,
           const InclusionSolution   &x,
           const FrictionCoefficient &mu)
  {
    const double s = std::hypot(x.slip[0], x.slip[1]);
    if (s == 0) // stick: |r| <= S mu(0) must hold
      return std::max(std::hypot(r[0], r[1]) - S * mu.value(0.), 0.);
    double e = 0;
    for (unsigned int k = 0; k < 2; ++k)
      e = std::max(e,
                   std::abs(a * x.slip[k] + S * mu.value(s) * x.slip[k] / s -
                            r[k]));
    return e;
  }

  // Unique case (a > S L_mu): slip parallel to r, residual at round-off.
  TEST(IsotropicInclusion, UniqueSlipParallelToR)
  {
    const FrictionCoefficient mu(Law::rational, 0.8, 0.5, 0.1);
    const Tangential          r = {{3., -4.}};
    const auto                x =
      solve_isotropic_inclusion(10., 1., r, {{0., 0.}}, mu, scan_points);
    EXPECT_FALSE(x.stick);
    EXPECT_EQ(x.n_solutions, 1u);
    EXPECT_LT(residual(10., 1., r, x, mu), 5e-14);
    EXPECT_LT(std::abs(x.slip[0] * r[1] - x.slip[1] * r[0]), 1e-14);
    EXPECT_GT(x.slip[0], 0.);
  }

  // Stick whenever |r| <= S mu_s, whatever the previous slip.
  TEST(IsotropicInclusion, StickWhenInsideTheFrictionDisc)
  {
    const FrictionCoefficient mu(Law::exponential, 0.8, 0.5, 1.);
    const auto                x = solve_isotropic_inclusion(
      10., 1., {{0.5, 0.6}}, {{0.2, 0.}}, mu, scan_points);
    EXPECT_TRUE(x.stick);
    EXPECT_EQ(x.slip[0], 0.);
    EXPECT_EQ(x.slip[1], 0.);
    EXPECT_EQ(x.n_solutions, 1u);
  }

  // Constant mu = 0.3, a = 2, S = 1, r = (1.3, 0): sigma = (1.3 - 0.3)/2 = 0.5.
  TEST(IsotropicInclusion, ConstantMuSlipAlongAxis)
  {
    const FrictionCoefficient mu(Law::constant, 0.3, 0.3, 1.);
    const auto                x = solve_isotropic_inclusion(
      2., 1., {{1.3, 0.}}, {{0., 0.}}, mu, scan_points);
    EXPECT_NEAR(x.slip[0], 0.5, 1e-15);
    EXPECT_EQ(x.slip[1], 0.);
  }

  // Constant mu = 1/4, a = 4, S = 5/2 (S mu = 5/8), dyadic numbers so that
  // the disc's edge is hit exactly:
  // stick: r = (3/8, -1/2), |r| = 5/8 = S mu (on the edge): s = 0 exactly;
  //        r = (0.3, 0.4), |r| = 1/2 < 5/8: s = 0;
  // slip:  r = (3/2, 2), |r| = 5/2: sigma = (5/2 - 5/8)/4 = 15/32,
  //        s = sigma r/|r| = (9/32, 3/8), and the friction force
  //        r - a s = S mu r/|r| = (3/8, 1/2) lies on the disc's edge.
  TEST(IsotropicInclusion, ConstantMuStickAndSlipClosedForm)
  {
    const FrictionCoefficient mu(Law::constant, 0.25, 0.25, 1.);
    const double              a = 4., S = 2.5;
    for (const Tangential r :
         {Tangential{{0.375, -0.5}}, Tangential{{0.3, 0.4}}})
      {
        const auto x =
          solve_isotropic_inclusion(a, S, r, {{0.1, 0.}}, mu, scan_points);
        EXPECT_TRUE(x.stick) << r[0] << ", " << r[1];
        EXPECT_EQ(x.slip[0], 0.);
        EXPECT_EQ(x.slip[1], 0.);
      }
    const Tangential r = {{1.5, 2.}};
    const auto       x =
      solve_isotropic_inclusion(a, S, r, {{0., 0.}}, mu, scan_points);
    EXPECT_FALSE(x.stick);
    EXPECT_EQ(x.n_solutions, 1u);
    EXPECT_NEAR(x.slip[0], 9. / 32, 1e-15);
    EXPECT_NEAR(x.slip[1], 0.375, 1e-15);
    EXPECT_NEAR(r[0] - a * x.slip[0], 0.375, 4e-15);
    EXPECT_NEAR(r[1] - a * x.slip[1], 0.5, 4e-15);
  }

  // Separation (S = 0): free motion of the surface layer, s = r/a exactly.
  TEST(IsotropicInclusion, SeparationIsFreeMotion)
  {
    const FrictionCoefficient mu(Law::fig2, 0.8, 0.5, 0.1);
    const auto                x = solve_isotropic_inclusion(
      4., 0., {{1., 2.}}, {{0., 0.}}, mu, scan_points);
    EXPECT_EQ(x.slip[0], 0.25);
    EXPECT_EQ(x.slip[1], 0.5);
    EXPECT_FALSE(x.stick);
  }

  // Three solutions: fig2 law (mu_s 0.8, mu_d 0.5, v_c 0.1), a = S = 1,
  // |r| = 0.79: sigma + 0.5 + 0.3 (1 - 10 sigma)^2 = 0.79 for sigma < 0.1,
  // i.e. 30 sigma^2 - 5 sigma + 0.01 = 0: sigma = (5 - sqrt 23.8)/60 =
  // 0.002025 (the other root is above v_c), and sigma + 0.5 = 0.79 beyond
  // v_c: sigma = 0.29; plus stick (0.79 <= 0.8). The selection keeps the
  // solution nearest the previous slip.
  TEST(IsotropicInclusion, NonUniqueSelectionByPreviousSlip)
  {
    const FrictionCoefficient mu(Law::fig2, 0.8, 0.5, 0.1);
    const Tangential          r     = {{0.79, 0.}};
    const double              small = (5 - std::sqrt(23.8)) / 60;
    const auto                stuck =
      solve_isotropic_inclusion(1., 1., r, {{0., 0.}}, mu, scan_points);
    EXPECT_EQ(stuck.n_solutions, 3u);
    EXPECT_TRUE(stuck.stick) << "previously stuck -> stays stuck";
    const auto fast =
      solve_isotropic_inclusion(1., 1., r, {{0.3, 0.}}, mu, scan_points);
    EXPECT_FALSE(fast.stick);
    EXPECT_NEAR(fast.slip[0], 0.29, 1e-14) << "sliding fast -> the fast branch";
    const auto slow =
      solve_isotropic_inclusion(1., 1., r, {{0.0015, 0.}}, mu, scan_points);
    EXPECT_FALSE(slow.stick);
    EXPECT_NEAR(slow.slip[0], small, 1e-14)
      << "sliding slowly -> the slow branch";
    EXPECT_LT(residual(1., 1., r, fast, mu), 1e-14);
    EXPECT_LT(residual(1., 1., r, slow, mu), 1e-14);
    EXPECT_EQ(residual(1., 1., r, stuck, mu), 0.);
    // The solver's own residual of the selected slip speed says so too.
    for (const auto &x : {fast, slow, stuck})
      {
        EXPECT_TRUE(x.converged());
        EXPECT_LT(x.residual, 1e-14);
      }
  }

  // Non-finite data (a NaN or an infinity in a, S or r) are reported at once,
  // n_solutions = 0 with a NaN slip and no iteration, instead of 200
  // iterations on a NaN bracket; for fig2 with a = S = 1 the scan path would
  // be taken.
  TEST(IsotropicInclusion, NonFiniteDataAreReported)
  {
    const FrictionCoefficient mu(Law::fig2, 0.8, 0.5, 0.1);
    const double              nan = std::numeric_limits<double>::quiet_NaN();
    const double              inf = std::numeric_limits<double>::infinity();
    for (const auto &[a, S, r] :
         {std::tuple<double, double, Tangential>{1., 1., {{nan, 0.79}}},
          {1., 1., {{inf, 0.}}},
          {nan, 1., {{0.79, 0.}}},
          {1., inf, {{0.79, 0.}}},
          {1., nan, {{0.79, 0.}}}})
      {
        const auto x =
          solve_isotropic_inclusion(a, S, r, {{0., 0.}}, mu, scan_points);
        EXPECT_EQ(x.n_solutions, 0u);
        EXPECT_EQ(x.iterations, 0u);
        EXPECT_FALSE(x.stick);
        EXPECT_TRUE(std::isnan(x.slip[0]) && std::isnan(x.slip[1]));
        // Not a solution: the slab and the body stop the run on it.
        EXPECT_FALSE(x.converged());
      }
  }
} // namespace unit_isotropic_inclusion
