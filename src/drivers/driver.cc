#include <deal.II/base/data_out_base.h>
#include <deal.II/lac/vector.h>

#include <base/checkpoint.h>
#include <base/expressions.h>
#include <base/local_values.h>
#include <base/progress.h>
#include <base/signals.h>
#include <base/time_grid.h>
#include <drivers/driver.h>
#include <linear_algebra/dense_tools.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <filesystem>
#include <iterator>
#include <sstream>

namespace stickslip
{
  namespace
  {
    const double not_measured = std::numeric_limits<double>::quiet_NaN();

    double
    observed_order(const double e_coarse,
                   const double e_fine,
                   const double dt_coarse,
                   const double dt_fine)
    {
      if (!(e_coarse > 0) || !(e_fine > 0))
        return not_measured;
      return std::log(e_coarse / e_fine) / std::log(dt_coarse / dt_fine);
    }

    /** Least-squares slope of log e against log dt. */
    double
    fitted_slope(const std::vector<double> &dt, const std::vector<double> &e)
    {
      double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (unsigned int i = 0; i < dt.size(); ++i)
        if (e[i] > 0)
          {
            const double x = std::log(dt[i]), y = std::log(e[i]);
            n += 1;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
          }
      if (n < 2)
        return not_measured;
      return (n * sxy - sx * sy) / (n * sxx - sx * sx);
    }
  } // namespace



  Driver::Driver(const Parameters::Run &   run,
                 const ParameterSource &   source,
                 const Model &             model,
                 const ParameterHandler &  prm,
                 const ConditionalOStream &pcout)
    : parameters(run)
    , source(source)
    , model(model)
    , prm(prm)
    , pcout(pcout)
    , output(run.output.directory, run.output.overwrite, model.system().comm)
  {}



  double
  Driver::norm_squared(const DistributedVector &error) const
  {
    const DistributedVector *weights = model.error_weights();
    if (weights == nullptr)
      return error.norm_sqr();
    ConstLocalValues e(error);
    ConstLocalValues w(*weights);
    double           sum = 0;
    for (std::size_t k = 0; k < e.size(); ++k)
      sum += w[k] * e[k] * e[k];
    return Utilities::MPI::sum(sum, model.system().comm);
  }



  void
  Driver::write_fields(const double t, const FrictionState &state)
  {
    field_outputs.emplace_back(
      t, model.write_fields(t, state, field_outputs.size(), output));
    std::ostringstream pvd;
    DataOutBase::write_pvd_record(pvd, field_outputs);
    output.write_atomically("solution.pvd", pvd.str());
  }



  bool
  Driver::checkpoints_enabled() const
  {
    return parameters.output.checkpoint_interval > 0 ||
           parameters.output.checkpoint_wall_interval > 0;
  }



  std::string
  Driver::snapshot_meta(const double dt, const CsvTable &history) const
  {
    std::ostringstream meta;
    meta.precision(17);
    meta << "dt " << dt << '\n';
    write_outputs_and_history(meta, field_outputs, history);
    return meta.str();
  }



  void
  Driver::restore_meta(const std::string &meta, const double dt, CsvTable &history)
  {
    std::istringstream in(meta);
    std::string        word;
    while (in >> word && word != "dt")
      {
      }
    double saved_dt = 0;
    in >> saved_dt;
    if (std::abs(saved_dt - dt) > 1e-12 * dt)
      throw InputError("the snapshot was written with Time/Time step = " +
                       format_number(saved_dt) + ", this run has " +
                       format_number(dt) + ": resume with the same step");
    read_outputs_and_history(in, field_outputs, history);
  }



