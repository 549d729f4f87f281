#ifndef stickslip_time_fused_lie_step_h
#define stickslip_time_fused_lie_step_h

#include <time/time_integrator.h>

namespace stickslip
{
  /**
   * The Lie step of Glowinski et al. 2006, eqs. (9)-(13) in its cheapest case,
   * P = Q = 1, alpha = 0, a lumped M, the closed-form friction step (53) and no
   * prescribed values, as two fused passes around one product with A.
   * With W the velocity after the friction step and X^1 = X + dt W -
   * dt^2/2 M^{-1} A X the new displacement, the step is
   *
   *   pass A: W and lambda from (53), the multiplier (37), the friction
   *           work and the stick flag; X^1 (A X known);
   *   product: A X^1;
   *   pass B: V^{n+1} = (X^2 - X)/(2 dt), X^2 = 2 X^1 - X - dt^2 M^{-1} A X^1,
   *           and X^{n+1} = X^1,
   *
   * the same arithmetic, in the same order, as FrictionSubsteps followed by
   * ElasticSubsteps::explicit_leapfrog (the entries of LieStepEntries, written
   * once for the three), so results agree to the last bit.
   * W never reaches memory. A X^{n+1} is kept for the next step, whose
   * pass A checks bit by bit that the displacement it is given is still the
   * X^1 written (a model's complete_state may change it); where it is not,
   * it recomputes A X and repeats pass A. 1/m is computed in the passes
   * (bit-identical to a stored 1/m, one vector less to read).
   */
  class FusedLieStep
  {
  public:
    /** Whether the step of @p run for @p system is the case above. */
    static bool
    applies(const Parameters::Numerics &run,
            const FrictionSystem       &system,
            const bool                  closed_form_solver);

    FusedLieStep(const FrictionSystem &system, const double dt);

    void
    advance(const TimeStep       &step,
            FrictionState        &state,
            IntegratorStatistics &statistics);

  private:
    /**
     * Pass A into X^1 and @p state's multiplier and stick; the friction work
     * into @p work. With @p verify, also compares the displacement with the
     * X^1 kept from the previous step: false if they differ somewhere
     * (then product_of_x is not A X, and the pass must be repeated).
     */
    template <bool with_force>
    bool
    pass_a(FrictionState &state, const bool verify, double &work);

    /** Pass B: the new velocity and displacement of @p state. */
    void
    pass_b(FrictionState &state);

    const FrictionSystem &system;
    const double          dt;
    /** The force f (+ C gamma(W) + g) unless it is identically zero. */
    const bool        with_force;
    DistributedVector force;
    /** X^1, kept after the step: the displacement product_of_x belongs to. */
    DistributedVector new_displacement;
    /** A X for the displacement X of the next pass A. */
    DistributedVector product_of_x;
    /** Whether product_of_x and new_displacement come from a previous step. */
    bool have_product;
  };
} // namespace stickslip

#endif
