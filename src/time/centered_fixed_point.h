#ifndef stickslip_time_centered_fixed_point_h
#define stickslip_time_centered_fixed_point_h

#include <base/input_error.h>

#include <algorithm>

namespace stickslip
{
  /**
   * What the fixed point of the centered scheme (Glowinski & Kearsley 1995,
   * eqs. (1.12)-(1.15), regularized (1.19)) does at one node (CenteredSteps).
   */
  namespace CenteredFixedPoint
  {
    /**
     * The multiplier of (1.14) at a node of friction weight @p c (0 where
     * there is no friction), or (1.19) when @p keep = epsilon / (epsilon +
     * dt) > 0; @p gain = r / (2 dt).
     */
    inline double
    updated_multiplier(const double lambda,
                       const double c,
                       const double x_next,
                       const double x_previous,
                       const double lambda_previous,
                       const double gain,
                       const double keep)
    {
      if (c == 0)
        return 0;
      const double mu        = lambda + gain * c * (x_next - x_previous);
      const double projected = std::max(-1., std::min(1., mu));
      return (1. - keep) * projected + keep * lambda_previous;
    }

    /** The values a failure message names. */
    struct Failure
    {
      unsigned int iterations;
      double       time;
      double       dt;
      double       r;
      double       delta;
      double       tolerance;
      /** The stopping quantity of (1.15) at the last iteration. */
      double last_relative_change;
    };

    /**
     * The error of a step whose iteration did not meet (1.15) within
     * 'Centered scheme/Maximum iterations', with what the user can change.
     */
    RunError
    not_converged(const Failure &failure);
  } // namespace CenteredFixedPoint
} // namespace stickslip

#endif
