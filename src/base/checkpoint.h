#ifndef stickslip_base_checkpoint_h
#define stickslip_base_checkpoint_h

#include <base/global.h>
#include <base/output_files.h>

#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * The restartable state of a run, registered in a fixed order by the
   * driver and the integrator: distributed vectors (stored as global index
   * and value, so that a snapshot of a model whose numbering does not depend
   * on the partition can be read by any number of ranks) and scalars, single
   * or in arrays (an array takes the length it was written with). Scalars
   * are per rank; read on another number of ranks, every rank gets those of
   * the snapshot's rank 0.
   */
  class CheckpointArchive
  {
  public:
    void
    add(DistributedVector &vector);

    void
    add(double &scalar);

    void
    add(unsigned long &scalar);

    void
    add(bool &flag);

    void
    add(std::vector<double> &array);

    /**
     * Where each locally owned entry of the vectors lies: @p dimension
     * coordinates per entry, in the order of the locally owned index set
     * that every vector of the archive shares. With locations a snapshot
     * resumes on any number of ranks even where the numbering of the
     * unknowns depends on the partition (a p4est mesh): the entries are
     * matched by place, not by index.
     */
    void
    set_entry_locations(const unsigned int dimension,
                        std::vector<double> coordinates);

    bool
    has_entry_locations() const;

    /**
     * Work done just before a snapshot is written (copy a state kept
     * elsewhere into registered vectors) and just after one is read (copy
     * it back).
     */
    std::vector<std::function<void()>> before_write;
    std::vector<std::function<void()>> after_read;

    std::vector<DistributedVector *>   vectors;
    std::vector<double *>              scalars;
    std::vector<unsigned long *>       counters;
    std::vector<bool *>                flags;
    std::vector<std::vector<double> *> arrays;
    unsigned int                       location_dimension = 0;
    std::vector<double>                locations;
  };



  /**
   * The end of a snapshot's meta text that the drivers share: the list of
   * field outputs (time, pvtu name) and the history rows so far.
   */
  void
  write_outputs_and_history(
    std::ostream &                                     meta,
    const std::vector<std::pair<double, std::string>> &field_outputs,
    const CsvTable &                                   history);

  /** Read back what write_outputs_and_history() wrote. */
  void
  read_outputs_and_history(std::istream &                               meta,
                           std::vector<std::pair<double, std::string>> &field_outputs,
                           CsvTable &                                   history);



  /**
   * Snapshots of a run in OUTPUT/checkpoints/snapshot_NNNNNNNNN/ (N the
   * step): one binary file per rank with a checksum, and a text file
   * "meta" written last, after every rank file is complete and synced, that
   * marks the snapshot complete. A snapshot is built under a temporary
   * name and renamed; the previous one is deleted only after that, so one
   * complete snapshot always exists.
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
     * text @p meta (collective).
     */
    void
    write(const unsigned long      step,
          const CheckpointArchive &archive,
          const std::string &      meta) const;

    /**
     * Read the newest complete snapshot whose files pass their checksums
     * into @p archive (falling back to older ones with a warning on rank 0
     * through @p warnings) and return its meta text. @p any_partition: the
     * model's numbering does not depend on the number of ranks, so a
     * snapshot of another number of ranks can be read. Throws an
     * InputError when there is no usable snapshot (collective).
     */
    std::string
    read(CheckpointArchive &       archive,
         const bool                any_partition,
         std::vector<std::string> &warnings) const;

    /** The folder of the snapshots. */
    std::string
    folder() const;

  private:
    /** Try one snapshot; false (and a reason) if it is incomplete or corrupt. */
    bool
    try_read(const std::string &path,
             CheckpointArchive &archive,
             const bool         any_partition,
             std::string &      meta,
             std::string &      reason) const;

    std::string directory;
    MPI_Comm    comm;
    bool        replicated;
  };
} // namespace stickslip

#endif
