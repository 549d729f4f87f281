#include <friction/isotropic_inclusion.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace stickslip
{
  namespace
  {
    /**
     * Root of h(sigma) = a sigma + S mu(sigma) - R in [low, high], where
     * h(low) and h(high) have opposite signs (or one is zero): Newton
     * steps kept inside the shrinking bracket, bisection when a step
     * leaves it. Converges to machine precision.
     */
    template <typename Coefficient>
    double
    bracketed_root(const double       a,
                   const double       pressure,
                   const double       target,
                   const Coefficient &mu,
                   double             low,
                   double             high,
                   unsigned int      &iterations)
    {
      const auto h = [&](const double sigma) {
        return a * sigma + pressure * mu.value(sigma) - target;
      };
      const double h_low = h(low);
      if (h_low == 0)
        return low;
      const double h_high = h(high);
      if (h_high == 0)
        return high;
      const bool   increasing = h_low < 0;
      double       sigma      = 0.5 * (low + high);
      const double tolerance  = 4 * std::numeric_limits<double>::epsilon();
      for (unsigned int k = 0; k < 200; ++k)
        {
          ++iterations;
          const double value = h(sigma);
          if (std::abs(value) <= tolerance * target)
            return sigma;
          if ((value < 0) == increasing)
            low = sigma;
          else
            high = sigma;
          const double slope = a + pressure * mu.derivative(sigma);
          double       next  = slope != 0 ? sigma - value / slope : low;
          if (!(next > std::min(low, high) && next < std::max(low, high)))
            next = 0.5 * (low + high);
          if (std::abs(next - sigma) <= tolerance * std::abs(sigma) ||
              std::abs(high - low) <= tolerance * std::abs(high))
            return next;
          sigma = next;
        }
      return sigma;
    }



    /**
     * The slip solutions sigma > 0 of phi(sigma) = a sigma + S mu(sigma) =
     * |r| in the bracket [(|r| - S mu_max)^+/a, (|r| - S mu_min)/a] of
     * doc/theory.md §4.7: one safeguarded Newton solve when phi is strictly
     * increasing (a > S L_mu), otherwise a scan of the bracket at
     * @p scan_points points with every sign change refined.
     */
    template <typename Coefficient>
    std::vector<double>
    slip_roots(const double       a,
               const double       pressure,
               const double       norm_r,
               const Coefficient &mu,
               const bool         stick_admissible,
               const unsigned int scan_points,
               unsigned int      &iterations)
    {
      // Widened by a few ulps: phi(high) - |r| may round to a value just
      // below 0 when mu is flat there (fig2 beyond v_c), hiding the root.
      const double low =
        std::max(norm_r - pressure * mu.maximum(), 0.) / a * (1 - 1e-12);
      const double high =
        (norm_r - pressure * mu.minimum()) / a * (1 + 1e-12) + 1e-300;
      std::vector<double> roots;
      if (a > pressure * mu.lipschitz_constant())
        // phi strictly increasing: exactly one root (no stick here).
        roots.push_back(
          bracketed_root(a, pressure, norm_r, mu, low, high, iterations));
      else if (high > 0)
        {
          // Possibly several roots: sample, then refine each sign change.
          const auto h = [&](const double sigma) {
            return a * sigma + pressure * mu.value(sigma) - norm_r;
          };
          double previous_sigma = low, previous_h = h(low);
          if (previous_h == 0 && low > 0)
            roots.push_back(low);
          for (unsigned int j = 1; j <= scan_points; ++j)
            {
              const double sigma = low + (high - low) * j / scan_points;
              const double value = h(sigma);
              if (value == 0)
                {
                  if (sigma > 0)
                    roots.push_back(sigma);
                }
              else if (previous_h != 0 && (value < 0) != (previous_h < 0))
                roots.push_back(bracketed_root(
                  a, pressure, norm_r, mu, previous_sigma, sigma, iterations));
              previous_sigma = sigma;
              previous_h     = value;
            }
        }
      if (roots.empty() && !stick_admissible)
        // Cannot happen in exact arithmetic (phi(low) <= |r| <= phi(high));
        // guard against rounding at the ends of the bracket.
        roots.push_back(
          bracketed_root(a, pressure, norm_r, mu, low, high, iterations));
      // Keep positive roots only (sigma = 0 is the stick solution).
      roots.erase(std::remove_if(roots.begin(),
                                 roots.end(),
                                 [](const double s) { return !(s > 0); }),
                  roots.end());
      return roots;
    }
  } // namespace



  template <typename Coefficient>
  InclusionSolution
  solve_isotropic_inclusion(const double       a,
                            const double       pressure,
                            const Tangential  &r,
                            const Tangential  &previous_slip,
                            const Coefficient &mu,
                            const unsigned int scan_points)
  {
    InclusionSolution solution{{{0., 0.}}, true, 1, 0, 0.};
    const double      norm_r = std::hypot(r[0], r[1]);
    if (!std::isfinite(a) || !std::isfinite(pressure) || !std::isfinite(norm_r))
      {
        // A NaN or an infinity (a diverged run, a caller's bug) makes the
        // bracket NaN: bracketed_root() would spend all its iterations and
        // return a NaN as if it were a solution. Say so instead, at once.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {{{nan, nan}}, false, 0, 0, nan};
      }
    const bool stick_admissible = norm_r <= pressure * mu.value(0.);
    if (pressure == 0)
      {
        // Separation: free motion of the surface layer, s = r/a.
        solution.slip  = {{r[0] / a, r[1] / a}};
        solution.stick = norm_r == 0;
        return solution;
      }
    if (!stick_admissible || a <= pressure * mu.lipschitz_constant())
      {
        const std::vector<double> roots = slip_roots(a,
                                                     pressure,
                                                     norm_r,
                                                     mu,
                                                     stick_admissible,
                                                     scan_points,
                                                     solution.iterations);
        solution.n_solutions = roots.size() + (stick_admissible ? 1 : 0);
        // Selection: the solution closest to the previous slip vector.
        double best_distance =
          stick_admissible ? std::hypot(previous_slip[0], previous_slip[1]) :
                             std::numeric_limits<double>::infinity();
        for (const double sigma : roots)
          {
            const Tangential candidate = {
              {sigma * r[0] / norm_r, sigma * r[1] / norm_r}};
            const double distance = std::hypot(candidate[0] - previous_slip[0],
                                               candidate[1] - previous_slip[1]);
            if (distance < best_distance)
              {
                best_distance  = distance;
                solution.slip  = candidate;
                solution.stick = false;
                solution.residual =
                  std::abs(a * sigma + pressure * mu.value(sigma) - norm_r) /
                  norm_r;
              }
          }
      }
    return solution;
  }



  template InclusionSolution
  solve_isotropic_inclusion(const double,
                            const double,
                            const Tangential &,
                            const Tangential &,
                            const FrictionCoefficient &,
                            const unsigned int);
  template InclusionSolution
  solve_isotropic_inclusion(const double,
                            const double,
                            const Tangential &,
                            const Tangential &,
                            const StepFriction &,
                            const unsigned int);



  bool
  InclusionSolution::converged() const
  {
    // The roots are refined to machine precision; 1e-6 only flags a
    // bracketed solve that ran out of iterations or a non-finite slip.
    return std::isfinite(slip[0]) && std::isfinite(slip[1]) &&
           std::isfinite(residual) && residual <= 1e-6;
  }
} // namespace stickslip
