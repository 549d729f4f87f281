#ifndef stickslip_base_pvd_record_h
#define stickslip_base_pvd_record_h

#include <base/global.h>
#include <base/output_files.h>

#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * The list of field outputs of one series of a run, (time, record file)
   * pairs, written as DIRECTORY/SERIES.pvd (solution.pvd; the body adds
   * contact.pvd), the file ParaView opens as one time series, after every
   * output, and carried in snapshots. In the manner of Lethe's PVDHandler
   * and ASPECT's output history. File names are relative to the output
   * directory and may not leave it.
   */
  class PvdRecord
  {
  public:
    /** The list of the series @p series, written as SERIES.pvd. */
    explicit PvdRecord(const std::string &series = "solution");

    /**
     * Add output @p record_name at time @p t (collective): rewrite the .pvd
     * file; an XDMF series is appended to (appended_to_xdmf()).
     */
    void
    add(const double           t,
        const std::string     &record_name,
        const OutputDirectory &directory);

    /** Number of outputs so far (the index of the next one). */
    unsigned int
    size() const;

    const std::vector<std::pair<double, std::string>> &
    entries() const;

    /**
     * Rewrite the .pvd (or .xdmf) file from the list (collective), and
     * remove the series file of the other format, so that the directory
     * never holds a stale series next to the current one.
     */
    void
    write(const OutputDirectory &directory) const;

    /** The list as lines of a snapshot's meta text: "fields N", then "t name"
     * per line. */
    std::string
    to_text() const;

    /**
     * Read back what to_text() wrote. A name that is not a plain relative
     * path inside the output directory is an InputError.
     */
    void
    from_text(std::istream &in);

    /**
     * Whether @p name is a relative path of plain components (letters,
     * digits, '_', '-', '.'), none of them "." or "..".
     */
    static bool
    is_inside_output_directory(const std::string &name);

  private:
    /**
     * SERIES.xdmf, into @p xml: the grids of the records (rank 0 reads each
     * record once and keeps its grid). Returns "" or what failed.
     */
    std::string
    xdmf_series(const OutputDirectory &directory, std::string &xml) const;

    /**
     * Append the grid of the last output to SERIES.xdmf as written by the
     * last write() or append in @p directory (collective); false (nothing
     * done) if there is no such file or the series is not XDMF. The file
     * ends with the closing tags of the collection; the new grid and those
     * tags overwrite the old closing tags in one write() call, so that a
     * run killed between two calls leaves a complete series of its
     * complete outputs (inside the call, only between two pages of the
     * file), and the work is the new grid only, not the whole
     * series again (1500 outputs: 1500 grids, not 1500^2/2).
     */
    bool
    appended_to_xdmf(const OutputDirectory &directory) const;

    /** The <Grid> of the XDMF record of output @p k, or "" and @p error. */
    std::string
    grid_of_record(const OutputDirectory &directory,
                   const std::size_t      k,
                   std::string           &error) const;

    std::string                                 series;
    std::vector<std::pair<double, std::string>> outputs;
    /** The grids of the first outputs' XDMF records, as xdmf_series() read
     * them. */
    mutable std::vector<std::string> grids;
    /**
     * The directory whose SERIES.xdmf the last write() or append left with
     * the grids of all outputs, "" if none; on rank 0 where its closing
     * tags begin.
     */
    mutable std::string   xdmf_directory;
    mutable std::uint64_t xdmf_tail_offset = 0;
  };
} // namespace stickslip

#endif
