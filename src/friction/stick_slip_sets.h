#ifndef stickslip_friction_stick_slip_sets_h
#define stickslip_friction_stick_slip_sets_h

#include <base/input_error.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>

namespace stickslip
{
  /**
   * The stick/slip sets of the semismooth Newton (primal-dual active set)
   * iteration for the friction step (38),
   *
   *   K W + tau C lambda = b,   lambda_i in Sgn(w_i) (c_i > 0),
   *   lambda_i = 0 (c_i = 0),
   *
   * written once on plain arrays of rows for its two drivers,
   * SemismoothNewtonSolver (the owned rows of distributed vectors) and
   * ReplicatedSemismoothNewton (all rows of a replicated system): the
   * initial sets, the masked system of the current sets, and the update of
   * the sets and of lambda from the residual r = b - K W, with the KKT
   * residual that measures how far W is from the solution.
   */
  namespace StickSlipSets
  {
    /** The state of a row. */
    enum class State : unsigned char
    {
      stick,
      slip_positive,
      slip_negative,
      free, ///< c_i = 0: never constrained
      fixed ///< w_i = 0, no multiplier
    };

    /**
     * At a degenerate point (|lambda_i| = 1 and w_i = 0, e.g. P5a at t = 0)
     * round-off alone would flip a component between stick and slip
     * forever; a small hysteresis keeps the decision.
     */
    constexpr double set_tolerance = 1e-10;

    /** Whether a row of this state is an unknown of the masked solves. */
    inline bool
    unstuck(const State state)
    {
      return state != State::stick && state != State::fixed;
    }

    /** The multiplier of a slipping row, 0 for the others. */
    inline double
    sign_of(const State state)
    {
      return state == State::slip_positive ? 1. :
             state == State::slip_negative ? -1. :
                                             0.;
    }

    /**
     * The state of a row from the warm-start multiplier @p start, its
     * weight @p c and whether it is @p fixed.
     */
    inline State
    initial_state(const bool fixed, const double c, const double start)
    {
      return fixed        ? State::fixed :
             !(c > 0)     ? State::free :
             start >= 1.  ? State::slip_positive :
             start <= -1. ? State::slip_negative :
                            State::stick;
    }

    /**
     * The set update of one row with c_i > 0 from mu_i = r_i/(tau c_i) and
     * @p scaled_w = k_ii w_i/(tau c_i): the complementarity function
     * lambda = P(lambda + rho_i c_i w_i), rho_i = k_ii/(tau c_i^2), with the
     * hysteresis set_tolerance.
     */
    inline State
    next_state(const State state, const double mu, const double scaled_w)
    {
      if (state == State::stick)
        return mu > 1. + set_tolerance  ? State::slip_positive :
               mu < -1. - set_tolerance ? State::slip_negative :
                                          State::stick;
      // Keep slipping unless the new velocity clearly points against the
      // multiplier; then stick first. Reversing straight to the opposite
      // slip would trust the diagonal scaling rho_i, which a non-diagonal M
      // (P5a) can defeat: + and - then alternate forever.
      const double sign = sign_of(state);
      const double z    = sign + scaled_w;
      return sign * z < 1. - set_tolerance ? State::stick : state;
    }

    /**
     * The KKT residual of (38) in multiplier units of one row with c_i > 0
     * in state @p state (mu, scaled_w as for next_state()):
     *   max(dist(mu_i, [-1, 1]), |l_i - P(l_i + k_ii w_i/(tau c_i))|),
     *   l_i = P(mu_i), P the projection on [-1, 1],
     * zero exactly at the solution. The part within the hysteresis of the
     * set update (stuck rows with |mu_i| <= 1 + set_tolerance, the
     * complementarity of slipping rows) is not counted: no CG accuracy
     * removes it.
     */
    inline double
    kkt_residual(const State state, const double mu, const double scaled_w)
    {
      const auto project = [](const double x) {
        return std::min(1., std::max(-1., x));
      };
      const double l               = project(mu);
      const double slack           = state == State::stick ? 0. : set_tolerance;
      const double outside         = state == State::stick ?
                                       std::max(0., std::abs(mu) - 1. - set_tolerance) :
                                       std::abs(mu - l);
      const double complementarity = std::abs(l - project(l + scaled_w));
      return std::max(outside, std::max(0., complementarity - slack));
    }

    /**
     * The masked system of the current sets: @p rhs_i = b_i - tau c_i
     * lambda_i on the unstuck rows (lambda_i = +-1 slipping, 0 free), 0 on
     * the others, and @p mask_i = 1 or 0 (any number type).
     */
    template <typename Mask>
    inline void
    set_up_masked_system(const std::size_t n,
                         const State      *states,
                         const double     *b,
                         const double     *c,
                         const double      tau,
                         double           *rhs,
                         Mask             *mask)
    {
      for (std::size_t k = 0; k < n; ++k)
        {
          const bool at_rest = !unstuck(states[k]);
          mask[k]            = at_rest ? 0 : 1;
          rhs[k] = at_rest ? 0. : b[k] - tau * c[k] * sign_of(states[k]);
        }
    }

    /**
     * One pass after a masked solve: r = b - K W (@p kw = K W, or nullptr
     * when W = 0), lambda on every row that is not fixed (from r on the
     * stuck rows), the new sets and, with @p with_kkt, the KKT residual at W
     * with the new sets (|r_i| @p inverse_thresholds_i on free rows, so that
     * they hold 1/(tau c_min) there). @p inverse_thresholds: 1/(tau c_i);
     * @p diagonal: k_ii. Returns the number of rows that changed set and
     * the KKT residual.
     */
    inline std::pair<unsigned int, double>
    update(const std::size_t n,
           State            *states,
           const double     *b,
           const double     *kw,
           const double     *diagonal,
           const double     *w,
           const double     *inverse_thresholds,
           double           *lambda,
           const bool        with_kkt)
    {
      unsigned int n_changed = 0;
      double       eta       = 0;
      for (std::size_t k = 0; k < n; ++k)
        {
          const State old_state = states[k];
          if (old_state == State::fixed)
            continue;
          const double r = kw == nullptr ? b[k] : b[k] - kw[k];
          if (old_state == State::free)
            {
              lambda[k] = 0;
              if (with_kkt)
                eta = std::max(eta, std::abs(r) * inverse_thresholds[k]);
              continue;
            }
          const double mu       = r * inverse_thresholds[k];
          const double scaled_w = diagonal[k] * w[k] * inverse_thresholds[k];
          const State  next     = next_state(old_state, mu, scaled_w);
          lambda[k]             = old_state == State::stick ?
                                    std::min(1., std::max(-1., mu)) :
                                    sign_of(old_state);
          n_changed += next != old_state;
          states[k] = next;
          if (with_kkt)
            eta = std::max(eta, kkt_residual(next, mu, scaled_w));
        }
      return {n_changed, eta};
    }


    /**
     * The error of an iteration whose sets did not settle within
     * 'Friction/Maximum iterations' = @p max_iterations: @p description
     * ("the ... solver") names who failed, @p last_changed is the number of
     * rows the last iteration moved, @p advice what to do.
     */
    RunError
    not_settled(const std::string &description,
                const unsigned int max_iterations,
                const unsigned int last_changed,
                const std::string &advice);
  } // namespace StickSlipSets
} // namespace stickslip

#endif
