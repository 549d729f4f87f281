// Unit tests of the output layer of a run (src/base): the files every model
// writes through the run loop.
//
// - write_file_atomically(): the file appears whole under its name, and a
//   write that cannot happen returns a message naming the file and the
//   reason (strerror), leaving no temporary behind;
// - HistoryFile: rows appended one by one are in the file at once (a killed
//   run keeps them), formatted as CsvTable formats them; the checksum of the
//   bytes written matches the file's; check_prefix() refuses a file changed
//   before the snapshot and resume() drops the rows after it;
// - PvdRecord: the text a snapshot carries reads back, another series has
//   its own .pvd (contact.pvd), an XDMF series is complete after every
//   output and lags by at most 1/16 of its length until flushed, and a name
//   that leaves the output directory is refused;
// - FieldFiles: the names of deal.II's write_vtu_with_pvtu_record, in the
//   folder solution/; remove_outputs_from() removes the outputs of a killed
//   run and temporaries only;
// - the meta file of a snapshot: an edited one (a changed digit, a field
//   output pointing elsewhere) fails its checksum, and the store falls back
//   to the snapshot before it; a snapshot of the earlier format is refused;
// - CheckpointSchedule: due at every multiple of the interval of the time
//   grid, never in between.
//
// On 2 ranks as well: rank 0 writes, every rank agrees on failures.
#include <base/checkpoint.h>
#include <base/checkpoint_schedule.h>
#include <base/checksum.h>
#include <base/field_files.h>
#include <base/history_file.h>
#include <base/input_error.h>
#include <base/output_files.h>
#include <base/pvd_record.h>

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace
{
  using namespace stickslip;
  namespace fs = std::filesystem;

  const MPI_Comm comm = MPI_COMM_WORLD;

  bool
  rank0()
  {
    return Utilities::MPI::this_mpi_process(comm) == 0;
  }

  std::string
  contents(const std::string &path)
  {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in),
                       std::istreambuf_iterator<char>());
  }

  /** A fresh folder, the same on every rank. */
  std::string
  fresh_folder(const std::string &name)
  {
    const std::string folder =
      (fs::temp_directory_path() /
       ("stickslip_unit_" + name + "_" +
        std::to_string(Utilities::MPI::broadcast(comm, ::getpid(), 0))))
        .string();
    if (rank0())
      {
        fs::remove_all(folder);
        fs::create_directories(fs::path(folder) / "solution");
      }
    MPI_Barrier(comm);
    return folder;
  }



  TEST(WriteFileAtomically, WholeFileAndNoTemporary)
  {
    const std::string folder = fresh_folder("atomic");
    if (rank0())
      {
        const std::string path = folder + "/table.csv";
        EXPECT_EQ(write_file_atomically(path, "a,b\n1,2\n", true), "");
        EXPECT_EQ(contents(path), "a,b\n1,2\n");
        for (const auto &entry : fs::directory_iterator(folder))
          EXPECT_FALSE(is_temporary_name(entry.path().filename().string()));
      }
  }



  TEST(WriteFileAtomically, FailureNamesTheFileAndTheReason)
  {
    const std::string path    = "/nonexistent_stickslip_folder/table.csv";
    const std::string message = write_file_atomically(path, "x", true);
    EXPECT_NE(message.find("cannot write the file " + path), std::string::npos);
    EXPECT_NE(message.find("No such file or directory"), std::string::npos);
  }



  TEST(WriteFileAtomically, TemporaryNames)
  {
    EXPECT_TRUE(is_temporary_name("solution_00003.0.vtu.tmp.12345"));
    EXPECT_TRUE(
      is_temporary_name(fs::path(temporary_name("/a/b.csv")).filename()));
    EXPECT_FALSE(is_temporary_name("solution_00003.0.vtu"));
    EXPECT_FALSE(is_temporary_name("notes.tmp.txt"));
    EXPECT_FALSE(is_temporary_name("x.tmp."));
  }



  TEST(OutputDirectory, FailedWriteIsARunErrorOnEveryRank)
  {
    const OutputDirectory directory("/nonexistent_stickslip_folder", comm);
    try
      {
        directory.write_atomically("history.csv", "t\n");
        FAIL() << "no error";
      }
    catch (RunError &error)
      {
        EXPECT_NE(std::string(error.what())
                    .find("/nonexistent_stickslip_folder/history.csv"),
                  std::string::npos);
      }
  }



  TEST(HistoryFile, RowsAreInTheFileAsTheyAreAppended)
  {
    const std::string     folder = fresh_folder("history");
    const OutputDirectory directory(folder, comm);
    HistoryFile           history(directory, "history.csv", {"t", "x"});
    history.start();
    CsvTable table({"t", "x"});
    for (const std::vector<double> &row :
         {std::vector<double>{0, std::nan("")}, {0.1, 1.0 / 3}, {0.2, -0.0}})
      {
        history.append(row);
        table.add_row(row);
        // Nothing is held back: the file is the table so far.
        if (rank0())
          {
            EXPECT_EQ(contents(folder + "/history.csv"), table.to_string());
          }
      }
    if (rank0())
      {
        const std::string text = contents(folder + "/history.csv");
        EXPECT_EQ(history.n_bytes(), text.size());
        EXPECT_EQ(history.hash(), checksum(text));
      }
  }



  TEST(HistoryFile, ResumeChecksThePrefixAndDropsTheRest)
  {
    const std::string     folder = fresh_folder("history_resume");
    const OutputDirectory directory(folder, comm);
    std::uint64_t         bytes = 0, hash = 0;
    {
      HistoryFile history(directory, "history.csv", {"t", "x"});
      history.start();
      history.append({0, 1});
      history.append({1, 2});
      bytes = Utilities::MPI::broadcast(comm, history.n_bytes(), 0);
      hash  = Utilities::MPI::broadcast(comm, history.hash(), 0);
      // Rows of the killed run after the snapshot.
      history.append({2, 3});
      history.append({3, 4});
    }
    const std::string expected = "t,x\n0,1\n1,2\n";

    HistoryFile history(directory, "history.csv", {"t", "x"});
    EXPECT_NO_THROW(history.check_prefix(bytes, hash));
    history.resume(bytes, hash);
    history.append({2, 5});
    if (rank0())
      {
        EXPECT_EQ(contents(folder + "/history.csv"), expected + "2,5\n");
      }

    // A row before the snapshot changed: refused, and nothing changes.
    if (rank0())
      {
        std::ofstream out(folder + "/history.csv", std::ios::trunc);
        out << "t,x\n0,9\n1,2\n2,5\n";
      }
    MPI_Barrier(comm);
    EXPECT_THROW(history.check_prefix(bytes, hash), InputError);
    if (rank0())
      {
        EXPECT_EQ(contents(folder + "/history.csv"), "t,x\n0,9\n1,2\n2,5\n");
      }
    // A file shorter than at the snapshot: refused as well.
    EXPECT_THROW(history.check_prefix(bytes + 1000, hash), InputError);
  }



  TEST(PvdRecord, SnapshotTextRoundTrip)
  {
    PvdRecord             record;
    const std::string     folder = fresh_folder("pvd");
    const OutputDirectory directory(folder, comm);
    record.add(0, "solution/solution_00000.pvtu", directory);
    record.add(0.1 + 0.2, "solution/solution_00001.pvtu", directory);
    PvdRecord          restored;
    std::istringstream in(record.to_text());
    restored.from_text(in);
    EXPECT_EQ(restored.entries(),
              record.entries()); // times bitwise (17 digits)
    if (rank0())
      {
        const std::string xml = contents(folder + "/solution.pvd");
        EXPECT_NE(xml.find("file=\"solution/solution_00001.pvtu\""),
                  std::string::npos);
      }
    // Another series has its own .pvd.
    PvdRecord contact("contact");
    contact.add(0.5, "solution/contact_00000.pvtu", directory);
    if (rank0())
      {
        const std::string xml = contents(folder + "/contact.pvd");
        EXPECT_NE(xml.find("file=\"solution/contact_00000.pvtu\""),
                  std::string::npos);
        EXPECT_EQ(xml.find("solution_0000"), std::string::npos);
      }
  }



  /** The number of grids an XDMF series file lists. */
  std::size_t
  n_grids_listed(const std::string &xml)
  {
    std::size_t n = 0;
    for (auto at = xml.find("<Grid Name=\"r"); at != std::string::npos;
         at      = xml.find("<Grid Name=\"r", at + 1))
      ++n;
    return n;
  }



  TEST(PvdRecord, XdmfSeriesLagsAtMostASixteenthAndFlushes)
  {
    // 100 outputs: after each, contact.xdmf is a complete series (it is
    // only ever renamed into place) that lacks at most max(1, L/16) of
    // them, L the ones it lists; flush() lists them all.
    const std::string     folder = fresh_folder("xdmf_lag");
    const OutputDirectory directory(folder, comm);
    PvdRecord             record("contact");
    const unsigned int    n_outputs = 100;
    std::size_t           rewrites = 0, last_listed = 0;
    for (unsigned int k = 0; k < n_outputs; ++k)
      {
        const std::string name = "solution/r" + std::to_string(k) + ".xdmf";
        if (rank0())
          std::ofstream(folder + "/" + name)
            << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n<Domain>\n"
            << "<Grid Name=\"r" << k << "\" GridType=\"Uniform\">\n"
            << "<Time Value=\"" << k << "\"/>\n</Grid>\n</Domain>\n</Xdmf>\n";
        MPI_Barrier(comm);
        record.add(k, name, directory);
        if (rank0())
          {
            const std::string xml    = contents(folder + "/contact.xdmf");
            const std::size_t listed = n_grids_listed(xml);
            EXPECT_EQ(xml.substr(xml.size() - 26),
                      "</Grid>\n</Domain>\n</Xdmf>\n");
            EXPECT_LE(k + 1 - listed, std::max<std::size_t>(1, listed / 16))
              << "after output " << k;
            rewrites += listed != last_listed;
            last_listed = listed;
          }
      }
    record.flush(directory);
    if (rank0())
      {
        EXPECT_EQ(n_grids_listed(contents(folder + "/contact.xdmf")),
                  n_outputs);
        // Rewritten at 1, 3, 5, ..., then every L/16 + 1 outputs: 32 times
        // for 100 outputs (the append did 100 writes; 1501 outputs: 76
        // rewrites), and nothing left but the records and the series.
        EXPECT_EQ(rewrites, 32u);
        std::size_t n_files = 0;
        for (const auto &entry : fs::recursive_directory_iterator(folder))
          n_files += entry.is_regular_file();
        EXPECT_EQ(n_files, n_outputs + 1);
      }
  }



  TEST(PvdRecord, NamesMustStayInTheOutputDirectory)
  {
    for (const std::string name :
         {"solution/solution_00000.pvtu", "solution_00000.pvtu", "a/b-c_d.e"})
      EXPECT_TRUE(PvdRecord::is_inside_output_directory(name)) << name;
    for (const std::string name : {"../../../../etc/passwd",
                                   "/etc/passwd",
                                   "solution/../../x",
                                   "./x",
                                   "a//b",
                                   "a/b/",
                                   "a b",
                                   ""})
      EXPECT_FALSE(PvdRecord::is_inside_output_directory(name)) << name;
    PvdRecord          record;
    std::istringstream in("fields 1\n0.5 ../../../../etc/passwd\n");
    EXPECT_THROW(record.from_text(in), InputError);
  }



  TEST(FieldFiles, NamesAndStaleOutputs)
  {
    EXPECT_EQ(FieldFiles::record_name(7), "solution/solution_00007.pvtu");
    EXPECT_EQ(FieldFiles::record_name(7, "contact"),
              "solution/contact_00007.pvtu");
    const std::string     folder = fresh_folder("fields");
    const OutputDirectory directory(folder, comm);
    const FieldFiles      files(directory);
    const std::string     name = files.write(
      3,
      FieldFiles::main_series,
      true,
      [](std::ostream &out) { out << "<VTKFile/>\n"; },
      [](std::ostream &out, const std::vector<std::string> &pieces) {
        for (const auto &piece : pieces)
          out << piece << '\n';
      });
    EXPECT_EQ(name, "solution/solution_00003.pvtu");
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    if (rank0())
      {
        // The record lists every rank's piece, named as deal.II names them.
        std::string expected;
        for (unsigned int r = 0; r < n_ranks; ++r)
          expected += "solution_00003." + std::to_string(r) + ".vtu\n";
        EXPECT_EQ(contents(folder + "/" + name), expected);
        // A killed run's output 4, a piece of another rank count, a
        // temporary: removed from output 4 on; output 3 and other files stay.
        // Each series has its own numbering: contact from output 2 on.
        for (const std::string stale : {"solution_00004.pvtu",
                                        "solution_00004.0.vtu",
                                        "contact_00002.pvtu",
                                        "contact_00005.1.vtu",
                                        "solution_00003.0.vtu.tmp.99"})
          std::ofstream(folder + "/solution/" + stale) << "x";
        std::ofstream(folder + "/solution/notes.txt") << "x";
        std::ofstream(folder + "/solution/contact_00001.pvtu") << "x";
        files.remove_outputs_from(4);
        files.remove_outputs_from(2, "contact");
        std::vector<std::string> left;
        for (const auto &entry : fs::directory_iterator(folder + "/solution"))
          left.push_back(entry.path().filename().string());
        std::sort(left.begin(), left.end());
        std::vector<std::string> kept = {"notes.txt",
                                         "solution_00003.pvtu",
                                         "contact_00001.pvtu"};
        for (unsigned int r = 0; r < n_ranks; ++r)
          kept.push_back("solution_00003." + std::to_string(r) + ".vtu");
        std::sort(kept.begin(), kept.end());
        EXPECT_EQ(left, kept);
      }
  }



  /** A store with two snapshots of a scalar (step 1: 1.5, step 2: 2.5). */
  std::string
  two_snapshots(const std::string &name)
  {
    const std::string     folder = fresh_folder(name);
    const CheckpointStore store(folder, comm);
    double                value = 1.5;
    CheckpointArchive     archive;
    archive.add(value);
    store.write(1, archive, "body 1\nfields 0\n");
    value = 2.5;
    store.write(2, archive, "body 2\nfields 0\n");
    return folder;
  }

  void
  edit_meta(const std::string &folder,
            const std::string &snapshot,
            const std::string &from,
            const std::string &to)
  {
    if (rank0())
      {
        const std::string path  = folder + "/checkpoints/" + snapshot + "/meta";
        std::string       text  = contents(path);
        const auto        where = text.find(from);
        ASSERT_NE(where, std::string::npos) << from;
        text.replace(where, from.size(), to);
        std::ofstream(path, std::ios::trunc) << text;
      }
    MPI_Barrier(comm);
  }



  TEST(SnapshotMeta, BodyReadBackAndEditsDetected)
  {
    const std::string     folder = two_snapshots("meta");
    const CheckpointStore store(folder, comm);
    double                value = 0;
    CheckpointArchive     archive;
    archive.add(value);
    std::vector<std::string> warnings;
    EXPECT_EQ(store.read(archive, true, warnings), "body 2\nfields 0\n");
    EXPECT_EQ(value, 2.5);
    EXPECT_TRUE(warnings.empty());

    // One edited digit in the newest meta: the one before it is used.
    edit_meta(folder, "snapshot_000000002", "body 2", "body 3");
    value = 0;
    EXPECT_EQ(store.read(archive, true, warnings), "body 1\nfields 0\n");
    EXPECT_EQ(value, 1.5);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("fails its checksum"), std::string::npos);

    // Both edited: no snapshot to resume from.
    edit_meta(folder, "snapshot_000000001", "body 1", "body 0");
    warnings.clear();
    EXPECT_THROW(store.read(archive, true, warnings), InputError);
  }



  TEST(SnapshotMeta, EarlierFormatRefused)
  {
    const std::string folder = two_snapshots("format");
    for (const std::string snapshot :
         {"snapshot_000000001", "snapshot_000000002"})
      edit_meta(folder, snapshot, "format 2\n", "");
    const CheckpointStore    store(folder, comm);
    double                   value = 0;
    CheckpointArchive        archive;
    std::vector<std::string> warnings;
    archive.add(value);
    try
      {
        store.read(archive, true, warnings);
        FAIL() << "no error";
      }
    catch (InputError &error)
      {
        EXPECT_NE(
          std::string(error.what()).find("earlier version of stickslip"),
          std::string::npos);
      }
  }



  TEST(CheckpointSchedule, DueAtMultiplesOfTheInterval)
  {
    Parameters::Output output{};
    output.checkpoint_interval      = 0.25;
    output.checkpoint_wall_interval = 0;
    const double       t0 = 1, dt = 0.05;
    CheckpointSchedule schedule(output, comm, t0, dt);
    EXPECT_TRUE(schedule.enabled());
    std::vector<unsigned int> due;
    for (unsigned int n = 1; n <= 40; ++n)
      if (schedule.due_at(t0 + n * dt))
        due.push_back(n);
    // t0 + 0.25 k is reached at step 5 k, whatever the round-off of n dt.
    EXPECT_EQ(due, (std::vector<unsigned int>{5, 10, 15, 20, 25, 30, 35, 40}));

    output.checkpoint_interval = 0;
    EXPECT_FALSE(CheckpointSchedule(output, comm).enabled());
  }
} // namespace
