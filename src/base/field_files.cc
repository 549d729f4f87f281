#include <deal.II/base/utilities.h>

#include <base/field_files.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** "SERIES_KKKKK", the stem of the files of output @p index. */
    std::string
    stem(const std::string &series, const unsigned int index)
    {
      return series + "_" + Utilities::int_to_string(index, 5);
    }



    /**
     * The output number of a field file name "SERIES_KKKKK.*", or -1 if it
     * is not one.
     */
    long
    output_index(const std::string &file_name, const std::string &series)
    {
      const std::size_t underscore = series.size();
      if (file_name.rfind(series + "_", 0) != 0)
        return -1;
      const std::size_t dot = file_name.find('.', underscore + 1);
      if (dot == std::string::npos || dot == underscore + 1)
        return -1;
      const std::string digits =
        file_name.substr(underscore + 1, dot - underscore - 1);
      if (digits.find_first_not_of("0123456789") != std::string::npos)
        return -1;
      return std::stol(digits);
    }



    /** The marker between a series' name and its first output in the name
     * of a series file. */
    const std::string series_file_marker = "_from_";
  } // namespace



  FieldFiles::FieldFiles(const OutputDirectory &directory,
                         const Format           format,
                         const bool             single_precision)
    : directory(directory)
    , field_format(format)
    , single(single_precision)
  {}



  const OutputDirectory &
  FieldFiles::output_directory() const
  {
    return directory;
  }



  FieldFiles::Format
  FieldFiles::format() const
  {
    return field_format;
  }



  bool
  FieldFiles::single_precision() const
  {
    return single;
  }



  std::string
  FieldFiles::record_name(const unsigned int index, const std::string &series)
  {
    return std::string(OutputDirectory::field_folder) + "/" +
           stem(series, index) + ".pvtu";
  }



  std::string
  FieldFiles::write(
    const unsigned int                         index,
    const std::string                         &series,
    const bool                                 has_piece,
    const std::function<void(std::ostream &)> &write_piece,
    const std::function<void(std::ostream &, const std::vector<std::string> &)>
      &write_record) const
  {
    const MPI_Comm     comm    = directory.communicator();
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const unsigned int n_digits =
      Utilities::needed_digits(std::max(0, int(n_ranks) - 1));
    const auto piece_name = [&](const unsigned int r) {
      return stem(series, index) + "." + Utilities::int_to_string(r, n_digits) +
             ".vtu";
    };
    const std::string folder =
      directory.file(OutputDirectory::field_folder) + "/";

    std::string error;
    if (has_piece)
      {
        std::ostringstream piece;
        write_piece(piece);
        error =
          write_file_atomically(folder + piece_name(rank), piece.str(), false);
      }
    throw_if_any_failed(error, comm);

    // The record lists the pieces that exist, once all of them do.
    const std::vector<unsigned int> have_piece =
      Utilities::MPI::gather(comm, has_piece ? 1u : 0u, 0);
    if (rank == 0)
      {
        std::vector<std::string> pieces;
        for (unsigned int r = 0; r < n_ranks; ++r)
          if (have_piece[r] != 0)
            pieces.push_back(piece_name(r));
        std::ostringstream record;
        write_record(record, pieces);
        error = write_file_atomically(folder + stem(series, index) + ".pvtu",
                                      record.str(),
                                      false);
      }
    throw_if_any_failed(error, comm);
    return record_name(index, series);
  }



  void
  FieldFiles::plan(const std::string &series, const unsigned int n_outputs)
  {
    planned[series] = n_outputs;
  }



  unsigned int
  FieldFiles::planned_outputs(const std::string &series) const
  {
    const auto found = planned.find(series);
    return found == planned.end() ? 0 : found->second;
  }



  std::string
  FieldFiles::series_file_name(const std::string &series,
                               const unsigned int first_output)
  {
    return std::string(OutputDirectory::field_folder) + "/" + series +
           series_file_marker + Utilities::int_to_string(first_output, 5) +
           ".h5";
  }



  std::string
  FieldFiles::series_template_name(const std::string &file_name)
  {
    return file_name.substr(0, file_name.size() - 3) + ".xdmf.in";
  }



  long
  FieldFiles::series_file_first_output(const std::string &file_name)
  {
    const std::string name = file_name.substr(file_name.rfind('/') + 1);
    const std::size_t at   = name.rfind(series_file_marker);
    if (at == std::string::npos || at == 0)
      return -1;
    const std::size_t first = at + series_file_marker.size();
    const std::size_t dot   = name.find('.', first);
    const std::string rest  = dot == std::string::npos ? "" : name.substr(dot);
    if (dot == first || (rest != ".h5" && rest != ".xdmf.in"))
      return -1;
    const std::string digits = name.substr(first, dot - first);
    if (digits.find_first_not_of("0123456789") != std::string::npos)
      return -1;
    return std::stol(digits);
  }



  void
  FieldFiles::remove_outputs_from(const unsigned int first_stale,
                                  const std::string &series) const
  {
    namespace fs           = std::filesystem;
    const fs::path  folder = directory.file(OutputDirectory::field_folder);
    std::error_code code;
    if (!fs::is_directory(folder, code))
      return;
    for (const auto &entry : fs::directory_iterator(folder, code))
      {
        const std::string name  = entry.path().filename().string();
        const long        index = output_index(name, series);
        const long first = name.rfind(series + series_file_marker, 0) == 0 ?
                             series_file_first_output(name) :
                             -1;
        if (is_temporary_name(name) ||
            (index >= 0 && index >= static_cast<long>(first_stale)) ||
            (first >= 0 && first >= static_cast<long>(first_stale)))
          fs::remove(entry.path(), code);
      }
  }
} // namespace stickslip
