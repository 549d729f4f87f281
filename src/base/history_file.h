#ifndef stickslip_base_history_file_h
#define stickslip_base_history_file_h

#include <base/global.h>
#include <base/output_files.h>

#include <cstdint>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * history.csv as the run goes: rank 0 appends each row as it is computed
   * and hands it to the operating system at once (one write per row, so a
   * run killed at any moment leaves whole rows only, and `tail -f` follows
   * a running job); nothing is kept in memory. A snapshot records how many
   * bytes the file had and their checksum; a resumed run checks the file
   * against them and drops the rows written after the snapshot.
   */
  class HistoryFile
  {
  public:
    HistoryFile(const OutputDirectory          &directory,
                const std::string              &file_name,
                const std::vector<std::string> &column_names);

    ~HistoryFile();

    HistoryFile(const HistoryFile &) = delete;
    HistoryFile &
    operator=(const HistoryFile &) = delete;

    /** Start the file afresh with its header line (collective). */
    void
    start();

    /**
     * Check that the file begins with @p n_bytes bytes of checksum
     * @p hash, as when a snapshot was taken (collective, read-only). An
     * InputError if not: the file was changed after the snapshot.
     */
    void
    check_prefix(const std::uint64_t n_bytes, const std::uint64_t hash) const;

    /**
     * Continue the file of an interrupted run: drop what follows its first
     * @p n_bytes bytes (checked by check_prefix()) and append after them
     * (collective).
     */
    void
    resume(const std::uint64_t n_bytes, const std::uint64_t hash);

    /**
     * Append one row (collective; every rank passes its row, rank 0 writes
     * it). A failed write is a RunError on every rank naming the file and
     * the reason; the file then ends with the previous whole row.
     */
    void
    append(const std::vector<double> &row);

    /** Make what was written durable (rank 0; before a snapshot refers to it).
     */
    void
    sync() const;

    /** Bytes written so far, and their checksum (rank 0). */
    std::uint64_t
    n_bytes() const;
    std::uint64_t
    hash() const;

  private:
    /** Append @p text (whole rows) with one write (collective). */
    void
    append_text(const std::string &text);

    /** Open the file for appending (rank 0); "" or the reason. */
    std::string
    open_for_append();

    const OutputDirectory         &directory;
    const std::string              path;
    const std::vector<std::string> columns;
    const bool                     writer; ///< rank 0 writes
    int                            descriptor;
    std::uint64_t                  bytes;
    std::uint64_t                  running_hash;
  };
} // namespace stickslip

#endif
