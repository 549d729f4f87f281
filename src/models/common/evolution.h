#ifndef stickslip_models_common_evolution_h
#define stickslip_models_common_evolution_h

#include <base/checkpoint.h>
#include <base/field_files.h>
#include <base/global.h>
#include <base/output_files.h>
#include <base/time_grid.h>

#include <string>
#include <vector>

namespace stickslip
{
  /** What a run loop reports to an evolution at the end of a run. */
  struct RunStatistics
  {
    double       time_step;
    unsigned int n_steps;     ///< steps of the whole run
    unsigned int steps_taken; ///< steps of this invocation (fewer if resumed)
    double       wall_time;   ///< seconds of this invocation's time loop
  };



  /**
   * What the run loop (RunLoop) needs of any discretized model: set the
   * initial state, advance it by one step, register its state for
   * snapshots, and describe it in history.csv rows and field files. The
   * friction-system models (ode, gearbox, string, membrane, chain) are
   * advanced by FrictionEvolution, the slab by Slab::SlabEvolution; a new
   * model implements this interface and gets the time loop, outputs,
   * snapshots, resume, signals and timing of every other one.
   */
  class Evolution
  {
  public:
    virtual ~Evolution() = default;

    /** One line for the log. */
    virtual std::string
    description() const = 0;

    /** Set the state at @p t0 (a fresh run; a resumed one reads it instead). */
    virtual void
    initialize(const double t0) = 0;

    /**
     * Advance the state by @p step (collective). A step that fails (a
     * solver at its limit, a state that diverged) throws a RunError whose
     * message says what failed and why.
     */
    virtual void
    advance(const TimeStep &step) = 0;

    /** Register what carries over from one step to the next, for snapshots. */
    virtual void
    register_state(CheckpointArchive &archive) = 0;

    /**
     * Whether the numbering of the unknowns is the same for any number of
     * MPI ranks (or the archive carries their locations), so that a
     * snapshot resumes on any number of ranks.
     */
    virtual bool
    numbering_independent_of_partition() const = 0;

    virtual std::vector<std::string>
    history_columns() const = 0;

    /**
     * The row of history.csv at @p t, the time of the current state
     * (collective; rank 0's row is written).
     */
    virtual std::vector<double>
    history_row(const double t) = 0;

    /** Whether write_fields() writes anything. */
    virtual bool
    has_fields() const;

    /**
     * Write the fields of the state at @p t as output number @p index
     * (collective); returns the record's name relative to the output
     * directory.
     */
    virtual std::string
    write_fields(const double       t,
                 const unsigned int index,
                 const FieldFiles  &files);

    /**
     * Further series of field files besides "solution" (the body's contact
     * surface), each written every @p rows_per_output rows of history.csv
     * with its own numbering and its own SERIES.pvd.
     */
    struct FieldSeries
    {
      std::string  name;
      unsigned int rows_per_output;
    };

    virtual std::vector<FieldSeries>
    other_field_series() const;

    /**
     * Write output @p index of the series @p name of other_field_series()
     * at @p t (collective); returns the record's name relative to the
     * output directory.
     */
    virtual std::string
    write_other_fields(const std::string &name,
                       const double       t,
                       const unsigned int index,
                       const FieldFiles  &files);

    /** Field outputs are written at every this-many-th history row. */
    virtual unsigned int
    rows_per_field_output() const;

    /** Outputs of their own at the start of a fresh run and at the end. */
    virtual void
    write_initial_outputs(const OutputDirectory &directory);
    virtual void
    write_final_outputs(const OutputDirectory &directory);

    /**
     * A line that identifies the discretization beyond the time step (the
     * slab's number of cells); a snapshot of another one is refused.
     */
    virtual std::string
    discretization_key() const;

    /**
     * Why the run ends before its final time, "" while it goes on (the
     * same on every rank): a model that knows that nothing will happen any
     * more (Friction law/Stop after arrest) ends the run after this step,
     * with a last row of history.csv.
     */
    virtual std::string
    stop_reason() const;

    /** The lines printed at the end of a run (work counters, rates). */
    virtual std::string
    summary(const RunStatistics &statistics) const = 0;
  };
} // namespace stickslip

#endif
