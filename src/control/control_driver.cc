#include <base/expressions.h>
#include <base/input_error.h>
#include <base/iteration_guard.h>
#include <base/progress.h>
#include <base/signals.h>
#include <control/control_driver.h>
#include <control/search_snapshots.h>
#include <drivers/friction_study.h>
#include <drivers/run_loop.h>
#include <linear_algebra/dense_tools.h>
#include <models/common/friction_evolution.h>

#include <cstdio>
#include <limits>
#include <sstream>

namespace stickslip
{
  ControlDriver::ControlDriver(const Parameters::Run    &run,
                               const ControlParameters  &control,
                               const ParameterSource    &source,
                               const ModelFactory       &factory,
                               std::unique_ptr<Model>    model,
                               const ConditionalOStream &pcout,
                               TimerOutput              &timer,
                               const MPI_Comm            world)
    : parameters(run)
    , control(control)
    , source(source)
    , factory(factory)
    , world_model(std::move(model))
    , pcout(pcout)
    , timer(timer)
    , world(world)
    , group(MPI_COMM_NULL)
    , group_system_model(nullptr)
    , simulation_iterations(0)
    , take_snapshots(false)
  {
    if (!parameters.time.convergence_time_steps.empty())
      throw_bad_parameter(source,
                          "Time/Convergence time steps",
                          parameters.time.convergence_time_steps_text,
                          "the control problem runs one time step: leave the "
                          "list empty and set Time/Time step");
    const unsigned int rank = Utilities::MPI::this_mpi_process(world);
    n_groups =
      Utilities::MPI::n_mpi_processes(world) / control.ranks_per_simulation;
    group_index = rank / control.ranks_per_simulation;
    MPI_Comm_split(world, group_index, rank, &group);
    group_model        = factory(group);
    group_system_model = dynamic_cast<FiniteDofModel *>(group_model.get());
    if (group_system_model == nullptr)
      throw_bad_parameter(
        source,
        "Control/Enabled",
        "true",
        "the control problem of Glowinski & Kearsley 1995 is for the "
        "finite-dof models (Model = ode)");
    // Input checks of the integrator (stability, r range) before any output.
    create_time_integrator(parameters,
                           group_model->system(),
                           source,
                           parameters.time.time_step,
                           group_model->inclusion_form());
  }



  ControlDriver::~ControlDriver()
  {
    group_model.reset(); // before its communicator goes
    if (group != MPI_COMM_NULL)
      MPI_Comm_free(&group);
  }



  std::vector<double>
  ControlDriver::control_force(const std::vector<double> &v) const
  {
    std::vector<double> force(v.size());
    for (unsigned int i = 0; i < v.size(); ++i)
      force[i] = control.control_matrix[i] * v[i];
    return force;
  }



  ControlOutcome
  ControlDriver::simulate(const std::vector<double> &v)
  {
    group_system_model->set_control_force(control_force(v));
    const FrictionSystem &system     = group_model->system();
    const double          dt         = parameters.time.time_step;
    const auto            integrator = create_time_integrator(
      parameters, system, source, dt, group_model->inclusion_form());
    FrictionEvolution evolution(*group_model, *integrator);
    ControlOutcome    outcome;
    try
      {
        RunLoop::integrate(evolution, parameters.time.grid(dt, source));
      }
    catch (RunError &)
      {
        // Only this group knows: a NaN outcome carries the failure to every
        // rank through the sum of evaluate(), and no group waits.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        outcome.displacement.assign(system.size(), nan);
        outcome.velocity.assign(system.size(), nan);
        return outcome;
      }
    const auto x = replicate(evolution.state().displacement, system.comm);
    const auto w = replicate(evolution.state().velocity, system.comm);
    outcome.displacement.assign(x.begin(), x.end());
    outcome.velocity.assign(w.begin(), w.end());
    outcome.iterations = integrator->statistics.friction_iterations;
    return outcome;
  }



