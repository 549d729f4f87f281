#include <base/checkpoint.h>
#include <base/checksum.h>
#include <base/input_error.h>
#include <base/local_values.h>
#include <base/output_files.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** A PETSc or Trilinos vector (DistributedVector) in an archive. */
    class BackendVector : public CheckpointArchive::Vector
    {
    public:
      explicit BackendVector(DistributedVector &vector)
        : vector(vector)
      {}

      types::global_dof_index
      size() const override
      {
        return vector.size();
      }

      IndexSet
      owned() const override
      {
        return vector.locally_owned_elements();
      }

      void
      access(const std::function<void(double *)> &work) override
      {
        LocalValues values(vector);
        work(&values[0]);
      }

    private:
      DistributedVector &vector;
    };



    /** A deal.II distributed vector in an archive. */
    class DealiiVector : public CheckpointArchive::Vector
    {
    public:
      explicit DealiiVector(LinearAlgebra::distributed::Vector<double> &vector)
        : vector(vector)
      {}

      types::global_dof_index
      size() const override
      {
        return vector.size();
      }

      IndexSet
      owned() const override
      {
        return vector.locally_owned_elements();
      }

      void
      access(const std::function<void(double *)> &work) override
      {
        work(vector.begin());
      }

    private:
      LinearAlgebra::distributed::Vector<double> &vector;
    };
  } // namespace



  void
  CheckpointArchive::add(DistributedVector &vector)
  {
    vectors.push_back(std::make_shared<BackendVector>(vector));
  }



  void
  CheckpointArchive::add(LinearAlgebra::distributed::Vector<double> &vector)
  {
    vectors.push_back(std::make_shared<DealiiVector>(vector));
  }



  void
  CheckpointArchive::add(double &scalar)
  {
    scalars.push_back(&scalar);
  }



  void
  CheckpointArchive::add(unsigned long &scalar)
  {
    counters.push_back(&scalar);
  }



  void
  CheckpointArchive::add(bool &flag)
  {
    flags.push_back(&flag);
  }



  void
  CheckpointArchive::add(std::vector<double> &array)
  {
    arrays.push_back(&array);
  }



  void
  CheckpointArchive::set_entry_locations(const unsigned int  dimension,
                                         std::vector<double> coordinates)
  {
    Assert(dimension > 0 && dimension <= 3, ExcInternalError());
    location_dimension = dimension;
    locations          = std::move(coordinates);
  }



  bool
  CheckpointArchive::has_entry_locations() const
  {
    return location_dimension > 0;
  }



  namespace
  {
    const char magic[8] = {'S', 'T', 'K', 'S', 'N', 'A', 'P', '1'};

    template <typename T>
    void
    put(std::string &out, const T value)
    {
      out.append(reinterpret_cast<const char *>(&value), sizeof(T));
    }

    /** Reads values from a byte string; throws on a short read. */
    class Reader
    {
    public:
      explicit Reader(const std::string &bytes)
        : bytes(bytes)
        , position(0)
      {}

      template <typename T>
      T
      get()
      {
        if (position + sizeof(T) > bytes.size())
          throw std::runtime_error("the file is truncated");
        T value;
        std::memcpy(&value, bytes.data() + position, sizeof(T));
        position += sizeof(T);
        return value;
      }

    private:
      const std::string bytes;
      std::size_t       position;
    };

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



    /** The format of the snapshots this version writes and reads. */
    constexpr unsigned int snapshot_format = 2;

    /**
     * The meta text of a snapshot: a header, the driver's @p body, and a
     * checksum of everything before it, so that an edited meta file (a
     * number, a file name) is detected like a damaged rank file.
     */
    std::string
    compose_meta(const unsigned int  n_ranks,
                 const unsigned long step,
                 const std::string  &body)
    {
      std::ostringstream text;
      text << "stickslip snapshot\nformat " << snapshot_format << "\nranks "
           << n_ranks << "\nstep " << step << '\n'
           << body << (body.empty() || body.back() == '\n' ? "" : "\n");
      const std::string checked = text.str();
      return checked + "checksum " + checksum_text(checksum(checked)) +
             "\ncomplete\n";
    }



    /** The parts of a meta text that compose_meta() wrote. */
    struct MetaText
    {
      unsigned int n_ranks;
      std::string  body;
    };

    /**
     * Check and split a meta text. Throws std::runtime_error when the
     * snapshot is incomplete or corrupt (an older one may be used instead),
     * an InputError when it has another format (all of a run's have).
     */
    MetaText
    parse_meta(const std::string &meta, const std::string &path)
    {
      const std::string end = "\ncomplete\n";
      if (meta.size() < end.size() ||
          meta.compare(meta.size() - end.size(), end.size(), end) != 0)
        throw std::runtime_error("its meta file is incomplete");
      std::istringstream header(meta);
      std::string        line, word;
      std::getline(header, line);
      if (line != "stickslip snapshot")
        throw std::runtime_error("its meta file is not a snapshot's");
      unsigned int format = 0;
      header >> word >> format;
      if (word != "format")
        throw InputError(
          "the snapshot " + path +
          " was written by an earlier version of stickslip (snapshot format "
          "1, without a checksum of its meta file); this version reads "
          "format " +
          std::to_string(snapshot_format) +
          " only: run the simulation again from its start");
      if (format != snapshot_format)
        throw InputError("the snapshot " + path + " has format " +
                         std::to_string(format) + "; this version reads " +
                         std::to_string(snapshot_format) + " only");
      const std::size_t checksum_line = meta.rfind("\nchecksum ");
      if (checksum_line == std::string::npos)
        throw std::runtime_error("its meta file has no checksum");
      const std::string checked = meta.substr(0, checksum_line + 1);
      if (meta.compare(checksum_line + 10,
                       16,
                       checksum_text(checksum(checked))) != 0)
        throw std::runtime_error("its meta file fails its checksum");
      MetaText      parsed;
      unsigned long step = 0;
      header >> word >> parsed.n_ranks >> word >> step;
      if (!header || parsed.n_ranks == 0)
        throw std::runtime_error("its meta file is not a snapshot's");
      std::getline(header, line); // the rest of the step line
      parsed.body = checked.substr(static_cast<std::size_t>(header.tellg()));
      return parsed;
    }



    std::string
    read_whole_file(const std::string &path)
    {
      std::ifstream in(path, std::ios::binary);
      if (!in.good())
        throw std::runtime_error("cannot open " + path);
      return std::string(std::istreambuf_iterator<char>(in),
                         std::istreambuf_iterator<char>());
    }

    /**
     * Finds an entry of a snapshot by its location: the coordinates are
     * rounded to a grid far finer than any mesh, and a point that rounds
     * differently on the other partition (it lies on a grid line) is found
     * in a neighbouring grid cell.
     */
    class LocationLookup
    {
    public:
      LocationLookup(const std::vector<double> &coordinates,
                     const unsigned int         dimension)
        : dimension(dimension)
      {
        double extent = 0;
        for (const double x : coordinates)
          extent = std::max(extent, std::abs(x));
        spacing             = 1e-10 * std::max(extent, 1e-300);
        const std::size_t n = coordinates.size() / dimension;
        table.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
          table.emplace_back(key(&coordinates[i * dimension]), i);
        std::sort(table.begin(), table.end());
        for (std::size_t i = 1; i < table.size(); ++i)
          if (table[i].first == table[i - 1].first)
            throw std::runtime_error("two unknowns share a location");
      }

      /** The entry at @p point, or -1 if there is none. */
      std::int64_t
      find(const double *point) const
      {
        const Key center = key(point);
        const int reach  = 1;
        Key       probe  = center;
        // 3^dimension neighbours, the center first.
        for (unsigned int code = 0; code < std::pow(3, dimension); ++code)
          {
            unsigned int c = code;
            for (unsigned int d = 0; d < dimension; ++d, c /= 3)
              probe[d] = center[d] + ((c % 3 == 0) ? 0 :
                                      (c % 3 == 1) ? reach :
                                                     -reach);
            const auto found =
              std::lower_bound(table.begin(),
                               table.end(),
                               std::make_pair(probe, std::size_t(0)));
            if (found != table.end() && found->first == probe)
              return found->second;
          }
        return -1;
      }

    private:
      using Key = std::array<std::int64_t, 3>;

      Key
      key(const double *point) const
      {
        Key k = {{0, 0, 0}};
        for (unsigned int d = 0; d < dimension; ++d)
          k[d] = std::llround(point[d] / spacing);
        return k;
      }

      unsigned int                             dimension;
      double                                   spacing;
      std::vector<std::pair<Key, std::size_t>> table;
    };

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



  std::string
  CheckpointStore::serialize(const CheckpointArchive &archive,
                             const unsigned int       n_ranks,
                             const unsigned int       rank) const
  {
    std::string bytes(magic, sizeof(magic));
    put<std::uint32_t>(bytes, n_ranks);
    put<std::uint32_t>(bytes, rank);
    put<std::uint32_t>(bytes, archive.vectors.size());
    for (const auto &vector : archive.vectors)
      {
        const IndexSet owned = vector->owned();
        put<std::uint64_t>(bytes, owned.n_elements());
        vector->access([&](const double *values) {
          std::size_t k = 0;
          for (const auto i : owned)
            {
              put<std::uint64_t>(bytes, i);
              put<double>(bytes, values[k++]);
            }
        });
      }
    if (archive.has_entry_locations())
      {
        const std::size_t n_entries =
          archive.locations.size() / archive.location_dimension;
        for (const auto &vector : archive.vectors)
          AssertThrow(vector->owned().n_elements() == n_entries,
                      ExcInternalError());
        put<std::uint32_t>(bytes, archive.location_dimension);
        put<std::uint64_t>(bytes, n_entries);
        for (const double x : archive.locations)
          put<double>(bytes, x);
      }
    put<std::uint32_t>(bytes, archive.scalars.size());
    for (const double *s : archive.scalars)
      put<double>(bytes, *s);
    put<std::uint32_t>(bytes, archive.counters.size());
    for (const unsigned long *c : archive.counters)
      put<std::uint64_t>(bytes, *c);
    put<std::uint32_t>(bytes, archive.flags.size());
    for (const bool *f : archive.flags)
      put<std::uint8_t>(bytes, *f ? 1 : 0);
    // Only archives with arrays have the section: older snapshots stay
    // readable.
    if (!archive.arrays.empty())
      {
        put<std::uint32_t>(bytes, archive.arrays.size());
        for (const std::vector<double> *array : archive.arrays)
          {
            put<std::uint64_t>(bytes, array->size());
            for (const double value : *array)
              put<double>(bytes, value);
          }
      }
    put<std::uint64_t>(bytes, checksum(bytes));
    return bytes;
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
        serialize(archive, n_ranks, rank));
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



  namespace
  {
    /**
     * Reads the rank files of one snapshot into an archive: on the number
     * of ranks that wrote it, each rank its own file; on another number,
     * every rank every file, into full-size arrays from which it takes its
     * owned entries (by index, or by place where the archive has
     * locations). Throws std::runtime_error when a file is missing, damaged
     * or of another archive.
     */
    class SnapshotReader
    {
    public:
      SnapshotReader(CheckpointArchive &archive, const bool same_partition)
        : archive(archive)
        , same_partition(same_partition)
        , locations(archive.has_entry_locations())
        , replicated(archive.vectors.size())
      {
        if (same_partition)
          return;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (unsigned int v = 0; v < archive.vectors.size(); ++v)
          replicated[v].assign(archive.vectors[v]->size(), nan);
        if (locations && !archive.vectors.empty())
          written_locations.assign(archive.vectors[0]->size() *
                                     archive.location_dimension,
                                   nan);
      }

      /** Read the file @p name; @p keep: its scalars are this rank's. */
      void
      read_file(const std::string &name, const bool keep)
      {
        const std::string bytes = read_whole_file(name);
        if (bytes.size() < sizeof(magic) + 8 ||
            std::memcmp(bytes.data(), magic, sizeof(magic)) != 0)
          throw std::runtime_error(name + " is not a snapshot file");
        std::uint64_t stored;
        std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
        if (stored != checksum(bytes.substr(0, bytes.size() - 8)))
          throw std::runtime_error(name + " fails its checksum");
        Reader in(bytes.substr(sizeof(magic)));
        in.get<std::uint32_t>(); // ranks
        in.get<std::uint32_t>(); // rank
        const std::vector<std::uint64_t> indices = read_vectors(in, name);
        if (locations)
          read_locations(in, name, indices);
        read_scalars(in, name, bytes.size(), keep);
      }

      /** On another partition: the owned entries from the full arrays. */
      void
      distribute();

    private:
      /** The vectors; on another partition, the indices the file holds. */
      std::vector<std::uint64_t>
      read_vectors(Reader &in, const std::string &name);

      void
      read_locations(Reader                           &in,
                     const std::string                &name,
                     const std::vector<std::uint64_t> &indices);

      void
      read_scalars(Reader            &in,
                   const std::string &name,
                   const std::size_t  n_bytes,
                   const bool         keep);

      /** The snapshot's index of each owned entry (another partition). */
      std::vector<std::uint64_t>
      source_indices();

      CheckpointArchive               &archive;
      const bool                       same_partition;
      const bool                       locations;
      std::vector<std::vector<double>> replicated;
      std::vector<double>              written_locations;
    };



    std::vector<std::uint64_t>
    SnapshotReader::read_vectors(Reader &in, const std::string &name)
    {
      if (in.get<std::uint32_t>() != archive.vectors.size())
        throw std::runtime_error(name + " holds other vectors");
      std::vector<std::uint64_t> file_indices;
      for (unsigned int v = 0; v < archive.vectors.size(); ++v)
        {
          CheckpointArchive::Vector &vector = *archive.vectors[v];
          const std::uint64_t        n      = in.get<std::uint64_t>();
          if (same_partition)
            {
              const IndexSet owned = vector.owned();
              if (n != owned.n_elements())
                throw std::runtime_error(name + " has another partition");
              vector.access([&](double *values) {
                std::size_t k = 0;
                for (const auto i : owned)
                  {
                    if (in.get<std::uint64_t>() != i)
                      throw std::runtime_error(name + " has another numbering");
                    values[k++] = in.get<double>();
                  }
              });
            }
          else
            for (std::uint64_t j = 0; j < n; ++j)
              {
                const std::uint64_t i     = in.get<std::uint64_t>();
                const double        value = in.get<double>();
                if (i >= replicated[v].size())
                  throw std::runtime_error(name + " has another size");
                replicated[v][i] = value;
                if (v == 0)
                  file_indices.push_back(i);
              }
        }
      return file_indices;
    }



    void
    SnapshotReader::read_locations(Reader                           &in,
                                   const std::string                &name,
                                   const std::vector<std::uint64_t> &indices)
    {
      const unsigned int  dimension = in.get<std::uint32_t>();
      const std::uint64_t n         = in.get<std::uint64_t>();
      if (dimension != archive.location_dimension ||
          (!same_partition && !archive.vectors.empty() && n != indices.size()))
        throw std::runtime_error(name + " has other locations");
      for (std::uint64_t j = 0; j < n; ++j)
        for (unsigned int d = 0; d < dimension; ++d)
          {
            const double x = in.get<double>();
            if (!written_locations.empty())
              written_locations[indices[j] * dimension + d] = x;
          }
    }



    void
    SnapshotReader::read_scalars(Reader            &in,
                                 const std::string &name,
                                 const std::size_t  n_bytes,
                                 const bool         keep)
    {
      // Scalars: this rank's, or (another partition) rank 0's; the other
      // files are still read through, for their checksums.
      if (in.get<std::uint32_t>() != archive.scalars.size())
        throw std::runtime_error(name + " holds other scalars");
      for (double *s : archive.scalars)
        {
          const double value = in.get<double>();
          if (keep)
            *s = value;
        }
      if (in.get<std::uint32_t>() != archive.counters.size())
        throw std::runtime_error(name + " holds other counters");
      for (unsigned long *c : archive.counters)
        {
          const unsigned long value = in.get<std::uint64_t>();
          if (keep)
            *c = value;
        }
      if (in.get<std::uint32_t>() != archive.flags.size())
        throw std::runtime_error(name + " holds other flags");
      for (bool *f : archive.flags)
        {
          const bool value = in.get<std::uint8_t>() != 0;
          if (keep)
            *f = value;
        }
      if (archive.arrays.empty())
        return;
      if (in.get<std::uint32_t>() != archive.arrays.size())
        throw std::runtime_error(name + " holds other arrays");
      for (std::vector<double> *array : archive.arrays)
        {
          const std::uint64_t n = in.get<std::uint64_t>();
          if (n > n_bytes / sizeof(double))
            throw std::runtime_error(name + " has a bad array size");
          std::vector<double> values(n);
          for (double &value : values)
            value = in.get<double>();
          if (keep)
            *array = std::move(values);
        }
    }



    std::vector<std::uint64_t>
    SnapshotReader::source_indices()
    {
      // The snapshot's index of each owned entry: the same index, or the
      // entry at the same place.
      std::vector<std::uint64_t> source;
      if (archive.vectors.empty())
        return source;
      const IndexSet owned = archive.vectors[0]->owned();
      source.reserve(owned.n_elements());
      if (!locations)
        {
          for (const auto i : owned)
            source.push_back(i);
          return source;
        }
      for (const double x : written_locations)
        if (std::isnan(x))
          throw std::runtime_error("an entry's location is missing");
      const LocationLookup lookup(written_locations,
                                  archive.location_dimension);
      written_locations.clear();
      written_locations.shrink_to_fit();
      for (std::size_t k = 0; k < owned.n_elements(); ++k)
        {
          const std::int64_t j =
            lookup.find(&archive.locations[k * archive.location_dimension]);
          if (j < 0)
            throw std::runtime_error(
              "an unknown of this mesh lies where the snapshot has none (was "
              "it written for another mesh?)");
          source.push_back(j);
        }
      return source;
    }



    void
    SnapshotReader::distribute()
    {
      const std::vector<std::uint64_t> source = source_indices();
      for (unsigned int v = 0; v < archive.vectors.size(); ++v)
        {
          archive.vectors[v]->access([&](double *values) {
            for (std::size_t k = 0; k < source.size(); ++k)
              {
                const double value = replicated[v][source[k]];
                if (std::isnan(value))
                  throw std::runtime_error("an entry is missing");
                values[k] = value;
              }
          });
        }
    }
  } // namespace



  bool
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
    catch (InputError &)
      {
        throw;
      }
    catch (std::exception &e)
      {
        reason = e.what();
        return false;
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
    catch (std::exception &e)
      {
        reason = e.what();
        return false;
      }
    return true;
  }



  std::string
  CheckpointStore::read(CheckpointArchive        &archive,
                        const bool                any_partition,
                        std::vector<std::string> &warnings) const
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

    for (const std::string &path : candidates)
      {
        std::string meta, reason;
        const bool  ok = try_read(path, archive, any_partition, meta, reason);
        // Every rank must have read its part.
        if (Utilities::MPI::min(ok ? 1 : 0, comm) == 1)
          {
            for (const auto &restore : archive.after_read)
              restore();
            return meta;
          }
        if (reason.empty())
          reason = "another rank could not read its file";
        warnings.push_back("the snapshot " + path +
                           " is incomplete or corrupt (" + reason +
                           "); trying the one before it");
      }
    std::string reasons;
    for (const auto &warning : warnings)
      reasons += "; " + warning;
    throw InputError("no complete snapshot to resume from in " + directory +
                     (candidates.empty() ?
                        " (none was written: set "
                        "Output/Checkpoint interval)" :
                        " (every snapshot is corrupt" + reasons + ")"));
  }
} // namespace stickslip
