#include <base/checkpoint_schedule.h>
#include <base/checksum.h>
#include <base/expressions.h>
#include <base/field_files.h>
#include <base/history_file.h>
#include <base/input_error.h>
#include <base/iteration_guard.h>
#include <base/memory_stage.h>
#include <base/progress.h>
#include <base/pvd_record.h>
#include <base/signals.h>
#include <base/time_grid.h>
#include <drivers/run_loop.h>
#include <models/common/step_failure.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>

namespace stickslip
{
  void
  StepObserver::start(const double)
  {}



  void
  StepObserver::register_state(CheckpointArchive &)
  {}



  /**
   * The state of one run of the loop: its outputs, its schedules, what a
   * snapshot holds, and the steps of the loop as small functions.
   */
  class RunLoop::Run
  {
  public:
    /**
     * @p with_outputs: history.csv, fields and snapshots (else progress
     * lines and the summary only); @p resuming: this run continues from a
     * snapshot.
     */
    Run(RunLoop        &loop,
        Evolution      &evolution,
        const TimeGrid &grid,
        StepObserver   *observer,
        const bool      with_outputs,
        const bool      resuming);

    /** Set the initial state and write the outputs at t0. */
    void
    start();

    /** Continue from the newest snapshot (collective; nothing is changed before
     * it is checked). */
    void
    resume();

    /** The time loop from the current step to the last. */
    void
    loop();

    /**
     * The end-of-run hook: every field series lists all its outputs
     * (PvdRecord::flush(); an XDMF series lags during the run).
     */
    void
    finish_series() const;

    /**
     * finish_series() after @p cause stopped the run: a failure of the
     * series file too is reported after @p cause (a RunError, collective).
     */
    void
    finish_series_after(const std::exception &cause) const;

    /**
     * The snapshot at the end of a run that takes them, after all its
     * outputs (the series files too: finish_series()), its last write: a
     * resumed run then knows the run is complete, or takes it further from
     * its end.
     */
    void
    write_final_snapshot();

  private:
    /** Register everything that carries over from step to step. */
    void
    register_state();

    /** Advance one step; a failure keeps the outputs so far and says so. */
    void
    advance(const unsigned int n);

    /** A row of history.csv at @p t, and the fields when due. */
    void
    write_outputs(const double t);

    /**
     * A RunError naming the first column and the time if @p row (of time
     * @p t) is not finite (collective); the @p first row may hold NaN.
     */
    void
    check_finite_row(const std::vector<double> &row,
                     const double               t,
                     const bool                 first) const;

    /** Snapshot and signal handling after step @p n. */
    void
    checkpoint(const unsigned int n);

    /**
     * A run without snapshots, after step @p n: stop if a termination
     * signal arrived, saying what is kept and how to make a run resumable.
     */
    void
    stop_if_signalled(const unsigned int n);

    /**
     * The driver's lines of a snapshot's meta text; with @p ended, that of
     * the run's end: a last line "complete", then why the model ended it
     * early (nothing if it reached its final time).
     */
    std::string
    meta(const std::string *ended = nullptr) const;

    /**
     * Check a snapshot's lines against this run; returns the history
     * prefix. Sets complete_run and end_reason.
     */
    std::pair<std::uint64_t, std::uint64_t>
    restore_meta(const std::string &text);

    /**
     * Refuse to resume at a snapshot from which nothing is left to run
     * (an InputError: the run is complete, or the final time is not later
     * than the snapshot).
     */
    void
    check_something_to_continue() const;

    /**
     * Check every field output the snapshot lists (PvdRecord::
     * check_outputs()); an InputError naming the first problem.
     */
    void
    check_listed_outputs();

    /** Keep the outputs' state in before_end_row. */
    void
    mark_outputs_before_end_row();

    /** A field series as the loop schedules it, with its record. */
    struct ScheduledSeries
    {
      FieldSeries  series;
      unsigned int rows_per_output;
      PvdRecord    record;
    };

    /**
     * The field series of @p series with their schedules from @p output,
     * the main one ("solution") first; none without outputs or with
     * Output/Field output = false.
     */
    static std::vector<ScheduledSeries>
    schedule_fields(const OutputSeries       &series,
                    const Parameters::Output &output,
                    const bool                with_outputs);

