#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>

#include <base/command_line.h>
#include <base/global.h>
#include <base/input_error.h>
#include <base/memory_stage.h>
#include <base/parameter_documentation.h>
#include <base/parameter_file.h>
#include <base/process_setup.h>
#include <base/resumed_parameters.h>
#include <base/run_directory.h>
#include <base/screen_log.h>
#include <base/signals.h>
#include <base/version.h>
#include <control/control_driver.h>
#include <drivers/batch_runner.h>
#include <drivers/body_study.h>
#include <drivers/friction_study.h>
#include <drivers/run_parameters.h>
#include <drivers/slab_study.h>
#include <drivers/spring_slider_study.h>
#include <models/body/body_parameters.h>
#include <models/chain/chain_model.h>
#include <models/chain/chain_parameters.h>
#include <models/gearbox/gearbox_model.h>
#include <models/gearbox/gearbox_parameters.h>
#include <models/ode/ode_model.h>
#include <models/ode/ode_parameters.h>
#include <models/slab/slab_parameters.h>
#include <models/string/string_model.h>
#include <models/string/string_parameters.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace
{
  using namespace stickslip;

  void
  declare_all_parameters(ParameterHandler &prm)
  {
    Parameters::Run::declare_parameters(prm);
    ControlParameters::declare_parameters(prm);
    OdeParameters::declare_parameters(prm);
    GearboxParameters::declare_parameters(prm);
    StringParameters::declare_parameters(prm);
    ChainParameters::declare_parameters(prm);
    Slab::SlabParameters::declare_parameters(prm);
    Body::BodyParameters::declare_parameters(prm);
    SpringSliderParameters::declare_parameters(prm);
  }



  /**
   * The names of every declared parameter, for the checks of the file and
   * of --set. They depend on the code only (never on an input), so a batch
   * computes them once for all its runs: deal.II writes every declaration
   * out and reads it back for them, about 4e7 instructions, a quarter of a
   * 3-dof run of 400 steps.
   */
  DeclaredNames
  declared_parameter_names()
  {
    ParameterHandler prm;
    declare_all_parameters(prm);
    return DeclaredNames(prm);
  }



  /** The text after "Additional information:" of a deal.II exception. */
  std::string
  short_reason(const std::string &what)
  {
    const std::string marker   = "Additional information:";
    const auto        position = what.find(marker);
    std::string       reason   = position == std::string::npos ?
                                   what :
                                   what.substr(position + marker.size());
    const auto        stack    = reason.find("Stacktrace:");
    if (stack != std::string::npos)
      reason = reason.substr(0, stack);
    std::string compact;
    bool        space = false;
    for (const char c : reason)
      {
        if (c == '\n' || c == ' ' || c == '\t')
          space = !compact.empty();
        else
          {
            if (space)
              compact += ' ';
            compact += c;
            space = false;
          }
      }
    return compact;
  }

  /**
   * Set "Subsection/Name" = @p value from the command line, once the path is
   * known to be declared (an alias stands for its entry: a warning is
   * returned).
   */
  std::string
  apply_override(ParameterHandler    &prm,
                 const DeclaredNames &names,
                 const std::string   &path,
                 const std::string   &value,
                 ParameterSource     &source)
  {
    std::vector<std::string> parts;
    std::string              part;
    std::istringstream       in(path);
    while (std::getline(in, part, '/'))
      parts.push_back(part);
    const std::string option =
      "--set \"" + path + "=" + printable_excerpt(value) + "\"";
    if (parts.empty())
      throw InputError(option + ": write \"Subsection/Name=value\"");
    const std::string name = parts.back();
    parts.pop_back();
    const std::string canonical = names.entry(parts, name, option);
    std::string       alias_of, warning;
    if (names.is_alias(path, alias_of))
      warning = "warning: " + option + ": '" + path +
                "' is the deprecated old name of '" + canonical + "'";
    parts.clear();
    std::istringstream canonical_in(canonical);
    while (std::getline(canonical_in, part, '/'))
      parts.push_back(part);
    for (unsigned int i = 0; i + 1 < parts.size(); ++i)
      prm.enter_subsection(parts[i]);
    try
      {
        prm.set(parts.back(), value);
      }
    catch (std::exception &e)
      {
        for (unsigned int i = 0; i + 1 < parts.size(); ++i)
          prm.leave_subsection();
        throw InputError(option + ": " +
                         shorten_quoted_values(short_reason(e.what())) +
                         " (see stickslip --print-parameters)");
      }
    for (unsigned int i = 0; i + 1 < parts.size(); ++i)
      prm.leave_subsection();
    source.mark_command_line(canonical);
    return warning;
  }



  /** The file's text to deal.II (a .json or .xml file: deal.II reads it). */
  void
  parse_file(ParameterHandler         &prm,
             const DeclaredNames      &names,
             const std::string        &file_name,
             std::vector<std::string> &warnings)
  {
    const std::string extension =
      std::filesystem::path(file_name).extension().string();
    std::string text;
    if (extension != ".json" && extension != ".xml")
      text = read_parameter_file(file_name, names, warnings);
    else if (!std::filesystem::is_regular_file(file_name))
      throw InputError("cannot open the parameter file '" + file_name +
                       "': no such file");
    try
      {
        if (extension == ".json" || extension == ".xml")
          prm.parse_input(file_name, "", false);
        else
          {
            std::istringstream in(text);
            prm.parse_input(in, file_name, "", false);
          }
      }
    catch (std::exception &e)
      {
        throw InputError("in the parameter file '" + file_name +
                         "': " + shorten_quoted_values(short_reason(e.what())) +
                         " (see stickslip --print-parameters for every "
                         "parameter and its allowed values)");
      }
  }



  /**
   * Read the parameter file and the command line's --set into @p prm, whose
   * declarations @p names lists.
   */
  ParameterSource
  read_parameters(const CommandLine        &line,
                  ParameterHandler         &prm,
                  const DeclaredNames      &names,
                  const ConditionalOStream &pcout)
  {
    std::vector<std::string> warnings;
    parse_file(prm, names, line.parameter_file, warnings);
    for (const auto &warning : warnings)
      pcout << warning << std::endl;
    ParameterSource source(line.parameter_file);
    source.use_entry_names(names.alias_paths());
    for (const auto &assignment : line.overrides)
      {
        const std::string warning = apply_override(
          prm, names, assignment.first, assignment.second, source);
        if (!warning.empty())
          pcout << warning << std::endl;
      }
    prm.enter_subsection("Output");
    if (!line.resume_directory.empty())
      // The run continues in its own directory, whatever the file says.
      prm.set("Directory", line.resume_directory);
    if (line.quiet)
      prm.set("Quiet", true);
    prm.leave_subsection();
    return source;
  }



  /**
   * The model of a friction-system run on @p comm (every kind but the slab):
   * the parameters of its subsection are parsed and handed to it.
   */
  std::unique_ptr<Model>
  create_model(const Parameters::Run &parameters,
               ParameterHandler      &prm,
               const ParameterSource &source,
               const MPI_Comm         comm)
  {
    switch (parameters.model)
      {
        case Parameters::ModelKind::ode:
          {
            OdeParameters ode;
            ode.parse(prm, source);
            return std::make_unique<OdeModel>(ode, source, comm);
          }
        case Parameters::ModelKind::gearbox:
          {
            GearboxParameters gearbox;
            gearbox.parse(prm, source);
            return std::make_unique<GearboxModel>(gearbox, source, comm);
          }
        case Parameters::ModelKind::chain:
          {
            ChainParameters chain;
            chain.parse(prm, source);
            return std::make_unique<ChainModel>(chain,
                                                parameters.time,
                                                source,
                                                comm);
          }
        case Parameters::ModelKind::string:
          {
            StringParameters string;
            string.parse(prm, source, parameters.dimension);
            if (parameters.dimension == 1)
              return std::make_unique<StringModel<1>>(string,
                                                      parameters.time,
                                                      source,
                                                      comm);
            return std::make_unique<StringModel<2>>(string,
                                                    parameters.time,
                                                    source,
                                                    comm);
          }
        case Parameters::ModelKind::slab:
        case Parameters::ModelKind::body:
        case Parameters::ModelKind::spring_slider:
          break;
      }
    Assert(false, ExcInternalError());
    return nullptr;
  }



  /**
   * The study of the chosen model, with every input checked (collective):
   * the one place where the model selection is turned into code.
   */
  std::unique_ptr<Study>
  create_study(const Parameters::Run    &parameters,
               ParameterHandler         &prm,
               const ParameterSource    &source,
               const MPI_Comm            comm,
               const ConditionalOStream &pcout,
               TimerOutput              &timer)
  {
    TimerOutput::Scope scope(timer, "set-up");
    const MemoryStage  stage("setting up the model");
    const bool finite_dof = parameters.model == Parameters::ModelKind::ode ||
                            parameters.model == Parameters::ModelKind::gearbox;
    const bool control_enabled = ControlParameters::enabled_in(prm);
    if (control_enabled && !finite_dof)
      throw_bad_parameter(
        source,
        "Control/Enabled",
        "true",
        "the control problem of Glowinski & Kearsley 1995 is for the "
        "finite-dof models (Model = ode or gearbox)");
    if (parameters.model == Parameters::ModelKind::slab)
      {
        Slab::SlabParameters slab;
        slab.parse(prm, source);
        if (slab.cfl_number == 0) // else the slab chooses its own step
          pcout << parameters.output.check_intervals(parameters.time.time_step,
                                                     "Time/Time step",
                                                     true,
                                                     source);
        return std::make_unique<SlabStudy>(
          parameters, slab, source, comm, pcout, timer);
      }
    if (parameters.model == Parameters::ModelKind::spring_slider)
      {
        SpringSliderParameters slider;
        slider.parse(prm, source);
        pcout << parameters.output.check_intervals(parameters.time.time_step,
                                                   "Time/Time step",
                                                   true,
                                                   source);
        return std::make_unique<SpringSliderStudy>(
          parameters, slider, source, pcout, timer);
      }
    if (parameters.model == Parameters::ModelKind::body)
      {
        Body::BodyParameters body;
        body.parse(prm, source, parameters.dimension);
        pcout << parameters.output.check_intervals(parameters.time.time_step,
                                                   "Time/Time step",
                                                   true,
                                                   source);
        return std::make_unique<BodyStudy>(
          parameters, body, source, comm, pcout, timer);
      }

    parameters.time.check_steps(source);
    std::unique_ptr<Model> model = create_model(parameters, prm, source, comm);
    model->system().check_initial_data(parameters.time.initial_time);
    std::unique_ptr<Study> study;
    if (!control_enabled)
      study = std::make_unique<FrictionStudy>(
        parameters, std::move(model), source, pcout, timer);
    else
      {
        ControlParameters control;
        control.parse(prm, source, model->system().size(), comm);
        const auto factory =
          [&parameters, &prm, &source](const MPI_Comm group) {
            return create_model(parameters, prm, source, group);
          };
        study = std::make_unique<ControlDriver>(parameters,
                                                control,
                                                source,
                                                factory,
                                                std::move(model),
                                                pcout,
                                                timer,
                                                comm);
      }
    // After the scheme's own checks (stability), which come first.
    for (const double dt : parameters.time.time_steps())
      pcout << parameters.output.check_intervals(
        dt,
        parameters.time.convergence_time_steps.empty() ?
          "Time/Time step" :
          "Time/Convergence time steps",
        !control_enabled, // a search's snapshots follow its iterations
        source);
    return study;
  }



  /**
   * Run what the command line asks for: check every input, take the output
   * directory, run, and print where the time went. @p names: those of
   * declared_parameter_names(); @p batch: the directories of the earlier
   * runs of a batch (nullptr for a lone run).
   */
  void
  run(const CommandLine   &line,
      const MPI_Comm       comm,
      ConditionalOStream  &pcout,
      ScreenLog           &screen,
      const DeclaredNames &names,
      BatchDirectories    *batch)
  {
    ParameterHandler prm;
    declare_all_parameters(prm);
    const ParameterSource source = read_parameters(line, prm, names, pcout);
    Parameters::Run::apply_model_defaults(prm, source);
    const bool resume = !line.resume_directory.empty();
    if (resume)
      check_resumed_parameters(prm, source, line.resume_directory);

    Parameters::Run parameters;
    parameters.parse(prm, source);
    if (batch != nullptr)
      batch->claim(parameters.output.directory, resume, source);
    parameters.check_subsections_used(source, pcout);
    TimerOutput timer(pcout, TimerOutput::never, TimerOutput::wall_times);
    const std::unique_ptr<Study> study =
      create_study(parameters, prm, source, comm, pcout, timer);

    std::ostringstream used;
    prm.print_parameters(used, ParameterHandler::PRM);
    RunDirectory directory(parameters.output, used.str(), comm, &screen);
    directory.lock(!resume, source);
    study->run(directory, resume);
    if (!parameters.output.quiet)
      timer.print_summary();
  }
} // namespace



