#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>

#include <base/command_line.h>
#include <base/exit_status.h>
#include <base/input_error.h>
#include <base/parameter_file.h>
#include <base/process_setup.h>
#include <base/resumed_parameters.h>
#include <base/run_directory.h>
#include <base/screen_log.h>
#include <base/signals.h>
#include <base/version.h>
#include <control/control_study.h>
#include <drivers/batch_runner.h>
#include <drivers/model_registry.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace
{
  using namespace stickslip;

  /**
   * The names of every declared parameter, for the checks of the file and
   * of --set. They depend on the code only (never on an input), so a batch
   * computes them once for all its runs: deal.II writes every declaration
   * out and reads it back for them, a large part of a small run
   * (BENCHMARKS.md, "Measurements behind design choices in the code").
   */
  DeclaredNames
  declared_parameter_names()
  {
    stickslip::ParameterHandler prm;
    declare_all_parameters(prm);
    return DeclaredNames(prm);
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
    stickslip::ParameterHandler prm;
    declare_all_parameters(prm);
    const ParameterSource source = read_parameters(line, prm, names, pcout);
    const ModelEntry     &model  = chosen_model(prm);
    if (model.apply_defaults)
      model.apply_defaults(prm, source);
    const std::string used = used_parameters(model, prm, names.declarations());
    const bool        resume = !line.resume_directory.empty();
    if (resume)
      check_resumed_parameters(used, source, line.resume_directory);

    const Parameters::Run parameters = parse_run_parameters(model, prm, source);
    if (batch != nullptr)
      batch->claim(parameters.output.directory, resume, source);
    check_subsections_used(model, source, pcout);
    TimerOutput timer(pcout, TimerOutput::never, TimerOutput::wall_times);
    const std::unique_ptr<Study> study =
      create_study(model, parameters, prm, source, comm, pcout, timer);
    // Every parse function has read what the run uses: what else the user
    // set has no effect, said on the screen and in parameters.prm.
    const auto unused =
      unused_entries(model, prm, source, names.declarations());
    warn_unused_entries(unused, source, pcout);

    RunDirectory directory(
      parameters.output,
      used_parameters(model, prm, names.declarations(), unused),
      OriginalInput(line),
      comm,
      &screen);
    directory.lock(!resume, source);
    study->run(directory, resume);
    pcout << unused_petsc_options() << std::flush;
    if (!parameters.output.quiet)
      timer.print_summary();
  }



  // --help, --version and --print-parameters answer and end the program;
  // returns whether the command line asked for one of them.
  bool
  answer_without_running(const CommandLine        &line,
                         const ConditionalOStream &pcout)
  {
    std::ostringstream text;
    if (line.help)
      text << help_text(model_list());
    else if (line.version)
      text << "stickslip " << stickslip_version() << '\n'
           << library_versions() << '\n';
    else if (line.print_parameters)
      {
        stickslip::ParameterHandler prm;
        declare_all_parameters(prm);
        print_parameters(prm, line.print_format, line.print_model, text);
      }
    else
      return false;
    pcout << text.str() << std::flush;
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
  run_and_report(const CommandLine   &line,
                 const MPI_Comm       comm,
                 const DeclaredNames &names,
                 BatchDirectories    *batch)
  {
    const bool rank0 = Utilities::MPI::this_mpi_process(comm) == 0;
    // The screen output, also written to OUTPUT/log.txt once it is known.
    ScreenLog          screen;
    ConditionalOStream pcout(screen.stream(), rank0);
    try
      {
        if (line.parameter_file.empty())
          throw InputError(std::string("no parameter file given\n") + usage);
        run(line, comm, pcout, screen, names, batch);
      }
    catch (...)
      {
        const Failure failure = current_failure(comm);
        if (!failure.collective)
          throw;
        // Thrown identically on every rank: print once, exit together.
        if (rank0)
          {
            std::cerr << failure.message << std::endl;
            screen.write_to_log(failure.message + "\n");
          }
        return failure.status;
      }
    return 0;
  }
} // namespace

int
main(int argc, char **argv)
{
  using namespace stickslip;
  // Before MPI and the libraries start, which may change them: the signals
  // the process inherited as ignored stay ignored (nohup, a background shell).
  remember_inherited_dispositions();
  // A serial run started without mpirun starts Open MPI without UCX, far
  // faster (set before MPI_Init reads the environment).
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
      if (answer_without_running(line, ConditionalOStream(std::cout, rank0)))
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
  catch (...)
    {
      // The command line or the batch file (checked alike on every rank),
      // or a failure of this rank alone, which cannot wait for the others.
      const Failure failure = current_failure(comm);
      if (rank0 || !failure.collective)
        std::cerr << failure.message << std::endl;
      if (!failure.collective && Utilities::MPI::n_mpi_processes(comm) > 1)
        MPI_Abort(comm, failure.status);
      return failure.status;
    }
}
