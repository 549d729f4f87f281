#include <base/expressions.h>
#include <base/rest_monitor.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace stickslip
{
  void
  RestMonitor::record(const double t,
                      const double kinetic,
                      const double elastic,
                      const double dissipated,
                      const double stick_fraction)
  {
    max_kinetic          = std::max(max_kinetic, kinetic);
    const bool all_stuck = std::isnan(stick_fraction) || stick_fraction == 1.;
    const bool at_rest   = all_stuck && kinetic <= rest_fraction * max_kinetic;
    if (at_rest && !resting)
      rest_since = t;
    resting         = at_rest;
    any_row         = true;
    last_time       = t;
    last_kinetic    = kinetic;
    last_elastic    = elastic;
    last_dissipated = dissipated;
    last_stick      = stick_fraction;
  }



  void
  RestMonitor::register_state(CheckpointArchive &archive)
  {
    archive.add(any_row);
    archive.add(max_kinetic);
    archive.add(rest_since);
    archive.add(resting);
    for (double *value : {&last_time,
                          &last_kinetic,
                          &last_elastic,
                          &last_dissipated,
                          &last_stick})
      archive.add(*value);
  }



  std::string
  RestMonitor::summary() const
  {
    if (!any_row)
      return "";
    std::ostringstream out;
    out.precision(6);
    out << "  at t = " << last_time << ": kinetic energy " << last_kinetic
        << ", elastic energy " << last_elastic << ", dissipated by friction "
        << last_dissipated << '\n';
    out << "  stick fraction "
        << (std::isnan(last_stick) ? std::string("- (no friction)") :
                                     format_number(last_stick));
    if (resting)
      out << "; came to rest at t = " << rest_since
          << " (all frictional nodes stuck, kinetic energy <= " << rest_fraction
          << " x its maximum " << max_kinetic << " from then on)";
    else if (!std::isnan(last_stick) && last_stick < 1.)
      out << "; still moving at the final time (not every frictional node "
             "is stuck)";
    else
      out << "; still moving at the final time (kinetic energy "
          << last_kinetic / std::max(max_kinetic, 1e-300) << " x its maximum "
          << max_kinetic << ")";
    return out.str();
  }
} // namespace stickslip
