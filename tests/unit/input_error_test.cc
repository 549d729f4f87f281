// Unit tests of ParameterSource and bad_parameter_message
// (src/base/input_error.h): the message about a bad parameter value names
// the parameter ("Subsection/Name"), where it was set (the parameter file
// and the line of its `set`, or the command line, or the default), the
// value and what is allowed. ParameterSource reads the `subsection`/`end`
// nesting and the `set` lines of the file and ignores comments.
#include <base/input_error.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_input_error
{
  using namespace stickslip;
  namespace fs = std::filesystem;

  /** A parameter file in a fresh temporary folder, removed afterwards. */
  class ParameterSourceTest : public ::testing::Test
  {
  protected:
    ParameterSourceTest()
    {
      std::random_device random;
      folder = fs::temp_directory_path() /
               ("stickslip_input_error_test_" + std::to_string(random()));
      fs::create_directories(folder);
      file = (folder / "run.prm").string();
      std::ofstream out(file);
      out << "# A parameter file\n"                    // line 1
          << "set Dimension = 1\n"                     // line 2
          << "subsection Time\n"                       // line 3
          << "  set Final time = 2 # a comment\n"      // line 4
          << "  # set Time step = 1 (commented out)\n" // line 5
          << "\n"                                      // line 6
          << "  set   Time step   =   0\n"             // line 7
          << "end\n"                                   // line 8
          << "subsection Slab\n"                       // line 9
          << "  subsection Nested\n"                   // line 10
          << "    set Value = 3\n"                     // line 11
          << "  end\n"                                 // line 12
          << "  set CFL number = 1.5\n"                // line 13
          << "end\n";                                  // line 14
    }

    ~ParameterSourceTest() override
    {
      fs::remove_all(folder);
    }

    fs::path    folder;
    std::string file;
  };

  TEST_F(ParameterSourceTest, WhereGivesFileAndLine)
  {
    const ParameterSource source(file);
    EXPECT_EQ(source.file_name(), file);
    EXPECT_EQ(source.where("Dimension"), " (" + file + ", line 2)");
    EXPECT_EQ(source.where("Time/Final time"), " (" + file + ", line 4)");
    EXPECT_EQ(source.where("Time/Time step"), " (" + file + ", line 7)")
      << "the commented-out line 5 does not count";
    EXPECT_EQ(source.where("Slab/Nested/Value"), " (" + file + ", line 11)");
    EXPECT_EQ(source.where("Slab/CFL number"), " (" + file + ", line 13)")
      << "after the nested subsection ends";
  }

  TEST_F(ParameterSourceTest, CommandLineAndDefault)
  {
    ParameterSource source(file);
    source.mark_command_line("Time/Time step");
    EXPECT_EQ(source.where("Time/Time step"),
              " (set on the command line by --set)");
    EXPECT_EQ(source.where("Time/Scheme"), " (default value)");
    EXPECT_EQ(source.where("Final time"), " (default value)")
      << "a name outside its subsection is another parameter";
  }

  // The message names the parameter, the file and line, the value and what
  // is allowed, in this order.
  TEST_F(ParameterSourceTest, BadParameterMessageNamesParameterFileAndLine)
  {
    const ParameterSource source(file);
    const std::string     message = bad_parameter_message(
      source, "Time/Time step", "0", "the time step must be positive");
    EXPECT_EQ(
      message,
      "parameter 'Time/Time step' (" + file +
        ", line 7) has the value '0', but the time step must be positive");

    try
      {
        throw_bad_parameter(source, "Slab/CFL number", "1.5", "0 < CFL <= 1");
        ADD_FAILURE() << "no InputError";
      }
    catch (const InputError &error)
      {
        const std::string text = error.what();
        EXPECT_NE(text.find("'Slab/CFL number'"), std::string::npos) << text;
        EXPECT_NE(text.find(file + ", line 13"), std::string::npos) << text;
        EXPECT_NE(text.find("'1.5'"), std::string::npos) << text;
        EXPECT_NE(text.find("0 < CFL <= 1"), std::string::npos) << text;
      }
  }

  // Without a parameter file (--set only, or the defaults).
  TEST(ParameterSource, WithoutFile)
  {
    ParameterSource source;
    EXPECT_EQ(source.where("Time/Time step"), " (default value)");
    source.mark_command_line("Time/Time step");
    EXPECT_EQ(
      bad_parameter_message(source, "Time/Time step", "-1", "it must be > 0"),
      "parameter 'Time/Time step' (set on the command line by --set) has the "
      "value '-1', but it must be > 0");
  }

  // A file that cannot be read gives a source that knows no line.
  TEST(ParameterSource, MissingFileKnowsNoLine)
  {
    const ParameterSource source("/nonexistent/stickslip/run.prm");
    EXPECT_EQ(source.where("Time/Time step"), " (default value)");
  }
} // namespace unit_input_error
