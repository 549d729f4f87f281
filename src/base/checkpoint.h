#ifndef stickslip_base_checkpoint_h
#define stickslip_base_checkpoint_h

#include <deal.II/lac/la_parallel_vector.h>

#include <base/global.h>

#include <functional>
#include <iosfwd>
#include <memory>
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
    /**
     * A registered distributed vector as a snapshot sees it: its size, its
     * locally owned indices and direct access to the owned values, for the
     * PETSc/Trilinos vectors of the friction-system models and deal.II's
     * own distributed vectors (the matrix-free body) alike.
     */
    class Vector
    {
    public:
      virtual ~Vector() = default;

      virtual types::global_dof_index
      size() const = 0;

      virtual IndexSet
      owned() const = 0;

      /** Call @p work with the owned values (entry k: the k-th owned index). */
      virtual void
      access(const std::function<void(double *values)> &work) = 0;
    };

    void
    add(DistributedVector &vector);

    void
    add(LinearAlgebra::distributed::Vector<double> &vector);

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
    set_entry_locations(const unsigned int  dimension,
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

    std::vector<std::shared_ptr<Vector>> vectors;
    std::vector<double *>                scalars;
    std::vector<unsigned long *>         counters;
    std::vector<bool *>                  flags;
    std::vector<std::vector<double> *>   arrays;
    unsigned int                         location_dimension = 0;
    std::vector<double>                  locations;
  };



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
     * snapshot of another number of ranks can be read. Throws an
     * InputError when there is no usable snapshot (collective).
     */
    std::string
    read(CheckpointArchive        &archive,
         const bool                any_partition,
         std::vector<std::string> &warnings) const;

    /** The folder of the snapshots. */
    std::string
    folder() const;

  private:
    /** The bytes of this rank's file of @p archive, with their checksum. */
    std::string
    serialize(const CheckpointArchive &archive,
              const unsigned int       n_ranks,
              const unsigned int       rank) const;

    /**
     * Rename the complete snapshot @p temporary to @p final_path and delete
     * the snapshots older than the one before it (rank 0).
     */
    void
    publish(const std::string &temporary, const std::string &final_path) const;

    /** Try one snapshot; false (and a reason) if it is incomplete or corrupt.
     */
    bool
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
