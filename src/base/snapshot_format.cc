#include <base/checksum.h>
#include <base/expressions.h>
#include <base/input_error.h>
#include <base/location_lookup.h>
#include <base/snapshot_format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <sstream>

namespace stickslip
{
  namespace
  {
    const char magic[8] = {'S', 'T', 'K', 'S', 'N', 'A', 'P', '1'};

    template <typename T>
    void
    put(std::string &out, const T value)
    {
      out.append(reinterpret_cast<const char *>(&value), sizeof(T));
    }
  } // namespace



  /**
   * Reads values from the bytes of a rank file that passed its checksum: a
   * short read means the file holds less than this run's state.
   */
  class SnapshotBytes
  {
  public:
    SnapshotBytes(const std::string &bytes, const std::string &name)
      : bytes(bytes)
      , name(name)
      , position(0)
    {}

    template <typename T>
    T
    get()
    {
      if (position + sizeof(T) > bytes.size())
        throw SnapshotMismatch(name + " holds less than this run's state");
      T value;
      std::memcpy(&value, bytes.data() + position, sizeof(T));
      position += sizeof(T);
      return value;
    }

  private:
    const std::string bytes;
    const std::string name;
    std::size_t       position;
  };



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



  MetaText
  parse_meta(const std::string &meta, const std::string &path)
  {
    const std::string end = "\ncomplete\n";
    if (meta.size() < end.size() ||
        meta.compare(meta.size() - end.size(), end.size(), end) != 0)
      throw SnapshotDamaged("its meta file is incomplete");
    std::istringstream header(meta);
    std::string        line, word;
    std::getline(header, line);
    if (line != "stickslip snapshot")
      throw SnapshotDamaged("its meta file is not a snapshot's");
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
      throw SnapshotDamaged("its meta file has no checksum");
    const std::string checked = meta.substr(0, checksum_line + 1);
    if (meta.compare(checksum_line + 10,
                     16,
                     checksum_text(checksum(checked))) != 0)
      throw SnapshotDamaged("its meta file fails its checksum");
    MetaText      parsed;
    unsigned long step = 0;
    header >> word >> parsed.n_ranks >> word >> step;
    if (!header || parsed.n_ranks == 0)
      throw SnapshotDamaged("its meta file is not a snapshot's");
    std::getline(header, line); // the rest of the step line
    parsed.body = checked.substr(static_cast<std::size_t>(header.tellg()));
    return parsed;
  }



  std::string
  read_whole_file(const std::string &path)
  {
    std::ifstream in(path, std::ios::binary);
    if (!in.good())
      throw SnapshotDamaged("cannot open " + path);
    return std::string(std::istreambuf_iterator<char>(in),
                       std::istreambuf_iterator<char>());
  }



  std::string
  serialize_rank_file(const CheckpointArchive &archive,
                      const unsigned int       n_ranks,
                      const unsigned int       rank)
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



  SnapshotReader::SnapshotReader(CheckpointArchive &archive,
                                 const bool         same_partition)
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



  void
  SnapshotReader::read_file(const std::string &name, const bool keep)
  {
    const std::string bytes = read_whole_file(name);
    if (bytes.size() < sizeof(magic) + 8 ||
        std::memcmp(bytes.data(), magic, sizeof(magic)) != 0)
      throw SnapshotDamaged(name + " is not a snapshot file");
    std::uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    if (stored != checksum(bytes.substr(0, bytes.size() - 8)))
      throw SnapshotDamaged(name + " fails its checksum");
    SnapshotBytes in(bytes.substr(sizeof(magic)), name);
    in.get<std::uint32_t>(); // ranks
    in.get<std::uint32_t>(); // rank
    const std::vector<std::uint64_t> indices = read_vectors(in, name);
    if (locations)
      read_locations(in, name, indices);
    read_scalars(in, name, bytes.size(), keep);
  }



