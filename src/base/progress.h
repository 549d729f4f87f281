#ifndef stickslip_base_progress_h
#define stickslip_base_progress_h

#include <base/global.h>

#include <chrono>

namespace stickslip
{
  /**
   * One progress line on rank 0 (simulated time, per cent done, wall time,
   * estimated time left), at most every @p interval wall-clock seconds.
   */
  class ProgressReporter
  {
  public:
    ProgressReporter(const ConditionalOStream &pcout,
                     const double              start_time,
                     const double              end_time,
                     const double              interval_seconds,
                     const bool                quiet);

    /** Called every step; prints only when the interval has passed. */
    void
    update(const double time);

    /** Wall seconds since construction. */
    double
    elapsed() const;

  private:
    const ConditionalOStream                   &pcout;
    const double                                start_time;
    const double                                end_time;
    const double                                interval;
    const bool                                  quiet;
    const std::chrono::steady_clock::time_point wall_start;
    std::chrono::steady_clock::time_point       last_print;
  };
} // namespace stickslip

#endif
