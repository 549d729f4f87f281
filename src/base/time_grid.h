#ifndef stickslip_base_time_grid_h
#define stickslip_base_time_grid_h

#include <algorithm>
#include <cmath>

namespace stickslip
{
  /**
   * The first t0 + k interval after @p t (k integer), for output and
   * checkpoint times. Computed, not accumulated: an interval far below dt
   * (or below the resolution of t) would never move an accumulated sum.
   */
  inline double
  next_multiple(const double t0,
                const double interval,
                const double t,
                const double dt)
  {
    const double k = std::floor((t + 1e-9 * dt - t0) / interval) + 1;
    return std::max(t0 + k * interval, t + 1e-9 * dt);
  }
} // namespace stickslip

#endif
