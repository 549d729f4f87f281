#include <base/input_error.h>
#include <base/output_files.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace stickslip
{
  OutputDirectory::OutputDirectory(const std::string &path,
                                   const bool         overwrite,
                                   const MPI_Comm     comm)
    : directory(path)
    , overwrite(overwrite)
    , comm(comm)
  {}



  void
  OutputDirectory::prepare() const
  {
    // Rank 0 decides; the verdict is broadcast so that every rank throws the
    // same InputError and no rank waits on the others.
    std::string error;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        namespace fs = std::filesystem;
        std::error_code code;
        if (fs::exists(directory) && !fs::is_directory(directory))
          error = "the output directory '" + directory +
                  "' (parameter 'Output/Directory') exists but is not a "
                  "directory";
        else if (!overwrite && (fs::exists(file("parameters.prm")) ||
                                fs::exists(file("history.csv"))))
          error = "the output directory '" + directory +
                  "' (parameter 'Output/Directory') holds the results of a "
                  "previous run; stickslip does not overwrite them unless "
                  "'Output/Overwrite = true' (or choose another directory)";
        else
          {
            fs::create_directories(directory, code);
            if (code)
              error = "cannot create the output directory '" + directory +
                      "' (parameter 'Output/Directory'): " + code.message();
          }
      }
    error = Utilities::MPI::broadcast(comm, error, 0);
    if (!error.empty())
      throw InputError(error);
  }



  std::string
  OutputDirectory::file(const std::string &file_name) const
  {
    return (std::filesystem::path(directory) / file_name).string();
  }



  void
  OutputDirectory::write_atomically(const std::string &file_name,
                                    const std::string &contents) const
  {
    if (Utilities::MPI::this_mpi_process(comm) != 0)
      return;
    const std::string final_name = file(file_name);
    const std::string temporary =
      final_name + ".tmp." + std::to_string(::getpid());
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out << contents;
      out.flush();
      AssertThrow(out.good(),
                  ExcMessage("cannot write the file " + temporary));
    }
    // Make the data durable before the rename publishes it.
    const int descriptor = ::open(temporary.c_str(), O_RDONLY);
    if (descriptor >= 0)
      {
        ::fsync(descriptor);
        ::close(descriptor);
      }
    AssertThrow(std::rename(temporary.c_str(), final_name.c_str()) == 0,
                ExcMessage("cannot rename " + temporary + " to " +
                           final_name));
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
    std::ostringstream out;
    for (unsigned int c = 0; c < columns.size(); ++c)
      out << (c > 0 ? "," : "") << columns[c];
    out << '\n';
    char buffer[64];
    for (const auto &row : rows)
      {
        for (unsigned int c = 0; c < row.size(); ++c)
          {
            if (c > 0)
              out << ',';
            if (std::isnan(row[c]))
              continue; // an empty field: no value
            std::snprintf(buffer, sizeof(buffer), "%.17g", row[c]);
            out << buffer;
          }
        out << '\n';
      }
    return out.str();
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
            const std::string field = line.substr(
              start, comma == std::string::npos ? std::string::npos : comma - start);
            row.push_back(field.empty() ? std::numeric_limits<double>::quiet_NaN() :
                                          std::stod(field));
            if (comma == std::string::npos)
              break;
            start = comma + 1;
          }
        AssertThrow(row.size() == columns.size(),
                    ExcMessage("a snapshot's history has other columns"));
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
      rows.emplace_back(values.begin() + i, values.begin() + i + columns.size());
  }
} // namespace stickslip
