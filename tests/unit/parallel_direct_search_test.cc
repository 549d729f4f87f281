// Unit tests of the parallel direct search
// (src/control/parallel_direct_search.h, Torczon's multidirectional search with
// the factors -1, -2, 1/2): one iteration on a quadratic in 2D gives the
// simplex the method's rules give (derived by hand below: every value is an
// exact small number, so the vertices are compared exactly), and on a convex
// quadratic the search converges to the minimizer within the distance its
// stopping rule allows.
#include <base/input_error.h>
#include <control/parallel_direct_search.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_parallel_direct_search
{
  using namespace stickslip;
  using Point = ParallelDirectSearch::Point;

  const std::vector<double> multidirectional = {-1., -2., 0.5};

  /** An evaluator of @p f whose outcome carries f in its displacement. */
  ParallelDirectSearch::Evaluator
  evaluator(const std::function<double(const Point &)> &f,
            unsigned long                              &n_evaluations)
  {
    return [f, &n_evaluations](const std::vector<Point> &points) {
      std::vector<ControlOutcome> outcomes(points.size());
      for (unsigned int j = 0; j < points.size(); ++j)
        outcomes[j].displacement = {f(points[j])};
      n_evaluations += points.size();
      return outcomes;
    };
  }

  double
  merit(const Point &, const ControlOutcome &outcome)
  {
    return outcome.displacement[0];
  }

  /**
   * Run exactly one iteration from start(@p initial, @p size) and return
   * the simplex after it (minimize() stops with a RunError at the limit of
   * one simplex, after the observer saw the accepted one).
   */
  ParallelDirectSearch::State
  one_iteration(const std::function<double(const Point &)> &f,
                const Point                                &initial,
                const double                                size,
                ParallelDirectSearch::State                &started)
  {
    const ParallelDirectSearch search(multidirectional, 1e-12, 1);
    unsigned long              n_evaluations = 0;
    started = search.start(initial, size, evaluator(f, n_evaluations), merit);
    ParallelDirectSearch::State after;
    EXPECT_THROW(search.minimize(started,
                                 evaluator(f, n_evaluations),
                                 merit,
                                 [&](const ParallelDirectSearch::State &state) {
                                   after = state;
                                 }),
                 RunError);
    EXPECT_EQ(n_evaluations, 3u + 6u)
      << "3 vertices, then 3 factors x 2 trial points";
    return after;
  }

  void
  expect_vertices(const ParallelDirectSearch::State &state,
                  const std::vector<Point>          &vertices)
  {
    ASSERT_EQ(state.vertices.size(), vertices.size());
    for (unsigned int i = 0; i < vertices.size(); ++i)
      {
        EXPECT_EQ(state.vertices[i], vertices[i]) << "vertex " << i;
        EXPECT_EQ(state.outcomes[i].displacement.size(), 1u);
      }
  }

  // f = (x - 3)^2 + 2 (y - 1)^2 from (0, 0) with h = 1:
  // start: f(0,0) = 11, f(1,0) = 6, f(0,1) = 9; the best vertex is swapped
  // to the front: v = [(1,0), (0,0), (0,1)], edges d_1 = (-1,0), d_2 = (-1,1).
  // Trials v_0 + s d_i:
  //   s = -1:  (2,0) -> 3,   (2,-1) -> 9
  //   s = -2:  (3,0) -> 2,   (3,-2) -> 18
  //   s = 1/2: (1/2,0) -> 8.25, (1/2,1/2) -> 6.75
  // The best trial (3,0) beats f(v_0) = 6: the expansion simplex
  // [(1,0), (3,0), (3,-2)] is accepted, then ordered best first:
  // [(3,0), (1,0), (3,-2)].
  TEST(ParallelDirectSearch, OneStepExpansion)
  {
    const auto f = [](const Point &x) {
      return (x[0] - 3) * (x[0] - 3) + 2 * (x[1] - 1) * (x[1] - 1);
    };
    ParallelDirectSearch::State started;
    const auto                  after = one_iteration(f, {0., 0.}, 1., started);
    expect_vertices(started, {{1., 0.}, {0., 0.}, {0., 1.}});
    EXPECT_EQ(started.simplexes, 0u);
    expect_vertices(after, {{3., 0.}, {1., 0.}, {3., -2.}});
    EXPECT_EQ(after.simplexes, 1u);
    EXPECT_EQ(after.evaluations, 9u);
    EXPECT_EQ(after.outcomes[0].displacement[0], 2.);
    EXPECT_EQ(after.largest_edge(), 2.);
  }

  // f = x^2 + y^2 from its minimizer (0, 0), h = 1: v = [(0,0), (1,0), (0,1)]
  // (values 0, 1, 1; the tie keeps the order). Trials: s = -1: 1, 1;
  // s = -2: 4, 4; s = 1/2: (1/2,0), (0,1/2) -> 1/4. None beats 0: the
  // contraction [(0,0), (1/2,0), (0,1/2)], the largest edge halved.
  TEST(ParallelDirectSearch, OneStepContraction)
  {
    const auto f = [](const Point &x) { return x[0] * x[0] + x[1] * x[1]; };
    ParallelDirectSearch::State started;
    const auto                  after = one_iteration(f, {0., 0.}, 1., started);
    expect_vertices(started, {{0., 0.}, {1., 0.}, {0., 1.}});
    expect_vertices(after, {{0., 0.}, {0.5, 0.}, {0., 0.5}});
    EXPECT_EQ(after.largest_edge(), 0.5);
  }

  /** Area of a triangle: reordering keeps it, a factor s multiplies it by s^2.
   */
  double
  area(const ParallelDirectSearch::State &state)
  {
    const auto &v = state.vertices;
    return 0.5 * std::abs((v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) -
                          (v[1][1] - v[0][1]) * (v[2][0] - v[0][0]));
  }

  // f(x) = (x - x*)^T H (x - x*), H = [2 1/2; 1/2 1] (eigenvalues
  // (3 +- sqrt 2)/2 = 2.21, 0.79, condition kappa = 2.78), x* = (1/3, -sqrt 2)
  // (not on the dyadic grid the vertices live on),
  // from (0, 0) with h = 1/2, tolerance tol = 1e-7.
  // Bound: every simplex is the initial right isosceles triangle (legs l)
  // scaled by 2^k, its best vertex at any corner, so its largest edge from
  // v_0 is l or sqrt 2 l. The last iteration is a contraction (checked: the
  // area is quartered), from a triangle with legs l < 2 tol (the contracted
  // legs l/2 are at most the final largest edge < tol): edges d_i from v_0
  // with |d_i| <= L = sqrt 2 l < 2 sqrt 2 tol. The contraction was taken
  // because neither v_0 + d_i (vertices; v_0 the best) nor v_0 - d_i (the
  // s = -1 trials) beat v_0: with g = grad f(v_0) = 2 H (v_0 - x*),
  // f(v_0 +- d) - f(v_0) = +-g.d + d^T H d >= 0 gives |g.d_i| <= lambda_max
  // |d_i|^2. The two edges are orthogonal or at 45 degrees, so
  // |g| <= 2.62 lambda_max L <= 7.4 lambda_max tol. The best vertex at the
  // end has f(best) <= f(v_0) = g^T H^{-1} g/4 <= |g|^2/(4 lambda_min), and
  // f >= lambda_min |x - x*|^2, so |best - x*| <= |g|/(2 lambda_min)
  // <= 3.7 kappa tol = 1.03e-6. Round-off in f (1e-16 f, f ~ 1e-12 there)
  // is negligible against the differences lambda |d|^2 ~ 1e-14 compared.
  TEST(ParallelDirectSearch, ConvergesToMinimumOfConvexQuadratic)
  {
    const double tolerance = 1e-7;
    const Point  minimizer = {1. / 3, -std::sqrt(2.)};
    const auto   f         = [&](const Point &x) {
      const double a = x[0] - minimizer[0], b = x[1] - minimizer[1];
      return 2 * a * a + a * b + b * b;
    };
    const ParallelDirectSearch search(multidirectional, tolerance, 1000);
    unsigned long              n_evaluations = 0;
    const auto                 initial =
      search.start({0., 0.}, 0.5, evaluator(f, n_evaluations), merit);
    unsigned long n_observed    = 0;
    double        previous_area = area(initial), last_area = area(initial);
    const auto    result =
      search.minimize(initial,
                      evaluator(f, n_evaluations),
                      merit,
                      [&](const ParallelDirectSearch::State &state) {
                        ++n_observed;
                        previous_area = last_area;
                        last_area     = area(state);
                      });
    EXPECT_NEAR(last_area / previous_area, 0.25, 1e-6)
      << "the last step contracts";
    const double distance =
      std::hypot(result.best[0] - minimizer[0], result.best[1] - minimizer[1]);
    EXPECT_LE(distance, 3.7 * 2.78 * tolerance);
    EXPECT_LT(result.largest_edge, tolerance);
    EXPECT_EQ(result.outcome.displacement[0], f(result.best));
    EXPECT_EQ(result.simplexes, n_observed);
    EXPECT_EQ(result.evaluations, n_evaluations);
    EXPECT_EQ(result.evaluations,
              3 + 6 * static_cast<unsigned long>(result.simplexes));
  }
} // namespace unit_parallel_direct_search
