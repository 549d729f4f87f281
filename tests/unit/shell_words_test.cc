// Unit tests of the batch file's syntax (src/base/shell_words.h) and of the
// command line a batch line must be (src/base/command_line.h): a line copied
// from a shell script gives the words the shell would give stickslip, and
// what a shell would expand or interpret is an error naming the line.
#include <base/command_line.h>
#include <base/input_error.h>
#include <base/shell_words.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

// A namespace of its own: the unit tests are compiled together
// (tests/unit/CMakeLists.txt), and each file's helpers keep their names.
namespace unit_shell_words
{
  using namespace stickslip;
  using Words = std::vector<std::string>;

  /** The commands of @p text; fails the test on a syntax error. */
  std::vector<ShellCommand>
  commands_of(const std::string &text)
  {
    std::vector<ShellSyntaxError> errors;
    const auto                    commands = split_shell_commands(text, errors);
    for (const auto &error : errors)
      ADD_FAILURE() << "line " << error.line << ": " << error.message;
    return commands;
  }

  /** The errors of @p text (and that it gives no command for those lines). */
  std::vector<ShellSyntaxError>
  errors_of(const std::string &text)
  {
    std::vector<ShellSyntaxError> errors;
    split_shell_commands(text, errors);
    return errors;
  }



  TEST(ShellWords, QuotesAndEscapesAsTheShell)
  {
    // What bash gives for each of these lines (checked with printf '%s\n').
    const auto commands =
      commands_of("p.prm --set \"Friction/Solver=semismooth newton\" --quiet\n"
                  "p.prm --set 'ODE/Forcing=sin(t); cos(t)'\n"
                  "p.prm --set Output/Directory=out/a\\ b\n"
                  "p.prm --set \"A/B=say \\\"hi\\\" \\\\ \\$ \\x\"\n"
                  "p.prm --set ''  x'y'\"z\"\n");
    ASSERT_EQ(commands.size(), 5u);
    EXPECT_EQ(commands[0].words,
              (Words{"p.prm",
                     "--set",
                     "Friction/Solver=semismooth newton",
                     "--quiet"}));
    EXPECT_EQ(commands[1].words,
              (Words{"p.prm", "--set", "ODE/Forcing=sin(t); cos(t)"}));
    EXPECT_EQ(commands[2].words,
              (Words{"p.prm", "--set", "Output/Directory=out/a b"}));
    EXPECT_EQ(commands[3].words,
              (Words{"p.prm", "--set", "A/B=say \"hi\" \\ $ \\x"}));
    EXPECT_EQ(commands[4].words, (Words{"p.prm", "--set", "", "xyz"}));
    for (unsigned int i = 0; i < 5; ++i)
      EXPECT_EQ(commands[i].line, i + 1);
  }



  TEST(ShellWords, CommentsBlankLinesContinuationsAndLineNumbers)
  {
    const auto commands = commands_of("\xEF\xBB\xBF# a sweep\r\n"
                                      "\n"
                                      "   \t\n"
                                      "a.prm --quiet  # the first run\r\n"
                                      "b.prm \\\n"
                                      "  --set X/y=1#2 \\\n"
                                      "  --quiet\n"
                                      "c.prm --set 'X/z=two\n"
                                      "lines'\n"
                                      "d.prm");
    ASSERT_EQ(commands.size(), 4u);
    EXPECT_EQ(commands[0].line, 4u);
    EXPECT_EQ(commands[0].words, (Words{"a.prm", "--quiet"}));
    EXPECT_EQ(commands[1].line, 5u);
    EXPECT_EQ(commands[1].words,
              (Words{"b.prm", "--set", "X/y=1#2", "--quiet"}));
    EXPECT_EQ(commands[2].line, 8u);
    EXPECT_EQ(commands[2].words, (Words{"c.prm", "--set", "X/z=two\nlines"}));
    EXPECT_EQ(commands[3].line, 10u);
    EXPECT_EQ(commands[3].words, (Words{"d.prm"}));
  }



