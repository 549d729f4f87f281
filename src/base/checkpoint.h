#ifndef stickslip_base_checkpoint_h
#define stickslip_base_checkpoint_h

#include <base/checkpoint_archive.h>
#include <base/global.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * Snapshots of a run in OUTPUT/checkpoints/snapshot_NNNNNNNNN/ (N the
   * step): one binary file per rank with a checksum, and a text file
   * "meta" written last, after every rank file is complete and synced, that
   * marks the snapshot complete. The meta text holds a format version, the
   * number of ranks and the step, the driver's own lines (the body) and a
   * checksum of all of it. A snapshot is built under a temporary name and
   * renamed; the previous one is deleted only after that, so one complete
   * snapshot always exists. A write that fails on any rank (a full disk) is
   * a RunError on every rank naming the file and the reason, and leaves the
   * earlier snapshots as they were.
   *
   * A replicated store is for archives without distributed vectors, whose
   * values are the same on every rank (the state of a control search):
   * rank 0 writes a single file, and any number of ranks reads it.
   */
  class CheckpointStore
  {
  public:
    CheckpointStore(const std::string &output_directory,
                    const MPI_Comm     comm,
                    const bool         replicated = false);

    /**
     * Delete the snapshots of an earlier run in this directory, which a
     * later --resume would otherwise take for this run's (collective).
     */
    void
    clear() const;

    /**
     * Write a snapshot of @p archive at step @p step with the driver's
     * lines @p meta (collective).
     */
    void
    write(const unsigned long      step,
          const CheckpointArchive &archive,
          const std::string       &meta) const;

    /**
     * Read the newest complete snapshot whose files pass their checksums
     * into @p archive (falling back to older ones with a warning on rank 0
     * through @p warnings) and return the driver's lines of its meta text.
     * A snapshot of an earlier format is an InputError. @p any_partition: the
     * model's numbering does not depend on the number of ranks, so a
     * snapshot of another number of ranks can be read (an archive with
     * entry locations is matched by place instead). Throws an InputError
     * when there is no usable snapshot, or when a whole snapshot cannot be
     * matched to this run (another mesh): then no older one can either
     * (collective); the message names @p mesh_files (RunDirectory::
     * mesh_files(), "" if the run reads none) as the likely cause.
     */
    std::string
    read(CheckpointArchive        &archive,
         const bool                any_partition,
         std::vector<std::string> &warnings,
         const std::string        &mesh_files = "") const;

    /** The folder of the snapshots. */
    std::string
    folder() const;

  private:
    /**
     * Rename the complete snapshot @p temporary to @p final_path and delete
     * the snapshots older than the one before it (rank 0).
     */
    void
    publish(const std::string &temporary, const std::string &final_path) const;

    /** What try_read() found in one snapshot. */
    enum class Outcome
    {
      read,     ///< read into the archive
      damaged,  ///< incomplete or corrupt: an older one may do
      mismatch, ///< whole, but it does not fit this run
    };

    /** Try one snapshot; the reason when it is not read. */
    Outcome
    try_read(const std::string &path,
             CheckpointArchive &archive,
             const bool         any_partition,
             std::string       &meta,
             std::string       &reason) const;

    std::string directory;
    MPI_Comm    comm;
    bool        replicated;
  };
} // namespace stickslip

#endif