    /** Whether the model writes the main series (solution.pvd). */
    bool
    has_main_series() const;

    /**
     * The rows of history.csv the whole run writes, at most (one at t0,
     * one every Output/Interval, one at the end), and so the outputs of
     * each field series: FieldFiles::plan() (the size of an HDF5 series
     * file).
     */
    void
    plan_outputs();

    RunLoop                  &owner;
    Evolution                &evolution;
    const TimeGrid            grid;
    StepObserver             *observer;
    const bool                with_outputs;
    const Parameters::Output &output;
    /** Simulated time between outputs (Output/Interval resolved). */
    const double   interval;
    const MPI_Comm comm;
    /** One rank: the collective checks need no message. */
    const bool serial;
    /** The model's series (OutputSeries), as it handed them over. */
    const OutputSeries series;
    HistoryFile        history;
    FieldFiles         files;
    /** The field series written in this run, the main one first. */
    std::vector<ScheduledSeries> fields;
    CheckpointSchedule           schedule;
    const bool                   snapshots;
    CheckpointArchive            archive;
    const CheckpointStore        store;
    /** Snapshot or signal, then stop, after each step. */
    const IterationGuard guard;
    unsigned long        completed_steps;
    unsigned long        rows;
    double               next_output;
    /** The time of the last row of history.csv (for an interruption). */
    double last_row_time;
    /**
     * Read from a snapshot: it was written at the end of a run that is
     * complete, and why the model ended that run early ("" if it reached its
     * final time).
     */
    bool        complete_run;
    std::string end_reason;
    /** The last step of this run, and why the model ended it there ("" if
     * it reached its final time): loop() sets them. */
    unsigned int last_step;
    std::string  stopped_reason;
    /**
     * The outputs as they were before the row that a run writes at its
     * last step only because it ends there (off the Output/Interval grid):
     * the snapshot at the end holds these, so that a run taken further
     * drops that row (and a field output written with it) and writes the
     * rows and fields of an uninterrupted longer run.
     */
    struct OutputMark
    {
      bool                      set           = false;
      std::uint64_t             history_bytes = 0;
      std::uint64_t             history_hash  = 0;
      unsigned long             rows          = 0;
      double                    next_output   = 0;
      std::vector<unsigned int> records;
    } before_end_row;
  };



  RunLoop::Run::Run(RunLoop        &loop,
                    Evolution      &evolution,
                    const TimeGrid &grid,
                    StepObserver   *observer,
                    const bool      with_outputs,
                    const bool      resuming)
    : owner(loop)
    , evolution(evolution)
    , grid(grid)
    , observer(observer)
    , with_outputs(with_outputs)
    , output(loop.output)
    , interval(loop.output.interval_for(grid.dt, grid.n_steps))
    , comm(loop.directory.communicator())
    , serial(Utilities::MPI::n_mpi_processes(comm) == 1)
    , series(evolution.output_series())
    , history(loop.directory, "history.csv", series.history.columns)
    , files(loop.directory,
            loop.output.hdf5_fields ? FieldFiles::Format::hdf5 :
                                      FieldFiles::Format::vtu,
            loop.output.single_precision_fields)
    , fields(schedule_fields(series, loop.output, with_outputs))
    , schedule(output, comm, grid.t0, grid.dt)
    , snapshots(with_outputs && (schedule.enabled() || resuming))
    , store(loop.directory.path(), comm)
    , guard(comm,
            loop.timer,
            "time loop: snapshots",
            "this state",
            store.folder(),
            loop.directory.path())
    , completed_steps(0)
    , rows(0)
    , next_output(grid.t0 + interval)
    , last_row_time(grid.t0)
    , complete_run(false)
    , last_step(grid.n_steps)
  {
    plan_outputs();
  }



  void
  RunLoop::Run::plan_outputs()
  {
    const double span = grid.time(grid.n_steps) - grid.t0;
    double       rows = grid.n_steps + 1.;
    if (interval > 0)
      rows = std::min(rows, std::floor(span / interval + 1e-9) + 2.);
    for (const ScheduledSeries &field : fields)
      files.plan(field.series.name,
                 static_cast<unsigned int>(
                   std::ceil(rows / field.rows_per_output)));
  }



