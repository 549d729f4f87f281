#ifndef stickslip_drivers_batch_runner_h
#define stickslip_drivers_batch_runner_h

#include <base/command_line.h>
#include <base/global.h>
#include <base/input_error.h>

#include <functional>
#include <map>
#include <string>

namespace stickslip
{
  /**
   * The output directories of the runs of a batch. A run names its
   * directory as soon as it knows it (claim(), before anything is written);
   * a fresh run is refused (an InputError of that run) if an earlier line of
   * the same batch wrote into that directory: with Output/Overwrite it
   * would silently replace that line's results, without it fail on them,
   * and either is a sweep whose lines forgot their own directories. A
   * --resume line continues an earlier line's directory (that is what it is
   * for).
   */
  class BatchDirectories
  {
  public:
    BatchDirectories();

    /** The run of line @p line begins. */
    void
    begin(const unsigned int line);

    /** The run writes into @p directory (InputError as said above). */
    void
    claim(const std::string     &directory,
          const bool             resume,
          const ParameterSource &source);

    /**
     * The run ended with @p status: its directory was written unless the
     * run stopped at its input checks (status 1 writes nothing).
     */
    void
    end(const int status);

    /** The current run's directory as it was given, or "" if not known. */
    const std::string &
    current() const;

  private:
    /** @p directory made absolute and normal (no "..", no final "/"). */
    static std::string
    normal_path(const std::string &directory);

    std::map<std::string, unsigned int> written_by_line;
    unsigned int                        line;
    std::string                         directory;
  };



  /**
   * One run of stickslip in this process, as a lone `stickslip` would run
   * @p command, returning its exit status (0 finished, 1 bad input, 2 run
   * failed, 3 stopped by a signal after a snapshot); out of memory and
   * unexpected exceptions are not caught (they end the batch as they end a
   * lone run).
   */
  using RunFunction = std::function<int(const CommandLine &command,
                                        BatchDirectories  &directories)>;

  /**
   * `stickslip --batch FILE`: every line of FILE (read_batch_file()) run one
   * after the other by @p run_one, each from a clean process state (no
   * signal remembered, default signal handlers, no memory stage, PETSc's
   * options database as at the start, deal.II's vector pools emptied). A run
   * that fails is reported and the batch goes on; a run stopped by a
   * signal, or a signal between runs, stops the batch. Rank 0 prints one
   * line per run as it ends and a summary at the end. Returns the exit
   * status: 0 if every run finished, else the largest status of a run (3 if
   * a signal stopped the batch). Collective.
   */
  int
  run_batch(const std::string &file_name,
            const RunFunction &run_one,
            const MPI_Comm     comm);
} // namespace stickslip

#endif