  Driver::StepSizeErrors
  Driver::simulate(const double             dt,
                            TimeIntegrator &         integrator,
                            const ReferenceSolution *reference,
                            RecordedReference *      recording,
                            CsvTable *               history)
  {
    const FrictionSystem &system = model.system();
    const double          t0     = parameters.time.initial_time;
    const unsigned int    n_steps = parameters.time.n_steps(dt, source);

    FrictionState state;
    state.reinit(system.locally_owned, system.comm);
    state.displacement = system.initial_displacement;
    state.velocity     = system.initial_velocity;

    DistributedVector exact_x(system.locally_owned, system.comm);
    DistributedVector exact_v(system.locally_owned, system.comm);
    double            sum_x = 0, sum_v = 0, sum_lambda = 0;
    double            max_x = 0, max_v = 0;

    const bool fields = history != nullptr && model.has_field_output() &&
                        parameters.output.field_output;
    const double  interval    = parameters.output.interval;
    double        next_output = t0 + interval;
    unsigned long iterations_at_last_row = 0;

    // Everything that carries over from step to step, for snapshots. The
    // rank-local sums travel as their totals (held by rank 0 on resume).
    const bool    snapshots = history != nullptr && recording == nullptr &&
                           (checkpoints_enabled() || resume);
    const double  checkpoint_interval = parameters.output.checkpoint_interval;
    double        next_checkpoint     = t0 + checkpoint_interval;
    unsigned long completed_steps     = 0;
    double        dissipated_total = 0, lambda_total = 0;
    CheckpointArchive archive;
    for (auto *v : {&state.displacement,
                    &state.velocity,
                    &state.multiplier,
                    &state.stick})
      archive.add(*v);
    for (auto *x : {&next_output,
                    &next_checkpoint,
                    &sum_x,
                    &sum_v,
                    &max_x,
                    &max_v,
                    &dissipated_total,
                    &lambda_total})
      archive.add(*x);
    for (auto *c : {&completed_steps,
                    &iterations_at_last_row,
                    &integrator.statistics.friction_solves,
                    &integrator.statistics.friction_iterations})
      archive.add(*c);
    integrator.register_state(archive);
    if (snapshots)
      model.describe_unknown_locations(archive);
    const CheckpointStore store(output.file(""), system.comm);
    const bool rank0 = Utilities::MPI::this_mpi_process(system.comm) == 0;
    if (snapshots)
      install_termination_handlers();

    if (snapshots && resume)
      {
        std::vector<std::string> warnings;
        const std::string        meta =
          store.read(archive, model.numbering_independent_of_partition(), warnings);
        for (const auto &warning : warnings)
          pcout << "stickslip: warning: " << warning << std::endl;
        restore_meta(meta, dt, *history);
        integrator.statistics.local_dissipated_energy = rank0 ? dissipated_total : 0.;
        sum_lambda = rank0 ? lambda_total : 0.;
        pcout << "  resumed at step " << completed_steps << " (t = "
              << t0 + completed_steps * dt << ") from " << store.folder()
              << std::endl;
      }
    else
      {
        model.complete_state(t0, state);
        if (recording != nullptr)
          recording->record(state.displacement, state.velocity, state.multiplier);
        if (history != nullptr)
          history->add_row(model.history_row(t0, state, 0., 0, false));
        if (fields)
          write_fields(t0, state);
      }

    const double runaway_size =
      1e12 * std::max(1., system.initial_displacement.linfty_norm() +
                            system.initial_velocity.linfty_norm());
    ProgressReporter progress(pcout,
                              t0,
                              parameters.time.final_time,
                              parameters.output.progress_interval,
                              parameters.output.quiet);
    auto last_wall_checkpoint = std::chrono::steady_clock::now();

    for (unsigned int n = completed_steps; n < n_steps; ++n)
      {
        const double t      = t0 + n * dt;
        const double t_next = t0 + (n + 1) * dt;
        try
          {
            integrator.advance(t, dt, state);
          }
        catch (RunError &error)
          {
            // A solver that gave up: keep the last good state.
            if (history != nullptr)
              output.write_atomically("history.csv", history->to_string());
            throw RunError(std::string(error.what()) +
                           (history != nullptr ?
                              ". The last good state (t = " +
                                format_number(t) + ") is in history.csv" :
                              std::string()));
          }
        model.complete_state(t_next, state);

        // Divergence: stop with the last good state written.
        // Divergence: a non-finite state, or one that ran away (grew by
        // twelve orders of magnitude over the data's scale, which no
        // bounded forcing does in a bounded time): stop with the last good
        // state written.
        const double size =
          state.displacement.linfty_norm() + state.velocity.linfty_norm();
        if (!std::isfinite(size) || size > runaway_size)
          {
            if (history != nullptr)
              output.write_atomically("history.csv", history->to_string());
            std::ostringstream message;
            message << "the run diverged at step " << n + 1 << " (t = "
                    << t_next << ", dt = " << dt << "): the displacement or "
                    << "velocity "
                    << (std::isfinite(size) ?
                          "ran away (max norm " + format_number(size) +
                            ", more than 1e12 times the initial data)" :
                          std::string("is not finite"))
                    << ". Likely causes: an elastic step beyond its "
                       "stability limit (Splitting/Alpha < 1/4, the CFL "
                       "condition), a given rho or r outside its range, a "
                       "friction solver tolerance or iteration limit too "
                       "loose, or data that are not finite (a forcing or "
                       "boundary expression giving nan or inf, such as a "
                       "division by zero). The last good state is in "
                       "history.csv";
            throw RunError(message.str());
          }

        if (recording != nullptr)
          recording->record(state.displacement,
                            state.velocity,
                            state.multiplier);
        if (reference != nullptr)
          {
            reference->values(t_next, exact_x, exact_v);
            exact_x -= state.displacement;
            exact_v -= state.velocity;
            const double ex2 = norm_squared(exact_x);
            const double ev2 = norm_squared(exact_v);
            sum_x += dt * ex2;
            sum_v += dt * ev2;
            max_x = std::max(max_x, std::sqrt(ex2));
            max_v = std::max(max_v, std::sqrt(ev2));
            if (reference->has_multiplier())
              sum_lambda +=
                reference->multiplier_error_squared(t, t_next, state.multiplier);
          }
        if (history != nullptr &&
            (interval == 0 || t_next >= next_output - 1e-9 * dt ||
             n + 1 == n_steps))
          {
            history->add_row(model.history_row(
              t_next,
              state,
              Utilities::MPI::sum(
                integrator.statistics.local_dissipated_energy, system.comm),
              integrator.statistics.friction_iterations -
                iterations_at_last_row,
              true));
            if (fields)
              write_fields(t_next, state);
            iterations_at_last_row = integrator.statistics.friction_iterations;
            if (interval > 0)
              next_output = next_multiple(t0, interval, t_next, dt);
          }
        progress.update(t_next);

        if (snapshots)
          {
            bool due = false;
            if (checkpoint_interval > 0 &&
                t_next >= next_checkpoint - 1e-9 * dt)
              {
                due = true;
                next_checkpoint =
                  next_multiple(t0, checkpoint_interval, t_next, dt);
              }
            if (parameters.output.checkpoint_wall_interval > 0)
              {
                const auto   now = std::chrono::steady_clock::now();
                const double seconds =
                  std::chrono::duration<double>(now - last_wall_checkpoint).count();
                // rank 0's clock decides for all
                if (Utilities::MPI::max(
                      rank0 && seconds >= parameters.output.checkpoint_wall_interval ? 1 : 0,
                      system.comm) == 1)
                  {
                    due                  = true;
                    last_wall_checkpoint = now;
                  }
              }
            const int signal = termination_signal(system.comm);
            if ((due || signal != 0) && n + 1 < n_steps)
              {
                completed_steps  = n + 1;
                dissipated_total = Utilities::MPI::sum(
                  integrator.statistics.local_dissipated_energy, system.comm);
                lambda_total = Utilities::MPI::sum(sum_lambda, system.comm);
                store.write(completed_steps, archive, snapshot_meta(dt, *history));
                output.write_atomically("history.csv", history->to_string());
              }
            if (signal != 0)
              throw Interrupted(
                std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                " at step " + std::to_string(n + 1) + " (t = " +
                format_number(t_next) + "): a snapshot of this state is in " +
                store.folder() + "; continue with --resume " +
                output.file(""));
          }
      }

    StepSizeErrors errors{dt,
                     not_measured,
                     not_measured,
                     not_measured,
                     not_measured,
                     not_measured};
    if (reference != nullptr)
      {
        errors.displacement_l2  = std::sqrt(sum_x);
        errors.velocity_l2      = std::sqrt(sum_v);
        errors.displacement_max = max_x;
        errors.velocity_max     = max_v;
        if (reference->has_multiplier())
          errors.multiplier_l2 =
            std::sqrt(Utilities::MPI::sum(sum_lambda, system.comm));
      }

    const auto &statistics = integrator.statistics;
    char        line[256];
    std::snprintf(line,
                  sizeof(line),
                  "  dt = %-10.4g %u steps, %lu friction solves, %lu "
                  "iterations (%.2f per solve), wall %.2f s",
                  dt,
                  n_steps,
                  statistics.friction_solves,
                  statistics.friction_iterations,
                  statistics.friction_solves > 0 ?
                    double(statistics.friction_iterations) /
                      statistics.friction_solves :
                    0.,
                  progress.elapsed());
    pcout << line << std::endl;
    return errors;
  }



