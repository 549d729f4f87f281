#ifndef stickslip_base_run_directory_h
#define stickslip_base_run_directory_h

#include <base/command_line.h>
#include <base/global.h>
#include <base/input_error.h>
#include <base/output_files.h>
#include <base/output_parameters.h>
#include <base/screen_log.h>

#include <string>

namespace stickslip
{
  /**
   * The parameter file a run was given, as it is copied beside its
   * parameters.prm (ASPECT's original.prm): the file's name in the output
   * directory and its text.
   */
  struct OriginalInput
  {
    /**
     * The copy of @p line's parameter file: original.prm, the file byte for
     * byte after a comment header that names it and the --set options of
     * the command line (which come after the file); a .json or .xml file is
     * copied as original.json or original.xml without a header (their
     * values with the --set are in parameters.prm).
     */
    explicit OriginalInput(const CommandLine &line);

    std::string name;
    std::string text;
  };



  /**
   * The output directory through the life of a run (Output/Directory):
   *
   * - lock(): a lock file, DIRECTORY/stickslip.lock, held while the run
   *   lives (an flock, released by the system however the process ends), so
   *   that a second run or a --resume on a directory in use is refused
   *   instead of mixing two runs' files;
   * - start_fresh(): a directory that holds an earlier run is refused
   *   unless Output/Overwrite, which removes that run's outputs first (so no
   *   stale field file of a longer run stays beside the new ones); then
   *   parameters.prm and log.txt are started, each with the run's stamp
   *   (versions, ranks, host, date), and the user's file is copied as
   *   original.prm;
   * - continue_run(): for --resume, after the snapshot has been read and
   *   checked, with nothing changed before that.
   *
   * Every step happens only after every input check has passed, and every
   * failure is an InputError (or RunError) on every rank.
   */
  class RunDirectory : public OutputDirectory
  {
  public:
    /**
     * @p parameters: the text of parameters.prm (every parameter the run
     * reads, as it used them); @p original: the parameter file it was
     * given; @p log: the screen output, written to log.txt (may be null).
     */
    RunDirectory(const Parameters::Output &output,
                 const std::string        &parameters,
                 const OriginalInput      &original,
                 const MPI_Comm            comm,
                 ScreenLog                *log);

    ~RunDirectory();

    RunDirectory(const RunDirectory &) = delete;
    RunDirectory &
    operator=(const RunDirectory &) = delete;

    /**
     * Take the lock (collective). @p create: create the directory if it is
     * missing (a fresh run); a resumed run needs it to exist, and its
     * directory is the one --resume named (@p source then is not where it
     * came from).
     */
    void
    lock(const bool create, const ParameterSource &source);

    /** Start a fresh run (collective). */
    void
    start_fresh();

    /** The directory holds snapshots to continue from (collective; InputError
     * if not). */
    void
    check_resumable() const;

    /**
     * Continue the run after its snapshot was read and checked: remove the
     * temporaries a killed run left, rewrite parameters.prm and
     * original.prm, append to log.txt (collective).
     */
    void
    continue_run();

    /** The Output subsection this directory was made from. */
    const Parameters::Output &
    settings() const;

    /**
     * The mesh files the run reads, for messages: "'FILE' (parameter
     * 'Subsection/Mesh file')", several separated by ", "; "" if none.
     */
    std::string
    mesh_files() const;

  private:
    /**
     * parameters.prm (the stamp, then the parameters) and original.prm
     * (collective).
     */
    void
    write_parameters() const;

    /** Remove the outputs of an earlier run (rank 0); "" or the reason. */
    std::string
    remove_previous_outputs() const;

    /** Remove temporaries left by a killed run (rank 0). */
    void
    remove_temporaries() const;

    /** Start writing log.txt with the run's stamp (rank 0). */
    void
    start_log(const bool append) const;

    const Parameters::Output output;
    const std::string        parameters;
    const OriginalInput      original;
    ScreenLog               *log;
    int                      lock_descriptor;
  };
} // namespace stickslip

#endif
