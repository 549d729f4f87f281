#include <deal.II/base/mpi.h>

#include <base/hdf5_field_writer.h>
#include <base/hdf5_series_file.h>
#include <base/output_files.h>

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

namespace stickslip
{
  namespace Hdf5
  {
    namespace
    {
      /** HDF5's file type of the values (little-endian, as the files are). */
      hid_t
      file_type(const bool single)
      {
        return single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
      }



      /**
       * The file access of a series file: MPI-IO on several ranks, HDF5's
       * default (POSIX) driver on one; no sieve buffer, so that a write goes
       * to the file when H5Dwrite returns (a kill after it loses nothing).
       */
      hid_t
      file_access(const bool parallel, const MPI_Comm comm)
      {
        const hid_t access = H5Pcreate(H5P_FILE_ACCESS);
        if (parallel)
          H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL);
        H5Pset_sieve_buf_size(access, 0);
        return access;
      }



      /**
       * Create the contiguous dataset @p name of @p dims in @p file, its
       * space allocated now; its values written now only if @p fill (with
       * @p fill_value), so that the unwritten outputs stay holes in the
       * file. Returns "" or what failed.
       */
      std::string
      create_dataset(const hid_t                 file,
                     const std::string          &name,
                     const std::vector<hsize_t> &dims,
                     const hid_t                 type,
                     const double               *fill_value)
      {
        const hid_t space = H5Screate_simple(dims.size(), dims.data(), nullptr);
        const hid_t creation = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_layout(creation, H5D_CONTIGUOUS);
        H5Pset_alloc_time(creation, H5D_ALLOC_TIME_EARLY);
        // No modification times: the same data give the same bytes.
        H5Pset_obj_track_times(creation, false);
        if (fill_value != nullptr)
          {
            H5Pset_fill_value(creation, H5T_NATIVE_DOUBLE, fill_value);
            H5Pset_fill_time(creation, H5D_FILL_TIME_ALLOC);
          }
        else
          H5Pset_fill_time(creation, H5D_FILL_TIME_NEVER);
        const hid_t dataset = H5Dcreate2(
          file, name.c_str(), type, space, H5P_DEFAULT, creation, H5P_DEFAULT);
        H5Pclose(creation);
        H5Sclose(space);
        if (dataset < 0)
          return "HDF5 could not create the dataset /" + name;
        H5Dclose(dataset);
        return "";
      }



      /**
       * The transfer property list of a write: collective or independent
       * on MPI-IO (@p parallel), HDF5's default otherwise.
       */
      hid_t
      transfer_list(const bool parallel, const bool collective)
      {
        const hid_t transfer = H5Pcreate(H5P_DATASET_XFER);
        if (parallel)
          H5Pset_dxpl_mpio(transfer,
                           collective ? H5FD_MPIO_COLLECTIVE :
                                        H5FD_MPIO_INDEPENDENT);
        return transfer;
      }



      /**
       * Write @p count values of @p data to @p dataset at @p start (this
       * rank's part) through @p transfer (transfer_list()). Returns whether
       * it succeeded.
       */
      bool
      write_block(const hid_t                 dataset,
                  const std::vector<hsize_t> &start,
                  const std::vector<hsize_t> &count,
                  const hid_t                 memory_type,
                  const void                 *data,
                  const hid_t                 transfer)
      {
        const hid_t space = H5Dget_space(dataset);
        const hid_t memory =
          H5Screate_simple(count.size(), count.data(), nullptr);
        bool empty = false;
        for (const hsize_t n : count)
          empty = empty || n == 0;
        if (empty)
          {
            H5Sselect_none(space);
            H5Sselect_none(memory);
          }
        else
          H5Sselect_hyperslab(space,
                              H5S_SELECT_SET,
                              start.data(),
                              nullptr,
                              count.data(),
                              nullptr);
        const herr_t status =
          H5Dwrite(dataset, memory_type, memory, space, transfer, data);
        H5Sclose(memory);
        H5Sclose(space);
        return status >= 0;
      }



