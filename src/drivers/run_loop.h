#ifndef stickslip_drivers_run_loop_h
#define stickslip_drivers_run_loop_h

#include <deal.II/base/timer.h>

#include <base/checkpoint.h>
#include <base/global.h>
#include <base/run_directory.h>
#include <models/common/evolution.h>

#include <string>

namespace stickslip
{
  /**
   * Follows a run step by step: the errors against a reference solution,
   * a recorded reference run, the boundary series of a refinement study.
   */
  class StepObserver
  {
  public:
    virtual ~StepObserver() = default;

    /** The initial state of a fresh run is set (not called on resume). */
    virtual void
    start(const double t0);

    /** @p step is done (collective). */
    virtual void
    after_step(const TimeStep &step) = 0;

    /** Register what carries over to a resumed run. */
    virtual void
    register_state(CheckpointArchive &archive);
  };



  /**
   * The one time loop of stickslip, in the manner of ASPECT's
   * Simulator::run and Lethe's SimulationControl: it alone owns the step
   * counter, the output schedule, the checkpoint schedule, snapshots and
   * --resume, termination signals, the progress line and the timing of the
   * loop. Every model goes through it as an Evolution, which hands over its
   * output series (Evolution::output_series()); the loop schedules each of
   * them from the Output subsection alone: a row of history.csv every
   * Output/Interval, each field series at every k-th row (k =
   * Parameters::Output::rows_per_output() of its name: Output/Field output
   * every for solution.pvd, Output/Contact output every for contact.pvd;
   * none with Output/Field output = false), the files written once at the
   * start of a fresh run and at its end.
   *
   * Output integrity: history.csv is appended row by row (HistoryFile),
   * field files and solution.pvd are written under temporary names and
   * renamed (FieldFiles, PvdRecord), and a snapshot records the length and
   * checksum of history.csv and the list of field outputs, so that a run
   * killed at any moment leaves only complete files, and a resumed run
   * continues exactly from its newest snapshot, removing what the killed
   * run wrote after it.
   */
  class RunLoop
  {
  public:
    /**
     * @p output: the Output subsection (the schedules; a run that must not
     * take snapshots passes checkpoint intervals of 0).
     */
    RunLoop(RunDirectory             &directory,
            const Parameters::Output &output,
            const ConditionalOStream &pcout,
            TimerOutput              &timer);

    /**
     * Run @p evolution over @p grid with every output, from its initial
     * state (the directory must have been started: RunDirectory::
     * start_fresh()) or, with @p resume, from the newest snapshot in the
     * directory. @p observer may be null.
     */
    void
    run(Evolution      &evolution,
        const TimeGrid &grid,
        StepObserver   *observer,
        const bool      resume);

    /**
     * Run @p evolution over @p grid without writing anything (a coarser run
     * of a study): progress lines and the summary only.
     */
    void
    run_without_outputs(Evolution      &evolution,
                        const TimeGrid &grid,
                        StepObserver   *observer);

    /**
     * Advance @p evolution over @p grid from its initial state, silently
     * (the simulations of a control search).
     */
    static void
    integrate(Evolution &evolution, const TimeGrid &grid);

  private:
    class Run;

    RunDirectory             &directory;
    const Parameters::Output  output;
    const ConditionalOStream &pcout;
    TimerOutput              &timer;
  };
} // namespace stickslip

#endif