  std::vector<std::uint64_t>
  SnapshotReader::read_vectors(SnapshotBytes &in, const std::string &name)
  {
    if (in.get<std::uint32_t>() != archive.vectors.size())
      throw SnapshotMismatch(name + " holds other vectors");
    std::vector<std::uint64_t> file_indices;
    for (unsigned int v = 0; v < archive.vectors.size(); ++v)
      {
        CheckpointArchive::Vector &vector = *archive.vectors[v];
        const std::uint64_t        n      = in.get<std::uint64_t>();
        if (same_partition)
          {
            const IndexSet owned = vector.owned();
            if (n != owned.n_elements())
              throw SnapshotMismatch(name + " has another partition");
            vector.access([&](double *values) {
              std::size_t k = 0;
              for (const auto i : owned)
                {
                  if (in.get<std::uint64_t>() != i)
                    throw SnapshotMismatch(name + " has another numbering");
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
                throw SnapshotMismatch(
                  name + " holds a vector of another size (more than " +
                  std::to_string(replicated[v].size()) + " unknowns)");
              replicated[v][i] = value;
              if (v == 0)
                file_indices.push_back(i);
            }
      }
    return file_indices;
  }



  void
  SnapshotReader::read_locations(SnapshotBytes                    &in,
                                 const std::string                &name,
                                 const std::vector<std::uint64_t> &indices)
  {
    const unsigned int  dimension = in.get<std::uint32_t>();
    const std::uint64_t n         = in.get<std::uint64_t>();
    if (dimension != archive.location_dimension ||
        (!same_partition && !archive.vectors.empty() && n != indices.size()) ||
        (same_partition && n * dimension != archive.locations.size()))
      throw SnapshotMismatch(name + " has other locations");
    std::vector<double> read(same_partition ? n * dimension : 0);
    for (std::uint64_t j = 0; j < n; ++j)
      for (unsigned int d = 0; d < dimension; ++d)
        {
          const double x = in.get<double>();
          if (same_partition)
            read[j * dimension + d] = x;
          else if (!written_locations.empty())
            written_locations[indices[j] * dimension + d] = x;
        }
    if (same_partition)
      check_same_locations(read);
  }



  void
  SnapshotReader::check_same_locations(const std::vector<double> &read) const
  {
    // On the partition that wrote it, each entry is read by its index; its
    // place must be the one it had (a mesh file changed between the run
    // and its resume moves some), to the grid of LocationLookup: 1e-10 of
    // the largest coordinate.
    const unsigned int dimension = archive.location_dimension;
    double             scale     = 0;
    for (const double x : read)
      scale = std::max(scale, std::abs(x));
    const double tolerance = 1e-10 * scale;
    for (std::size_t j = 0; j < read.size(); j += dimension)
      {
        bool moved = false;
        for (unsigned int d = 0; d < dimension; ++d)
          moved = moved || !(std::abs(read[j + d] - archive.locations[j + d]) <=
                             tolerance);
        if (!moved)
          continue;
        const auto place = [&](const std::vector<double> &from) {
          std::string where;
          for (unsigned int d = 0; d < dimension; ++d)
            where += (d == 0 ? "" : ", ") + format_number(from[j + d]);
          return "(" + where + ")";
        };
        throw SnapshotMismatch(
          "its unknown at " + place(read) +
          " (its coordinates and, for a vector field, its component) is at " +
          place(archive.locations) + " in this mesh");
      }
  }



  void
  SnapshotReader::read_scalars(SnapshotBytes     &in,
                               const std::string &name,
                               const std::size_t  n_bytes,
                               const bool         keep)
  {
    // Scalars: this rank's, or (another partition) rank 0's; the other
    // files are still read through, for their checksums.
    if (in.get<std::uint32_t>() != archive.scalars.size())
      throw SnapshotMismatch(name + " holds other scalars");
    for (double *s : archive.scalars)
      {
        const double value = in.get<double>();
        if (keep)
          *s = value;
      }
    if (in.get<std::uint32_t>() != archive.counters.size())
      throw SnapshotMismatch(name + " holds other counters");
    for (unsigned long *c : archive.counters)
      {
        const unsigned long value = in.get<std::uint64_t>();
        if (keep)
          *c = value;
      }
    if (in.get<std::uint32_t>() != archive.flags.size())
      throw SnapshotMismatch(name + " holds other flags");
    for (bool *f : archive.flags)
      {
        const bool value = in.get<std::uint8_t>() != 0;
        if (keep)
          *f = value;
      }
    if (archive.arrays.empty())
      return;
    if (in.get<std::uint32_t>() != archive.arrays.size())
      throw SnapshotMismatch(name + " holds other arrays");
    for (std::vector<double> *array : archive.arrays)
      {
        const std::uint64_t n = in.get<std::uint64_t>();
        if (n > n_bytes / sizeof(double))
          throw SnapshotMismatch(name + " holds an array longer than itself");
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
    const unsigned int dimension = archive.location_dimension;
    std::size_t        missing   = 0;
    for (std::size_t i = 0; i < written_locations.size(); i += dimension)
      if (std::isnan(written_locations[i]))
        ++missing;
    if (missing > 0)
      throw SnapshotMismatch(std::to_string(missing) + " of the " +
                             std::to_string(archive.vectors[0]->size()) +
                             " unknowns of this mesh have no value in it");
    std::unique_ptr<LocationLookup> lookup;
    try
      {
        lookup = std::make_unique<LocationLookup>(written_locations, dimension);
      }
    catch (std::runtime_error &e)
      {
        throw SnapshotMismatch(e.what());
      }
    written_locations.clear();
    written_locations.shrink_to_fit();
    for (std::size_t k = 0; k < owned.n_elements(); ++k)
      {
        const double      *place = &archive.locations[k * dimension];
        const std::int64_t j     = lookup->find(place);
        if (j < 0)
          {
            std::string where;
            for (unsigned int d = 0; d < dimension; ++d)
              where += (d == 0 ? "" : ", ") + format_number(place[d]);
            throw SnapshotMismatch(
              "the unknown of this mesh at (" + where +
              ") (its coordinates and, for a vector field, its component) "
              "has no counterpart in it");
          }
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
        std::size_t missing = 0;
        archive.vectors[v]->access([&](double *values) {
          for (std::size_t k = 0; k < source.size(); ++k)
            {
              const double value = replicated[v][source[k]];
              if (std::isnan(value))
                ++missing;
              values[k] = value;
            }
        });
        if (missing > 0)
          throw SnapshotMismatch(std::to_string(missing) +
                                 " unknowns of this rank have no value in it");
      }
  }
} // namespace stickslip
