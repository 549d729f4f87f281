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
// - Hdf5::SeriesFile: outputs written into place, every rank its rows; the
//   file as a kill leaves it reads back with every output written before,
//   and writing an output changes no byte of HDF5's metadata (only the
//   values, and the superblock's open-for-writing flag while it is open);
//   forget_from() and the layout check;
// - Hdf5::SeriesWriter with PvdRecord: series files sized by the plan, a new
//   one past it, the grids of the XDMF series from the templates, and a
//   resume that writes on in the file holding its output;
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
#include <base/hdf5_series_file.h>
#include <base/history_file.h>
#include <base/input_error.h>
#include <base/output_files.h>
#include <base/pvd_record.h>

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_output_files
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



  /** Dataset @p name of the HDF5 file @p path, as doubles (rank 0). */
  std::vector<double>
  read_dataset(const std::string &path, const std::string &name)
  {
    const hid_t file    = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t dataset = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
    const hid_t space   = H5Dget_space(dataset);
    std::vector<double> values(H5Sget_simple_extent_npoints(space));
    H5Dread(
      dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Sclose(space);
    H5Dclose(dataset);
    H5Fclose(file);
    return values;
  }

  /** The byte ranges [offset, offset + size) of the values of @p names. */
  std::vector<std::pair<haddr_t, hsize_t>>
  value_ranges(const std::string &path, const std::vector<std::string> &names)
  {
    std::vector<std::pair<haddr_t, hsize_t>> ranges;
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    for (const std::string &name : names)
      {
        const hid_t dataset = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
        ranges.emplace_back(H5Dget_offset(dataset),
                            H5Dget_storage_size(dataset));
        H5Dclose(dataset);
      }
    H5Fclose(file);
    return ranges;
  }

  /** This rank's rows of @p n_rows: [first, first + count). */
  std::pair<std::uint64_t, std::uint64_t>
  my_rows(const std::uint64_t n_rows)
  {
    const std::uint64_t n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const std::uint64_t rank    = Utilities::MPI::this_mpi_process(comm);
    const std::uint64_t first   = rank * n_rows / n_ranks;
    return {first, (rank + 1) * n_rows / n_ranks - first};
  }

  /** Output @p slot's value at @p row, @p column. */
  double
  series_value(const std::uint64_t slot,
               const std::uint64_t row,
               const std::uint64_t column)
  {
    return 100. * slot + 10. * row + column;
  }

  /** Write output @p slot of the fields a (6 x 1) and v (6 x 3). */
  void
  write_slot(Hdf5::SeriesFile &file, const std::uint64_t slot)
  {
    const auto          rows = my_rows(6);
    std::vector<double> a, v;
    for (std::uint64_t r = rows.first; r < rows.first + rows.second; ++r)
      {
        a.push_back(series_value(slot, r, 0));
        for (unsigned int c = 0; c < 3; ++c)
          v.push_back(series_value(slot, r, c));
      }
    file.write(slot, 0.5 * slot, rows.first, rows.second, {a.data(), v.data()});
  }



  TEST(Hdf5SeriesFile, OutputsInPlaceAndMetadataUnchanged)
  {
    const std::string                    folder = fresh_folder("series_file");
    const std::string                    path   = folder + "/solution/s.h5";
    const std::vector<Hdf5::SeriesField> fields = {{"a", 6, 1}, {"v", 6, 3}};
    Hdf5::SeriesFile::create(path, fields, 4, false, "<Grid/>", comm);
    const std::string fresh = rank0() ? contents(path) : "";
    {
      Hdf5::SeriesFile file(path, fields, false, comm);
      EXPECT_EQ(file.capacity(), 4u);
      write_slot(file, 0);
      write_slot(file, 1);
      MPI_Barrier(comm);
      // What a SIGKILL now leaves on the disk: the file as it is.
      if (rank0())
        std::ofstream(folder + "/killed.h5", std::ios::binary)
          << contents(path);
      write_slot(file, 2);
      MPI_Barrier(comm);
      if (rank0())
        {
          // Only the values changed (and the superblock's file consistency
          // flags, bytes 20-23, set while the file is open for writing).
          const std::string now    = contents(path);
          const auto        ranges = value_ranges(path, {"time", "a", "v"});
          ASSERT_EQ(now.size(), fresh.size());
          std::size_t changed_metadata = 0;
          for (std::size_t b = 0; b < now.size(); ++b)
            {
              bool in_values = b >= 20 && b < 24;
              for (const auto &range : ranges)
                in_values = in_values || (b >= range.first &&
                                          b < range.first + range.second);
              changed_metadata += !in_values && now[b] != fresh[b];
            }
          EXPECT_EQ(changed_metadata, 0u);
        }
      file.forget_from(2);
    }
    if (rank0())
      {
        // The killed file: outputs 0 and 1 whole, 2 and 3 without a time.
        const std::vector<double> killed_time =
          read_dataset(folder + "/killed.h5", "time");
        ASSERT_EQ(killed_time.size(), 4u);
        EXPECT_EQ(killed_time[0], 0.);
        EXPECT_EQ(killed_time[1], 0.5);
        EXPECT_TRUE(std::isnan(killed_time[2]) && std::isnan(killed_time[3]));
        const std::vector<double> v = read_dataset(folder + "/killed.h5", "v");
        for (std::uint64_t slot = 0; slot < 2; ++slot)
          for (std::uint64_t r = 0; r < 6; ++r)
            for (std::uint64_t c = 0; c < 3; ++c)
              EXPECT_EQ(v[(slot * 6 + r) * 3 + c], series_value(slot, r, c));
        // After forget_from(2): output 2 is written, but has no time.
        const std::vector<double> time = read_dataset(path, "time");
        EXPECT_EQ(time[1], 0.5);
        EXPECT_TRUE(std::isnan(time[2]));
        EXPECT_EQ(read_dataset(path, "a")[2 * 6 + 5], series_value(2, 5, 0));
        // What a resumed run's check reads: the times and the kept template.
        std::vector<double> times;
        std::string         kept;
        EXPECT_EQ(Hdf5::SeriesFile::read(path, times, kept), "");
        ASSERT_EQ(times.size(), 4u);
        EXPECT_EQ(times[1], 0.5);
        EXPECT_TRUE(std::isnan(times[2]));
        EXPECT_EQ(kept, "<Grid/>");
        EXPECT_NE(Hdf5::SeriesFile::read(folder + "/none.h5", times, kept), "");
      }
    EXPECT_TRUE(Hdf5::SeriesFile::matches(path, fields, false, comm));
    EXPECT_FALSE(Hdf5::SeriesFile::matches(path, fields, true, comm));
    EXPECT_FALSE(
      Hdf5::SeriesFile::matches(path, {{"a", 7, 1}, {"v", 6, 3}}, false, comm));
    EXPECT_FALSE(
      Hdf5::SeriesFile::matches(folder + "/none.h5", fields, false, comm));
  }



  TEST(Hdf5SeriesWriter, FilesByThePlanGridsAndResume)
  {
    const std::string     folder = fresh_folder("series_writer");
    const OutputDirectory directory(folder, comm);
    FieldFiles            files(directory, FieldFiles::Format::hdf5, false);
    files.plan("contact", 3);
    const std::vector<Hdf5::SeriesField> fields = {{"a", 6, 1}};
    const auto grid_template                    = [](const std::string  &file,
                                  const std::uint64_t capacity) {
      return "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n<Domain>\n"
                                "<Grid Name=\"{NAME}\" GridType=\"Uniform\">\n"
                                "<Time Value=\"{TIME}\"/>\n<Attribute Name=\"a\">" +
             Hdf5::xdmf_series_item(file, "a", capacity, 6, 1, 8) +
             "</Attribute>\n</Grid>\n</Domain>\n</Xdmf>\n";
    };
    const auto   rows          = my_rows(6);
    const double t[5]          = {0, 0.25, 0.5, 0.75, 1};
    const auto   write_outputs = [&](const unsigned int from,
                                   const unsigned int to,
                                   PvdRecord         &record,
                                   const double       shift) {
      Hdf5::SeriesWriter writer("contact", fields, grid_template);
      for (unsigned int k = from; k < to; ++k)
        {
          std::vector<double> a;
          for (std::uint64_t r = rows.first; r < rows.first + rows.second; ++r)
            a.push_back(series_value(k, r, 0) + shift);
          record.add(
            t[k],
            writer.write(t[k], k, rows.first, rows.second, {a.data()}, files),
            directory);
        }
      record.flush(directory);
    };
    PvdRecord record("contact");
    write_outputs(0, 5, record, 0);
    // Outputs 0-2 in the file sized by the plan, 3 and 4 in a second.
    EXPECT_EQ(record.entries()[2].second, "solution/contact_from_00000.h5");
    EXPECT_EQ(record.entries()[3].second, "solution/contact_from_00003.h5");
    if (rank0())
      {
        EXPECT_EQ(read_dataset(folder + "/solution/contact_from_00000.h5",
                               "time")
                    .size(),
                  3u);
        EXPECT_EQ(read_dataset(folder + "/solution/contact_from_00003.h5",
                               "time")
                    .size(),
                  64u);
        const std::string xml = contents(folder + "/contact.xdmf");
        for (const std::string grid :
             {std::string(
                "<Grid Name=\"contact_00002\" GridType=\"Uniform\">\n"
                "<Time Value=\"0.5\"/>\n<Attribute Name=\"a\"><DataItem "
                "Dimensions=\"6 1\" NumberType=\"Float\" Precision=\"8\" "
                "Format=\"HDF\">solution/contact_from_00000.h5:/a|2 0 0:1 1 "
                "1:1 6 1:3 6 1</DataItem>"),
              std::string("<Grid Name=\"contact_00004\" GridType=\"Uniform\">"
                          "\n<Time Value=\"1\"/>\n<Attribute Name=\"a\">"
                          "<DataItem Dimensions=\"6 1\" NumberType=\"Float\" "
                          "Precision=\"8\" Format=\"HDF\">solution/"
                          "contact_from_00003.h5:/a|1 0 0:1 1 1:1 6 1:64 6 "
                          "1</DataItem>")})
          EXPECT_NE(xml.find(grid), std::string::npos) << grid;
      }
    // A resume from a snapshot after output 1: the file from output 3 on
    // goes, output 2 is written again into the first file, then a new
    // second file.
    std::istringstream snapshot("fields 2\n0 solution/contact_from_00000.h5\n"
                                "0.25 solution/contact_from_00000.h5\n");
    PvdRecord          resumed("contact");
    resumed.from_text(snapshot);
    if (rank0())
      files.remove_outputs_from(2, "contact");
    MPI_Barrier(comm);
    if (rank0())
      {
        EXPECT_FALSE(fs::exists(folder + "/solution/contact_from_00003.h5"));
        EXPECT_FALSE(
          fs::exists(folder + "/solution/contact_from_00003.xdmf.in"));
      }
    write_outputs(2, 4, resumed, 1000);
    EXPECT_EQ(resumed.entries()[2].second, "solution/contact_from_00000.h5");
    EXPECT_EQ(resumed.entries()[3].second, "solution/contact_from_00003.h5");
    if (rank0())
      {
        const std::vector<double> a =
          read_dataset(folder + "/solution/contact_from_00000.h5", "a");
        EXPECT_EQ(a[1 * 6 + 4], series_value(1, 4, 0));
        EXPECT_EQ(a[2 * 6 + 4], series_value(2, 4, 0) + 1000);
        const std::vector<double> time =
          read_dataset(folder + "/solution/contact_from_00003.h5", "time");
        EXPECT_EQ(time[0], 0.75);
        EXPECT_TRUE(std::isnan(time[1]));
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
} // namespace unit_output_files
