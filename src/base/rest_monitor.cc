#include <base/expressions.h>
#include <base/rest_monitor.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** @p part of @p whole, readable: "51.1%", "1.6e-04 of". */
    std::string
    share(const double part, const double whole)
    {
      const double ratio = whole > 0 ? part / whole : 0.;
      char         text[32];
      if (ratio >= 0.01)
        std::snprintf(text, sizeof(text), "%.3g%% of", 100 * ratio);
      else if (ratio > 0)
        std::snprintf(text, sizeof(text), "%.1e of", ratio);
      else
        std::snprintf(text, sizeof(text), "0 of");
      return text;
    }

    /** A number with 6 significant digits, as the energies. */
    std::string
    short_number(const double value)
    {
      std::ostringstream out;
      out.precision(6);
      out << value;
      return out.str();
    }
  } // namespace



  RestMonitor::RestMonitor(const std::string &node_name)
    : node_name(node_name)
  {}



  void
  RestMonitor::update(Stillness   &state,
                      const double t,
                      const bool   still,
                      const double kinetic,
                      const double speed)
  {
    if (still && state.still == 0)
      state.since = t;
    if (!still)
      {
        state.moved         = 1;
        state.moved_at      = t;
        state.moved_kinetic = kinetic;
        state.moved_speed   = speed;
      }
    state.still = still ? 1 : 0;
  }



  void
  RestMonitor::record(const Row &row)
  {
    if (!any_row)
      first_time = first_step_time = row.t;
    else if (first_step_time == first_time)
      first_step_time = row.t;
    any_row             = true;
    max_energy          = std::max(max_energy, row.kinetic + row.elastic);
    const bool massless = !std::isnan(row.massless_speed);
    if (massless)
      {
        has_massless = 1;
        max_speed    = std::max(max_speed, row.massless_speed);
      }
    const bool still =
      row.kinetic <= energy_fraction * max_energy &&
      (!massless || row.massless_speed <= speed_fraction * max_speed);
    update(
      system, row.t, still, row.kinetic, massless ? row.massless_speed : 0.);
    const bool stuck = row.stick_fraction == 1.;
    if (stuck && all_stuck == 0)
      stuck_since = row.t;
    all_stuck       = stuck ? 1 : 0;
    last_time       = row.t;
    last_kinetic    = row.kinetic;
    last_elastic    = row.elastic;
    last_dissipated = row.dissipated;
    last_stick      = row.stick_fraction;
  }



  void
  RestMonitor::record_unknowns(const std::vector<double> &velocity,
                               const std::vector<double> &mass)
  {
    const std::size_t n = velocity.size();
    if (unknown_still.size() != n)
      {
        unknown_still.assign(n, 0.);
        unknown_since.assign(n, last_time);
      }
    unknown_velocity = velocity;
    unknown_mass     = mass;
    for (std::size_t i = 0; i < n; ++i)
      {
        const double v = std::abs(velocity[i]);
        const bool   still =
          mass[i] > 0 ? 0.5 * mass[i] * v * v <= energy_fraction * max_energy :
                          v <= speed_fraction * max_speed;
        if (still && unknown_still[i] == 0)
          unknown_since[i] = last_time;
        unknown_still[i] = still ? 1 : 0;
      }
  }



  void
  RestMonitor::register_stillness(Stillness &state, CheckpointArchive &archive)
  {
    for (double *value : {&state.still,
                          &state.since,
                          &state.moved,
                          &state.moved_at,
                          &state.moved_kinetic,
                          &state.moved_speed})
      archive.add(*value);
  }



  void
  RestMonitor::register_state(CheckpointArchive &archive)
  {
    archive.add(any_row);
    for (double *value : {&first_time,
                          &first_step_time,
                          &last_time,
                          &last_kinetic,
                          &last_elastic,
                          &last_dissipated,
                          &last_stick,
                          &max_energy,
                          &max_speed,
                          &has_massless,
                          &all_stuck,
                          &stuck_since})
      archive.add(*value);
    register_stillness(system, archive);
    for (std::vector<double> *values :
         {&unknown_still, &unknown_since, &unknown_velocity, &unknown_mass})
      archive.add(*values);
  }



  bool
  RestMonitor::holds(const Stillness &state) const
  {
    // Rounding of the output times must not decide (1e-9 of the run).
    const double run = last_time - first_time;
    return state.still != 0 &&
           last_time - state.since >= (hold_fraction - 1e-9) * run;
  }



  std::string
  RestMonitor::verdict() const
  {
    const std::string energy =
      "the run's largest energy (kinetic + elastic), " +
      short_number(max_energy);
    // The speeds of unknowns without mass, at an output and in the rule.
    const auto speeds = [&](const double speed) {
      return has_massless == 0 ?
               std::string() :
               ", and the unknowns without mass moved at " +
                 share(speed, max_speed) + " their largest speed, " +
                 short_number(max_speed);
    };
    std::ostringstream still;
    still << "the kinetic energy is at most " << energy_fraction << " of "
          << energy;
    if (has_massless != 0)
      still << ", the speeds of the unknowns without mass at most "
            << speed_fraction << " of their largest";
    const double run     = last_time - first_time;
    const auto   percent = [&](const double duration) {
      char text[32];
      std::snprintf(text,
                    sizeof(text),
                    "%.3g%%",
                    run > 0 ? 100 * duration / run : 100.);
      return std::string(text);
    };

    std::ostringstream out;
    if (holds(system))
      out << "  at rest since t = " << short_number(system.since)
          << " (the last " << percent(last_time - system.since)
          << " of the run): at every output from then on " << still.str();
    else if (system.still != 0)
      out << "  still moving: still only since t = "
          << short_number(system.since) << ", "
          << percent(last_time - system.since)
          << " of the run, and rest must last its final " << 100 * hold_fraction
          << "% (still: " << still.str()
          << "); at t = " << short_number(system.moved_at)
          << " the kinetic energy was "
          << share(system.moved_kinetic, max_energy) << " that energy"
          << speeds(system.moved_speed);
    else
      out << "  still moving at t = " << short_number(last_time)
          << ": the kinetic energy is " << share(last_kinetic, max_energy)
          << " " << energy << speeds(system.moved_speed)
          << " (at rest: " << still.str() << ", at every output of the run's "
          << "final " << 100 * hold_fraction << "%)";
    return out.str();
  }



  std::string
  RestMonitor::unknowns_line() const
  {
    std::ostringstream out;
    out << "  unknowns:";
    for (std::size_t i = 0; i < unknown_still.size(); ++i)
      {
        const std::string name = std::to_string(i + 1);
        out << (i == 0 ? " x" : "; x") << name;
        Stillness state;
        state.still = unknown_still[i];
        state.since = unknown_since[i];
        if (holds(state))
          out << " at rest since t = " << short_number(unknown_since[i]);
        else if (unknown_still[i] != 0)
          out << " still only since t = " << short_number(unknown_since[i])
              << " (too short for rest)";
        else
          out << " moving at t = " << short_number(last_time) << " (v" << name
              << " = " << short_number(unknown_velocity[i]) << ")";
      }
    return out.str();
  }



  std::string
  RestMonitor::summary() const
  {
    if (!any_row)
      return "";
    std::ostringstream out;
    out << "  at t = " << short_number(last_time) << ": kinetic energy "
        << short_number(last_kinetic) << ", elastic energy "
        << short_number(last_elastic) << ", dissipated by friction "
        << short_number(last_dissipated) << '\n'
        << verdict() << '\n';
    if (std::isnan(last_stick))
      out << "  friction: none (no " << node_name << ")";
    else if (all_stuck != 0 && stuck_since <= first_step_time)
      out << "  friction: every " << node_name
          << " stuck in every step: nothing slides";
    else if (all_stuck != 0)
      out << "  friction: every " << node_name
          << " stuck since t = " << short_number(stuck_since);
    else
      {
        char text[32];
        std::snprintf(text, sizeof(text), "%.3g%%", 100 * last_stick);
        out << "  friction: " << text << " of the " << node_name
            << "s stuck at t = " << short_number(last_time);
      }
    if (!unknown_still.empty())
      out << '\n' << unknowns_line();
    return out.str();
  }
} // namespace stickslip