      /**
       * Whether the open @p file holds /time of some capacity and the
       * datasets of @p fields for it in the precision @p single; the
       * capacity into @p capacity.
       */
      bool
      has_layout(const hid_t                     file,
                 const std::vector<SeriesField> &fields,
                 const bool                      single,
                 std::uint64_t                  &capacity)
      {
        const auto shape = [&](const std::string &name) {
          std::vector<hsize_t> dims;
          if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0)
            return dims;
          const hid_t dataset = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
          if (dataset < 0)
            return dims;
          const hid_t space = H5Dget_space(dataset);
          dims.resize(std::max(0, H5Sget_simple_extent_ndims(space)));
          H5Sget_simple_extent_dims(space, dims.data(), nullptr);
          const hid_t type     = H5Dget_type(dataset);
          const bool  expected = H5Tequal(type, file_type(single)) > 0;
          H5Tclose(type);
          H5Sclose(space);
          H5Dclose(dataset);
          if (!expected && name != "time")
            dims.clear();
          return dims;
        };
        const std::vector<hsize_t> time = shape("time");
        if (time.size() != 1)
          return false;
        capacity = time[0];
        for (const SeriesField &field : fields)
          if (shape(field.name) !=
              std::vector<hsize_t>{capacity, field.rows, field.columns})
            return false;
        return true;
      }



