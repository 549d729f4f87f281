#include <base/checkpoint.h>
#include <base/input_error.h>
#include <base/output_files.h>
#include <base/snapshot_format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace stickslip
{
  namespace
  {
    /**
     * Write @p contents to @p path and make it durable; "" or a message
     * naming the file and the reason.
     */
    std::string
    write_synced(const std::string &path, const std::string &contents)
    {
      const int descriptor =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (descriptor < 0)
        return "cannot write the snapshot file " + path + ": " +
               std::strerror(errno);
      std::string reason;
      std::size_t written = 0;
      while (written < contents.size() && reason.empty())
        {
          const ssize_t n = ::write(descriptor,
                                    contents.data() + written,
                                    contents.size() - written);
          if (n > 0)
            written += n;
          else if (!(n < 0 && errno == EINTR))
            reason = n < 0 ? std::strerror(errno) : "nothing written";
        }
      if (reason.empty() && ::fsync(descriptor) != 0)
        reason = std::strerror(errno);
      if (::close(descriptor) != 0 && reason.empty())
        reason = std::strerror(errno);
      if (reason.empty())
        return "";
      return "cannot write the snapshot file " + path + ": " + reason;
    }



    std::string
    snapshot_name(const unsigned long step)
    {
      char name[64];
      std::snprintf(name, sizeof(name), "snapshot_%09lu", step);
      return name;
    }
  } // namespace



  CheckpointStore::CheckpointStore(const std::string &output_directory,
                                   const MPI_Comm     comm,
                                   const bool         replicated)
    : directory(
        (std::filesystem::path(output_directory) / "checkpoints").string())
    , comm(comm)
    , replicated(replicated)
  {}



  void
  CheckpointStore::clear() const
  {
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      std::filesystem::remove_all(directory);
    MPI_Barrier(comm);
  }



  std::string
  CheckpointStore::folder() const
  {
    return directory;
  }



  void
  CheckpointStore::write(const unsigned long      step,
                         const CheckpointArchive &archive,
                         const std::string       &meta) const
  {
    namespace fs            = std::filesystem;
    const unsigned int rank = Utilities::MPI::this_mpi_process(comm);
    // A replicated store writes one file, as if from one rank.
    const unsigned int n_ranks =
      replicated ? 1 : Utilities::MPI::n_mpi_processes(comm);
    Assert(!replicated || archive.vectors.empty(), ExcInternalError());
    const fs::path final_path = fs::path(directory) / snapshot_name(step);
    const fs::path temporary  = final_path.string() + ".tmp";
    std::string    error;
    if (rank == 0)
      {
        std::error_code code;
        fs::create_directories(directory, code);
        fs::remove_all(temporary, code);
        if (!fs::create_directories(temporary, code))
          error = "cannot create the snapshot folder " + temporary.string() +
                  ": " + code.message();
      }
    throw_if_any_failed(error, comm);

    for (const auto &prepare : archive.before_write)
      prepare();
    if (rank < n_ranks)
      error = write_synced(
        (temporary / ("rank_" + std::to_string(rank) + ".bin")).string(),
        serialize_rank_file(archive, n_ranks, rank));
    // The meta file, written last, marks the snapshot complete; then the
    // folder is published under its final name. A failure anywhere leaves
    // the earlier snapshots as they were.
    if (Utilities::MPI::max(error.empty() ? 0 : 1, comm) == 0 && rank == 0)
      error = write_synced((temporary / "meta").string(),
                           compose_meta(n_ranks, step, meta));
    if (rank == 0 && error.empty())
      publish(temporary.string(), final_path.string());
    else if (rank == 0)
      {
        std::error_code code;
        fs::remove_all(temporary, code);
      }
    throw_if_any_failed(error, comm);
  }



  void
  CheckpointStore::publish(const std::string &temporary,
                           const std::string &final_path) const
  {
    namespace fs = std::filesystem;
    fs::remove_all(final_path);
    fs::rename(temporary, final_path);
    // Keep this snapshot and the one before it.
    std::vector<fs::path> snapshots;
    for (const auto &entry : fs::directory_iterator(directory))
      {
        const std::string name = entry.path().filename().string();
        if (name.rfind("snapshot_", 0) == 0 &&
            name.find(".tmp") == std::string::npos)
          snapshots.push_back(entry.path());
      }
    std::sort(snapshots.begin(), snapshots.end());
    for (std::size_t i = 0; i + 2 < snapshots.size(); ++i)
      fs::remove_all(snapshots[i]);
  }



  CheckpointStore::Outcome
  CheckpointStore::try_read(const std::string &path,
                            CheckpointArchive &archive,
                            const bool         any_partition,
                            std::string       &meta,
                            std::string       &reason) const
  {
    const unsigned int rank          = Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks       = Utilities::MPI::n_mpi_processes(comm);
    unsigned int       written_ranks = 0;
    try
      {
        const MetaText parsed =
          parse_meta(read_whole_file(path + "/meta"), path);
        written_ranks = parsed.n_ranks;
        meta          = parsed.body;
      }
    catch (SnapshotDamaged &e)
      {
        reason = e.what();
        return Outcome::damaged;
      }
    // Entries with locations are matched by place on another partition.
    if (written_ranks != n_ranks && !any_partition &&
        !archive.has_entry_locations() && !replicated)
      throw InputError("the snapshot " + path + " was written by " +
                       std::to_string(written_ranks) +
                       " MPI ranks; this model numbers its unknowns by "
                       "partition and resumes only on the same number of "
                       "ranks (mpirun -np " +
                       std::to_string(written_ranks) + ")");

    // The files this rank reads: its own, or all of them (any partition).
    std::vector<unsigned int> files;
    if (written_ranks == n_ranks)
      files.push_back(rank);
    else
      for (unsigned int r = 0; r < written_ranks; ++r)
        files.push_back(r);
    try
      {
        SnapshotReader reader(archive, written_ranks == n_ranks);
        for (const unsigned int file : files)
          reader.read_file(path + "/rank_" + std::to_string(file) + ".bin",
                           file == files.front());
        if (written_ranks != n_ranks)
          reader.distribute();
      }
    catch (SnapshotMismatch &e)
      {
        reason = e.what();
        return Outcome::mismatch;
      }
    catch (std::exception &e)
      {
        reason = e.what();
        return Outcome::damaged;
      }
    return Outcome::read;
  }



  std::string
  CheckpointStore::read(CheckpointArchive        &archive,
                        const bool                any_partition,
                        std::vector<std::string> &warnings,
                        const std::string        &mesh_files) const
  {
    namespace fs = std::filesystem;
    // Rank 0 lists the snapshots, newest first, and tells the others.
    std::vector<std::string> candidates;
    if (Utilities::MPI::this_mpi_process(comm) == 0 &&
        fs::is_directory(directory))
      {
        for (const auto &entry : fs::directory_iterator(directory))
          {
            const std::string name = entry.path().filename().string();
            if (name.rfind("snapshot_", 0) == 0 &&
                name.find(".tmp") == std::string::npos)
              candidates.push_back(entry.path().string());
          }
        std::sort(candidates.rbegin(), candidates.rend());
      }
    candidates = Utilities::MPI::broadcast(comm, candidates, 0);

    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    for (const std::string &path : candidates)
      {
        std::string   meta, reason;
        const Outcome outcome =
          try_read(path, archive, any_partition, meta, reason);
        // Every rank must have read its part.
        const auto worst = static_cast<Outcome>(
          Utilities::MPI::max(static_cast<int>(outcome), comm));
        if (worst == Outcome::read)
          {
            for (const auto &restore : archive.after_read)
              restore();
            return meta;
          }
        // The reason of the first rank that met the worst.
        const unsigned int first =
          Utilities::MPI::min(outcome == worst ? rank : n_ranks, comm);
        reason = Utilities::MPI::broadcast(comm, reason, first);
        if (worst == Outcome::mismatch)
          throw InputError(
            "--resume: the snapshot " + path +
            " is whole but cannot be matched to this run: " + reason +
            ". A run resumes on any number of ranks, but with the mesh and "
            "the discretization of the run that wrote the snapshot" +
            (mesh_files.empty() ?
               std::string(" (a mesh file changed since?)") :
               "; its parameters are those of the run, so the mesh file " +
                 mesh_files +
                 " has most likely changed since the snapshot was written: "
                 "put back the file the run started with, or start the run "
                 "afresh") +
            ". Nothing was changed");
        warnings.push_back("the snapshot " + path +
                           " is incomplete or corrupt (" + reason +
                           "); trying the one before it");
      }
    std::string reasons;
    for (const auto &warning : warnings)
      reasons += "; " + warning;
    throw InputError(
      "no complete snapshot to resume from in " + directory +
      (candidates.empty() ?
         " (none was written: set "
         "Output/Checkpoint interval)" :
         " (every snapshot is incomplete or corrupt" + reasons + ")") +
      ". Nothing was changed");
  }
} // namespace stickslip