  void
  Driver::report_errors(const std::vector<StepSizeErrors> &errors) const
  {
    CsvTable table({"dt",
                    "error_x",
                    "error_v",
                    "error_lambda",
                    "max_error_x",
                    "max_error_v",
                    "order_x",
                    "order_v",
                    "order_lambda"});
    pcout << "\n  errors (discrete L2 in time; lambda: L2 of the step-averaged "
             "multiplier)\n"
          << "  dt          error_x     error_v     error_lambda  order_x  "
             "order_v  order_lambda\n";
    std::vector<double> dts, ex, ev, el;
    for (unsigned int i = 0; i < errors.size(); ++i)
      {
        const StepSizeErrors &e     = errors[i];
        double           ox    = not_measured, ov = not_measured,
               ol              = not_measured;
        if (i > 0)
          {
            const StepSizeErrors &p = errors[i - 1];
            ox = observed_order(p.displacement_l2, e.displacement_l2, p.dt, e.dt);
            ov = observed_order(p.velocity_l2, e.velocity_l2, p.dt, e.dt);
            ol = observed_order(p.multiplier_l2, e.multiplier_l2, p.dt, e.dt);
          }
        table.add_row({e.dt,
                       e.displacement_l2,
                       e.velocity_l2,
                       e.multiplier_l2,
                       e.displacement_max,
                       e.velocity_max,
                       ox,
                       ov,
                       ol});
        char line[200];
        std::snprintf(line,
                      sizeof(line),
                      "  %-10.4g  %-10.4e  %-10.4e  %-12.4e  %7.3f  %7.3f  %7.3f",
                      e.dt,
                      e.displacement_l2,
                      e.velocity_l2,
                      e.multiplier_l2,
                      ox,
                      ov,
                      ol);
        pcout << line << '\n';
        dts.push_back(e.dt);
        ex.push_back(e.displacement_l2);
        ev.push_back(e.velocity_l2);
        el.push_back(e.multiplier_l2);
      }
    if (errors.size() > 1)
      {
        char line[200];
        std::snprintf(line,
                      sizeof(line),
                      "  least-squares slopes: x %.3f, v %.3f, lambda %.3f",
                      fitted_slope(dts, ex),
                      fitted_slope(dts, ev),
                      fitted_slope(dts, el));
        pcout << line << '\n';
      }
    pcout << std::endl;
    output.write_atomically("errors.csv", table.to_string());
  }