  std::vector<ControlOutcome>
  ControlDriver::evaluate(const std::vector<std::vector<double>> &points)
  {
    const unsigned int d      = points.front().size();
    const unsigned int stride = 2 * d + 1;
    // A non-finite outcome of one group must not hang the others: every
    // group finishes its share, and the sum carries the NaN to all.
    std::vector<double> buffer(points.size() * stride, 0.);
    const bool group_root = Utilities::MPI::this_mpi_process(group) == 0;
    for (unsigned int i = group_index; i < points.size(); i += n_groups)
      {
        const ControlOutcome outcome = simulate(points[i]);
        if (!group_root)
          continue;
        for (unsigned int k = 0; k < d; ++k)
          {
            buffer[i * stride + k]     = outcome.displacement[k];
            buffer[i * stride + d + k] = outcome.velocity[k];
          }
        buffer[i * stride + 2 * d] = outcome.iterations;
      }
    const std::vector<double> local = buffer;
    Utilities::MPI::sum(local, world, buffer);
    std::vector<ControlOutcome> outcomes(points.size());
    for (unsigned int i = 0; i < points.size(); ++i)
      {
        outcomes[i].displacement.assign(buffer.begin() + i * stride,
                                        buffer.begin() + i * stride + d);
        outcomes[i].velocity.assign(buffer.begin() + i * stride + d,
                                    buffer.begin() + i * stride + 2 * d);
        outcomes[i].iterations = buffer[i * stride + 2 * d];
        simulation_iterations += outcomes[i].iterations;
        for (unsigned int k = 0; k < d; ++k)
          if (!std::isfinite(outcomes[i].displacement[k]) ||
              !std::isfinite(outcomes[i].velocity[k]))
            {
              std::ostringstream message;
              message << "the simulation for the trial control v = (";
              for (unsigned int j = 0; j < d; ++j)
                message << (j > 0 ? ", " : "") << points[i][j];
              message << ") diverged (x(T) or x'(T) not finite, or a "
                         "friction solver at its limit). Likely causes: an "
                         "unstable time step (alpha < 1/4) or a control far "
                         "out of range (Control/Initial simplex size)";
              throw RunError(message.str());
            }
      }
    return outcomes;
  }



  void
  ControlDriver::print_header(const RunDirectory &directory) const
  {
    const unsigned int d = group_model->system().size();
    pcout
      << "stickslip: optimal control (Glowinski & Kearsley 1995, §2-3) of the "
      << group_model->description() << '\n'
      << "  penalty "
      << (control.penalty == ControlParameters::Penalty::exact ? "P (3.1)" :
                                                                 "Pi_K (3.4)")
      << (control.dynamic_rho ?
            ", dynamic rho (3.2)-(3.3)" :
            ", constant rho = " + format_number(control.rho))
      << "; parallel direct search, template of "
      << control.search_scales.size() * d << " points, tolerance "
      << control.tolerance << "; " << n_groups << " group(s) of "
      << control.ranks_per_simulation << " rank(s)\n"
      << "  output: " << directory.file("") << std::endl;
  }



  void
  ControlDriver::observe(const ParallelDirectSearch::State &state,
                         const RunDirectory                &directory)
  {
    const unsigned int         iteration = state.simplexes;
    const std::vector<double> &best      = state.vertices[0];
    const ControlOutcome      &outcome   = state.outcomes[0];
    const double               edge      = state.largest_edge();
    const double               value     = penalty->value(best, outcome);
    std::vector<double>        row       = {double(iteration),
                                            value,
                                            edge,
                                            penalty->displacement_error(outcome),
                                            penalty->velocity_error(outcome),
                                            penalty->cost(best),
                                            double(state.evaluations),
                                            penalty->rho_1,
                                            penalty->rho_2};
    row.insert(row.end(), best.begin(), best.end());
    table->add_row(row);
    directory.write_atomically("optimization.csv", table->to_string());
    // The penalty of the next simplex depends on this best point.
    penalty->update(best, outcome);
    if (!parameters.output.quiet && iteration % 10 == 0)
      {
        char line[200];
        std::snprintf(line,
                      sizeof(line),
                      "  simplex %4u  penalty %.6e  edge %.3e  E1 %.3e  "
                      "E2 %.3e  %lu simulations",
                      iteration,
                      value,
                      edge,
                      penalty->displacement_error(outcome),
                      penalty->velocity_error(outcome),
                      state.evaluations);
        pcout << line << std::endl;
      }

    if (!take_snapshots)
      return;
    // After the last iteration always: a resume then only reruns the
    // controlled trajectory.
    guard->after_iteration(
      snapshots->due() || edge < control.tolerance,
      true,
      [&]() {
        snapshots->write(state, *penalty, simulation_iterations, *table);
      },
      [&]() { return "after simplex " + std::to_string(iteration); });
  }



