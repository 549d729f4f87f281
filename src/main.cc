#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>

#include <base/global.h>
#include <base/input_error.h>
#include <base/parameter_documentation.h>
#include <base/resumed_parameters.h>
#include <base/run_parameters.h>
#include <base/signals.h>
#include <control/control_driver.h>
#include <drivers/driver.h>
#include <models/chain/chain_model.h>
#include <models/gearbox/gearbox_model.h>
#include <models/ode/ode_model.h>
#include <models/slab/slab_simulation.h>
#include <models/string/string_model.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace
{
  using namespace stickslip;

  const char *usage =
    "usage: stickslip FILE.prm [--set \"Subsection/Name=value\"]... [--quiet]\n"
    "       stickslip FILE.prm --resume OUTPUT_DIRECTORY [--set ...]\n"
    "       stickslip --print-parameters [markdown]\n"
    "       stickslip --help\n";

  struct CommandLine
  {
    std::string                                      parameter_file;
    std::vector<std::pair<std::string, std::string>> overrides;
    bool                                             print_parameters = false;
    bool                                             quiet            = false;
    bool                                             help             = false;
    std::string                                      resume_directory;
  };

  CommandLine
  parse_command_line(const int argc, char **argv)
  {
    CommandLine line;
    for (int i = 1; i < argc; ++i)
      {
        const std::string argument = argv[i];
        if (argument == "--print-parameters")
          line.print_parameters = true;
        else if (argument == "--quiet")
          line.quiet = true;
        else if (argument == "--help" || argument == "-h")
          line.help = true;
        else if (argument == "--resume")
          {
            if (i + 1 >= argc)
              throw InputError("--resume needs the output directory of the "
                               "run to continue");
            line.resume_directory = argv[++i];
          }
        else if (argument == "--set")
          {
            if (i + 1 >= argc)
              throw InputError("--set needs an argument \"Subsection/Name=value\"");
            const std::string assignment = argv[++i];
            const auto        equal      = assignment.find('=');
            if (equal == std::string::npos)
              throw InputError("--set \"" + assignment +
                               "\": write \"Subsection/Name=value\"");
            const auto trim = [](const std::string &text) {
              const auto first = text.find_first_not_of(" \t");
              if (first == std::string::npos)
                return std::string();
              return text.substr(first,
                                 text.find_last_not_of(" \t") - first + 1);
            };
            line.overrides.emplace_back(trim(assignment.substr(0, equal)),
                                        trim(assignment.substr(equal + 1)));
          }
        else if (!argument.empty() && argument[0] == '-')
          throw InputError("unknown option '" + argument + "'\n" + usage);
        else if (line.parameter_file.empty())
          line.parameter_file = argument;
        else
          throw InputError("more than one parameter file given ('" +
                           line.parameter_file + "' and '" + argument +
                           "')\n" + usage);
      }
    return line;
  }

  void
  declare_all_parameters(ParameterHandler &prm)
  {
    Parameters::Run::declare_parameters(prm);
    ControlParameters::declare_parameters(prm);
    OdeModel::declare_parameters(prm);
    GearboxModel::declare_parameters(prm);
    StringModel<1>::declare_parameters(prm);
    ChainModel::declare_parameters(prm);
    Slab::SlabSimulation::declare_parameters(prm);
  }

  /** The text after "Additional information:" of a deal.II exception. */
  std::string
  short_reason(const std::string &what)
  {
    const std::string marker   = "Additional information:";
    const auto        position = what.find(marker);
    std::string       reason =
      position == std::string::npos ? what : what.substr(position + marker.size());
    const auto stack = reason.find("Stacktrace:");
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

  void
  apply_override(ParameterHandler &         prm,
                 const std::string &        path,
                 const std::string &        value,
                 ParameterSource &          source)
  {
    std::vector<std::string> parts;
    std::string              part;
    std::istringstream       in(path);
    while (std::getline(in, part, '/'))
      parts.push_back(part);
    unsigned int entered = 0;
    try
      {
        for (unsigned int i = 0; i + 1 < parts.size(); ++i)
          {
            prm.enter_subsection(parts[i]);
            ++entered;
          }
        prm.set(parts.back(), value);
      }
    catch (std::exception &e)
      {
        for (; entered > 0; --entered)
          prm.leave_subsection();
        throw InputError("--set \"" + path + "=" + value +
                         "\": " + short_reason(e.what()) +
                         " (see stickslip --print-parameters)");
      }
    for (; entered > 0; --entered)
      prm.leave_subsection();
    source.mark_command_line(path);
  }

  void
  run(const CommandLine &line, const MPI_Comm comm, const ConditionalOStream &pcout)
  {
    ParameterHandler prm;
    declare_all_parameters(prm);

    if (!std::filesystem::exists(line.parameter_file))
      throw InputError("cannot open the parameter file '" +
                       line.parameter_file + "': no such file");
    {
      std::ifstream probe(line.parameter_file);
      if (!probe.good())
        throw InputError("cannot read the parameter file '" +
                         line.parameter_file + "'");
    }
    try
      {
        prm.parse_input(line.parameter_file, "", false);
      }
    catch (std::exception &e)
      {
        throw InputError("in the parameter file '" + line.parameter_file +
                         "': " + short_reason(e.what()) +
                         " (see stickslip --print-parameters for every "
                         "parameter and its allowed values)");
      }
    ParameterSource source(line.parameter_file);
    for (const auto &assignment : line.overrides)
      apply_override(prm, assignment.first, assignment.second, source);
    if (!line.resume_directory.empty())
      {
        // The run continues in its own directory, whatever the file says.
        prm.enter_subsection("Output");
        prm.set("Directory", line.resume_directory);
        prm.leave_subsection();
      }
    if (line.quiet)
      {
        prm.enter_subsection("Output");
        prm.set("Quiet", true);
        prm.leave_subsection();
      }
    if (!line.resume_directory.empty())
      check_resumed_parameters(prm, source, line.resume_directory);

    // The slab has its own driver (its interior is a characteristic
    // transport, not a friction system); it reads Time and Output itself.
    if (prm.get("Model") == "slab")
      {
        prm.enter_subsection("Control");
        const bool control = prm.get_bool("Enabled");
        prm.leave_subsection();
        if (control)
          throw InputError("Control/Enabled: the control problem of seed 002 "
                           "is for the finite-dof models (Model = ode)");
        Slab::SlabSimulation simulation(prm, source, comm, pcout);
        if (!line.resume_directory.empty())
          simulation.resume_from_snapshot();
        simulation.run();
        return;
      }

    Parameters::Run parameters;
    parameters.parse(prm, source);

    const auto create_model =
      [&](const MPI_Comm model_comm) -> std::unique_ptr<Model> {
      if (parameters.model == "ode")
        return std::make_unique<OdeModel>(prm, source, model_comm);
      if (parameters.model == "gearbox")
        return std::make_unique<GearboxModel>(prm, source, model_comm);
      if (parameters.model == "chain")
        return std::make_unique<ChainModel>(prm, source, model_comm);
      if (parameters.dimension == 1)
        return std::make_unique<StringModel<1>>(prm, source, model_comm);
      return std::make_unique<StringModel<2>>(prm, source, model_comm);
    };
    std::unique_ptr<Model> model = create_model(comm);

    ControlParameters control;
    control.parse(prm,
                  source,
                  model->system().size(),
                  dynamic_cast<FiniteDofModel *>(model.get()) != nullptr,
                  comm);
    if (control.enabled)
      {
        model.reset();
        ControlDriver driver(
          parameters, control, source, create_model, prm, pcout, comm);
        if (!line.resume_directory.empty())
          driver.resume_from_snapshot();
        driver.run();
        return;
      }
    Driver driver(parameters, source, *model, prm, pcout);
    if (!line.resume_directory.empty())
      driver.resume_from_snapshot();
    driver.run();
  }
} // namespace



int
main(int argc, char **argv)
{
  using namespace stickslip;
  // PETSc would take our own options for its own and warn about them.
  int                              library_argc = 1;
  Utilities::MPI::MPI_InitFinalize mpi_initialization(library_argc, argv, 1);
  const MPI_Comm                   comm = MPI_COMM_WORLD;
  const bool rank0 = Utilities::MPI::this_mpi_process(comm) == 0;
  ConditionalOStream pcout(std::cout, rank0);

  try
    {
      const CommandLine line = parse_command_line(argc, argv);
      if (line.help)
        {
          pcout << usage;
          return 0;
        }
      if (line.print_parameters)
        {
          ParameterHandler prm;
          declare_all_parameters(prm);
          if (rank0)
            print_parameter_documentation(prm,
                                          std::cout,
                                          line.parameter_file == "markdown");
          return 0;
        }
      if (line.parameter_file.empty())
        throw InputError(std::string("no parameter file given\n") + usage);
      run(line, comm, pcout);
    }
  catch (Interrupted &interruption)
    {
      if (rank0)
        std::cerr << "stickslip: interrupted by " << interruption.what()
                  << std::endl;
      return 3;
    }
  catch (RunError &error)
    {
      if (rank0)
        std::cerr << "stickslip: run failed: " << error.what() << std::endl;
      return 2;
    }
  catch (InputError &error)
    {
      // Thrown identically on every rank: print once, exit together.
      if (rank0)
        std::cerr << "stickslip: error: " << error.what() << std::endl;
      return 1;
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