  void
  Driver::resume_from_snapshot()
  {
    resume = true;
  }



  void
  Driver::run()
  {
    const FrictionSystem &    system = model.system();
    const std::vector<double> steps  = parameters.time.time_steps();

    // Build every integrator first: their checks (stability, rho range,
    // solver applicability) must fail before anything is written.
    std::vector<std::unique_ptr<TimeIntegrator>> integrators;
    for (const double dt : steps)
      integrators.push_back(
        create_time_integrator(parameters, system, source, dt));
    std::unique_ptr<TimeIntegrator> reference_integrator;
    const double reference_dt = parameters.time.reference_time_step;
    if (reference_dt > 0)
      {
        parameters.time.n_steps(reference_dt, source);
        reference_integrator =
          create_time_integrator(parameters, system, source, reference_dt);
      }

    if (checkpoints_enabled() || resume)
      {
        const std::string what =
          resume ? "--resume" : "Output/Checkpoint interval";
        if (steps.size() > 1 || reference_dt > 0)
          throw InputError(what + ": snapshots are for single runs; this "
                                  "one is a convergence study (Time/"
                                  "Convergence time steps or Reference time "
                                  "step)");
        if (!integrators.front()->supports_checkpoints())
          throw InputError(what + ": the scheme '" +
                           integrators.front()->description() +
                           "' keeps an adaptive state that cannot be "
                           "restored exactly; use lie, strang or centered");
      }

    // A resumed run continues in its own directory.
    // A fresh run drops an earlier run's snapshots, which a later --resume
    // would otherwise take for this run's.
    if (!resume)
      {
        output.prepare();
        CheckpointStore(output.file(""), system.comm).clear();
      }
    else if (!std::filesystem::is_directory(output.file("checkpoints")))
      throw InputError("--resume " + parameters.output.directory +
                       ": no snapshot to continue from in " +
                       output.file("checkpoints") +
                       " (was the run started with Output/Checkpoint "
                       "interval or Checkpoint wall interval?)");
    {
      std::ostringstream used;
      prm.print_parameters(used, ParameterHandler::PRM);
      output.write_atomically("parameters.prm", used.str());
    }

    pcout << "stickslip: " << model.description() << '\n'
          << "  scheme: " << integrators.front()->description() << '\n'
          << "  output: " << output.file("") << std::endl;

    std::unique_ptr<RecordedReference> recorded;
    const ReferenceSolution *          reference = nullptr;
    if (reference_dt > 0)
      {
        pcout << "  reference run:" << std::endl;
        recorded = std::make_unique<RecordedReference>(
          parameters.time.initial_time, reference_dt);
        simulate(reference_dt, *reference_integrator, nullptr, recorded.get(), nullptr);
        reference = recorded.get();
      }
    else
      reference = model.exact_reference();

    // history.csv is written for the smallest time step.
    unsigned int finest = 0;
    for (unsigned int i = 1; i < steps.size(); ++i)
      if (steps[i] < steps[finest])
        finest = i;

    std::vector<StepSizeErrors> errors;
    CsvTable               history(model.history_columns());
    for (unsigned int i = 0; i < steps.size(); ++i)
      errors.push_back(simulate(steps[i],
                                *integrators[i],
                                reference,
                                nullptr,
                                i == finest ? &history : nullptr));
    output.write_atomically("history.csv", history.to_string());

    if (reference != nullptr)
      report_errors(errors);
    pcout << "  wrote " << output.file("history.csv")
          << (reference != nullptr ? ", errors.csv" : "")
          << (model.has_field_output() && parameters.output.field_output ?
                ", solution.pvd" :
                "")
          << std::endl;
  }
} // namespace stickslip
