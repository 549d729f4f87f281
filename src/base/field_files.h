#ifndef stickslip_base_field_files_h
#define stickslip_base_field_files_h

#include <deal.II/base/data_out_base.h>

#include <base/global.h>
#include <base/output_files.h>

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The field files of a run: output number k is one VTU piece per rank,
   * DIRECTORY/solution/solution_KKKKK.R.vtu, and a PVTU record
   * DIRECTORY/solution/solution_KKKKK.pvtu that lists them (the names of
   * deal.II's write_vtu_with_pvtu_record). A model may write further
   * series with their own numbering (the body's contact surface:
   * solution/contact_KKKKK.*), each with its own .pvd (PvdRecord). Every file
   * is written under a temporary name and renamed, and the record only after
   * every piece is complete, so a run killed at any moment leaves no partial
   * file under a final name and no record that lists a missing piece. A failed
   * write is a RunError on every rank naming the file and the reason.
   */
  class FieldFiles
  {
  public:
    /** The formats of Output/Field format. */
    enum class Format
    {
      vtu,
      hdf5
    };

    /**
     * The field files in @p directory, in @p format (for the models that
     * write it: Hdf5FieldWriter), in single precision if
     * @p single_precision (Output/Field precision; HDF5 only).
     */
    explicit FieldFiles(const OutputDirectory &directory,
                        const Format           format           = Format::vtu,
                        const bool             single_precision = false);

    const OutputDirectory &
    output_directory() const;

    Format
    format() const;

    bool
    single_precision() const;

    /** The series every model writes. */
    static constexpr const char *main_series = "solution";

    /**
     * The record of output @p index of @p series, relative to the output
     * directory.
     */
    static std::string
    record_name(const unsigned int index,
                const std::string &series = main_series);

    /**
     * Write output @p index (collective): this rank's piece by
     * @p write_piece (only if @p has_piece: ranks without data write
     * none), then rank 0 the record by @p write_record, given the names of
     * the pieces relative to the record. Returns record_name(index).
     */
    std::string
    write(const unsigned int                         index,
          const std::string                         &series,
          const bool                                 has_piece,
          const std::function<void(std::ostream &)> &write_piece,
          const std::function<void(std::ostream &,
                                   const std::vector<std::string> &)>
            &write_record) const;

    /**
     * The same for a DataOut (every rank has a piece), as output @p index
     * of @p series.
     */
    template <int dim, int spacedim>
    std::string
    write(const unsigned int                     index,
          const DataOutInterface<dim, spacedim> &data_out,
          const std::string                     &series = main_series) const
    {
      return write(
        index,
        series,
        true,
        [&](std::ostream &out) { data_out.write_vtu(out); },
        [&](std::ostream &out, const std::vector<std::string> &pieces) {
          data_out.write_pvtu_record(out, pieces);
        });
    }

    /**
     * The number of outputs of @p series the run plans (the run loop's
     * count from Time and Output; it may write fewer, or a resumed run
     * more), @p n_outputs; planned_outputs() is 0 for a series without a
     * plan.
     */
    void
    plan(const std::string &series, const unsigned int n_outputs);

    unsigned int
    planned_outputs(const std::string &series) const;

    /**
     * The HDF5 file of the outputs of @p series from number
     * @p first_output on (a series written into one file,
     * Hdf5::SeriesWriter): solution/SERIES_from_KKKKK.h5, relative to the
     * output directory.
     */
    static std::string
    series_file_name(const std::string &series,
                     const unsigned int first_output);

    /**
     * The XDMF template of the outputs of the series file @p file_name
     * (series_file_name()): its name with ".xdmf.in" for ".h5".
     */
    static std::string
    series_template_name(const std::string &file_name);

    /**
     * The first output of a series file's name (series_file_name(), with or
     * without its folder; its template too), or -1 if @p file_name is not
     * one.
     */
    static long
    series_file_first_output(const std::string &file_name);

    /**
     * Remove the files of the outputs of @p series numbered @p first_stale
     * and above, and temporaries, left by an interrupted run that wrote
     * them after its last snapshot (possibly on another number of ranks)
     * (rank 0): also its series files (series_file_name()) that begin at
     * @p first_stale or later; one that begins earlier holds outputs of the
     * snapshot and is written on from there.
     */
    void
    remove_outputs_from(const unsigned int first_stale,
                        const std::string &series = main_series) const;

  private:
    const OutputDirectory              &directory;
    const Format                        field_format;
    const bool                          single;
    std::map<std::string, unsigned int> planned;
  };
} // namespace stickslip

#endif
