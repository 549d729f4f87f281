#include <base/checkpoint.h>
#include <base/input_error.h>
#include <base/parameter_file.h>
#include <base/resumed_parameters.h>
#include <base/run_directory.h>
#include <base/version.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace stickslip
{
  namespace
  {
    namespace fs = std::filesystem;

    const char *const lock_file_name = "stickslip.lock";

    /** Whether @p name is a file an earlier run of stickslip wrote. */
    bool
    is_run_output(const std::string &name)
    {
      for (const char *file : {"parameters.prm",
                               "original.prm",
                               "original.json",
                               "original.xml",
                               "history.csv",
                               "errors.csv",
                               "refinement.csv",
                               "optimization.csv",
                               "solution.pvd",
                               "solution.xdmf",
                               "contact.pvd",
                               "contact.xdmf",
                               "log.txt"})
        if (name == file)
          return true;
      const auto ends_with = [&](const std::string &end) {
        return name.size() >= end.size() &&
               name.compare(name.size() - end.size(), end.size(), end) == 0;
      };
      // Field files of the flat layout of earlier versions, slab profiles.
      return (name.rfind("solution_", 0) == 0 &&
              (ends_with(".vtu") || ends_with(".pvtu"))) ||
             (name.rfind("profile-", 0) == 0 && ends_with(".csv")) ||
             is_temporary_name(name);
    }
  } // namespace



  OriginalInput::OriginalInput(const CommandLine &line)
  {
    const std::string extension =
      fs::path(line.parameter_file).extension().string();
    std::ifstream     in(line.parameter_file, std::ios::binary);
    const std::string file((std::istreambuf_iterator<char>(in)),
                           std::istreambuf_iterator<char>());
    if (extension == ".json" || extension == ".xml")
      {
        name = "original" + extension;
        text = file;
        return;
      }
    name = "original.prm";
    text = "# The parameter file " + line.parameter_file +
           " as this run was given it, verbatim below this header.\n";
    if (line.overrides.empty())
      text += "# Its command line set nothing else.\n";
    else
      text += "# Its command line also set (after the file was read):\n";
    for (const auto &[path, value] : line.overrides)
      text += "#   --set \"" + path + "=" +
              printable_excerpt(value, std::string::npos) + "\"\n";
    text += file;
  }



  RunDirectory::RunDirectory(const Parameters::Output &output,
                             const std::string        &parameters,
                             const OriginalInput      &original,
                             const MPI_Comm            comm,
                             ScreenLog                *log)
    : OutputDirectory(output.directory, comm)
    , output(output)
    , parameters(parameters)
    , original(original)
    , log(log)
    , lock_descriptor(-1)
  {}



  RunDirectory::~RunDirectory()
  {
    if (lock_descriptor >= 0)
      ::close(lock_descriptor);
  }



  const Parameters::Output &
  RunDirectory::settings() const
  {
    return output;
  }



  std::string
  RunDirectory::mesh_files() const
  {
    std::string       files;
    const std::string name = "Mesh file";
    for (const auto &[path, value] : parameter_listing_values(parameters))
      if (!value.empty() && path.size() >= name.size() &&
          path.compare(path.size() - name.size(), name.size(), name) == 0)
        files += (files.empty() ? "'" : ", '") + value + "' (parameter '" +
                 path + "')";
    return files;
  }



  void
  RunDirectory::lock(const bool create, const ParameterSource &source)
  {
    // Rank 0 decides; the verdict is broadcast so that every rank throws the
    // same InputError and no rank waits on the others.
    std::string error;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        std::error_code   code;
        const std::string where = "the output directory '" + directory + "' (" +
                                  (create ? "parameter 'Output/Directory'" +
                                              source.where("Output/Directory") :
                                            std::string("given by --resume")) +
                                  ")";
        const fs::file_status link = fs::symlink_status(directory, code);
        if (fs::exists(directory, code) && !fs::is_directory(directory, code))
          error = where + " exists but is not a directory";
        else if (fs::is_symlink(link) && !fs::exists(directory, code))
          error = where + " is a symbolic link to '" +
                  fs::read_symlink(directory, code).string() +
                  "', which does not exist: create its target, or remove "
                  "the link";
        else if (create && !fs::create_directories(directory, code) && code)
          error = "cannot create " + where + ": " + code.message();
        else if (fs::is_directory(directory, code))
          {
            const std::string path = file(lock_file_name);
            lock_descriptor =
              ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
            const int open_error = errno;
            if (lock_descriptor < 0 && fs::is_directory(path, code))
              error = "cannot create the lock file " + path + " of " + where +
                      ": a directory of that name is in the way (remove it)";
            else if (lock_descriptor < 0)
              error = "cannot create the lock file " + path + " of " + where +
                      ": " + std::strerror(open_error);
            else if (::flock(lock_descriptor, LOCK_EX | LOCK_NB) != 0 &&
                     errno == EWOULDBLOCK)
              {
                std::ifstream     in(path);
                const std::string holder((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
                error = where + " is in use by another stickslip run (" +
                        holder.substr(0, holder.find('\n')) +
                        "): two runs writing into one directory would mix "
                        "their results. Wait until it has ended, or choose "
                        "another directory";
                ::close(lock_descriptor);
                lock_descriptor = -1;
              }
            else
              {
                // Who holds the lock, for the message of a second run.
                char host[256] = "unknown host";
                ::gethostname(host, sizeof(host) - 1);
                const std::string holder = "process " +
                                           std::to_string(::getpid()) + " on " +
                                           host + "\n";
                if (::ftruncate(lock_descriptor, 0) == 0)
                  {
                    const ssize_t n =
                      ::write(lock_descriptor, holder.data(), holder.size());
                    (void)n;
                  }
              }
          }
      }
    error = Utilities::MPI::broadcast(comm, error, 0);
    if (!error.empty())
      throw InputError(error);
  }



  void
  RunDirectory::start_fresh()
  {
    std::string error;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        if (!output.overwrite && (fs::exists(file("parameters.prm")) ||
                                  fs::exists(file("history.csv"))))
          error = "the output directory '" + directory +
                  "' (parameter 'Output/Directory') holds the results of a "
                  "previous run; stickslip does not overwrite them unless "
                  "'Output/Overwrite = true' (or choose another directory)";
        else
          error = remove_previous_outputs();
      }
    error = Utilities::MPI::broadcast(comm, error, 0);
    if (!error.empty())
      throw InputError(error);
    // A fresh run drops an earlier run's snapshots, which a later --resume
    // would otherwise take for this run's.
    CheckpointStore(directory, comm).clear();
    write_parameters();
    start_log(false);
  }



  std::string
  RunDirectory::remove_previous_outputs() const
  {
    std::error_code code;
    for (const auto &entry : fs::directory_iterator(directory, code))
      {
        const std::string name = entry.path().filename().string();
        if (is_run_output(name))
          fs::remove(entry.path(), code);
        else if (name == field_folder)
          fs::remove_all(entry.path(), code);
        if (code)
          return "cannot remove the earlier output " + entry.path().string() +
                 " (parameter 'Output/Overwrite'): " + code.message();
      }
    if (!fs::create_directories(file(field_folder), code) && code)
      return "cannot create the folder " + file(field_folder) + ": " +
             code.message();
    return "";
  }



  void
  RunDirectory::check_resumable() const
  {
    const std::string checkpoints = file("checkpoints");
    bool              found       = false;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      found = fs::is_directory(checkpoints);
    if (!Utilities::MPI::broadcast(comm, found, 0))
      throw InputError("--resume " + directory +
                       ": no snapshot to continue from in " + checkpoints +
                       " (was the run started with Output/Checkpoint "
                       "interval or Checkpoint wall interval?). Nothing was "
                       "changed");
  }



  void
  RunDirectory::continue_run()
  {
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        remove_temporaries();
        std::error_code code;
        fs::create_directories(file(field_folder), code);
      }
    write_parameters();
    start_log(true);
  }



  void
  RunDirectory::remove_temporaries() const
  {
    std::error_code code;
    for (const std::string &folder : {directory, file(field_folder)})
      if (fs::is_directory(folder, code))
        for (const auto &entry : fs::directory_iterator(folder, code))
          if (is_temporary_name(entry.path().filename().string()))
            fs::remove(entry.path(), code);
  }



  void
  RunDirectory::write_parameters() const
  {
    write_atomically("parameters.prm", run_stamp(comm) + parameters);
    write_atomically(original.name, original.text);
  }



  void
  RunDirectory::start_log(const bool append) const
  {
    if (log == nullptr || Utilities::MPI::this_mpi_process(comm) != 0)
      return;
    log->attach(file("log.txt"),
                append,
                (append ? "\n# resumed\n" : "") + run_stamp(comm));
  }
} // namespace stickslip
