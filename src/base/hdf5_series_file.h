#ifndef stickslip_base_hdf5_series_file_h
#define stickslip_base_hdf5_series_file_h

#include <base/field_files.h>
#include <base/global.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  namespace Hdf5
  {
    /** One field of a series file: its name and its table's shape. */
    struct SeriesField
    {
      std::string   name;
      std::uint64_t rows;
      std::uint64_t columns;
    };

    /**
     * One HDF5 file that holds many outputs of one field series (the body's
     * contact surface written at every few steps): per field a dataset
     * /NAME of capacity x rows x columns values (64- or 32-bit floats), and
     * /time, the time of each output, NaN where none is written yet.
     *
     * The file is laid out once, when it is created (under a temporary
     * name, then renamed): every dataset is contiguous and its space is
     * allocated then, so writing output k puts raw values at fixed places
     * and never changes HDF5's metadata. A run killed while it writes an
     * output therefore leaves a file that HDF5 reads, with every earlier
     * output intact; the output being written is incomplete, and its time
     * is written last (and no series lists it yet). The space of outputs
     * not written yet is not written either: the file is sparse on the
     * disk until they are (`du` shows what is used, `ls -l` the capacity).
     *
     * Collective over @p comm: on several ranks the file is open through
     * MPI-IO, each rank writing its rows of every field.
     */
    class SeriesFile
    {
    public:
      /**
       * Create the file @p path for @p capacity outputs of @p fields
       * (collective), in 32-bit floats if @p single, keeping
       * @p xdmf_template (the text of its XDMF template, the same on every
       * rank) as its attribute "xdmf_template", from which a resumed run
       * rebuilds a template file that is missing (read()).
       */
      static void
      create(const std::string              &path,
             const std::vector<SeriesField> &fields,
             const std::uint64_t             capacity,
             const bool                      single,
             const std::string              &xdmf_template,
             const MPI_Comm                  comm);

      /**
       * Read the series file @p path on this rank alone (a resumed run's
       * check): the time of each of its outputs (NaN where none is written)
       * into @p times and its kept XDMF template ("" if it keeps none) into
       * @p xdmf_template. Returns "" or why HDF5 cannot read it as a series
       * file (missing, truncated, damaged).
       */
      static std::string
      read(const std::string   &path,
           std::vector<double> &times,
           std::string         &xdmf_template);

      /**
       * Open @p path (collective); a file whose fields (names, shapes) or
       * precision differ from @p fields and @p single, or that is not one,
       * is an error (a RunError on every rank).
       */
      SeriesFile(const std::string              &path,
                 const std::vector<SeriesField> &fields,
                 const bool                      single,
                 const MPI_Comm                  comm);

      ~SeriesFile();

      SeriesFile(const SeriesFile &) = delete;
      SeriesFile &
      operator=(const SeriesFile &) = delete;

      /** The number of outputs the file has room for. */
      std::uint64_t
      capacity() const;

      /**
       * Write output @p slot at time @p t (collective): of every field
       * (in the order of the constructor's @p fields) this rank's
       * @p local_rows rows from @p first_row, @p data[f] (floats if the file
       * is single precision, else doubles); then the time.
       */
      void
      write(const std::uint64_t              slot,
            const double                     t,
            const std::uint64_t              first_row,
            const std::uint64_t              local_rows,
            const std::vector<const void *> &data);

      /**
       * Mark the outputs from @p slot on as not written (time NaN)
       * (collective): a resumed run writes them again.
       */
      void
      forget_from(const std::uint64_t slot);

      /** Whether @p path is a series file of @p fields in that precision. */
      static bool
      matches(const std::string              &path,
              const std::vector<SeriesField> &fields,
              const bool                      single,
              const MPI_Comm                  comm);

    private:
      std::string               path;
      const MPI_Comm            comm;
      const bool                single;
      const bool                parallel;
      std::int64_t              file = -1;
      std::vector<std::int64_t> datasets;
      /** The columns of each field's table. */
      std::vector<std::uint64_t> columns;
      std::int64_t               time    = -1;
      std::uint64_t              n_slots = 0;
      /** HDF5's transfer property lists: collective and independent writes
       * (made once: a list made per write cost more than the write). */
      std::int64_t collective  = -1;
      std::int64_t independent = -1;
    };



    /**
     * Whether HDF5 opens the file @p path on this rank alone (a resumed
     * run's check of an output it lists): "" or why not (missing,
     * truncated, damaged); its attribute "time" into @p time (NaN if it
     * has none).
     */
    std::string
    check_readable(const std::string &path, double &time);



    /**
     * The XDMF DataItem of output {ROW} of the field @p name of the series
     * file @p file (relative to the XDMF file; @p capacity outputs of
     * @p rows x @p columns values, @p precision bytes each): the row of the
     * output as a hyperslab in the dataset's path ("FILE:/NAME|start:stride:
     * count:dimensions"), the form ParaView's XDMF3 reader (Xdmf3ReaderS,
     * VTK's vtkXdmf3Reader) reads. {ROW} is the template's placeholder
     * (SeriesWriter).
     */
    std::string
    xdmf_series_item(const std::string  &file,
                     const std::string  &name,
                     const std::uint64_t capacity,
                     const std::uint64_t rows,
                     const unsigned int  columns,
                     const unsigned int  precision);



    /**
     * The outputs of one field series written into series files
     * (SeriesFile) instead of a file per output: FieldFiles::series_file_name()
     * of the first output a file holds, sized for the outputs the run plans
     * (FieldFiles::planned_outputs(); at most about 1 GiB a file), beside
     * its XDMF template (FieldFiles::series_template_name()): one <Grid> of
     * the output at {TIME}, named {NAME} (SERIES_KKKKK), its values in
     * row {ROW} of the file, from which PvdRecord makes the grid of each
     * output of the series (SERIES.xdmf). The record of an output is the
     * name of its file; its row there is its number minus the file's first.
     *
     * A resumed run goes on writing into the file that holds the output it
     * resumes at (the outputs from there on forgotten,
     * SeriesFile::forget_from()); FieldFiles::remove_outputs_from() has removed
     * the files that begin later.
     */
    class SeriesWriter
    {
    public:
      /**
       * The writer of @p series with @p fields (the same rows and columns at
       * every output); @p grid_template makes the template of a file: an
       * XDMF document whose one <Grid> names the values of @p file (relative
       * to the folder of the field files) through xdmf_series_item().
       */
      SeriesWriter(
        const std::string              &series,
        const std::vector<SeriesField> &fields,
        const std::function<std::string(const std::string  &file,
                                        const std::uint64_t capacity)>
          &grid_template);

      ~SeriesWriter();

      /**
       * Write output @p index at @p t into @p files (collective): this
       * rank's @p local_rows rows from @p first_row of each field,
       * @p data[f] (floats with FieldFiles::single_precision(), else
       * doubles). Returns the record's name (the series file's).
       */
      std::string
      write(const double                     t,
            const unsigned int               index,
            const std::uint64_t              first_row,
            const std::uint64_t              local_rows,
            const std::vector<const void *> &data,
            const FieldFiles                &files);

    private:
      /** Open the series file for output @p index, or create it. */
      void
      select_file(const unsigned int index, const FieldFiles &files);

      /**
       * The first output of the existing series file in @p files that
       * would hold output @p index (the latest that begins at or before
       * it), or -1 (collective).
       */
      long
      existing_file_for(const unsigned int index,
                        const FieldFiles  &files) const;

      /** Create the series file (and its template) for output @p index. */
      void
      create_file(const unsigned int index, const FieldFiles &files);

      const std::string              series;
      const std::vector<SeriesField> fields;
      const std::function<std::string(const std::string &, std::uint64_t)>
        grid_template;
      /** The open file, its directory, first output and precision. */
      std::unique_ptr<SeriesFile> file;
      std::string                 directory;
      unsigned int                first_output = 0;
      bool                        single       = false;
    };
  } // namespace Hdf5
} // namespace stickslip

#endif
