#ifndef stickslip_base_snapshot_format_h
#define stickslip_base_snapshot_format_h

#include <base/checkpoint_archive.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The format of a snapshot's files (CheckpointStore writes and finds
   * them): the meta text, which marks a snapshot complete, and one binary
   * file per rank holding that rank's part of a CheckpointArchive (magic,
   * ranks, rank, the vectors as global index and value, the entries'
   * locations, the scalars, counters, flags and arrays, an FNV-1a
   * checksum).
   */

  /** The format of the snapshots this version writes and reads. */
  constexpr unsigned int snapshot_format = 2;

  /**
   * A snapshot that is incomplete or damaged (a file missing, truncated or
   * failing its checksum): an older one may be used instead.
   */
  class SnapshotDamaged : public std::runtime_error
  {
  public:
    explicit SnapshotDamaged(const std::string &what)
      : std::runtime_error(what)
    {}
  };

  /**
   * A whole, undamaged snapshot that does not fit this run (its unknowns
   * cannot be matched to this mesh's, it holds another state): no older
   * snapshot of the same run fits either.
   */
  class SnapshotMismatch : public std::runtime_error
  {
  public:
    explicit SnapshotMismatch(const std::string &what)
      : std::runtime_error(what)
    {}
  };

  /**
   * The meta text of a snapshot: a header, the driver's @p body, and a
   * checksum of everything before it, so that an edited meta file (a
   * number, a file name) is detected like a damaged rank file.
   */
  std::string
  compose_meta(const unsigned int  n_ranks,
               const unsigned long step,
               const std::string  &body);

  /** The parts of a meta text that compose_meta() wrote. */
  struct MetaText
  {
    unsigned int n_ranks;
    std::string  body;
  };

  /**
   * Check and split the meta text of the snapshot @p path. Throws
   * SnapshotDamaged when the snapshot is incomplete or corrupt, an
   * InputError when it has another format (all of a run's have).
   */
  MetaText
  parse_meta(const std::string &meta, const std::string &path);

  /** The bytes of a file; SnapshotDamaged if it cannot be opened. */
  std::string
  read_whole_file(const std::string &path);

  /** The bytes of rank @p rank's file of @p archive, with their checksum. */
  std::string
  serialize_rank_file(const CheckpointArchive &archive,
                      const unsigned int       n_ranks,
                      const unsigned int       rank);

  /** Reads the values of a rank file in order (snapshot_format.cc). */
  class SnapshotBytes;

  /**
   * Reads the rank files of one snapshot into an archive: on the number
   * of ranks that wrote it, each rank its own file; on another number,
   * every rank every file, into full-size arrays from which it takes its
   * owned entries (by index, or by place where the archive has
   * locations). Throws SnapshotDamaged when a file is missing or damaged,
   * SnapshotMismatch when it is whole but holds another archive or
   * another mesh.
   */
  class SnapshotReader
  {
  public:
    SnapshotReader(CheckpointArchive &archive, const bool same_partition);

    /** Read the file @p name; @p keep: its scalars are this rank's. */
    void
    read_file(const std::string &name, const bool keep);

    /** On another partition: the owned entries from the full arrays. */
    void
    distribute();

  private:
    /** The vectors; on another partition, the indices the file holds. */
    std::vector<std::uint64_t>
    read_vectors(SnapshotBytes &in, const std::string &name);

    void
    read_locations(SnapshotBytes                    &in,
                   const std::string                &name,
                   const std::vector<std::uint64_t> &indices);

    void
    read_scalars(SnapshotBytes     &in,
                 const std::string &name,
                 const std::size_t  n_bytes,
                 const bool         keep);

    /**
     * On the partition that wrote the snapshot: the locations @p read
     * from this rank's file must be those of the archive's entries
     * (SnapshotMismatch naming the first entry that moved).
     */
    void
    check_same_locations(const std::vector<double> &read) const;

    /** The snapshot's index of each owned entry (another partition). */
    std::vector<std::uint64_t>
    source_indices();

    CheckpointArchive               &archive;
    const bool                       same_partition;
    const bool                       locations;
    std::vector<std::vector<double>> replicated;
    std::vector<double>              written_locations;
  };
} // namespace stickslip

#endif