      /**
       * Write @p text as the string attribute @p name of the open @p file
       * (collective on MPI-IO: the same text on every rank); "" or what
       * failed.
       */
      std::string
      write_text_attribute(const hid_t        file,
                           const std::string &name,
                           const std::string &text)
      {
        const hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, std::max<std::size_t>(1, text.size()));
        const hid_t scalar    = H5Screate(H5S_SCALAR);
        const hid_t attribute = H5Acreate2(
          file, name.c_str(), type, scalar, H5P_DEFAULT, H5P_DEFAULT);
        const bool ok =
          attribute >= 0 && H5Awrite(attribute, type, text.c_str()) >= 0;
        if (attribute >= 0)
          H5Aclose(attribute);
        H5Sclose(scalar);
        H5Tclose(type);
        return ok ? "" : "HDF5 could not write the attribute " + name;
      }



      /** The string attribute @p name of the open @p file, "" if none. */
      std::string
      read_text_attribute(const hid_t file, const std::string &name)
      {
        if (H5Aexists(file, name.c_str()) <= 0)
          return "";
        const hid_t attribute = H5Aopen(file, name.c_str(), H5P_DEFAULT);
        if (attribute < 0)
          return "";
        const hid_t type = H5Aget_type(attribute);
        std::string text;
        if (H5Tget_class(type) == H5T_STRING && !H5Tis_variable_str(type))
          {
            std::vector<char> buffer(H5Tget_size(type) + 1, '\0');
            if (H5Aread(attribute, type, buffer.data()) >= 0)
              text = buffer.data();
          }
        H5Tclose(type);
        H5Aclose(attribute);
        return text;
      }
    } // namespace



    void
    SeriesFile::create(const std::string              &path,
                       const std::vector<SeriesField> &fields,
                       const std::uint64_t             capacity,
                       const bool                      single,
                       const std::string              &xdmf_template,
                       const MPI_Comm                  comm)
    {
      // The times are written now; the fields' outputs stay holes.
      std::uint64_t bytes_per_output = 0;
      for (const SeriesField &field : fields)
        bytes_per_output += field.rows * field.columns * (single ? 4 : 8);
      create_file_atomically(
        path,
        Utilities::MPI::n_mpi_processes(comm) > 1,
        comm,
        {capacity * 8, capacity * (8 + bytes_per_output)},
        [&](const hid_t file) {
          const double not_written = std::numeric_limits<double>::quiet_NaN();
          std::string  error       = create_dataset(
            file, "time", {capacity}, H5T_IEEE_F64LE, &not_written);
          for (const SeriesField &field : fields)
            if (error.empty())
              error = create_dataset(file,
                                     field.name,
                                     {capacity, field.rows, field.columns},
                                     file_type(single),
                                     nullptr);
          if (error.empty())
            error = write_text_attribute(file, "xdmf_template", xdmf_template);
          return error;
        });
    }



    std::string
    SeriesFile::read(const std::string   &path,
                     std::vector<double> &times,
                     std::string         &xdmf_template)
    {
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
      times.clear();
      xdmf_template.clear();
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      if (file < 0)
        return "HDF5 cannot open it (missing, truncated or damaged)";
      std::string error;
      const hid_t time = H5Dopen2(file, "time", H5P_DEFAULT);
      if (time < 0)
        error = "it holds no /time: it is not a series file";
      else
        {
          const hid_t space = H5Dget_space(time);
          hsize_t     n     = 0;
          if (H5Sget_simple_extent_ndims(space) == 1)
            H5Sget_simple_extent_dims(space, &n, nullptr);
          times.resize(n);
          if (n == 0 || H5Dread(time,
                                H5T_NATIVE_DOUBLE,
                                H5S_ALL,
                                H5S_ALL,
                                H5P_DEFAULT,
                                times.data()) < 0)
            error = "HDF5 cannot read its /time (truncated or damaged)";
          H5Sclose(space);
          H5Dclose(time);
        }
      if (error.empty())
        xdmf_template = read_text_attribute(file, "xdmf_template");
      H5Fclose(file);
      return error;
    }



    std::string
    check_readable(const std::string &path, double &time)
    {
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
      time             = std::numeric_limits<double>::quiet_NaN();
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      if (file < 0)
        return "HDF5 cannot open it (missing, truncated or damaged)";
      if (H5Aexists(file, "time") > 0)
        {
          const hid_t attribute = H5Aopen(file, "time", H5P_DEFAULT);
          if (attribute < 0 || H5Aread(attribute, H5T_NATIVE_DOUBLE, &time) < 0)
            time = std::numeric_limits<double>::quiet_NaN();
          if (attribute >= 0)
            H5Aclose(attribute);
        }
      H5Fclose(file);
      return "";
    }



    bool
    SeriesFile::matches(const std::string              &path,
                        const std::vector<SeriesField> &fields,
                        const bool                      single,
                        const MPI_Comm                  comm)
    {
      // Rank 0 reads the layout (metadata only) and tells the others.
      bool match = false;
      if (Utilities::MPI::this_mpi_process(comm) == 0)
        {
          H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
          const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
          std::uint64_t capacity = 0;
          match = file >= 0 && has_layout(file, fields, single, capacity);
          if (file >= 0)
            H5Fclose(file);
        }
      return Utilities::MPI::broadcast(comm, match, 0);
    }



    SeriesFile::SeriesFile(const std::string              &path,
                           const std::vector<SeriesField> &fields,
                           const bool                      single,
                           const MPI_Comm                  comm)
      : path(path)
      , comm(comm)
      , single(single)
      , parallel(Utilities::MPI::n_mpi_processes(comm) > 1)
    {
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
      const hid_t access = file_access(parallel, comm);
      file               = H5Fopen(path.c_str(), H5F_ACC_RDWR, access);
      H5Pclose(access);
      // Every rank opens the datasets (collective) or none does.
      std::string error;
      if (file < 0)
        error = "HDF5 could not open it";
      else if (!has_layout(file, fields, single, n_slots))
        error = "it is not a series file of the fields written";
      if (parallel && Utilities::MPI::max(error.empty() ? 0 : 1, comm) == 1 &&
          error.empty())
        error = "another rank could not read it";
      if (error.empty())
        {
          time = H5Dopen2(file, "time", H5P_DEFAULT);
          for (const SeriesField &field : fields)
            {
              datasets.push_back(
                H5Dopen2(file, field.name.c_str(), H5P_DEFAULT));
              columns.push_back(field.columns);
            }
          collective  = transfer_list(parallel, true);
          independent = transfer_list(parallel, false);
        }
      if (!error.empty())
        {
          if (file >= 0)
            H5Fclose(file);
          file  = -1;
          error = "cannot write " + path + ": " + error;
        }
      throw_if_any_failed(error, comm);
    }



    SeriesFile::~SeriesFile()
    {
      if (file < 0)
        return;
      for (const hid_t dataset : datasets)
        H5Dclose(dataset);
      H5Dclose(time);
      H5Pclose(collective);
      H5Pclose(independent);
      H5Fclose(file);
    }



    std::uint64_t
    SeriesFile::capacity() const
    {
      return n_slots;
    }



    void
    SeriesFile::write(const std::uint64_t              slot,
                      const double                     t,
                      const std::uint64_t              first_row,
                      const std::uint64_t              local_rows,
                      const std::vector<const void *> &data)
    {
      AssertThrow(slot < n_slots && data.size() == datasets.size(),
                  ExcInternalError());
      // Every field on every rank, whether or not an earlier write failed
      // on this one: the writes are collective.
      bool ok = true;
      for (std::size_t f = 0; f < datasets.size(); ++f)
        ok = write_block(datasets[f],
                         {slot, first_row, 0},
                         {1, local_rows, columns[f]},
                         single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE,
                         data[f],
                         collective) &&
             ok;
      const std::string reason = ok ? "" : system_error();
      // The time last, once every rank's values are in the file: an
      // output with a time is complete. (One rank: no message.)
      if (parallel)
        ok = Utilities::MPI::min(ok ? 1 : 0, comm) == 1;
      if (ok && Utilities::MPI::this_mpi_process(comm) == 0)
        ok = write_block(time, {slot}, {1}, H5T_NATIVE_DOUBLE, &t, independent);
      throw_if_any_failed(ok ? "" :
                               "cannot write output " + std::to_string(slot) +
                                 " into " + path +
                                 (reason.empty() ? "" : ": " + reason),
                          comm);
    }



    void
    SeriesFile::forget_from(const std::uint64_t slot)
    {
      if (slot >= n_slots)
        return;
      bool ok = true;
      if (Utilities::MPI::this_mpi_process(comm) == 0)
        {
          const std::vector<double> not_written(
            n_slots - slot, std::numeric_limits<double>::quiet_NaN());
          ok = write_block(time,
                           {slot},
                           {n_slots - slot},
                           H5T_NATIVE_DOUBLE,
                           not_written.data(),
                           independent);
        }
      throw_if_any_failed(ok ? "" : "cannot write into " + path, comm);
    }



    std::string
    xdmf_series_item(const std::string  &file,
                     const std::string  &name,
                     const std::uint64_t capacity,
                     const std::uint64_t rows,
                     const unsigned int  columns,
                     const unsigned int  precision)
    {
      const std::string r = std::to_string(rows);
      const std::string c = std::to_string(columns);
      return "<DataItem Dimensions=\"" + r + " " + c +
             "\" NumberType=\"Float\" Precision=\"" +
             std::to_string(precision) + "\" Format=\"HDF\">" + file + ":/" +
             name + "|{ROW} 0 0:1 1 1:1 " + r + " " + c + ":" +
             std::to_string(capacity) + " " + r + " " + c + "</DataItem>";
    }



    SeriesWriter::SeriesWriter(
      const std::string              &series,
      const std::vector<SeriesField> &fields,
      const std::function<std::string(const std::string  &file,
                                      const std::uint64_t capacity)>
        &grid_template)
      : series(series)
      , fields(fields)
      , grid_template(grid_template)
    {}



    SeriesWriter::~SeriesWriter() = default;



    std::string
    SeriesWriter::write(const double                     t,
                        const unsigned int               index,
                        const std::uint64_t              first_row,
                        const std::uint64_t              local_rows,
                        const std::vector<const void *> &data,
                        const FieldFiles                &files)
    {
      if (file == nullptr || directory != files.output_directory().path() ||
          single != files.single_precision() || index < first_output ||
          index >= first_output + file->capacity())
        select_file(index, files);
      file->write(index - first_output, t, first_row, local_rows, data);
      return FieldFiles::series_file_name(series, first_output);
    }



    void
    SeriesWriter::select_file(const unsigned int index, const FieldFiles &files)
    {
      file.reset();
      directory           = files.output_directory().path();
      single              = files.single_precision();
      const MPI_Comm comm = files.output_directory().communicator();
      // A resumed run: the file that holds its first output, if it is one
      // of these fields (Output/Field precision may have changed).
      const long existing = existing_file_for(index, files);
      if (existing >= 0)
        {
          const std::string path = files.output_directory().file(
            FieldFiles::series_file_name(series, existing));
          if (SeriesFile::matches(path, fields, single, comm))
            {
              auto candidate =
                std::make_unique<SeriesFile>(path, fields, single, comm);
              if (index < existing + candidate->capacity())
                {
                  candidate->forget_from(index - existing);
                  file         = std::move(candidate);
                  first_output = existing;
                  return;
                }
            }
        }
      create_file(index, files);
    }



    long
    SeriesWriter::existing_file_for(const unsigned int index,
                                    const FieldFiles  &files) const
    {
      const MPI_Comm comm = files.output_directory().communicator();
      long           best = -1;
      if (index > 0 && Utilities::MPI::this_mpi_process(comm) == 0)
        {
          namespace fs               = std::filesystem;
          const OutputDirectory &out = files.output_directory();
          std::error_code        code;
          for (const auto &entry :
               fs::directory_iterator(out.file(OutputDirectory::field_folder),
                                      code))
            {
              const std::string name = entry.path().filename().string();
              const long first = FieldFiles::series_file_first_output(name);
              if (first < 0 || first > long(index) || first <= best)
                continue;
              const std::string file_name =
                FieldFiles::series_file_name(series, first);
              // A file without its template is a leftover of a kill
              // between the two: it is made again.
              if (file_name.substr(file_name.rfind('/') + 1) == name &&
                  fs::exists(
                    out.file(FieldFiles::series_template_name(file_name))))
                best = first;
            }
        }
      return Utilities::MPI::broadcast(comm, best, 0);
    }



    void
    SeriesWriter::create_file(const unsigned int index, const FieldFiles &files)
    {
      const MPI_Comm comm = files.output_directory().communicator();
      // Room for the outputs the run plans from here, at most about 1 GiB
      // a file (a volume of 10^6 nodes: about 20 outputs); 64 where the
      // plan is exceeded (a resumed run given a later final time).
      std::uint64_t bytes_per_output = 0;
      for (const SeriesField &field : fields)
        bytes_per_output += field.rows * field.columns * (single ? 4 : 8);
      const std::uint64_t largest =
        std::max<std::uint64_t>(1,
                                (std::uint64_t(1) << 30) /
                                  std::max<std::uint64_t>(1, bytes_per_output));
      const unsigned int  planned  = files.planned_outputs(series);
      const std::uint64_t wanted   = planned > index ? planned - index : 64;
      const std::uint64_t capacity = std::min(wanted, largest);

      const std::string name = FieldFiles::series_file_name(series, index);
      const std::string text =
        grid_template(name.substr(name.rfind('/') + 1), capacity);
      SeriesFile::create(files.output_directory().file(name),
                         fields,
                         capacity,
                         single,
                         text,
                         comm);
      // The template after the file: a template names a complete file.
      std::string error;
      if (Utilities::MPI::this_mpi_process(comm) == 0)
        error = stickslip::write_file_atomically(
          files.output_directory().file(FieldFiles::series_template_name(name)),
          text,
          false);
      throw_if_any_failed(error, comm);
      file = std::make_unique<SeriesFile>(files.output_directory().file(name),
                                          fields,
                                          single,
                                          comm);
      first_output = index;
    }
  } // namespace Hdf5
} // namespace stickslip