  TEST(ShellWords, WhatAShellWouldExpandIsAnError)
  {
    const std::vector<std::pair<std::string, std::string>> cases = {
      {"p.prm --set Output/Directory=$dir", "unquoted '$'"},
      {"p.prm --set \"Output/Directory=$dir\"", "'$' inside double quotes"},
      {"p.prm > log", "unquoted '>'"},
      {"p.prm; q.prm", "unquoted ';'"},
      {"p.prm | tee", "unquoted '|'"},
      {"p.prm &", "unquoted '&'"},
      {"p.prm --set Output/Directory=`pwd`", "unquoted '`'"},
      {"~/p.prm", "unquoted '~'"},
      {"p.prm --set 'A/b=1", "single quote that is never closed"},
      {"p.prm --set \"A/b=1", "double quote that is never closed"},
      {std::string("p.prm\0", 6), "NUL byte"}};
    for (const auto &[text, expected] : cases)
      {
        const auto errors = errors_of("ok.prm\n" + text + "\nok.prm\n");
        ASSERT_EQ(errors.size(), 1u) << text;
        EXPECT_EQ(errors[0].line, 2u) << text;
        EXPECT_NE(errors[0].message.find(expected), std::string::npos)
          << text << ": " << errors[0].message;
      }
    // Quoted, the same characters are plain text; '~' inside a word too.
    const auto commands =
      commands_of("p.prm --set 'A/b=$x; y > z & w | (v)' --set A/c=a~b");
    ASSERT_EQ(commands.size(), 1u);
    EXPECT_EQ(
      commands[0].words,
      (Words{"p.prm", "--set", "A/b=$x; y > z & w | (v)", "--set", "A/c=a~b"}));
  }



  TEST(ShellWords, EveryBadLineIsReportedAndTheOthersKept)
  {
    std::vector<ShellSyntaxError> errors;
    const auto                    commands =
      split_shell_commands("a.prm\nb.prm $x\nc.prm\nd.prm > e\nf.prm\n",
                           errors);
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_EQ(errors[0].line, 2u);
    EXPECT_EQ(errors[1].line, 4u);
    ASSERT_EQ(commands.size(), 3u);
    EXPECT_EQ(commands[2].words, (Words{"f.prm"}));
    EXPECT_EQ(commands[2].line, 5u);
  }



  TEST(CommandLine, BatchLinesAreRuns)
  {
    // The message of the InputError a batch line gives, "" if none.
    const auto problem = [](const Words &words) -> std::string {
      try
        {
          parse_batch_line(words);
        }
      catch (InputError &e)
        {
          return e.what();
        }
      return "";
    };
    EXPECT_EQ(problem({"p.prm", "--set", "A/b = 1", "--quiet"}), "");
    EXPECT_EQ(problem({"p.prm", "--resume", "out/p"}), "");
    EXPECT_NE(problem({"--set", "A/b=1"}).find("no parameter file"),
              std::string::npos);
    EXPECT_NE(problem({"--version"}).find("not runs"), std::string::npos);
    EXPECT_NE(
      problem({"build/stickslip", "p.prm"}).find("what follows 'stickslip'"),
      std::string::npos);
    EXPECT_NE(problem({"--batch", "other.txt"}).find("--batch inside"),
              std::string::npos);
    EXPECT_NE(problem({"p.prm", "q.prm"}).find("more than one parameter file"),
              std::string::npos);
    EXPECT_NE(problem({"p.prm", "--set", "A/b"}).find("Subsection/Name=value"),
              std::string::npos);
    EXPECT_NE(problem({"p.prm", "--set"}).find("--set needs"),
              std::string::npos);
    EXPECT_NE(
      problem({"p.prm", "--sett", "A/b=1"}).find("unknown option '--sett'"),
      std::string::npos);
    // --batch stands alone on the command line.
    EXPECT_EQ(parse_command_line({"--batch", "-"}, "").batch_file, "-");
    EXPECT_THROW(parse_command_line({"--batch", "-", "--quiet"}, ""),
                 InputError);
    const CommandLine line =
      parse_command_line({"p.prm", "--set", " Time/Final time = 2 "}, "");
    ASSERT_EQ(line.overrides.size(), 1u);
    EXPECT_EQ(line.overrides[0].first, "Time/Final time");
    EXPECT_EQ(line.overrides[0].second, "2");
  }
} // namespace unit_shell_words
