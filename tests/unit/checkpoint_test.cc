// Unit tests of the snapshots of a run (src/base/checkpoint.h): a
// CheckpointArchive registered with a distributed vector, scalars, counters,
// flags and arrays, written by CheckpointStore::write() into a temporary
// directory and read back by CheckpointStore::read() into fresh variables,
// gives the same values bitwise (the files hold the binary values, so no
// tolerance: NaN, -0 and subnormals included). A snapshot damaged after it
// was written (one flipped byte, or a truncated file) is detected by its
// checksum: read() falls back to the snapshot before it with a warning, or
// throws an InputError when there is none.
//
// Only the public interface is used (the snapshot's own files are found by
// listing the store's folder), so the tests hold whatever the format of
// the meta text. LocationLookup, which matches a snapshot's entries by
// place on another partition, is tested on the places of a 3D vector
// field: four coordinates (x, y, z, component). The executable also runs
// under mpirun -np 2: then the
// vector is split over the ranks, the scalars differ per rank, and the
// damaged file is the last rank's, which only that rank reads.
#include <base/checkpoint.h>
#include <base/input_error.h>
#include <base/location_lookup.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_checkpoint
{
  using namespace stickslip;
  namespace fs = std::filesystem;

  std::uint64_t
  bits(const double value)
  {
    std::uint64_t result;
    std::memcpy(&result, &value, sizeof(result));
    return result;
  }

  /** The state of a run as a driver would register it. */
  struct RunState
  {
    RunState(const IndexSet &owned, const MPI_Comm comm)
      : vector(owned, comm)
      , time(0)
      , energy(0)
      , missing(0)
      , step(0)
      , evaluations(0)
      , sliding(false)
      , converged(false)
    {
      archive.add(vector);
      archive.add(time);
      archive.add(energy);
      archive.add(missing);
      archive.add(step);
      archive.add(evaluations);
      archive.add(sliding);
      archive.add(converged);
      archive.add(empty_array);
      archive.add(history);
    }

    /** Distinct, awkward values; @p version tells two snapshots apart. */
    void
    fill(const unsigned int version, const unsigned int rank)
    {
      // -0, NaN and a subnormal among ordinary values.
      for (const auto i : vector.locally_owned_elements())
        vector[i] = i % 3 == 0 ? -0. :
                    i == 4     ? std::numeric_limits<double>::quiet_NaN() :
                    i == 5     ? 1e-310 * (version + 1) :
                                 1. / (i + 3) + version;
      vector.compress(VectorOperation::insert);
      time        = 1. / 3 + version + rank; // scalars are per rank
      energy      = version == 0 ? -0. : 1e-310;
      missing     = std::numeric_limits<double>::quiet_NaN();
      step        = (1ul << 63) + version;
      evaluations = std::numeric_limits<unsigned long>::max() - rank;
      sliding     = version % 2 == 0;
      converged   = true;
      empty_array.clear();
      history = {M_PI,
                 -std::exp(1.),
                 std::numeric_limits<double>::denorm_min(),
                 static_cast<double>(version)};
    }

    DistributedVector   vector;
    double              time, energy, missing;
    unsigned long       step, evaluations;
    bool                sliding, converged;
    std::vector<double> empty_array, history;
    CheckpointArchive   archive;
  };



  void
  expect_same_bits(const RunState &read, const RunState &written)
  {
    for (const auto i : written.vector.locally_owned_elements())
      EXPECT_EQ(bits(read.vector(i)), bits(written.vector(i))) << "entry " << i;
    EXPECT_EQ(bits(read.time), bits(written.time));
    EXPECT_EQ(bits(read.energy), bits(written.energy));
    EXPECT_EQ(bits(read.missing), bits(written.missing));
    EXPECT_EQ(read.step, written.step);
    EXPECT_EQ(read.evaluations, written.evaluations);
    EXPECT_EQ(read.sliding, written.sliding);
    EXPECT_EQ(read.converged, written.converged);
    EXPECT_TRUE(read.empty_array.empty());
    ASSERT_EQ(read.history.size(), written.history.size());
    for (std::size_t k = 0; k < read.history.size(); ++k)
      EXPECT_EQ(bits(read.history[k]), bits(written.history[k]))
        << "history " << k;
  }



  class CheckpointTest : public ::testing::Test
  {
  protected:
    CheckpointTest()
      : comm(MPI_COMM_WORLD)
      , rank(Utilities::MPI::this_mpi_process(comm))
      , owned(Utilities::create_evenly_distributed_partitioning(
          rank,
          Utilities::MPI::n_mpi_processes(comm),
          11))
    {
      // One fresh directory, named on rank 0, shared by every rank.
      std::string name;
      if (rank == 0)
        {
          std::random_device random;
          name = (fs::temp_directory_path() /
                  ("stickslip_checkpoint_test_" + std::to_string(random())))
                   .string();
          fs::remove_all(name);
          fs::create_directories(name);
        }
      directory = Utilities::MPI::broadcast(comm, name, 0);
    }

    ~CheckpointTest() override
    {
      MPI_Barrier(comm);
      if (rank == 0)
        fs::remove_all(directory);
      MPI_Barrier(comm);
    }

    /** The folders of the complete snapshots, oldest first (every rank). */
    std::vector<fs::path>
    snapshots(const CheckpointStore &store) const
    {
      std::vector<fs::path> folders;
      for (const auto &entry : fs::directory_iterator(store.folder()))
        if (entry.is_directory() &&
            entry.path().filename().string().find(".tmp") == std::string::npos)
          folders.push_back(entry.path());
      std::sort(folders.begin(), folders.end());
      return folders;
    }

    /**
     * The data file of the last rank in @p snapshot: its files other than
     * the meta text, sorted by name, the last one.
     */
    static fs::path
    last_rank_file(const fs::path &snapshot)
    {
      std::vector<fs::path> files;
      for (const auto &entry : fs::directory_iterator(snapshot))
        if (entry.path().filename() != "meta")
          files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      return files.back();
    }

    /** Rank 0 flips one bit in the middle of @p file (collective). */
    void
    flip_byte(const fs::path &file) const
    {
      if (rank == 0)
        {
          std::fstream stream(file,
                              std::ios::in | std::ios::out | std::ios::binary);
          const auto   middle =
            static_cast<std::streamoff>(fs::file_size(file) / 2);
          stream.seekg(middle);
          const char byte = static_cast<char>(stream.get() ^ 0x10);
          stream.seekp(middle);
          stream.put(byte);
        }
      MPI_Barrier(comm);
    }

    /** Rank 0 cuts the last 13 bytes off @p file (collective). */
    void
    truncate(const fs::path &file) const
    {
      if (rank == 0)
        fs::resize_file(file, fs::file_size(file) - 13);
      MPI_Barrier(comm);
    }

    const MPI_Comm     comm;
    const unsigned int rank;
    const IndexSet     owned;
    std::string        directory;
  };



  // Write, then read into fresh variables: the same bits, the driver's meta
  // text back, and the before_write/after_read hooks run once each.
  TEST_F(CheckpointTest, RoundTripIsBitwise)
  {
    const CheckpointStore store(directory, comm);
    RunState              written(owned, comm);
    written.fill(0, rank);
    unsigned int n_before_write = 0;
    written.archive.before_write.push_back([&]() { ++n_before_write; });
    store.write(7, written.archive, "driver text 42\nsecond line");
    EXPECT_EQ(n_before_write, 1u);

    RunState     read(owned, comm);
    unsigned int n_after_read = 0;
    read.archive.after_read.push_back([&]() { ++n_after_read; });
    std::vector<std::string> warnings;
    const std::string        meta = store.read(read.archive, false, warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(n_after_read, 1u);
    EXPECT_NE(meta.find("driver text 42\nsecond line"), std::string::npos)
      << meta;
    expect_same_bits(read, written);
  }

  // The newest snapshot wins; a store cleared by a new run has none left.
  TEST_F(CheckpointTest, NewestSnapshotIsReadAndClearRemovesAll)
  {
    const CheckpointStore store(directory, comm);
    RunState              first(owned, comm), second(owned, comm);
    first.fill(1, rank);
    second.fill(2, rank);
    store.write(1, first.archive, "first");
    store.write(2, second.archive, "second");

    RunState                 read(owned, comm);
    std::vector<std::string> warnings;
    const std::string        meta = store.read(read.archive, false, warnings);
    EXPECT_NE(meta.find("second"), std::string::npos);
    EXPECT_TRUE(warnings.empty());
    expect_same_bits(read, second);

    store.clear();
    EXPECT_THROW(store.read(read.archive, false, warnings), InputError);
  }

  // A flipped byte in the last rank's file of the newest snapshot: its
  // checksum fails, the snapshot before it is read, with a warning naming
  // the damaged snapshot (on every rank: the ranks decide together).
  TEST_F(CheckpointTest, FlippedByteFallsBackToPreviousSnapshot)
  {
    const CheckpointStore store(directory, comm);
    RunState              first(owned, comm), second(owned, comm);
    first.fill(1, rank);
    second.fill(2, rank);
    store.write(1, first.archive, "first");
    store.write(2, second.archive, "second");
    const std::vector<fs::path> folders = snapshots(store);
    ASSERT_EQ(folders.size(), 2u);
    flip_byte(last_rank_file(folders.back()));

    RunState                 read(owned, comm);
    std::vector<std::string> warnings;
    const std::string        meta = store.read(read.archive, false, warnings);
    EXPECT_NE(meta.find("first"), std::string::npos) << meta;
    expect_same_bits(read, first);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(folders.back().filename().string()),
              std::string::npos)
      << warnings[0];
  }

  // The same damage to the only snapshot: nothing to resume from, an
  // InputError (thrown on every rank).
  TEST_F(CheckpointTest, FlippedByteInOnlySnapshotIsAnInputError)
  {
    const CheckpointStore store(directory, comm);
    RunState              written(owned, comm);
    written.fill(0, rank);
    store.write(3, written.archive, "only");
    flip_byte(last_rank_file(snapshots(store).back()));

    RunState                 read(owned, comm);
    std::vector<std::string> warnings;
    EXPECT_THROW(store.read(read.archive, false, warnings), InputError);
  }

  // A truncated rank file (a full disk, a copy cut short) is detected alike.
  TEST_F(CheckpointTest, TruncatedFileFallsBackToPreviousSnapshot)
  {
    const CheckpointStore store(directory, comm);
    RunState              first(owned, comm), second(owned, comm);
    first.fill(1, rank);
    second.fill(2, rank);
    store.write(1, first.archive, "first");
    store.write(2, second.archive, "second");
    const std::vector<fs::path> folders = snapshots(store);
    ASSERT_EQ(folders.size(), 2u);
    truncate(last_rank_file(folders.back()));

    RunState                 read(owned, comm);
    std::vector<std::string> warnings;
    store.read(read.archive, false, warnings);
    expect_same_bits(read, first);
    EXPECT_EQ(warnings.size(), 1u);
  }

  TEST_F(CheckpointTest, TruncatedOnlySnapshotIsAnInputError)
  {
    const CheckpointStore store(directory, comm);
    RunState              written(owned, comm);
    written.fill(0, rank);
    store.write(3, written.archive, "only");
    truncate(last_rank_file(snapshots(store).back()));

    RunState                 read(owned, comm);
    std::vector<std::string> warnings;
    EXPECT_THROW(store.read(read.archive, false, warnings), InputError);
  }

  // No snapshot at all: an InputError.
  TEST_F(CheckpointTest, NoSnapshotIsAnInputError)
  {
    const CheckpointStore    store(directory, comm);
    RunState                 read(owned, comm);
    std::vector<std::string> warnings;
    EXPECT_THROW(store.read(read.archive, false, warnings), InputError);
  }

  // A replicated store (the state of a control search: the same scalars and
  // arrays on every rank, one file) round-trips as well.
  TEST_F(CheckpointTest, ReplicatedStoreRoundTrip)
  {
    const CheckpointStore store(directory, comm, true);
    double                best      = 1. / 7;
    unsigned long         simplexes = 12345;
    bool                  done      = true;
    std::vector<double>   vertices  = {0.1, -0.2, 1e300, -0.};
    CheckpointArchive     written;
    written.add(best);
    written.add(simplexes);
    written.add(done);
    written.add(vertices);
    store.write(5, written, "search");

    double              best_read      = 0;
    unsigned long       simplexes_read = 0;
    bool                done_read      = false;
    std::vector<double> vertices_read;
    CheckpointArchive   read;
    read.add(best_read);
    read.add(simplexes_read);
    read.add(done_read);
    read.add(vertices_read);
    std::vector<std::string> warnings;
    store.read(read, false, warnings);
    EXPECT_EQ(bits(best_read), bits(best));
    EXPECT_EQ(simplexes_read, simplexes);
    EXPECT_EQ(done_read, done);
    ASSERT_EQ(vertices_read.size(), vertices.size());
    for (std::size_t k = 0; k < vertices.size(); ++k)
      EXPECT_EQ(bits(vertices_read[k]), bits(vertices[k])) << k;
  }
  // The places of a vector field in 3D: every support point of a 5 x 4 x 3
  // grid with three components, four coordinates per entry (x, y, z,
  // component), as the body registers them. Three coordinates are not
  // enough: the components of a point would share a place (a lookup that
  // kept three refused every 3D snapshot on another partition).
  TEST(LocationLookupTest, FindsEveryEntryOfA3DVectorField)
  {
    std::vector<double> places;
    for (unsigned int i = 0; i < 5; ++i)
      for (unsigned int j = 0; j < 4; ++j)
        for (unsigned int k = 0; k < 3; ++k)
          for (unsigned int c = 0; c < 3; ++c)
            places.insert(places.end(),
                          {0.05 * i, 0.03 * j, 0.1 - 0.05 * k, 1. * c});
    // Listed in reverse, as another partition might.
    std::vector<double> reversed;
    for (std::size_t e = places.size() / 4; e-- > 0;)
      reversed.insert(reversed.end(),
                      places.begin() + 4 * e,
                      places.begin() + 4 * e + 4);
    const LocationLookup lookup(reversed, 4);
    const std::size_t    n = places.size() / 4;
    for (std::size_t e = 0; e < n; ++e)
      {
        EXPECT_EQ(lookup.find(&places[4 * e]), std::int64_t(n - 1 - e)) << e;
        // Round-off of the other partition's computation of the place:
        // 1e-14 relative, far below the grid of 1e-10 of the extent.
        double moved[4] = {places[4 * e] * (1 + 1e-14) + 1e-16,
                           places[4 * e + 1] - 1e-15,
                           places[4 * e + 2],
                           places[4 * e + 3]};
        EXPECT_EQ(lookup.find(moved), std::int64_t(n - 1 - e)) << e;
      }
    const double nowhere[4] = {0.025, 0., 0., 0.};
    EXPECT_EQ(lookup.find(nowhere), -1);
    const double other_component[4] = {0., 0., 0.1, 3.};
    EXPECT_EQ(lookup.find(other_component), -1);
  }

  // A point that lies on a grid line of the rounding is found from either
  // side (in a neighbouring grid cell).
  TEST(LocationLookupTest, FindsAPointOnAGridLine)
  {
    // Extent 1: grid spacing 1e-10; 0.35e-9 lies halfway between two grid
    // points, and the reader's value rounds the other way.
    const std::vector<double> places = {0.35e-9, 1., 0., 0.};
    const LocationLookup      lookup(places, 2);
    const double              below[2] = {0.35e-9 - 1e-20, 1.};
    const double              above[2] = {0.35e-9 + 1e-20, 1.};
    EXPECT_EQ(lookup.find(below), 0);
    EXPECT_EQ(lookup.find(above), 0);
  }

  // Two entries at one place cannot be told apart: an error naming it.
  TEST(LocationLookupTest, RefusesTwoEntriesAtOnePlace)
  {
    const std::vector<double> places = {0.5, 1., 2., 0., 0.5, 1., 2., 0.};
    try
      {
        const LocationLookup lookup(places, 4);
        FAIL() << "no error";
      }
    catch (std::runtime_error &e)
      {
        EXPECT_NE(std::string(e.what()).find("same place (0.5, 1, 2, 0)"),
                  std::string::npos)
          << e.what();
      }
    EXPECT_THROW(LocationLookup(places, 5), std::runtime_error);
  }
} // namespace unit_checkpoint
