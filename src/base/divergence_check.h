#ifndef stickslip_base_divergence_check_h
#define stickslip_base_divergence_check_h

#include <base/time_grid.h>

#include <cmath>
#include <string>

namespace stickslip
{
  /**
   * The divergence check after a time step, the same for every model: a
   * RunError when the size of the state, @p size (the largest |displacement|
   * plus the largest |velocity|, over the ranks), is not finite or above
   * @p limit (a runaway; @p limit_meaning says what the limit is, e.g.
   * "more than 1e12 times the initial data"; an infinite limit checks
   * finiteness only), naming the step, its time and size and the model's
   * @p likely_causes.
   */
  inline void
  check_divergence(const double       size,
                   const double       limit,
                   const TimeStep    &step,
                   const char        *limit_meaning,
                   const std::string &likely_causes);

  /** The RunError of check_divergence(). */
  [[noreturn]] void
  diverged(const double       size,
           const TimeStep    &step,
           const char        *limit_meaning,
           const std::string &likely_causes);



  inline void
  check_divergence(const double       size,
                   const double       limit,
                   const TimeStep    &step,
                   const char        *limit_meaning,
                   const std::string &likely_causes)
  {
    if (!(std::isfinite(size) && size <= limit))
      diverged(size, step, limit_meaning, likely_causes);
  }
} // namespace stickslip

#endif