  std::vector<RunLoop::Run::ScheduledSeries>
  RunLoop::Run::schedule_fields(const OutputSeries       &series,
                                const Parameters::Output &output,
                                const bool                with_outputs)
  {
    std::vector<ScheduledSeries> scheduled;
    if (!with_outputs || !output.field_output)
      return scheduled;
    for (const FieldSeries &field : series.fields)
      scheduled.push_back(
        {field, output.rows_per_output(field.name), PvdRecord(field.name)});
    std::stable_partition(scheduled.begin(),
                          scheduled.end(),
                          [](const ScheduledSeries &s) {
                            return s.series.name == FieldFiles::main_series;
                          });
    return scheduled;
  }



  bool
  RunLoop::Run::has_main_series() const
  {
    return !fields.empty() &&
           fields.front().series.name == FieldFiles::main_series;
  }



  void
  RunLoop::Run::register_state()
  {
    archive.add(completed_steps);
    archive.add(rows);
    archive.add(next_output);
    schedule.register_state(archive);
    evolution.register_state(archive);
    if (observer != nullptr)
      observer->register_state(archive);
  }



  void
  RunLoop::Run::start()
  {
    if (snapshots)
      register_state();
    evolution.initialize(grid.t0);
    if (observer != nullptr)
      observer->start(grid.t0);
    if (!with_outputs)
      return;
    // In the time loop's section of the timing table, as every output.
    TimerOutput::Scope scope(owner.timer, "time loop (in all)");
    for (const OnceOutput &once : series.once)
      if (once.at_start)
        once.at_start(owner.directory);
    history.start();
    write_outputs(grid.t0);
  }



  std::string
  RunLoop::Run::meta(const std::string *ended) const
  {
    std::ostringstream text;
    text.precision(17);
    // At the end, the outputs before a last row off the schedule (see
    // before_end_row).
    const bool marked = ended != nullptr && before_end_row.set;
    text << "dt " << grid.dt << '\n'
         << "discretization " << evolution.discretization_key() << '\n'
         << "history_bytes "
         << (marked ? before_end_row.history_bytes : history.n_bytes()) << '\n'
         << "history_checksum "
         << checksum_text(marked ? before_end_row.history_hash : history.hash())
         << '\n';
    // The main series' record first, an empty one if the model has none
    // (the layout of every snapshot), then the further series in order.
    if (!has_main_series())
      text << PvdRecord().to_text();
    for (std::size_t f = 0; f < fields.size(); ++f)
      text << fields[f].record.to_text(marked ? before_end_row.records[f] :
                                                fields[f].record.size());
    if (ended != nullptr)
      text << "complete " << *ended << '\n';
    return text.str();
  }