  ParallelDirectSearch::Result
  ControlDriver::search(RunDirectory &directory, const bool resume)
  {
    const unsigned int       d       = group_model->system().size();
    std::vector<std::string> columns = {"simplex",
                                        "penalty",
                                        "largest_edge",
                                        "E1",
                                        "E2",
                                        "cost",
                                        "evaluations",
                                        "rho1",
                                        "rho2"};
    for (unsigned int i = 0; i < d; ++i)
      columns.push_back("v" + std::to_string(i + 1));
    table = std::make_unique<CsvTable>(columns);
    const ParallelDirectSearch search(control.search_scales,
                                      control.tolerance,
                                      control.max_simplexes);
    const auto                 merit = [&](const std::vector<double> &v,
                           const ControlOutcome      &outcome) {
      return penalty->value(v, outcome);
    };
    const auto evaluator = [&](const std::vector<std::vector<double>> &points) {
      return evaluate(points);
    };
    const auto observer = [&](const ParallelDirectSearch::State &state) {
      observe(state, directory);
    };

    if (take_snapshots)
      install_termination_handlers();
    ParallelDirectSearch::State state;
    if (resume)
      {
        std::vector<std::string> warnings;
        state =
          snapshots->read(d, *penalty, simulation_iterations, *table, warnings);
        for (const auto &warning : warnings)
          pcout << "stickslip: warning: " << warning << std::endl;
        directory.continue_run();
        // Rows written after the snapshot go; the search writes them again.
        directory.write_atomically("optimization.csv", table->to_string());
        pcout << "  resumed after simplex " << state.simplexes << " ("
              << state.evaluations << " simulations) from "
              << snapshots->folder() << std::endl;
      }
    else
      {
        state = search.start(control.initial_control,
                             control.initial_simplex_size,
                             evaluator,
                             merit);
        observe(state, directory);
      }
    return search.minimize(state, evaluator, merit, observer);
  }



  void
  ControlDriver::print_result(const ParallelDirectSearch::Result &result,
                              const double                        wall) const
  {
    const unsigned int d = group_model->system().size();
    std::ostringstream summary;
    summary.precision(10);
    summary << "  optimum after " << result.simplexes << " simplexes, "
            << result.evaluations << " simulations (IVPs), wall " <<
      [wall]() {
        char text[32];
        std::snprintf(text, sizeof(text), "%.2f", wall);
        return std::string(text);
      }() << " s: v* = (";
    for (unsigned int i = 0; i < d; ++i)
      summary << (i > 0 ? ", " : "") << result.best[i];
    summary << ")\n  J(v*) = " << penalty->cost(result.best)
            << ", E1 = " << penalty->displacement_error(result.outcome)
            << ", E2 = " << penalty->velocity_error(result.outcome)
            << ", largest edge " << result.largest_edge << '\n'
            << "  friction iterations per simulation step: "
            << double(simulation_iterations) /
                 (double(result.evaluations) *
                  parameters.time.n_steps(parameters.time.time_step, source))
            << '\n'
            << "  the controlled run:";
    pcout << summary.str() << std::endl;
  }



  void
  ControlDriver::run(RunDirectory &directory, const bool resume)
  {
    snapshots      = std::make_unique<SearchSnapshots>(parameters.output,
                                                  directory.path(),
                                                  world);
    take_snapshots = snapshots->enabled() || resume;
    guard          = std::make_unique<IterationGuard>(world,
                                             timer,
                                             "control search: snapshots",
                                             "the search",
                                             snapshots->folder(),
                                             directory.path());
    if (resume)
      directory.check_resumable();
    else
      directory.start_fresh();
    print_header(directory);
    penalty = std::make_unique<ControlPenalty>(control,
                                               parameters.time.final_time -
                                                 parameters.time.initial_time);

    ProgressReporter             progress(pcout,
                              0,
                              1,
                              parameters.output.progress_interval,
                              parameters.output.quiet);
    ParallelDirectSearch::Result result;
    {
      TimerOutput::Scope scope(timer, "control search (in all)");
      result = search(directory, resume);
    }
    print_result(result, progress.elapsed());
    // The controlled run takes no snapshots: a signal now ends it at once,
    // and after a stop it is simply run again.
    restore_default_termination_handlers();

    dynamic_cast<FiniteDofModel &>(*world_model)
      .set_control_force(control_force(result.best));
    FrictionStudy controlled(
      parameters, std::move(world_model), source, pcout, timer);
    controlled.run_once(directory);
    pcout << "  wrote " << directory.file("optimization.csv") << std::endl;
  }
} // namespace stickslip
