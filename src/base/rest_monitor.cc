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



  RestMonitor::RestMonitor()
    : RestMonitor(FrictionNames(), true)
  {}



  RestMonitor::RestMonitor(const FrictionNames &names, const bool inertia)
    : names(names)
    , inertia(inertia ? 1 : 0)
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
    last_contact    = row.contact_fraction;
    if (!row.centre_velocity.empty())
      record_centre(row.t, row.centre_velocity);
  }



  void
  RestMonitor::record_centre(const double               t,
                             const std::vector<double> &velocity)
  {
    double speed = 0;
    for (const double component : velocity)
      speed += component * component;
    speed = std::sqrt(speed);
    if (speed > centre_speed)
      {
        // A new largest velocity: its direction is the motion's, and a stop
        // must come after it.
        centre_speed = speed;
        centre_direction.resize(velocity.size());
        for (std::size_t d = 0; d < velocity.size(); ++d)
          centre_direction[d] = velocity[d] / speed;
        centre_stop       = -1;
        centre_after      = 0;
        centre_last_t     = t;
        centre_last_along = speed;
        return;
      }
    if (centre_speed == 0)
      return;
    double along = 0;
    for (std::size_t d = 0; d < velocity.size(); ++d)
      along += velocity[d] * centre_direction[d];
    if (centre_stop < 0 && along <= 0)
      // Linear between the rows: the stop of a block decelerated at a
      // constant rate is exact, and the rows' interval does not decide it.
      centre_stop = centre_last_t + (t - centre_last_t) * centre_last_along /
                                      (centre_last_along - along);
    else if (centre_stop >= 0)
      centre_after = std::max(centre_after, speed);
    centre_last_t     = t;
    centre_last_along = along;
  }



  bool
  RestMonitor::centre_stopped() const
  {
    return centre_speed > 0 && centre_stop >= 0 &&
           centre_after <= centre_fraction * centre_speed;
  }



  void
  RestMonitor::record_unknowns(const std::vector<double> &velocity,
                               const std::vector<double> &mass,
                               const std::vector<double> &stuck)
  {
    const std::size_t n = velocity.size();
    if (unknown_still.size() != n)
      {
        unknown_still.assign(n, 0.);
        unknown_since.assign(n, last_time);
      }
    unknown_velocity = velocity;
    unknown_mass     = mass;
    unknown_stuck    = stuck;
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
                          &last_contact,
                          &max_energy,
                          &max_speed,
                          &has_massless,
                          &all_stuck,
                          &stuck_since,
                          &centre_speed,
                          &centre_last_t,
                          &centre_last_along,
                          &centre_stop,
                          &centre_after})
      archive.add(*value);
    register_stillness(system, archive);
    for (std::vector<double> *values : {&unknown_still,
                                        &unknown_since,
                                        &unknown_velocity,
                                        &unknown_mass,
                                        &unknown_stuck,
                                        &centre_direction})
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
    const std::string rule = " (at rest: " + still.str() +
                             ", at every output of the run's final " +
                             short_number(100 * hold_fraction) + "%)";

    std::ostringstream out;
    if (holds(system))
      out << "  at rest since t = " << short_number(system.since)
          << " (the last " << percent(last_time - system.since)
          << " of the run): at every output from then on " << still.str();
    else if (centre_stopped())
      out << "  vibrating at t = " << short_number(last_time)
          << ", not at rest: the centre of mass stopped at t = "
          << short_number(centre_stop) << " (its velocity, at most "
          << short_number(centre_speed)
          << " m/s, first fell to 0 there; its speed since, at most "
          << share(centre_after, centre_speed)
          << " that, is the sway of the body about a rest position); the "
          << "elastic vibration left has a kinetic energy of "
          << share(last_kinetic, max_energy) << " " << energy << rule;
    else if (system.still != 0)
      out << "  still moving: at t = " << short_number(system.moved_at)
          << " the kinetic energy was "
          << share(system.moved_kinetic, max_energy) << " " << energy
          << speeds(system.moved_speed)
          << "; still only since t = " << short_number(system.since) << ", "
          << percent(last_time - system.since) << " of the run" << rule;
    else
      out << "  still moving at t = " << short_number(last_time)
          << ": the kinetic energy is " << share(last_kinetic, max_energy)
          << " " << energy << speeds(system.moved_speed) << rule;
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
        // At rest by the rule, yet not held by friction: the creep of a
        // split scheme (doc/at_rest.md).
        if (unknown_still[i] != 0 && i < unknown_stuck.size() &&
            unknown_stuck[i] == 0)
          out << " (not stuck: friction does not hold it exactly, v" << name
              << " = " << short_number(unknown_velocity[i])
              << ", the creep of a split scheme, doc/at_rest.md)";
      }
    return out.str();
  }



  std::string
  RestMonitor::energy_line() const
  {
    std::ostringstream out;
    out << "  at t = " << short_number(last_time) << ": ";
    if (inertia != 0)
      out << "kinetic energy " << short_number(last_kinetic) << ", ";
    out << "elastic energy " << short_number(last_elastic)
        << ", dissipated by friction " << short_number(last_dissipated);
    if (inertia == 0)
      out << " (quasi-static: no inertia, no kinetic energy; each load step "
             "is an equilibrium)";
    return out.str();
  }



  std::string
  RestMonitor::friction_line() const
  {
    const std::string at = " at t = " + short_number(last_time);
    if (std::isnan(last_stick))
      return "  friction: none (" + names.none + ")";
    if (last_contact == 0)
      return "  friction: nothing in contact" + at;
    if (all_stuck != 0 && stuck_since <= first_step_time)
      return "  friction: every " + names.all +
             " stuck in every step: nothing slides";
    if (all_stuck != 0)
      return "  friction: every " + names.all +
             " stuck since t = " + short_number(stuck_since);
    // A few unknowns: counted, not a percentage.
    std::size_t n_frictional = 0, n_stuck = 0;
    for (const double flag : unknown_stuck)
      if (!std::isnan(flag))
        {
          ++n_frictional;
          n_stuck += flag != 0 ? 1 : 0;
        }
    if (n_frictional > 0)
      return "  friction: " + std::to_string(n_stuck) + " of the " +
             std::to_string(n_frictional) + " " + names.all + "s stuck" + at;
    char text[32];
    std::snprintf(text, sizeof(text), "%.3g%%", 100 * last_stick);
    return "  friction: " + std::string(text) + " " + names.share + " stuck" +
           at;
  }



  std::string
  RestMonitor::summary() const
  {
    if (!any_row)
      return "";
    std::ostringstream out;
    out << energy_line() << '\n';
    if (inertia != 0)
      out << verdict() << '\n';
    out << friction_line();
    if (!unknown_still.empty())
      out << '\n' << unknowns_line();
    return out.str();
  }
} // namespace stickslip
