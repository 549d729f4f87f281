// Unit test of the exact solver of the friction inclusion (52) and of its
// selection rule (MODELS.md §4.7): a s + S mu(|s|) Dir(s) \ni r.
#include <models/slab/friction_inclusion.h>

#include <cmath>
#include <cstdio>

namespace
{
  using namespace stickslip::Slab;

  int n_failures = 0;

  void
  check(const bool condition, const char *what)
  {
    std::printf("%s: %s\n", condition ? "ok  " : "FAIL", what);
    if (!condition)
      ++n_failures;
  }

  double
  residual(const double a, const double S, const Tangential &r,
           const InclusionSolution &x, const FrictionCoefficient &mu)
  {
    const double s = std::hypot(x.slip[0], x.slip[1]);
    if (s == 0) // stick: |r| <= S mu(0) must hold
      return std::max(std::hypot(r[0], r[1]) - S * mu.value(0.), 0.);
    double e = 0;
    for (unsigned int k = 0; k < 2; ++k)
      e = std::max(e, std::abs(a * x.slip[k] + S * mu.value(s) * x.slip[k] / s - r[k]));
    return e;
  }
} // namespace

int
main()
{
  // Unique case (a > S L_mu): slip parallel to r, residual at round-off.
  {
    const FrictionCoefficient mu(FrictionCoefficient::Law::rational, 0.8, 0.5, 0.1);
    const Tangential r = {{3., -4.}};
    const auto x = solve_friction_inclusion(10., 1., r, {{0., 0.}}, mu, 256);
    check(!x.stick && x.n_solutions == 1, "unique: one slip solution");
    check(residual(10., 1., r, x, mu) < 1e-14 * 5, "unique: residual at round-off");
    check(std::abs(x.slip[0] * r[1] - x.slip[1] * r[0]) < 1e-14 && x.slip[0] > 0,
          "unique: slip in the direction of r");
  }
  // Stick: |r| <= S mu_s.
  {
    const FrictionCoefficient mu(FrictionCoefficient::Law::exponential, 0.8, 0.5, 1.);
    const auto x = solve_friction_inclusion(10., 1., {{0.5, 0.6}}, {{0.2, 0.}}, mu, 256);
    check(x.stick && x.slip[0] == 0 && x.slip[1] == 0 && x.n_solutions == 1,
          "stick when |r| <= S mu_s, whatever the previous slip");
  }
  // Constant mu: sigma = (|r| - S mu)/a in closed form.
  {
    const FrictionCoefficient mu(FrictionCoefficient::Law::constant, 0.3, 0.3, 1.);
    const auto x = solve_friction_inclusion(2., 1., {{1.3, 0.}}, {{0., 0.}}, mu, 256);
    check(std::abs(x.slip[0] - 0.5) < 1e-15, "constant mu: s = (|r| - S mu)/a");
  }
  // Separation (S = 0): free motion s = r/a.
  {
    const FrictionCoefficient mu(FrictionCoefficient::Law::fig2, 0.8, 0.5, 0.1);
    const auto x = solve_friction_inclusion(4., 0., {{1., 2.}}, {{0., 0.}}, mu, 256);
    check(x.slip[0] == 0.25 && x.slip[1] == 0.5 && !x.stick, "S = 0: s = r/a");
  }
  // Three solutions: fig2 law (mu_s 0.8, mu_d 0.5, v_c 0.1), a = S = 1,
  // |r| = 0.79: stick, sigma = (5 - sqrt(23.8))/60 and sigma = 0.29.
  {
    const FrictionCoefficient mu(FrictionCoefficient::Law::fig2, 0.8, 0.5, 0.1);
    const Tangential r = {{0.79, 0.}};
    const double small = (5 - std::sqrt(23.8)) / 60;
    const auto stuck = solve_friction_inclusion(1., 1., r, {{0., 0.}}, mu, 256);
    check(stuck.n_solutions == 3, "non-unique: three solutions found");
    check(stuck.stick, "selection: previously stuck -> stays stuck");
    const auto fast = solve_friction_inclusion(1., 1., r, {{0.3, 0.}}, mu, 256);
    check(!fast.stick && std::abs(fast.slip[0] - 0.29) < 1e-14,
          "selection: sliding fast -> the fast branch sigma = 0.29");
    const auto slow = solve_friction_inclusion(1., 1., r, {{0.0015, 0.}}, mu, 256);
    check(!slow.stick && std::abs(slow.slip[0] - small) < 1e-14,
          "selection: sliding slowly -> the slow branch sigma = 0.002025");
    check(residual(1., 1., r, fast, mu) < 1e-14 && residual(1., 1., r, slow, mu) < 1e-14 &&
            residual(1., 1., r, stuck, mu) == 0,
          "non-unique: every selected solution solves (52)");
  }
  std::printf("%s\n", n_failures == 0 ? "PASS" : "FAIL");
  return n_failures == 0 ? 0 : 1;
}