  std::pair<std::uint64_t, std::uint64_t>
  RunLoop::Run::restore_meta(const std::string &text)
  {
    // The four lines meta() wrote first: "name value".
    std::istringstream                 in(text);
    std::map<std::string, std::string> values;
    for (unsigned int i = 0; i < 4; ++i)
      {
        std::string line;
        std::getline(in, line);
        const auto space = line.find(' ');
        values[line.substr(0, space)] =
          space == std::string::npos ? "" : line.substr(space + 1);
      }
    double        saved_dt = 0;
    std::uint64_t n_bytes = 0, hash = 0;
    try
      {
        saved_dt = std::stod(values.at("dt"));
        n_bytes  = std::stoull(values.at("history_bytes"));
        hash     = std::stoull(values.at("history_checksum"), nullptr, 16);
      }
    catch (std::exception &)
      {
        throw InputError("the snapshot in " + store.folder() +
                         " does not hold the state of a time loop");
      }
    const std::string key = values["discretization"];
    if (std::abs(saved_dt - grid.dt) > 1e-12 * grid.dt ||
        key != evolution.discretization_key())
      throw InputError(
        "the snapshot was written with Time/Time step = " +
        format_number(saved_dt) + (key.empty() ? "" : " (" + key + ")") +
        ", this run has " + format_number(grid.dt) +
        (key.empty() ? "" : " (" + evolution.discretization_key() + ")") +
        ": resume with the same discretization");
    if (!has_main_series())
      PvdRecord().from_text(in);
    for (ScheduledSeries &field : fields)
      field.record.from_text(in);
    // The snapshot at a run's end says so (older ones do not).
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("complete", 0) == 0)
        {
          complete_run = true;
          end_reason   = line.size() > 9 ? line.substr(9) : "";
        }
    return {n_bytes, hash};
  }



  void
  RunLoop::Run::check_something_to_continue() const
  {
    const double       snapshot_time = grid.time(completed_steps);
    const std::string &path          = owner.directory.path();
    const std::string  at = "t = " + format_number(snapshot_time) + " (step " +
                           std::to_string(completed_steps) + ")";
    if (complete_run && !end_reason.empty())
      throw InputError(
        "--resume " + path + ": the run is complete: it ended at " + at +
        " because " + end_reason +
        "; a resumed run would end there again, so there is nothing to "
        "continue. Nothing was changed");
    if (complete_run && completed_steps >= grid.n_steps)
      throw InputError(
        "--resume " + path +
        ": the run is complete: it reached its final "
        "time, " +
        at +
        ", and 'Time/Final time' = " + format_number(grid.time(grid.n_steps)) +
        " is not later. To take it further, give a later final time, e.g. "
        "--resume " +
        path + " --set \"Time/Final time=" +
        format_number(grid.t0 + 2 * (snapshot_time - grid.t0)) +
        "\" (it continues from its end). Nothing was changed");
    if (completed_steps >= grid.n_steps)
      throw InputError(
        "--resume " + path + ": the newest snapshot is at " + at +
        ", and 'Time/Final time' = " + format_number(grid.time(grid.n_steps)) +
        " is not later: there is nothing to continue. Give a final time "
        "after the snapshot (the run's rows after it are then computed "
        "again). Nothing was changed");
  }



  void
  RunLoop::Run::check_listed_outputs()
  {
    for (ScheduledSeries &field : fields)
      {
        const std::string problem = field.record.check_outputs(owner.directory);
        if (!problem.empty())
          throw InputError(
            "--resume " + owner.directory.path() + ": " + problem +
            ". A resumed run continues the outputs written so far and relies "
            "on every one the snapshot lists: put the file back as the run "
            "left it, or start the run afresh (Output/Overwrite = true). "
            "Nothing was changed");
      }
  }



  void
  RunLoop::Run::resume()
  {
    owner.directory.check_resumable();
    register_state();
    std::vector<std::string> warnings;
    const std::string        text =
      store.read(archive,
                 evolution.numbering_independent_of_partition(),
                 warnings,
                 owner.directory.mesh_files());
    for (const auto &warning : warnings)
      owner.pcout << "stickslip: warning: " << warning << std::endl;
    const auto   prefix        = restore_meta(text);
    const double snapshot_time = grid.time(completed_steps);
    check_something_to_continue();
    history.check_prefix(prefix.first, prefix.second);
    check_listed_outputs();

    // Checked: now the directory goes back to the snapshot's state.
    owner.directory.continue_run();
    history.resume(prefix.first, prefix.second);
    for (const ScheduledSeries &field : fields)
      field.record.restore_templates(owner.directory);
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        if (!has_main_series())
          files.remove_outputs_from(0);
        for (const ScheduledSeries &field : fields)
          files.remove_outputs_from(field.record.size(), field.series.name);
      }
    for (const ScheduledSeries &field : fields)
      field.record.write(owner.directory);
    owner.pcout << "  resumed at step " << completed_steps
                << " (t = " << snapshot_time << ") from " << store.folder()
                << std::endl;
  }



  void
  RunLoop::Run::write_outputs(const double t)
  {
    TimerOutput::Scope scope(owner.timer, "time loop: output");
    const MemoryStage  stage("writing the outputs at t = " + format_number(t));
    const std::vector<double> row = series.history.row(t);
    check_finite_row(row, t, rows == 0);
    history.append(row);
    last_row_time = t;
    // Each field series at every rows_per_output-th row (0, k, 2k, ...).
    for (ScheduledSeries &field : fields)
      if (rows % field.rows_per_output == 0)
        field.record.add(t,
                         field.series.write(t, field.record.size(), files),
                         owner.directory);
    ++rows;
  }



  void
  RunLoop::Run::check_finite_row(const std::vector<double> &row,
                                 const double               t,
                                 const bool                 first) const
  {
    // Rank 0's row is the one written; it decides for every rank. The
    // first row may hold NaN for what is not defined yet (the multipliers
    // before the first step); its data were checked as input.
    std::string failure;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      for (unsigned int c = 0; c < row.size() && failure.empty(); ++c)
        if (!std::isfinite(row[c]) && !(first && std::isnan(row[c])))
          {
            // The names only for the message: a finite-dof row of d = 100
            // has 303 of them.
            const std::vector<std::string> &names = series.history.columns;
            failure = "the state became non-finite: column '" +
                      (c < names.size() ? names[c] : std::to_string(c + 1)) +
                      "' of history.csv is " + format_number(row[c]) +
                      " at t = " + format_number(t) +
                      " (the row is not written; the rows before it are in "
                      "history.csv)";
          }
    if (!serial)
      failure = Utilities::MPI::broadcast(comm, failure, 0);
    if (!failure.empty())
      throw RunError(failure);
  }



  void
  RunLoop::Run::advance(const unsigned int n)
  {
    const TimeStep step = grid.step(n);
    try
      {
        evolution.advance(step);
      }
    catch (StepFailedStateKept &error)
      {
        if (!with_outputs)
          throw;
        // The evolution still holds the state at step.time: written as a
        // row of its own when the schedule (Output/Interval) has none there.
        if (last_row_time < step.time)
          write_outputs(step.time);
        throw RunError(std::string(error.what()) +
                       ". The last good state (t = " +
                       format_number(step.time) + ") is in history.csv");
      }
    catch (RunError &error)
      {
        if (!with_outputs)
          throw;
        throw RunError(std::string(error.what()) +
                       ". The last good state (t = " +
                       format_number(step.time) + ") is in history.csv");
      }
    if (observer != nullptr)
      observer->after_step(step);
  }



  void
  RunLoop::Run::checkpoint(const unsigned int n)
  {
    const double t = grid.time(n);
    guard.after_iteration(
      schedule.due_at(t),
      n < grid.n_steps,
      [&]() {
        completed_steps = n;
        history.sync();
        store.write(completed_steps, archive, meta());
      },
      [&]() {
        return "at step " + std::to_string(n) + " (t = " + format_number(t) +
               ")";
      });
  }



  void
  RunLoop::Run::mark_outputs_before_end_row()
  {
    before_end_row.set           = true;
    before_end_row.history_bytes = history.n_bytes();
    before_end_row.history_hash  = history.hash();
    before_end_row.rows          = rows;
    before_end_row.next_output   = next_output;
    before_end_row.records.clear();
    for (const ScheduledSeries &field : fields)
      before_end_row.records.push_back(field.record.size());
  }



  void
  RunLoop::Run::write_final_snapshot()
  {
    if (!snapshots)
      return;
    TimerOutput::Scope scope(owner.timer, "time loop: snapshots");
    completed_steps = last_step;
    history.sync();
    // The counters of the outputs as the snapshot's meta text has them.
    const unsigned long written_rows = rows;
    const double        next_row     = next_output;
    if (before_end_row.set)
      {
        rows        = before_end_row.rows;
        next_output = before_end_row.next_output;
      }
    store.write(completed_steps, archive, meta(&stopped_reason));
    rows        = written_rows;
    next_output = next_row;
  }



  void
  RunLoop::Run::stop_if_signalled(const unsigned int n)
  {
    const int signal = termination_signal(comm);
    if (signal == 0)
      return;
    std::string kept = "nothing is written";
    if (with_outputs)
      {
        history.sync();
        kept = owner.directory.file("history.csv") + " keeps its " +
               std::to_string(rows) + " rows, t = " + format_number(grid.t0) +
               " to " + format_number(last_row_time);
        if (has_main_series())
          kept +=
            std::string(", and ") +
            (owner.output.hdf5_fields ? "solution.xdmf" : "solution.pvd") +
            " its " + std::to_string(fields.front().record.size()) +
            " field outputs";
      }
    // The controlled run of a control search takes none, but the search's
    // own snapshots resume it.
    const bool earlier = std::filesystem::is_directory(store.folder());
    throw Interrupted(
      signal_name(signal) + " at step " + std::to_string(n) + " (t = " +
      format_number(grid.time(n)) + ") of a run without snapshots: " + kept +
      (earlier ?
         "; the snapshots in " + store.folder() +
           " (of the control search) let --resume " + owner.directory.path() +
           " run it again" :
         "; the run cannot be resumed. To make a run resumable, set "
         "Output/Checkpoint interval (simulated time between snapshots) or "
         "Output/Checkpoint wall interval (seconds)"));
  }



  void
  RunLoop::Run::finish_series() const
  {
    for (const ScheduledSeries &field : fields)
      field.record.flush(owner.directory);
  }



  void
  RunLoop::Run::finish_series_after(const std::exception &cause) const
  {
    try
      {
        finish_series();
      }
    catch (const RunError &also)
      {
        // The first failure is the one to report (a full disk fails the
        // field file first, then the series file too).
        throw RunError(
          std::string(cause.what()) +
          "; the series could not be completed either: " + also.what());
      }
  }



  void
  RunLoop::Run::loop()
  {
    // Every run stops cleanly after the step in progress (with a snapshot
    // if it takes them); no file is left half written.
    install_termination_handlers();
    TimerOutput::Scope scope(owner.timer, "time loop (in all)");
    const MemoryStage  stage("the time loop");
    ProgressReporter   progress(owner.pcout,
                              grid.t0,
                              grid.time(grid.n_steps),
                              output.progress_interval,
                              output.quiet);
    const unsigned int first = completed_steps;
    unsigned int       last  = grid.n_steps;
    std::string        stopped; // why the model ended the run early
    for (unsigned int n = first; n < grid.n_steps; ++n)
      {
        advance(n);
        const double      t_next = grid.time(n + 1);
        const std::string stop   = evolution.stop_reason();
        const bool        due =
          interval == 0 || t_next >= next_output - 1e-9 * grid.dt;
        if (with_outputs && (due || n + 1 == grid.n_steps || !stop.empty()))
          {
            if (!due && stop.empty() && snapshots)
              mark_outputs_before_end_row();
            write_outputs(t_next);
            if (interval > 0)
              next_output = next_multiple(grid.t0, interval, t_next, grid.dt);
          }
        progress.update(t_next);
        if (!stop.empty())
          {
            // The model ends the run here (with snapshots, the final one
            // says so: a resumed run would end here again).
            owner.pcout << "  the run ends at t = " << format_number(t_next)
                        << ": " << stop << std::endl;
            last    = n + 1;
            stopped = stop;
            break;
          }
        if (snapshots)
          checkpoint(n + 1);
        else
          stop_if_signalled(n + 1);
      }
    if (with_outputs)
      for (const OnceOutput &once : series.once)
        if (once.at_end)
          once.at_end(owner.directory);
    last_step      = last;
    stopped_reason = stopped;
    owner.pcout << evolution.summary(
                     {grid.dt, last, last - first, progress.elapsed()})
                << std::endl;
  }



  RunLoop::RunLoop(RunDirectory             &directory,
                   const Parameters::Output &output,
                   const ConditionalOStream &pcout,
                   TimerOutput              &timer)
    : directory(directory)
    , output(output)
    , pcout(pcout)
    , timer(timer)
  {}



  void
  RunLoop::run(Evolution      &evolution,
               const TimeGrid &grid,
               StepObserver   *observer,
               const bool      resume)
  {
    Run run(*this, evolution, grid, observer, true, resume);
    if (resume)
      run.resume();
    else
      run.start();
    try
      {
        run.loop();
      }
    catch (const RunError &error)
      {
        // Both are thrown on every rank (the flush is collective); the
        // outputs written so far are complete and stay listed.
        run.finish_series_after(error);
        throw;
      }
    catch (const Interrupted &interruption)
      {
        run.finish_series_after(interruption);
        throw;
      }
    run.finish_series();
    run.write_final_snapshot();
  }



  void
  RunLoop::run_without_outputs(Evolution      &evolution,
                               const TimeGrid &grid,
                               StepObserver   *observer)
  {
    Run run(*this, evolution, grid, observer, false, false);
    run.start();
    run.loop();
  }



  void
  RunLoop::integrate(Evolution &evolution, const TimeGrid &grid)
  {
    evolution.initialize(grid.t0);
    for (unsigned int n = 0; n < grid.n_steps; ++n)
      evolution.advance(grid.step(n));
  }
} // namespace stickslip
