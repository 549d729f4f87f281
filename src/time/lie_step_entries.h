#ifndef stickslip_time_lie_step_entries_h
#define stickslip_time_lie_step_entries_h

#include <friction/closed_form_solver.h>

namespace stickslip
{
  /**
   * The arithmetic of one entry of the explicit Lie step, written once for
   * the loops that apply it: FrictionSubsteps and
   * ElasticSubsteps::explicit_leapfrog (on distributed and on replicated
   * vectors), and FusedLieStep, which fuses the same entries into two passes
   * around one product with A.
   */
  namespace LieStepEntries
  {
    /**
     * The friction sub-step (25)-(26) of an entry with a diagonal M by the
     * closed form (53): b = m w + @p tau_f (tau_f = tau f), then the new
     * @p w and @p lambda.
     */
    inline void
    closed_form_substep(const double m,
                        const double c,
                        const double tau,
                        const double tau_f,
                        double      &w,
                        double      &lambda)
    {
      ClosedFormSolver::solve_component(m * w + tau_f, m, c * tau, w, lambda);
    }

    /**
     * The first leapfrog sub-step (55) with alpha = 0:
     * X^1 = X + tau V - tau^2/2 M^{-1} A X (@p ax = (A X)_i).
     */
    inline double
    first_position(const double x,
                   const double v,
                   const double inverse_mass,
                   const double ax,
                   const double tau,
                   const double tau2)
    {
      return x + tau * v - 0.5 * tau2 * inverse_mass * ax;
    }

    /**
     * A leapfrog sub-step (56) with alpha = 0:
     * X^{q+1} = 2 X^q - X^{q-1} - tau^2 M^{-1} A X^q (@p ax = (A X^q)_i).
     */
    inline double
    next_position(const double x,
                  const double x_previous,
                  const double inverse_mass,
                  const double ax,
                  const double tau2)
    {
      return 2. * x - x_previous - tau2 * inverse_mass * ax;
    }

    /** (57): V = (X^{Q+1} - X^{Q-1}) / (2 tau), @p inverse_two_tau = 0.5/tau.
     */
    inline double
    velocity(const double x_next,
             const double x_previous,
             const double inverse_two_tau)
    {
      return (x_next - x_previous) * inverse_two_tau;
    }
  } // namespace LieStepEntries
} // namespace stickslip

#endif
