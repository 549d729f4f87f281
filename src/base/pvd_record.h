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
   * The list of field outputs of a run, (time, record file) pairs, written
   * as DIRECTORY/solution.pvd (the file ParaView opens: every output as one
   * time series) after every output, and carried in snapshots. In the
   * manner of Lethe's PVDHandler and ASPECT's output history. File names
   * are relative to the output directory and may not leave it.
   */
  class PvdRecord
  {
  public:
    /**
     * Add output @p record_name at time @p t and rewrite solution.pvd (and
     * the .pvd of @p other_series) (collective).
     */
    void
    add(const double                    t,
        const std::string              &record_name,
        const OutputDirectory          &directory,
        const std::vector<std::string> &other_series = {});

    /** Number of outputs so far (the index of the next one). */
    unsigned int
    size() const;

    const std::vector<std::pair<double, std::string>> &
    entries() const;

    /**
     * Rewrite solution.pvd from the list, and SERIES.pvd for each of
     * @p other_series, the series a model writes at the same outputs
     * (records solution/SERIES_KKKKK.pvtu) (collective).
     */
    void
    write(const OutputDirectory          &directory,
          const std::vector<std::string> &other_series = {}) const;

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
    std::vector<std::pair<double, std::string>> outputs;
  };
} // namespace stickslip

#endif
