#include <base/progress.h>

#include <cstdio>

namespace stickslip
{
  ProgressReporter::ProgressReporter(const ConditionalOStream &pcout,
                                     const double              start_time,
                                     const double              end_time,
                                     const double              interval_seconds,
                                     const bool                quiet)
    : pcout(pcout)
    , start_time(start_time)
    , end_time(end_time)
    , interval(interval_seconds)
    , quiet(quiet)
    , wall_start(std::chrono::steady_clock::now())
    , last_print(wall_start)
  {}



  void
  ProgressReporter::update(const double time)
  {
    if (quiet)
      return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_print).count() < interval)
      return;
    last_print            = now;
    const double wall     = elapsed();
    const double fraction = (time - start_time) / (end_time - start_time);
    const double left     = fraction > 0 ? wall * (1 - fraction) / fraction : 0;
    char         line[160];
    std::snprintf(line,
                  sizeof(line),
                  "  t = %-12.6g %5.1f%% done, wall %.1f s, about %.1f s left",
                  time,
                  100 * fraction,
                  wall,
                  left);
    pcout << line << std::endl;
  }



  double
  ProgressReporter::elapsed() const
  {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         wall_start)
      .count();
  }
} // namespace stickslip
