#ifndef stickslip_base_output_files_h
#define stickslip_base_output_files_h

#include <base/global.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The output directory of a run. Rank 0 creates it; a directory that holds
   * a previous run (a parameters.prm or history.csv) is refused unless
   * overwriting is allowed. Every file is written atomically: to a temporary
   * name in the same directory, flushed, then renamed, so an interrupted run
   * never leaves a truncated file where a good one was.
   */
  class OutputDirectory
  {
  public:
    OutputDirectory(const std::string &path,
                    const bool         overwrite,
                    const MPI_Comm     comm);

    /** Check and create the directory (collective). */
    void
    prepare() const;

    /** Full path of @p file_name inside the directory. */
    std::string
    file(const std::string &file_name) const;

    /** Atomically write @p contents to @p file_name (rank 0 only writes). */
    void
    write_atomically(const std::string &file_name,
                     const std::string &contents) const;

  private:
    std::string directory;
    bool        overwrite;
    MPI_Comm    comm;
  };



  /**
   * A table of numbers written as CSV: a header line and one row per
   * record, 17 significant digits so that results compare to round-off.
   */
  class CsvTable
  {
  public:
    explicit CsvTable(const std::vector<std::string> &column_names);

    /** Append a row; its length must match the columns. */
    void
    add_row(const std::vector<double> &values);

    /** Append a row with some empty fields (given as NaN). */
    std::string
    to_string() const;

    std::size_t
    n_rows() const;

    /**
     * Replace the rows by those of @p text, a table written by to_string()
     * with the same columns (to continue a run from a snapshot).
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
