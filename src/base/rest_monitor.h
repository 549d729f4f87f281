#ifndef stickslip_base_rest_monitor_h
#define stickslip_base_rest_monitor_h

#include <base/checkpoint_archive.h>

#include <limits>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The physical summary at the end of a run (doc/at_rest.md), fed at
   * every row of history.csv. It says where the run ended (kinetic and
   * elastic energy, the friction work), whether it is at rest, what
   * friction holds, and, for systems of a few unknowns, which of them rest.
   *
   * The rule, checked at every output and stated on the screen:
   * - an output is still when its kinetic energy is at most
   *   energy_fraction = 1e-6 of the largest energy (kinetic + elastic) of
   *   the run so far, and, where unknowns carry no mass (the chain's
   *   quasi-static masses, whose kinetic energy is 0 however fast they
   *   move), their speeds are at most speed_fraction = 1e-3 of the largest
   *   such speed so far (1e-6 of an energy is 1e-3 of a velocity);
   * - the run is at rest when every output of at least the last
   *   hold_fraction = 5% of the run is still; "at rest since t" is the
   *   first of those outputs. A still output alone is not rest: an
   *   oscillation passes through zero velocity twice a period (for about
   *   3e-4 of its period at this threshold), the frictionless string at
   *   t = 4 for one.
   * Friction is reported apart ("every frictional node stuck since t"):
   * stuck nodes may carry a body that vibrates, and a still system may
   * hold no node exactly (a split scheme's creep, doc/at_rest.md).
   *
   * A body fed the velocity of its centre of mass (the elastic body) that
   * is not at rest, but whose centre of mass stopped (its velocity along
   * its largest one reached 0 and stayed below centre_fraction of that
   * since) is reported as vibrating about a rest position, with the stop
   * time: a block thrown on the floor stops like a rigid block and then
   * sways elastically for ever (doc/at_rest.md).
   *
   * A system without inertia (the quasi-static body) has no kinetic
   * energy and no verdict: the summary gives its energies and friction.
   */
  class RestMonitor
  {
  public:
    /** Kinetic energy of a still output, relative to the largest energy. */
    static constexpr double energy_fraction = 1e-6;

    /** Speed of a still massless unknown, relative to the largest one. */
    static constexpr double speed_fraction = 1e-3;

    /** The share of the run over which rest must hold. */
    static constexpr double hold_fraction = 0.05;

    /** Systems of at most this many unknowns get a verdict per unknown. */
    static constexpr unsigned int max_listed_unknowns = 8;

    /**
     * The largest speed of a stopped centre of mass after its stop,
     * relative to its largest speed: a sway, not a motion (the thrown
     * blocks of prm/body_sliding_block_2d.prm and _3d.prm sway at up to 2.45%
     * and 1.65% of their throw's speed after they stopped; a bouncing bar's
     * centre turns back at its full speed).
     */
    static constexpr double centre_fraction = 0.05;

    /**
     * The names of the friction line of the summary: "every <all> stuck
     * since t", "P% <share> stuck at t", "none (<none>)".
     */
    struct FrictionNames
    {
      std::string all   = "frictional node";
      std::string share = "of the frictional nodes";
      std::string none  = "no frictional node";
    };

    /** The frictional nodes of a system with inertia. */
    RestMonitor();

    /**
     * @p names: what the stick fraction counts; @p inertia: false for a
     * system without mass (no kinetic energy, no verdict).
     */
    RestMonitor(const FrictionNames &names, const bool inertia);

    /** One row of history.csv, as the summary needs it. */
    struct Row
    {
      double t;
      double kinetic;
      double elastic;
      double dissipated;
      /** NaN when the model has no frictional node. */
      double stick_fraction;
      /** max |v_i| over the unknowns without mass; NaN if there are none. */
      double massless_speed;
      /**
       * The share of the contact surface in contact (NaN: not a contact
       * surface): a surface not in contact holds nothing stuck.
       */
      double contact_fraction = std::numeric_limits<double>::quiet_NaN();
      /** The velocity of the centre of mass [m/s] (empty: not tracked). */
      std::vector<double> centre_velocity = {};
    };

    void
    record(const Row &row);

    /**
     * For a system of at most max_listed_unknowns unknowns, after record():
     * the velocity v_i, the diagonal mass M_ii (0: no mass) and the stick
     * flag (1 stuck, 0 not, NaN: no friction) of each, named x1, x2, ...
     * as in history.csv.
     */
    void
    record_unknowns(const std::vector<double> &velocity,
                    const std::vector<double> &mass,
                    const std::vector<double> &stuck);

    /** What carries over to a resumed run. */
    void
    register_state(CheckpointArchive &archive);

    /** Two to four lines (no final newline); empty without rows. */
    std::string
    summary() const;

  private:
    /** A stretch of still outputs up to the latest one. */
    struct Stillness
    {
      double still         = 0; ///< 1: the latest output is still
      double since         = 0; ///< the first output of the stretch
      double moved         = 0; ///< 1: some output before it was not still
      double moved_at      = 0; ///< the last output that was not still
      double moved_kinetic = 0; ///< its kinetic energy
      double moved_speed   = 0; ///< its largest massless speed
    };

    /** Update @p state with an output at @p t. */
    static void
    update(Stillness   &state,
           const double t,
           const bool   still,
           const double kinetic,
           const double speed);

    /** Register the numbers of @p state. */
    static void
    register_stillness(Stillness &state, CheckpointArchive &archive);

    /** The verdict line of the whole system. */
    std::string
    verdict() const;

    /** The line of the unknowns (systems of a few). */
    std::string
    unknowns_line() const;

    /** Rest holds over at least hold_fraction of the run. */
    bool
    holds(const Stillness &state) const;

    /** Follow the centre of mass with a row's @p velocity at @p t. */
    void
    record_centre(const double t, const std::vector<double> &velocity);

    /** The centre of mass stopped and has only swayed since. */
    bool
    centre_stopped() const;

    /** The energy line (no final newline). */
    std::string
    energy_line() const;

    /** The friction line (no final newline). */
    std::string
    friction_line() const;

    FrictionNames names;
    /** 1: the system has mass (a kinetic energy and a verdict). */
    double inertia;
    bool   any_row    = false;
    double first_time = 0;
    /** The first output after a step (the stick flags' first values). */
    double first_step_time = 0;
    double last_time       = 0;
    double last_kinetic    = 0;
    double last_elastic    = 0;
    double last_dissipated = 0;
    double last_stick      = 0;
    double last_contact    = 0; ///< NaN: no contact surface
    /** The largest energy and massless speed so far. */
    double max_energy = 0;
    double max_speed  = 0;
    /** 1: some unknowns carry no mass. */
    double    has_massless = 0;
    Stillness system;
    /** Every frictional node stuck: the stretch of such outputs. */
    double all_stuck   = 0;
    double stuck_since = 0;
    /**
     * Per unknown (small systems): still (1) or not, since when, the
     * latest velocity, the mass.
     */
    std::vector<double> unknown_still, unknown_since, unknown_velocity,
      unknown_mass, unknown_stuck;
    /**
     * The centre of mass: its largest speed and the direction of that
     * velocity; the time and the velocity along that direction at the last
     * row; the stop (the first time that velocity reached 0 after the
     * largest, interpolated between rows; -1: none) and the largest speed
     * since. centre_speed 0: not tracked.
     */
    double              centre_speed = 0;
    std::vector<double> centre_direction;
    double              centre_last_t = 0, centre_last_along = 0;
    double              centre_stop = -1, centre_after = 0;
  };
} // namespace stickslip

#endif
