#ifndef stickslip_base_time_grid_h
#define stickslip_base_time_grid_h

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace stickslip
{
  /**
   * One step of a time grid: number @p index (1 for the first), from
   * @p time = t_n to @p next_time = t_{n+1} = t0 + (n+1) dt, both computed
   * from the grid (not next_time = time + size, which differs in the last
   * bit), with the nominal size @p size = dt of the operators.
   */
  struct TimeStep
  {
    unsigned int index;
    double       time;
    double       next_time;
    double       size;

    /**
     * The time of sub-step @p k of @p n equal sub-steps of [time,
     * next_time]: exactly @p time for k = 0 and exactly @p next_time for
     * k = n, so that data switching at a grid time (a piecewise forcing
     * "t < 2.2 ? 0 : 1") are read from the right piece at the step's end;
     * t_n + n (dt/n) can land one ulp before t_{n+1}. k > n extrapolates
     * (an elastic step's X^{Q+1}). 64-bit counts: the adaptive substeps
     * number the grid step in units of dt/2^40 (a 32-bit n would wrap to 0
     * from 2^32 on and put the substeps at t = inf).
     */
    double
    substep_time(const std::uint64_t k, const std::uint64_t n) const
    {
      if (k == 0)
        return time;
      if (k == n)
        return next_time;
      // k and n are exact in a double up to 2^53.
      return time + static_cast<double>(k) *
                      ((next_time - time) / static_cast<double>(n));
    }

    /** Sub-interval @p k (0-based) of @p n equal parts, as a step of its own.
     */
    TimeStep
    part(const std::uint64_t k, const std::uint64_t n) const
    {
      return {index,
              substep_time(k, n),
              substep_time(k + 1, n),
              size / static_cast<double>(n)};
    }
  };



  /**
   * The time grid of a run: n_steps steps of size dt from t0 (the run
   * loop's; a study builds it from its Time subsection with
   * Parameters::Time::grid(), the slab under its CFL rule).
   */
  struct TimeGrid
  {
    double       t0;
    double       dt;
    unsigned int n_steps;

    /** t_n = t0 + n dt, computed (never accumulated). */
    double
    time(const unsigned int n) const
    {
      return t0 + n * dt;
    }

    /** Step number @p n + 1, from t_n to t_{n+1}. */
    TimeStep
    step(const unsigned int n) const
    {
      return {n + 1, time(n), time(n + 1), dt};
    }
  };



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
