#include <base/checksum.h>
#include <base/history_file.h>
#include <base/input_error.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace stickslip
{
  HistoryFile::HistoryFile(const OutputDirectory          &directory,
                           const std::string              &file_name,
                           const std::vector<std::string> &column_names)
    : directory(directory)
    , path(directory.file(file_name))
    , columns(column_names)
    , writer(Utilities::MPI::this_mpi_process(directory.communicator()) == 0)
    , descriptor(-1)
    , bytes(0)
    , running_hash(checksum_start)
  {}



  HistoryFile::~HistoryFile()
  {
    if (descriptor >= 0)
      ::close(descriptor);
  }



  std::string
  HistoryFile::open_for_append()
  {
    if (descriptor >= 0)
      ::close(descriptor);
    descriptor =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (descriptor < 0)
      return "cannot write the file " + path + ": " + std::strerror(errno);
    return "";
  }



  void
  HistoryFile::start()
  {
    std::string error;
    if (writer)
      {
        // Truncate, then append the header in one write.
        const int truncated =
          ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (truncated < 0)
          error = "cannot write the file " + path + ": " + std::strerror(errno);
        else
          ::close(truncated);
        bytes        = 0;
        running_hash = checksum_start;
        if (error.empty())
          error = open_for_append();
      }
    throw_if_any_failed(error, directory.communicator());
    append_text(csv_header(columns));
  }



  void
  HistoryFile::check_prefix(const std::uint64_t n_bytes,
                            const std::uint64_t expected_hash) const
  {
    std::string error;
    if (writer)
      {
        std::ifstream in(path, std::ios::binary);
        std::string   prefix(n_bytes, '\0');
        if (!in.good() || !in.read(&prefix[0], n_bytes))
          error = "the file " + path +
                  " is shorter than when the snapshot was taken (" +
                  std::to_string(n_bytes) + " bytes) or missing";
        else if (checksum(prefix) != expected_hash)
          error = "the rows of " + path +
                  " written before the snapshot have been changed since "
                  "(their checksum differs)";
      }
    error = Utilities::MPI::broadcast(directory.communicator(), error, 0);
    if (!error.empty())
      throw InputError("--resume " + directory.path() + ": " + error +
                       "; the run cannot continue from its snapshot: put back "
                       "the file the run wrote, or start the run afresh "
                       "(Output/Overwrite = true). Nothing was changed");
  }



  void
  HistoryFile::resume(const std::uint64_t n_bytes, const std::uint64_t hash)
  {
    std::string error;
    if (writer)
      {
        if (::truncate(path.c_str(), n_bytes) != 0)
          error =
            "cannot shorten the file " + path + ": " + std::strerror(errno);
        else
          error = open_for_append();
        bytes        = n_bytes;
        running_hash = hash;
      }
    throw_if_any_failed(error, directory.communicator());
  }



  void
  HistoryFile::append(const std::vector<double> &row)
  {
    AssertDimension(row.size(), columns.size());
    append_text(csv_row(row));
  }



  void
  HistoryFile::append_text(const std::string &text)
  {
    std::string error;
    if (writer)
      {
        std::size_t written = 0;
        while (written < text.size() && error.empty())
          {
            const ssize_t n =
              ::write(descriptor, text.data() + written, text.size() - written);
            if (n > 0)
              written += n;
            else if (!(n < 0 && errno == EINTR))
              error = "cannot write the file " + path + ": " +
                      (n < 0 ? std::strerror(errno) : "nothing written");
          }
        if (error.empty())
          {
            bytes += text.size();
            running_hash = checksum(text, running_hash);
          }
        else if (::ftruncate(descriptor, bytes) != 0)
          error += " (and it could not be cut back to its last whole row)";
      }
    throw_if_any_failed(error, directory.communicator());
  }



  void
  HistoryFile::sync() const
  {
    if (writer && descriptor >= 0)
      ::fsync(descriptor);
  }



  std::uint64_t
  HistoryFile::n_bytes() const
  {
    return bytes;
  }



  std::uint64_t
  HistoryFile::hash() const
  {
    return running_hash;
  }
} // namespace stickslip
