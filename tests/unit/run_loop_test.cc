// Unit tests of RunLoop (src/drivers/run_loop.h), the one time loop every
// model runs in, with a fake Evolution that records what the loop asks of
// it. Its state is x = the sum of the step numbers taken (exact in doubles),
// its history row (t, x); it hands over two field series, the main one
// written every 2 rows (Output/Field output every) and "contact" every 3
// (Output/Contact output every), and a file at the start and at the end.
//
// The grid: t0 = 0, dt = 1/4, 10 steps (dyadic: every time is exact, and
// t_n = n/4 is compared with ==). With Output/Interval = 3/4 the rows are
// at t = 0, 3/4, 3/2, 9/4 (the multiples of the interval) and at the last
// step t = 5/2, which is always written; the fields go with rows 0, 2, 4:
// indices 0, 1, 2 at t = 0, 3/2, 5/2, the contact series with rows 0, 3:
// indices 0, 1 at t = 0, 9/4. Interval = 0 writes a row every
// step. A run with Output/Checkpoint interval = 1/2 takes snapshots after
// steps 2, 4, 6, 8 (not after the last one); --resume continues from the
// newest, step 8: the evolution gets x = 36 back and steps 9 and 10, the
// observer neither start() nor the steps before, and history.csv ends as
// an uninterrupted run's, byte for byte. The observer is called once per
// step, the evolution initialized once per fresh run.
//
// Each test writes into its own folder under build/tests/output/
// (unit.run_loop.np<ranks>/<test>); the executable also runs under
// mpirun -np 2.
#include <base/field_files.h>
#include <base/output_parameters.h>
#include <base/run_directory.h>
#include <drivers/run_loop.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_run_loop
{
  using namespace stickslip;
  namespace fs = std::filesystem;

  const MPI_Comm comm = MPI_COMM_WORLD;

  constexpr double       dt      = 0.25;
  constexpr unsigned int n_steps = 10;

  /** What the loop asked of the evolution. */
  class FakeEvolution : public Evolution
  {
  public:
    std::string
    description() const override
    {
      return "fake evolution";
    }

    void
    initialize(const double t0) override
    {
      x = 0;
      ++initializations;
      initial_time = t0;
    }

    void
    advance(const TimeStep &step) override
    {
      x += step.index;
      steps.push_back(step.index);
      step_times.push_back(step.time);
      step_ends.push_back(step.next_time);
    }

    void
    register_state(CheckpointArchive &archive) override
    {
      archive.add(x);
    }

    bool
    numbering_independent_of_partition() const override
    {
      return true;
    }

    /**
     * The history (t, x), two field series (a further one, "contact",
     * handed over first: the loop writes the main one first whatever the
     * order), and one file at the start and one at the end.
     */
    OutputSeries
    output_series() override
    {
      OutputSeries series;
      series.history = {{"t", "x"}, [this](const double t) {
                          row_times.push_back(t);
                          return std::vector<double>{t, x};
                        }};
      series.fields.push_back({"contact",
                               [this](const double       t,
                                      const unsigned int index,
                                      const FieldFiles  &files) {
                                 contact_times.push_back(t);
                                 contact_indices.push_back(index);
                                 written.push_back("contact");
                                 return write(index, "contact", files);
                               }});
      series.fields.push_back(
        {FieldFiles::main_series,
         [this](const double       t,
                const unsigned int index,
                const FieldFiles  &files) {
           field_times.push_back(t);
           field_indices.push_back(index);
           written.push_back("solution");
           return write(index, FieldFiles::main_series, files);
         }});
      series.once.push_back({[this](const OutputDirectory &) { ++starts; },
                             [this](const OutputDirectory &) { ++ends; }});
      return series;
    }

    /** Output @p index of @p series: x in one piece per rank. */
    std::string
    write(const unsigned int index,
          const std::string &series,
          const FieldFiles  &files) const
    {
      return files.write(
        index,
        series,
        true,
        [this](std::ostream &out) { out << "x " << x << '\n'; },
        [](std::ostream &out, const std::vector<std::string> &pieces) {
          // A record as deal.II writes one, as far as a resume checks it.
          out << "<VTKFile type=\"PUnstructuredGrid\">\n<PUnstructuredGrid>\n";
          for (const auto &piece : pieces)
            out << "<Piece Source=\"" << piece << "\"/>\n";
          out << "</PUnstructuredGrid>\n</VTKFile>\n";
        });
    }

    std::string
    summary(const RunStatistics &statistics) const override
    {
      last_statistics = statistics;
      return "";
    }

    double                    x               = -1;
    unsigned int              initializations = 0;
    double                    initial_time    = -1;
    std::vector<unsigned int> steps;
    std::vector<double>       step_times, step_ends, row_times, field_times;
    std::vector<unsigned int> field_indices;
    std::vector<double>       contact_times;
    std::vector<unsigned int> contact_indices;
    /** The series written, in order. */
    std::vector<std::string> written;
    /** Calls of the once-at-start and at-end outputs. */
    unsigned int          starts = 0, ends = 0;
    mutable RunStatistics last_statistics{};
  };



  /** Counts the calls of the loop. */
  class CountingObserver : public StepObserver
  {
  public:
    void
    start(const double) override
    {
      ++starts;
    }

    void
    after_step(const TimeStep &step) override
    {
      steps.push_back(step.index);
    }

    unsigned int              starts = 0;
    std::vector<unsigned int> steps;
  };



  std::string
  contents(const std::string &path)
  {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in),
                       std::istreambuf_iterator<char>());
  }



  /** The rows of a history.csv below its header line. */
  unsigned int
  n_rows(const std::string &path)
  {
    std::istringstream in(contents(path));
    std::string        line;
    unsigned int       rows = 0;
    std::getline(in, line);
    while (std::getline(in, line))
      rows += !line.empty();
    return rows;
  }



  /** A run of the loop in its own folder, with the Output settings given. */
  class RunLoopTest : public ::testing::Test
  {
  protected:
    RunLoopTest()
      : pcout(std::cout, false)
      , timer(comm, pcout, TimerOutput::never, TimerOutput::wall_times)
    {
      const auto *info =
        ::testing::UnitTest::GetInstance()->current_test_info();
      folder = std::string(STICKSLIP_UNIT_OUTPUT) + ".np" +
               std::to_string(Utilities::MPI::n_mpi_processes(comm)) + "/" +
               info->name();
      if (Utilities::MPI::this_mpi_process(comm) == 0)
        fs::remove_all(folder);
      MPI_Barrier(comm);
      output.directory                = folder;
      output.interval                 = 0.75;
      output.interval_auto            = false;
      output.overwrite                = true;
      output.quiet                    = true;
      output.progress_interval        = 0;
      output.field_output             = true;
      output.field_output_every       = 2;
      output.contact_output_every     = 3;
      output.checkpoint_interval      = 0;
      output.checkpoint_wall_interval = 0;
    }

    /** Run @p evolution over the grid (fresh, or resumed) of @p steps. */
    void
    run(FakeEvolution     &evolution,
        StepObserver      *observer,
        const bool         resume,
        const unsigned int steps = n_steps)
    {
      RunDirectory directory(output,
                             "# run_loop_test\n",
                             OriginalInput(CommandLine()),
                             comm,
                             nullptr);
      directory.lock(true, ParameterSource());
      if (!resume)
        directory.start_fresh();
      RunLoop loop(directory, output, pcout, timer);
      loop.run(evolution, {0., dt, steps}, observer, resume);
    }

    std::string
    file(const std::string &name) const
    {
      return folder + "/" + name;
    }

    ConditionalOStream pcout;
    TimerOutput        timer;
    Parameters::Output output{};
    std::string        folder;
  };



  TEST_F(RunLoopTest, RowTimesFieldIndicesAndTheLastStep)
  {
    FakeEvolution    evolution;
    CountingObserver observer;
    run(evolution, &observer, false);

    EXPECT_EQ(evolution.initializations, 1u);
    EXPECT_EQ(evolution.initial_time, 0.);
    ASSERT_EQ(evolution.steps.size(), n_steps);
    for (unsigned int n = 0; n < n_steps; ++n)
      {
        EXPECT_EQ(evolution.steps[n], n + 1);
        EXPECT_EQ(evolution.step_times[n], n * dt);
        EXPECT_EQ(evolution.step_ends[n], (n + 1) * dt);
      }
    EXPECT_EQ(evolution.x, 55.);
    EXPECT_EQ(evolution.row_times,
              (std::vector<double>{0., 0.75, 1.5, 2.25, 2.5}));
    EXPECT_EQ(evolution.field_times, (std::vector<double>{0., 1.5, 2.5}));
    EXPECT_EQ(evolution.field_indices, (std::vector<unsigned int>{0, 1, 2}));
    EXPECT_EQ(evolution.contact_times, (std::vector<double>{0., 2.25}));
    EXPECT_EQ(evolution.contact_indices, (std::vector<unsigned int>{0, 1}));
    // The main series first at a row that writes both.
    EXPECT_EQ(evolution.written.at(0), "solution");
    EXPECT_EQ(evolution.written.at(1), "contact");
    EXPECT_EQ(evolution.starts, 1u);
    EXPECT_EQ(evolution.ends, 1u);
    EXPECT_EQ(evolution.last_statistics.n_steps, n_steps);
    EXPECT_EQ(evolution.last_statistics.steps_taken, n_steps);
    EXPECT_EQ(evolution.last_statistics.time_step, dt);

    EXPECT_EQ(observer.starts, 1u);
    ASSERT_EQ(observer.steps.size(), n_steps);
    for (unsigned int n = 0; n < n_steps; ++n)
      EXPECT_EQ(observer.steps[n], n + 1);

    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        EXPECT_EQ(n_rows(file("history.csv")), 5u);
        const std::string pvd = contents(file("solution.pvd"));
        for (const char *t : {"\"0\"", "\"1.5\"", "\"2.5\""})
          EXPECT_NE(pvd.find(t), std::string::npos) << t << " in\n" << pvd;
        const std::string contact = contents(file("contact.pvd"));
        EXPECT_NE(contact.find("\"2.25\""), std::string::npos) << contact;
        EXPECT_TRUE(fs::exists(file("solution/contact_00001.pvtu")));
      }
  }



  TEST_F(RunLoopTest, FieldOutputFalseWritesHistoryOnly)
  {
    output.field_output = false;
    FakeEvolution evolution;
    run(evolution, nullptr, false);
    EXPECT_EQ(evolution.row_times.size(), 5u);
    EXPECT_TRUE(evolution.written.empty());
    EXPECT_EQ(evolution.starts, 1u);
    EXPECT_EQ(evolution.ends, 1u);
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        EXPECT_EQ(n_rows(file("history.csv")), 5u);
        EXPECT_FALSE(fs::exists(file("solution.pvd")));
        EXPECT_FALSE(fs::exists(file("contact.pvd")));
      }
  }



  TEST_F(RunLoopTest, IntervalZeroWritesEveryStep)
  {
    output.interval = 0;
    FakeEvolution evolution;
    run(evolution, nullptr, false);
    ASSERT_EQ(evolution.row_times.size(), n_steps + 1);
    for (unsigned int n = 0; n <= n_steps; ++n)
      EXPECT_EQ(evolution.row_times[n], n * dt);
    // Fields with every second row: 0, 2, ..., 10; contact with 0, 3, 6, 9.
    EXPECT_EQ(evolution.field_indices.size(), 6u);
    EXPECT_EQ(evolution.contact_times,
              (std::vector<double>{0., 0.75, 1.5, 2.25}));
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      EXPECT_EQ(n_rows(file("history.csv")), n_steps + 1);
  }



  TEST_F(RunLoopTest, ResumesFromTheNewestSnapshot)
  {
    output.checkpoint_interval = 0.5;
    FakeEvolution    whole;
    CountingObserver whole_observer;
    run(whole, &whole_observer, false);
    const std::string uninterrupted =
      Utilities::MPI::this_mpi_process(comm) == 0 ?
        contents(file("history.csv")) :
        std::string();

    // The snapshots are after steps 2, 4, 6, 8 and at the end, 10; without
    // the last (a run killed after step 8's) a resume continues at 8.
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      fs::remove_all(file("checkpoints/snapshot_000000010"));
    MPI_Barrier(comm);
    FakeEvolution    resumed;
    CountingObserver observer;
    run(resumed, &observer, true);
    EXPECT_EQ(resumed.initializations, 0u);
    EXPECT_EQ(resumed.steps, (std::vector<unsigned int>{9, 10}));
    EXPECT_EQ(resumed.step_times, (std::vector<double>{2., 2.25}));
    EXPECT_EQ(resumed.x, 55.);
    EXPECT_EQ(resumed.row_times, (std::vector<double>{2.25, 2.5}));
    EXPECT_EQ(resumed.field_indices, (std::vector<unsigned int>{2}));
    // The contact series continues its own numbering: row 3 is its output 1.
    EXPECT_EQ(resumed.contact_indices, (std::vector<unsigned int>{1}));
    EXPECT_EQ(resumed.contact_times, (std::vector<double>{2.25}));
    // The start's file belongs to the fresh run only; the end's to each.
    EXPECT_EQ(resumed.starts, 0u);
    EXPECT_EQ(resumed.ends, 1u);
    EXPECT_EQ(resumed.last_statistics.n_steps, n_steps);
    EXPECT_EQ(resumed.last_statistics.steps_taken, 2u);
    EXPECT_EQ(observer.starts, 0u);
    EXPECT_EQ(observer.steps, (std::vector<unsigned int>{9, 10}));
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      EXPECT_EQ(contents(file("history.csv")), uninterrupted);
  }



  TEST_F(RunLoopTest, CompleteRunIsRefusedThenTakenFurther)
  {
    output.checkpoint_interval = 0.5;
    const std::string base     = output.directory;
    output.directory           = base + "/whole";
    FakeEvolution whole;
    run(whole, nullptr, false, 2 * n_steps);

    output.directory = base + "/further";
    FakeEvolution first;
    run(first, nullptr, false);
    // The snapshot at its end says the run is complete.
    FakeEvolution again;
    try
      {
        run(again, nullptr, true);
        ADD_FAILURE() << "a complete run was resumed";
      }
    catch (const InputError &error)
      {
        EXPECT_NE(std::string(error.what()).find("the run is complete"),
                  std::string::npos);
      }
    EXPECT_TRUE(again.steps.empty());
    // Taken further from its end; its row at t = 5/2, off the grid of
    // Output/Interval = 3/4 and written only because the run ended there,
    // is dropped: the rows and fields of the uninterrupted longer run.
    FakeEvolution further;
    run(further, nullptr, true, 2 * n_steps);
    EXPECT_EQ(further.steps.front(), n_steps + 1);
    EXPECT_EQ(further.steps.size(), n_steps);
    EXPECT_EQ(further.x, whole.x);
    EXPECT_EQ(further.field_indices, (std::vector<unsigned int>{2, 3}));
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        EXPECT_EQ(contents(base + "/further/history.csv"),
                  contents(base + "/whole/history.csv"));
        // The series after deal.II's comment with the date.
        const auto series = [&](const std::string &run) {
          const std::string pvd = contents(base + "/" + run + "/solution.pvd");
          return pvd.substr(pvd.find("<VTKFile"));
        };
        EXPECT_EQ(series("further"), series("whole"));
      }
  }



  TEST_F(RunLoopTest, ResumeWithAnotherStepIsRefused)
  {
    output.checkpoint_interval = 0.5;
    FakeEvolution first;
    run(first, nullptr, false);
    FakeEvolution other;
    RunDirectory  directory(
      output, "# run_loop_test\n", OriginalInput(CommandLine()), comm, nullptr);
    RunLoop            loop(directory, output, pcout, timer);
    const unsigned int before = other.initializations;
    directory.lock(true, ParameterSource());
    EXPECT_THROW(loop.run(other, {0., dt / 2, 2 * n_steps}, nullptr, true),
                 InputError);
    EXPECT_EQ(other.initializations, before);
    EXPECT_TRUE(other.steps.empty());
  }



  TEST_F(RunLoopTest, WithoutOutputsNothingIsWritten)
  {
    FakeEvolution    evolution;
    CountingObserver observer;
    {
      RunDirectory directory(output,
                             "# run_loop_test\n",
                             OriginalInput(CommandLine()),
                             comm,
                             nullptr);
      directory.lock(true, ParameterSource());
      RunLoop loop(directory, output, pcout, timer);
      loop.run_without_outputs(evolution, {0., dt, n_steps}, &observer);
    }
    EXPECT_EQ(evolution.steps.size(), n_steps);
    EXPECT_TRUE(evolution.row_times.empty());
    EXPECT_TRUE(evolution.written.empty());
    EXPECT_EQ(evolution.starts + evolution.ends, 0u);
    EXPECT_EQ(observer.starts, 1u);
    EXPECT_EQ(observer.steps.size(), n_steps);
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      EXPECT_FALSE(fs::exists(file("history.csv")));
  }
} // namespace unit_run_loop
