#ifndef stickslip_friction_isotropic_inclusion_h
#define stickslip_friction_isotropic_inclusion_h

#include <friction/friction_coefficient.h>
#include <friction/friction_law.h>

#include <array>

namespace stickslip
{
  /** A vector of the tangential plane (x1, x2). */
  using Tangential = std::array<double, 2>;

  /** The solution of one friction inclusion, with its diagnostics. */
  struct InclusionSolution
  {
    Tangential slip;  ///< s; exactly (0, 0) when stuck
    bool       stick; ///< s = 0 was selected
    /**
     * Solutions found (stick counts as one); 0: the data were not finite
     * (a, S or |r| NaN or infinite), nothing was solved and s is NaN.
     */
    unsigned int n_solutions;
    unsigned int iterations; ///< Newton/bisection iterations spent
    /**
     * |a sigma + S mu(sigma) - |r|| / |r| of the selected slip speed (0 for
     * stick or separation; NaN when nothing was solved): the solve
     * converged when it is finite and at most 1e-6 (see converged()).
     */
    double residual = 0;

    /** Whether the slip is finite and solves the inclusion. */
    bool
    converged() const;
  };

  /**
   * Solve the isotropic friction inclusion of the boundary scheme,
   * Renard 2001, eq. (52) as rewritten in doc/theory.md §4.7,
   *
   *     a s + S mu(|s|) Dir(s) \ni r,   a > 0, S >= 0,  s, r in R^2,
   *
   * exactly: s = 0 (stick) solves it iff |r| <= S mu(0); a slip solution
   * is s = sigma r/|r| with sigma > 0 a root of the scalar equation
   * phi(sigma) = a sigma + S mu(sigma) = |r| in the bracket
   * [(|r| - S mu_max)^+/a, (|r| - S mu_min)/a].
   *
   * If a > S L_mu, phi is strictly increasing and the solution is unique:
   * stick test first, otherwise a safeguarded Newton iteration to machine
   * precision. Otherwise (decreasing mu and a large step) the bracket is
   * sampled at @p scan_points points, every sign change is refined, and
   * among all solutions (stick included when admissible) the one closest
   * to @p previous_slip is selected (doc/theory.md §4.7): a stuck boundary
   * stays stuck while it may, a sliding one continues on the branch nearest its
   * slip velocity. This is the discrete form of the continuity of the
   * (unique, absolutely continuous) solution of the mass-perturbed problem
   * (P3) and of the perfect delay criterion (28).
   *
   * Non-finite data (a NaN or infinite a, S or r) are returned at once with
   * n_solutions = 0 and a NaN slip rather than iterated on: the caller sees
   * the failure instead of a NaN that looks like a solution.
   *
   * @p mu is a FrictionCoefficient (mu(|s|)) or the StepFriction of a law
   * with a state (mu~(|s|), the law with the state consistent with the
   * step's slip rate, doc/theory.md §8.3); its lipschitz_constant() bounds
   * the decrease of mu, which is all that uniqueness needs.
   */
  template <typename Coefficient>
  InclusionSolution
  solve_isotropic_inclusion(const double       a,
                            const double       pressure,
                            const Tangential  &r,
                            const Tangential  &previous_slip,
                            const Coefficient &mu,
                            const unsigned int scan_points);
} // namespace stickslip

#endif
