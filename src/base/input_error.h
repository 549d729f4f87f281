#ifndef stickslip_base_input_error_h
#define stickslip_base_input_error_h

#include <mpi.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * An error in the user's input (parameter file, command line, data files).
   *
   * Input is read and checked identically on every MPI rank, so an
   * InputError is thrown collectively: main() prints it once on rank 0 and
   * every rank exits with a non-zero status, before any output is written.
   */
  class InputError : public std::runtime_error
  {
  public:
    explicit InputError(const std::string &message);
  };



  /**
   * A failure of the computation that every rank detects together (from
   * MPI-reduced quantities): divergence, a friction solver that does not
   * converge. Like InputError it is printed once and ends every rank.
   */
  class RunError : public std::runtime_error
  {
  public:
    explicit RunError(const std::string &message);
  };



  /**
   * The @p problem of the lowest rank whose @p problem is not empty, on
   * every rank; empty if no rank has one (collective). A check that each
   * rank makes on its own part of the mesh stops every rank with one
   * message, the same for every number of ranks.
   */
  std::string
  first_problem(const MPI_Comm comm, const std::string &problem);



  /**
   * Where each parameter of a run was set: the line of the parameter file
   * or of a file it includes, or a --set option of the command line. Used
   * to point the user at the offending line in error messages.
   */
  class ParameterSource
  {
  public:
    /** A line of a parameter file that sets an entry. */
    struct Place
    {
      std::string  file;
      unsigned int line;
    };

    ParameterSource() = default;

    /**
     * Scan @p file_name for `set` lines, remembering subsection paths, and
     * the files it includes (`include FILE`, relative to the working
     * directory, read inside the subsection of the include line as deal.II
     * reads them) in the order deal.II reads them.
     */
    explicit ParameterSource(const std::string &file_name);

    /** Record that @p path ("Sub/Name") was overridden on the command line. */
    void
    mark_command_line(const std::string &path);

    /** " (file.prm, line 12)", " (command line --set)", or "". */
    std::string
    where(const std::string &path) const;

    const std::string &
    file_name() const;

    /** Record the file's lines of an alias under the path of its entry. */
    void
    use_entry_names(const std::map<std::string, std::string> &aliases);

    /** @p path is set in the parameter file or on the command line. */
    bool
    is_set(const std::string &path) const;

    /**
     * The paths the parameter file and its includes set, each with the
     * lines that set it in the order deal.II reads them: the last one
     * holds the value of the run.
     */
    const std::map<std::string, std::vector<Place>> &
    file_places() const;

    /** The paths set on the command line by --set. */
    std::set<std::string>
    command_line_paths() const;

  private:
    /** Scan @p file_name inside @p subsections (@p depth: of includes). */
    void
    scan(const std::string        &file_name,
         std::vector<std::string> &subsections,
         const unsigned int        depth);

    std::string                               input_file;
    std::map<std::string, std::vector<Place>> places_of_path;
    std::map<std::string, bool>               from_command_line;
  };



  /**
   * @p value in quotes for a message; a long one (over 200 characters) by
   * its first 120 and last 40 characters and its length.
   */
  std::string
  quoted_value(const std::string &value);

  /**
   * Compose the standard message for a bad parameter value: names the
   * parameter, where it was set, the value, and what is allowed.
   */
  std::string
  bad_parameter_message(const ParameterSource &source,
                        const std::string     &path,
                        const std::string     &value,
                        const std::string     &allowed);

  /** Throw an InputError with bad_parameter_message(). */
  [[noreturn]] void
  throw_bad_parameter(const ParameterSource &source,
                      const std::string     &path,
                      const std::string     &value,
                      const std::string     &allowed);
} // namespace stickslip

#endif