namespace
{
  // --help, --version and --print-parameters answer and end the program;
  // returns whether the command line asked for one of them.
  bool
  answer_without_running(const CommandLine          &line,
                         dealii::ConditionalOStream &pcout,
                         const bool                  rank0)
  {
    using namespace stickslip;
    if (line.help)
      {
        pcout << usage;
        return true;
      }
    if (line.version)
      {
        pcout << "stickslip " << stickslip_version() << '\n'
              << library_versions() << std::endl;
        return true;
      }
    if (!line.print_parameters)
      return false;
    ParameterHandler prm;
    declare_all_parameters(prm);
    if (rank0)
      {
        if (line.print_format == "json")
          prm.print_parameters(std::cout, ParameterHandler::JSON);
        else
          print_parameter_documentation(prm,
                                        std::cout,
                                        line.print_format == "markdown");
      }
    return true;
  }



  /**
   * One run, as `stickslip` with @p line runs it: its own screen output
   * (written to its log.txt), its errors reported and turned into the exit
   * status (0 finished, 1 bad input, 2 run failed, 3 stopped by a signal
   * after a snapshot). Out of memory and unexpected exceptions pass on to
   * main(). @p names and @p batch: see run().
   */
  int
  run_and_report(const stickslip::CommandLine   &line,
                 const MPI_Comm                  comm,
                 const stickslip::DeclaredNames &names,
                 stickslip::BatchDirectories    *batch)
  {
    using namespace stickslip;
    const bool rank0 = Utilities::MPI::this_mpi_process(comm) == 0;
    // The screen output, also written to OUTPUT/log.txt once it is known.
    ScreenLog          screen;
    ConditionalOStream pcout(screen.stream(), rank0);
    // A message on standard error, also in the log (rank 0).
    const auto report = [&](const std::string &message) {
      if (!rank0)
        return;
      std::cerr << message << std::endl;
      screen.write_to_log(message + "\n");
    };
    try
      {
        if (line.parameter_file.empty())
          throw InputError(std::string("no parameter file given\n") + usage);
        run(line, comm, pcout, screen, names, batch);
      }
    catch (Interrupted &interruption)
      {
        report(std::string("stickslip: interrupted by ") + interruption.what());
        return 3;
      }
    catch (RunError &error)
      {
        report(std::string("stickslip: run failed: ") + error.what());
        return 2;
      }
    catch (InputError &error)
      {
        // Thrown identically on every rank: print once, exit together.
        report(std::string("stickslip: error: ") + error.what());
        return 1;
      }
    return 0;
  }
} // namespace

