#ifndef stickslip_models_common_evolution_h
#define stickslip_models_common_evolution_h

#include <base/checkpoint.h>
#include <base/field_files.h>
#include <base/global.h>
#include <base/output_files.h>
#include <base/time_grid.h>

#include <functional>
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
   * The history series of a run: one row of history.csv at every output
   * time (Output/Interval).
   */
  struct HistorySeries
  {
    std::vector<std::string> columns;

    /**
     * The row at @p t, the time of the current state (collective; rank 0's
     * row is written).
     */
    std::function<std::vector<double>(const double t)> row;
  };



  /**
   * One series of field files: output number k is written by @p write as
   * FieldFiles::record_name(k, name) at a row of history.csv, and listed in
   * NAME.pvd. The run loop numbers the outputs, schedules them (every
   * Output/<...> output every-th row, Parameters::Output::rows_per_output()
   * by @p name), and keeps their record through snapshots and resume; the
   * model only writes the data of one output.
   *
   * The model's `write` chooses the file format by FieldFiles::format()
   * (Output/Field format): VTU (it fills a DataOut and hands it to
   * FieldFiles::write(): the pieces and their .pvtu record, listed in
   * NAME.pvd) or HDF5 (Hdf5FieldWriter: one .h5 and its .xdmf record per
   * output, listed by the same PvdRecord in NAME.xdmf as well).
   */
  struct FieldSeries
  {
    /** "solution" (FieldFiles::main_series) or a further one ("contact"). */
    std::string name;

    /**
     * Write output @p index of the series at @p t (collective); returns the
     * record's name relative to the output directory.
     */
    std::function<std::string(const double       t,
                              const unsigned int index,
                              const FieldFiles  &files)>
      write;
  };



  /**
   * A file written once at the start of a fresh run (@p at_start) or at
   * its end (@p at_end) (the slab's profile-initial.csv and
   * profile-final.csv); either may be empty.
   */
  struct OnceOutput
  {
    std::function<void(const OutputDirectory &directory)> at_start;
    std::function<void(const OutputDirectory &directory)> at_end;
  };



  /**
   * Everything a model writes while it runs, as records that the run loop
   * schedules from the Output subsection: the history series, the field
   * series (none if Output/Field output = false), and the files written
   * once. The functions of the records refer to the evolution that made
   * them, which must outlive the run.
   */
  struct OutputSeries
  {
    HistorySeries            history;
    std::vector<FieldSeries> fields;
    std::vector<OnceOutput>  once;
  };



  /**
   * What the run loop (RunLoop) needs of any discretized model: set the
   * initial state, advance it by one step, register its state for
   * snapshots, and hand over its output series (output_series()). The
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

    /**
     * The series the model writes (called once per run, before the
     * initial state is set); the run loop schedules them (it writes no
     * field series with Output/Field output = false).
     */
    virtual OutputSeries
    output_series() = 0;

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
