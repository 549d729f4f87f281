#include <base/input_error.h>
#include <base/output_files.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** Write all of @p contents to @p descriptor; "" or strerror. */
    std::string
    write_all(const int descriptor, const std::string &contents)
    {
      std::size_t written = 0;
      while (written < contents.size())
        {
          const ssize_t n = ::write(descriptor,
                                    contents.data() + written,
                                    contents.size() - written);
          if (n < 0 && errno == EINTR)
            continue;
          if (n < 0)
            return std::strerror(errno);
          if (n == 0)
            return "the system wrote nothing";
          written += n;
        }
      return "";
    }
  } // namespace



  std::string
  temporary_name(const std::string &path)
  {
    return path + ".tmp." + std::to_string(::getpid());
  }



  bool
  is_temporary_name(const std::string &file_name)
  {
    const auto position = file_name.rfind(".tmp.");
    if (position == std::string::npos || position + 5 == file_name.size())
      return false;
    return file_name.find_first_not_of("0123456789", position + 5) ==
           std::string::npos;
  }



  std::string
  write_file_atomically(const std::string &path,
                        const std::string &contents,
                        const bool         durable)
  {
    const std::string temporary = temporary_name(path);
    const int         descriptor =
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (descriptor < 0)
      return "cannot write the file " + path + ": " + std::strerror(errno);
    std::string reason = write_all(descriptor, contents);
    if (reason.empty() && durable && ::fsync(descriptor) != 0)
      reason = std::strerror(errno);
    if (::close(descriptor) != 0 && reason.empty())
      reason = std::strerror(errno);
    if (reason.empty() && std::rename(temporary.c_str(), path.c_str()) != 0)
      reason = std::strerror(errno);
    if (reason.empty())
      return "";
    ::unlink(temporary.c_str());
    return "cannot write the file " + path + ": " + reason;
  }



  void
  throw_if_any_failed(const std::string &local_error, const MPI_Comm comm)
  {
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    if (n_ranks == 1) // no message (a history row at every step calls this)
      {
        if (!local_error.empty())
          throw RunError(local_error);
        return;
      }
    const unsigned int first_failing =
      Utilities::MPI::min(local_error.empty() ?
                            n_ranks :
                            Utilities::MPI::this_mpi_process(comm),
                          comm);
    if (first_failing == n_ranks)
      return;
    throw RunError(Utilities::MPI::broadcast(comm, local_error, first_failing));
  }



  OutputDirectory::OutputDirectory(const std::string &path, const MPI_Comm comm)
    : directory(path)
    , comm(comm)
  {}



  std::string
  OutputDirectory::file(const std::string &file_name) const
  {
    return (std::filesystem::path(directory) / file_name).string();
  }



  const std::string &
  OutputDirectory::path() const
  {
    return directory;
  }



  MPI_Comm
  OutputDirectory::communicator() const
  {
    return comm;
  }



  void
  OutputDirectory::write_atomically(const std::string &file_name,
                                    const std::string &contents) const
  {
    std::string error;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      error = write_file_atomically(file(file_name), contents, true);
    throw_if_any_failed(error, comm);
  }



  std::string
  csv_header(const std::vector<std::string> &column_names)
  {
    std::string line;
    for (unsigned int c = 0; c < column_names.size(); ++c)
      line += (c > 0 ? "," : "") + column_names[c];
    return line + '\n';
  }



  std::string
  csv_row(const std::vector<double> &values)
  {
    std::string line;
    line.reserve(25 * values.size() + 1);
    char buffer[64];
    for (unsigned int c = 0; c < values.size(); ++c)
      {
        if (c > 0)
          line += ',';
        if (std::isnan(values[c]))
          continue; // an empty field: no value
        // The shortest decimal that reads back to the same double
        // (std::to_chars without a format: 0.48, not %.17g's
        // 0.47999999999999998), so restore() and any reader get the bits
        // back; and without printf's multiple-precision conversion, which
        // dominated the cost of a row (BENCHMARKS.md, "Measurements behind
        // design choices in the code").
        const auto result =
          std::to_chars(buffer, buffer + sizeof(buffer), values[c]);
        line.append(buffer, result.ptr);
      }
    line += '\n';
    return line;
  }



  CsvTable::CsvTable(const std::vector<std::string> &column_names)
    : columns(column_names)
  {}



  void
  CsvTable::add_row(const std::vector<double> &values)
  {
    Assert(values.size() == columns.size(),
           ExcDimensionMismatch(values.size(), columns.size()));
    rows.push_back(values);
  }



  std::string
  CsvTable::to_string() const
  {
    std::string text = csv_header(columns);
    for (const auto &row : rows)
      text += csv_row(row);
    return text;
  }



  std::size_t
  CsvTable::n_rows() const
  {
    return rows.size();
  }



  void
  CsvTable::restore(const std::string &text)
  {
    std::istringstream in(text);
    std::string        line;
    std::getline(in, line); // header
    rows.clear();
    while (std::getline(in, line))
      {
        if (line.empty())
          continue;
        std::vector<double> row;
        std::size_t         start = 0;
        while (true)
          {
            const std::size_t comma = line.find(',', start);
            const std::string field =
              line.substr(start,
                          comma == std::string::npos ? std::string::npos :
                                                       comma - start);
            // strtod, not stod: a subnormal value (below 2.2e-308) is a
            // value, not an error.
            char        *end   = nullptr;
            const double value = std::strtod(field.c_str(), &end);
            AssertThrow(field.empty() || (end != field.c_str() && *end == '\0'),
                        ExcMessage("'" + field +
                                   "' in a table read back is "
                                   "not a number"));
            row.push_back(
              field.empty() ? std::numeric_limits<double>::quiet_NaN() : value);
            if (comma == std::string::npos)
              break;
            start = comma + 1;
          }
        AssertThrow(row.size() == columns.size(),
                    ExcMessage("a table read back has other columns"));
        rows.push_back(row);
      }
  }



  std::vector<double>
  CsvTable::flattened() const
  {
    std::vector<double> values;
    for (const auto &row : rows)
      values.insert(values.end(), row.begin(), row.end());
    return values;
  }



  void
  CsvTable::restore(const std::vector<double> &values)
  {
    AssertThrow(values.size() % columns.size() == 0,
                ExcMessage("a snapshot's table has other columns"));
    rows.clear();
    for (std::size_t i = 0; i < values.size(); i += columns.size())
      rows.emplace_back(values.begin() + i,
                        values.begin() + i + columns.size());
  }
} // namespace stickslip
