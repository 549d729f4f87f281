#ifndef stickslip_base_pvd_record_h
#define stickslip_base_pvd_record_h

#include <base/global.h>
#include <base/output_files.h>

#include <cstddef>
#include <istream>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * The list of field outputs of one series of a run, (time, record file)
   * pairs, written as DIRECTORY/SERIES.pvd (solution.pvd; the body adds
   * contact.pvd), the file ParaView opens as one time series, after every
   * output (as SERIES.xdmf for HDF5 fields: every N/16 outputs and at the
   * end of the run, see rewrite_due()), and carried in snapshots. In the manner
   * of Lethe's PVDHandler and ASPECT's output history. File names are relative
   * to the output directory and may not leave it.
   */
  class PvdRecord
  {
  public:
    /** The list of the series @p series, written as SERIES.pvd. */
    explicit PvdRecord(const std::string &series = "solution");

    /**
     * Add output @p record_name at time @p t (collective): rewrite the .pvd
     * file; an XDMF series only when it lags too far (rewrite_due()).
     */
    void
    add(const double           t,
        const std::string     &record_name,
        const OutputDirectory &directory);

    /**
     * Rewrite the series in @p directory if it lacks outputs that add()
     * left out (collective): at the end of a run, also one that
     * stops for an error or a signal (RunLoop), so that the series lists every
     * output.
     */
    void
    flush(const OutputDirectory &directory) const;

    /** Number of outputs so far (the index of the next one). */
    unsigned int
    size() const;

    const std::vector<std::pair<double, std::string>> &
    entries() const;

    /**
     * Rewrite the .pvd (or .xdmf) file from the list (collective), and
     * remove the series file of the other format, so that the directory
     * never holds a stale series next to the current one. Not @p durable:
     * an XDMF series is not synced to the disk before the rename (what
     * add() rewrites during the run must survive a kill of the run, not a
     * crash of the machine; 76 fsyncs of up to 5 MB cost 2 s on
     * body_fronts_2d.prm, measured); the .pvd always is.
     */
    void
    write(const OutputDirectory &directory, const bool durable = true) const;

    /**
     * Check, before a resumed run changes anything, the outputs that the
     * list (read from a snapshot) names in @p directory (collective; rank 0
     * reads the files): each record exists and is one (a .pvtu record
     * whose pieces all exist, an XDMF record with a grid), every HDF5 file
     * a record or template names opens, and the time each file holds for
     * an output is the listed one. A series file's template that is missing
     * is found rebuildable if the series file keeps its text
     * (Hdf5::SeriesFile::create()); restore_templates() then writes it.
     * Returns "" or the first problem, naming the file and what to do (the
     * same on every rank).
     */
    std::string
    check_outputs(const OutputDirectory &directory);

    /**
     * Write the missing templates that check_outputs() found rebuildable
     * (collective; after every check of the resumed run has passed).
     */
    void
    restore_templates(const OutputDirectory &directory) const;

    /**
     * The list, or its first @p n outputs, as lines of a snapshot's meta
     * text: "fields N", then "t name" per line.
     */
    std::string
    to_text(
      const std::size_t n = std::numeric_limits<std::size_t>::max()) const;

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
    /** check_outputs() on rank 0: "" or the first problem. */
    std::string
    check_outputs_on_this_rank(const OutputDirectory &directory);

    /**
     * SERIES.xdmf, into @p xml: the grids of the records (rank 0 reads each
     * record once and keeps its grid). Returns "" or what failed.
     */
    std::string
    xdmf_series(const OutputDirectory &directory, std::string &xml) const;

    /**
     * Whether add() must rewrite SERIES.xdmf in @p directory now: unless
     * it was written there last and lacks at most max(1, L/16) outputs, L
     * the outputs it lists. A rewrite (temporary name, then
     * rename) leaves the complete old or new series at any moment of a
     * kill, where an append in place could tear the file inside a
     * page-crossing write; rewriting every N/16 outputs costs about 17
     * times the series' final size in all (1500 contact outputs: 75
     * rewrites), not N^2/2 grids.
     */
    bool
    rewrite_due(const OutputDirectory &directory) const;

    /**
     * The <Grid> of the XDMF record of output @p k (of an output in a series
     * file: its template's, filled in), or "" and @p error.
     */
    std::string
    grid_of_record(const OutputDirectory &directory,
                   const std::size_t      k,
                   std::string           &error) const;

    /**
     * The <Grid> of @p text, the XDMF file @p name of the output directory,
     * its HDF5 files named relative to the directory; or "" and @p error.
     */
    std::string
    grid_in(const OutputDirectory &directory,
            const std::string     &name,
            const std::string     &text,
            std::string           &error) const;

    std::string                                 series;
    std::vector<std::pair<double, std::string>> outputs;
    /** The grids of the first outputs' XDMF records, as xdmf_series() read
     * them. */
    mutable std::vector<std::string> grids;
    /** The templates of the series files read so far, by name. */
    mutable std::map<std::string, std::string> templates;
    /**
     * Templates that check_outputs() found missing and rebuildable: the
     * template's name and its text, kept in its series file.
     */
    std::map<std::string, std::string> missing_templates;
    /**
     * The directory whose SERIES.xdmf the last write() wrote, "" if none
     * or not an XDMF series, and how many outputs it lists.
     */
    mutable std::string xdmf_directory;
    mutable std::size_t listed = 0;
  };
} // namespace stickslip

#endif