int
main(int argc, char **argv)
{
  using namespace stickslip;
  // A serial run started without mpirun starts Open MPI in 0.02 s instead
  // of 0.3 s (set before MPI_Init reads the environment).
  prepare_singleton_mpi_start();
  // PETSc would take our own options for its own and warn about them.
  int                              library_argc = 1;
  Utilities::MPI::MPI_InitFinalize mpi_initialization(library_argc, argv, 1);
  const MPI_Comm                   comm = MPI_COMM_WORLD;
  const bool rank0 = Utilities::MPI::this_mpi_process(comm) == 0;
  limit_blas_threads();

  try
    {
      const CommandLine line =
        parse_command_line(std::vector<std::string>(argv + 1, argv + argc),
                           std::string("\n") + usage);
      ConditionalOStream pcout(std::cout, rank0);
      if (answer_without_running(line, pcout, rank0))
        return 0;
      const DeclaredNames names = declared_parameter_names();
      if (line.batch_file.empty())
        return run_and_report(line, comm, names, nullptr);
      return run_batch(
        line.batch_file,
        [comm, &names](const CommandLine &command,
                       BatchDirectories  &directories) {
          return run_and_report(command, comm, names, &directories);
        },
        comm);
    }
  catch (InputError &error)
    {
      // The command line or the batch file, checked alike on every rank.
      if (rank0)
        std::cerr << "stickslip: error: " << error.what() << std::endl;
      return 1;
    }
  catch (std::bad_alloc &)
    {
      // Possibly on this rank alone: it cannot wait for the others.
      std::cerr << "stickslip: run failed on rank "
                << Utilities::MPI::this_mpi_process(comm)
                << ": out of memory (std::bad_alloc) while "
                << (MemoryStage::current().empty() ? std::string("running") :
                                                     MemoryStage::current())
                << ". The memory of the machine (or the limit of ulimit -v) "
                   "is too small for this size: use fewer cells or unknowns, "
                   "or more nodes"
                << std::endl;
      if (Utilities::MPI::n_mpi_processes(comm) > 1)
        MPI_Abort(comm, 2);
      return 2;
    }
  catch (std::exception &error)
    {
      std::cerr << "stickslip: error on rank "
                << Utilities::MPI::this_mpi_process(comm) << ": "
                << short_reason(error.what()) << std::endl;
      if (Utilities::MPI::n_mpi_processes(comm) > 1)
        MPI_Abort(comm, 1);
      return 1;
    }
  catch (...)
    {
      std::cerr << "stickslip: unknown error on rank "
                << Utilities::MPI::this_mpi_process(comm) << std::endl;
      if (Utilities::MPI::n_mpi_processes(comm) > 1)
        MPI_Abort(comm, 1);
      return 1;
    }
  return 0;
}
