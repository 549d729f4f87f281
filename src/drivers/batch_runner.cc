#include <deal.II/lac/la_parallel_vector.h>
#include <deal.II/lac/vector.h>
#include <deal.II/lac/vector_memory.h>

#include <petscsys.h>

#include <base/memory_stage.h>
#include <base/signals.h>
#include <drivers/batch_file.h>
#include <drivers/batch_runner.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace stickslip
{
  BatchDirectories::BatchDirectories()
    : line(0)
  {}



  void
  BatchDirectories::begin(const unsigned int line_number)
  {
    line = line_number;
    directory.clear();
  }



  std::string
  BatchDirectories::normal_path(const std::string &name)
  {
    std::string path =
      std::filesystem::absolute(name).lexically_normal().string();
    while (path.size() > 1 && path.back() == '/')
      path.pop_back();
    return path;
  }



  void
  BatchDirectories::claim(const std::string     &name,
                          const bool             resume,
                          const ParameterSource &source)
  {
    directory        = name;
    const auto wrote = written_by_line.find(normal_path(name));
    if (resume || wrote == written_by_line.end())
      return;
    throw InputError(
      "the output directory '" + name + "' (parameter 'Output/Directory'" +
      source.where("Output/Directory") + ") holds the results of line " +
      std::to_string(wrote->second) +
      " of this batch: every line of a batch needs its own directory (e.g. "
      "--set \"Output/Directory=out/run_" +
      std::to_string(line) + "\"), or --resume to continue that line's run");
  }



  void
  BatchDirectories::end(const int status)
  {
    if (status != 1 && !directory.empty())
      written_by_line[normal_path(directory)] = line;
  }



  const std::string &
  BatchDirectories::current() const
  {
    return directory;
  }



  namespace
  {
    /**
     * What a run could inherit from the runs before it in this process,
     * reset before each run so that it starts as a lone stickslip starts.
     * The rest of the process state is either set once at start-up and
     * never changed by a run (MPI, one thread per rank for deal.II and
     * OpenBLAS, the environment), or owned by objects of the run that end
     * with it (parameters, screen log, log.txt, lock of the output
     * directory, models, solvers, communicators).
     */
    class RunIsolation
    {
    public:
      explicit RunIsolation(const MPI_Comm comm)
        : comm(comm)
        , initial_options(petsc_options())
      {}

      /**
       * Before a run (collective): the default signal handlers, no memory
       * stage, PETSc's options as at the start (deal.II's algebraic
       * multigrid writes its settings there), deal.II's pools of spare
       * vectors emptied (an earlier large run's vectors are freed), and the
       * process's peak resident memory (VmHWM, which the body's log
       * reports) brought down to the present one, so that it is this run's
       * peak and not an earlier run's. Returns the termination signal
       * received since the last run began (0: none), which stops the batch.
       */
      int
      prepare_next_run() const
      {
        const int signal = take_termination_signal(comm);
        MemoryStage::reset();
        if (petsc_options() != initial_options)
          {
            PetscOptionsClear(nullptr);
            PetscOptionsInsertString(nullptr, initial_options.c_str());
          }
        GrowingVectorMemory<DistributedVector>::release_unused_memory();
        GrowingVectorMemory<Vector<double>>::release_unused_memory();
        GrowingVectorMemory<
          LinearAlgebra::distributed::Vector<double>>::release_unused_memory();
        // The heap an earlier run freed goes back to the system, then the
        // peak is this run's.
        malloc_trim(0);
        reset_peak_memory();
        return signal;
      }

    private:
      /**
       * Linux (since 4.0) resets the peak resident set size of a process to
       * its present size when "5" is written to /proc/self/clear_refs; best
       * effort: elsewhere the peak stays that of the whole batch.
       */
      static void
      reset_peak_memory()
      {
        if (std::FILE *file = std::fopen("/proc/self/clear_refs", "w"))
          {
            std::fputs("5", file);
            std::fclose(file);
          }
      }



      /** PETSc's options database as one string ("-name value ..."). */
      static std::string
      petsc_options()
      {
        char *text = nullptr;
        PetscOptionsGetAll(nullptr, &text);
        const std::string options = text == nullptr ? "" : text;
        PetscFree(text);
        return options;
      }

      const MPI_Comm    comm;
      const std::string initial_options;
    };



    /** "finished", "bad input", ... for the exit status of a run. */
    std::string
    status_name(const int status)
    {
      switch (status)
        {
          case 0:
            return "finished";
          case 1:
            return "bad input";
          case 2:
            return "run failed";
          case 3:
            return "stopped by a signal";
          default:
            return "not run";
        }
    }



    /** The line printed (rank 0) when a run of the batch ends. */
    void
    print_run_line(const BatchEntry       &entry,
                   const std::size_t       index,
                   const std::size_t       n_runs,
                   const int               status,
                   const double            seconds,
                   const BatchDirectories &directories)
    {
      char time[32];
      std::snprintf(time, sizeof(time), "%.3g s", seconds);
      std::cout << "stickslip --batch: line " << entry.line << " (run "
                << index + 1 << " of " << n_runs << "): status " << status
                << " (" << status_name(status) << "), " << time << ", output "
                << (directories.current().empty() ? std::string("none") :
                                                    directories.current())
                << std::endl;
    }



    /**
     * The summary (rank 0): how many runs ended with each status, the lines
     * of those that did not finish, and the batch's exit status.
     */
    void
    print_summary(const std::vector<BatchEntry> &entries,
                  const std::vector<int>        &statuses,
                  const std::string             &where,
                  const int                      stop_signal,
                  const int                      exit_status)
    {
      std::cout << "stickslip --batch: " << entries.size() << " runs of the "
                << where << ":";
      bool first = true; // the first group follows the colon with a space
      for (const int status : {0, 1, 2, 3, -1})
        {
          std::string  lines;
          unsigned int count = 0;
          for (std::size_t k = 0; k < entries.size(); ++k)
            if (statuses[k] == status && ++count <= 20)
              lines +=
                (count == 1 ? "" : ", ") + std::to_string(entries[k].line);
          if (count > 20)
            lines += ", ...";
          if (count == 0)
            continue;
          std::cout << (first ? " " : "; ") << count << ' '
                    << status_name(status)
                    << (status == 0 ?
                          std::string() :
                          (count == 1 ? " (line " : " (lines ") + lines + ")");
          first = false;
        }
      if (stop_signal != 0)
        std::cout << "; stopped by " << signal_name(stop_signal)
                  << " between runs";
      std::cout << "; exit status " << exit_status << std::endl;
    }
  } // namespace



  int
  run_batch(const std::string &file_name,
            const RunFunction &run_one,
            const MPI_Comm     comm)
  {
    const std::vector<BatchEntry> entries = read_batch_file(file_name, comm);
    const bool         rank0 = Utilities::MPI::this_mpi_process(comm) == 0;
    const RunIsolation isolation(comm);
    BatchDirectories   directories;
    std::vector<int>   statuses(entries.size(), -1);
    int                stop_signal = 0, exit_status = 0;
    for (std::size_t k = 0; k < entries.size() && exit_status < 3; ++k)
      {
        stop_signal = isolation.prepare_next_run();
        if (stop_signal != 0)
          break;
        const auto start = std::chrono::steady_clock::now();
        directories.begin(entries[k].line);
        int status = run_one(entries[k].command, directories);
        status     = Utilities::MPI::max(status, comm);
        directories.end(status);
        // Between runs a signal is remembered and stops the batch before
        // the next run (prepare_next_run() restores the default handlers).
        install_termination_handlers();
        statuses[k] = status;
        exit_status = std::max(exit_status, status);
        if (rank0)
          print_run_line(entries[k],
                         k,
                         entries.size(),
                         status,
                         std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count(),
                         directories);
      }
    // A signal after the last run stops nothing; the handlers go back to
    // the default.
    take_termination_signal(comm);
    if (stop_signal != 0)
      exit_status = 3;
    if (rank0)
      print_summary(entries,
                    statuses,
                    batch_file_description(file_name),
                    stop_signal,
                    exit_status);
    return exit_status;
  }
} // namespace stickslip
