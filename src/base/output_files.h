#ifndef stickslip_base_output_files_h
#define stickslip_base_output_files_h

#include <base/global.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * Write @p contents to @p path under a temporary name in the same folder
   * (temporary_name()), optionally sync it to disk (@p durable), then rename
   * it: a reader, or a run killed at any moment, sees the old file or the
   * new one, never a part. Local to the calling process. Returns "" on
   * success, or a message naming the file and the reason (strerror), after
   * removing the temporary.
   */
  std::string
  write_file_atomically(const std::string &path,
                        const std::string &contents,
                        const bool         durable);

  /** The temporary name of @p path while it is written: "path.tmp.PID". */
  std::string
  temporary_name(const std::string &path);

  /** Whether @p file_name is a temporary name (a leftover of a killed run). */
  bool
  is_temporary_name(const std::string &file_name);

  /**
   * Collective: if the message @p local_error of any rank is not empty,
   * every rank throws the same RunError with the message of the lowest such
   * rank, so that a write that fails on one rank (a full disk) stops the
   * run on all of them together instead of leaving the others waiting.
   */
  void
  throw_if_any_failed(const std::string &local_error, const MPI_Comm comm);



  /**
   * The output directory of a run: names of its files and atomic writes of
   * the files rank 0 writes (CSV tables, solution.pvd, parameters.prm). A
   * failed write is a RunError on every rank that names the file and the
   * reason. RunDirectory adds the run's lifecycle (lock, start, resume).
   */
  class OutputDirectory
  {
  public:
    OutputDirectory(const std::string &path, const MPI_Comm comm);

    /** Full path of @p file_name inside the directory. */
    std::string
    file(const std::string &file_name) const;

    /** The directory itself. */
    const std::string &
    path() const;

    MPI_Comm
    communicator() const;

    /**
     * Rank 0 writes @p contents to @p file_name atomically and durably
     * (collective; a RunError on every rank if it fails).
     */
    void
    write_atomically(const std::string &file_name,
                     const std::string &contents) const;

    /** The folder of the field files (VTU pieces and PVTU records). */
    static constexpr const char *field_folder = "solution";

  protected:
    std::string directory;
    MPI_Comm    comm;
  };



  /** The header line of a CSV table, with its newline. */
  std::string
  csv_header(const std::vector<std::string> &column_names);

  /**
   * One CSV row with its newline: each number as the shortest decimal that
   * reads back to the same double (0.48, 1e-06, 0.33333333333333331), so
   * results compare bitwise; NaN is written as an empty field (no value).
   */
  std::string
  csv_row(const std::vector<double> &values);



  /**
   * A table of numbers kept in memory and written as CSV at once (errors.csv,
   * refinement.csv, optimization.csv: a handful of rows). history.csv, which
   * grows with the run, is a HistoryFile instead.
   */
  class CsvTable
  {
  public:
    explicit CsvTable(const std::vector<std::string> &column_names);

    /** Append a row; its length must match the columns (NaN: no value). */
    void
    add_row(const std::vector<double> &values);

    std::string
    to_string() const;

    std::size_t
    n_rows() const;

    /**
     * Replace the rows by those of @p text, a table written by to_string()
     * with the same columns.
     */
    void
    restore(const std::string &text);

    /** The rows one after the other (for binary snapshots). */
    std::vector<double>
    flattened() const;

    /** Replace the rows by @p values, rows one after the other. */
    void
    restore(const std::vector<double> &values);

  private:
    std::vector<std::string>         columns;
    std::vector<std::vector<double>> rows;
  };
} // namespace stickslip

#endif
