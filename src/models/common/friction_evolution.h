#ifndef stickslip_models_common_friction_evolution_h
#define stickslip_models_common_friction_evolution_h

#include <base/rest_monitor.h>
#include <friction/friction_state.h>
#include <models/common/evolution.h>
#include <models/common/model.h>
#include <time/time_integrator.h>

namespace stickslip
{
  /**
   * A friction-system model (Model) advanced by a TimeIntegrator, as an
   * Evolution of the run loop: the FrictionState, the friction work and
   * iteration counters of history.csv, and the detection of a state that
   * diverged.
   */
  class FrictionEvolution : public Evolution
  {
  public:
    FrictionEvolution(const Model &model, TimeIntegrator &integrator);

    std::string
    description() const override;

    void
    initialize(const double t0) override;

    /**
     * One step of the integrator, then the model's prescribed values. A
     * state that is not finite, or that ran away (grew by twelve orders of
     * magnitude over the data's scale, which no bounded forcing does in a
     * bounded time), is a RunError naming the step and the likely causes.
     */
    void
    advance(const TimeStep &step) override;

    void
    register_state(CheckpointArchive &archive) override;

    bool
    numbering_independent_of_partition() const override;

    /** The model's history.csv columns, and its fields if it has any. */
    OutputSeries
    output_series() override;

    std::string
    summary(const RunStatistics &statistics) const override;

    /** The current state (for observers measuring errors). */
    const FrictionState &
    state() const;

  private:
    const Model    &model;
    TimeIntegrator &integrator;
    FrictionState   current;
    /** A state this large (max norm) has run away. */
    const double runaway_size;
    /** One rank: the per-step check needs no message. */
    const bool serial;
    /** Friction iterations when the last history row was written. */
    unsigned long iterations_at_last_row;
    /** The friction work summed over the ranks, as a snapshot holds it. */
    double dissipated_total;
    /** The multiplier holds initial_multiplier(), not an integrator's. */
    bool initial_multiplier_set = false;
    /** The physical lines of the summary, fed at every history row. */
    RestMonitor rest;

    /**
     * The multiplier of the state at @p t0, from the equation at t0 (the t0
     * row of history.csv has one like every other row).
     */
    void
    initial_multiplier(const double t0);

    /**
     * The row of history.csv at @p t (the model's, with the friction work
     * and the iterations since the last row).
     */
    std::vector<double>
    history_row(const double t);

    /**
     * Give the summary @p row of history.csv and the motion its verdict
     * needs besides the energies: the largest speed of the unknowns without
     * mass, and each unknown of a small system.
     */
    void
    record_motion(RestMonitor::Row row);

    /** Fraction of the frictional unknowns that are stuck, NaN if none. */
    double
    stick_fraction() const;
  };
} // namespace stickslip

#endif
