#include <time/centered_fixed_point.h>

#include <sstream>

namespace stickslip
{
  namespace CenteredFixedPoint
  {
    RunError
    not_converged(const Failure &failure)
    {
      std::ostringstream message;
      message
        << "the fixed-point iteration of Glowinski & Kearsley 1995, eqs. (1.12)-(1.15) "
           "did not converge in "
        << failure.iterations << " iterations at t = " << failure.time
        << " (dt = " << failure.dt << ", r = " << failure.r
        << ", delta = " << failure.delta << ", eta = " << failure.tolerance
        << ", last relative change " << failure.last_relative_change
        << "). Raise 'Centered scheme/Maximum iterations', use "
           "'Centered scheme/Regularization = true', or 'Multiplier "
           "solver = friction solver'";
      return RunError(message.str());
    }
  } // namespace CenteredFixedPoint
} // namespace stickslip
