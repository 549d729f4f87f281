#ifndef stickslip_base_pvd_record_h
#define stickslip_base_pvd_record_h

#include <base/global.h>
#include <base/output_files.h>

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

    /** Add output @p record_name at time @p t and rewrite the .pvd file
     * (collective). */
    void
    add(const double           t,
        const std::string     &record_name,
        const OutputDirectory &directory);

    /** Number of outputs so far (the index of the next one). */
    unsigned int
    size() const;

    const std::vector<std::pair<double, std::string>> &
    entries() const;

    /** Rewrite the .pvd file from the list (collective). */
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

    std::string                                 series;
    std::vector<std::pair<double, std::string>> outputs;
    /** The grids of the first outputs' XDMF records, as xdmf_series() read
     * them. */
    mutable std::vector<std::string> grids;
  };
} // namespace stickslip

#endif
