#ifndef stickslip_base_rest_monitor_h
#define stickslip_base_rest_monitor_h

#include <base/checkpoint.h>

#include <string>

namespace stickslip
{
  /**
   * The physical summary at the end of a run (doc/at_rest.md): fed the
   * energies and the stick fraction at every row of history.csv, it says
   * where the run ended (kinetic and elastic energy, the friction work, the
   * stick fraction) and whether and when it came to rest: the first output
   * time from which on every row had stick fraction 1 (every frictional
   * node stuck; no condition without frictional nodes) and a kinetic energy
   * at most rest_fraction times the largest kinetic energy of the run.
   */
  class RestMonitor
  {
  public:
    /**
     * Kinetic energy counted as rest, relative to its maximum. Measured on
     * prm/string.prm (maximum 1.36): the last sliding rows before every node
     * sticks have 6e-7 .. 2.6e-4 of it, the stuck centered scheme 0, the
     * stuck Lie scheme, which creeps by O(dt) (doc/at_rest.md), 4.1e-7 at
     * dt = 1e-3 and 1.1e-7 at dt = 5e-4: counted as rest, with stick
     * fraction 1 deciding when.
     */
    static constexpr double rest_fraction = 1e-6;

    /**
     * A row at @p t; @p stick_fraction is NaN when the model has no
     * frictional node (then rest is judged on the kinetic energy alone).
     */
    void
    record(const double t,
           const double kinetic,
           const double elastic,
           const double dissipated,
           const double stick_fraction);

    /** What carries over to a resumed run. */
    void
    register_state(CheckpointArchive &archive);

    /** Two lines (no final newline); empty without rows. */
    std::string
    summary() const;

  private:
    bool   any_row     = false;
    double max_kinetic = 0;
    /** The first time of the current run of rest rows (when resting). */
    double rest_since      = 0;
    bool   resting         = false;
    double last_time       = 0;
    double last_kinetic    = 0;
    double last_elastic    = 0;
    double last_dissipated = 0;
    double last_stick      = 0;
  };
} // namespace stickslip

#endif
