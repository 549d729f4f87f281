#ifndef stickslip_models_slab_friction_inclusion_h
#define stickslip_models_slab_friction_inclusion_h

#include <models/slab/friction_coefficient.h>

#include <array>

namespace stickslip
{
  namespace Slab
  {
    /** A vector of the tangential plane (x1, x2). */
    using Tangential = std::array<double, 2>;

    /** The solution of one friction inclusion, with its diagnostics. */
    struct InclusionSolution
    {
      Tangential   slip;        ///< s; exactly (0, 0) when stuck
      bool         stick;       ///< s = 0 was selected
      unsigned int n_solutions; ///< solutions found (stick counts as one)
      unsigned int iterations;  ///< Newton/bisection iterations spent
    };

    /**
     * Solve the isotropic friction inclusion of the boundary scheme,
     * seed 003 (52) as rewritten in MODELS.md §4.7,
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
     * to @p previous_slip is selected (MODELS.md §4.7): a stuck boundary stays
     * stuck while it may, a sliding one continues on the branch nearest its
     * slip velocity. This is the discrete form of the continuity of the
     * (unique, absolutely continuous) solution of the mass-perturbed problem
     * (P3) and of the perfect delay criterion (28).
     */
    InclusionSolution
    solve_friction_inclusion(const double               a,
                             const double               pressure,
                             const Tangential &         r,
                             const Tangential &         previous_slip,
                             const FrictionCoefficient &mu,
                             const unsigned int         scan_points);
  } // namespace Slab
} // namespace stickslip

#endif
