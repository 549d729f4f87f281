#include <deal.II/base/utilities.h>

#include <base/command_line.h>
#include <base/input_error.h>
#include <base/parameter_file.h>

namespace stickslip
{
  const char *const usage =
    "usage: stickslip FILE.prm [--set \"Subsection/Name=value\"]... [--quiet]\n"
    "       stickslip FILE.prm --resume OUTPUT_DIRECTORY [--set ...]\n"
    "       stickslip --batch BATCH_FILE  (one run per line; - reads standard "
    "input)\n"
    "       stickslip --print-parameters [markdown|json] [--model NAME]\n"
    "       stickslip --version\n"
    "       stickslip --help\n";



  std::string
  help_text(const std::string &models)
  {
    return "stickslip: elastodynamic systems with dry (Coulomb) friction, "
           "from a few masses to elastic bodies in frictional contact.\n" +
           std::string(usage) + models +
           "Examples to start from: prm/ (listed in README.md). The command "
           "line and the parameter files: doc/running.md.\n";
  }



  namespace
  {
    /** "Subsection/Name=value" of --set, split at the first '='. */
    std::pair<std::string, std::string>
    parse_assignment(const std::string &assignment)
    {
      const auto equal = assignment.find('=');
      if (equal == std::string::npos)
        throw InputError("--set \"" + assignment +
                         "\": write \"Subsection/Name=value\"");
      return {dealii::Utilities::trim(assignment.substr(0, equal)),
              dealii::Utilities::trim(assignment.substr(equal + 1))};
    }



    /** The word after option @p option (InputError if there is none). */
    const std::string &
    argument_of(const std::vector<std::string> &words,
                std::size_t                    &i,
                const std::string              &option,
                const std::string              &what)
    {
      if (i + 1 >= words.size())
        throw InputError(option + " needs " + what);
      return words[++i];
    }
  } // namespace



  CommandLine
  parse_command_line(const std::vector<std::string> &words,
                     const std::string              &usage_hint)
  {
    CommandLine line;
    for (std::size_t i = 0; i < words.size(); ++i)
      {
        const std::string &argument = words[i];
        if (argument == "--print-parameters")
          {
            line.print_parameters = true;
            if (i + 1 < words.size() && words[i + 1].rfind('-', 0) != 0)
              line.print_format = words[++i];
            if (!line.print_format.empty() && line.print_format != "markdown" &&
                line.print_format != "json")
              throw InputError("--print-parameters '" +
                               printable_excerpt(line.print_format) +
                               "': the formats are markdown and json (without "
                               "a format: a commented parameter file)" +
                               usage_hint);
          }
        else if (argument == "--model")
          line.print_model = argument_of(
            words, i, argument, "a model name (stickslip --help lists them)");
        else if (argument == "--quiet")
          line.quiet = true;
        else if (argument == "--help" || argument == "-h")
          line.help = true;
        else if (argument == "--version")
          line.version = true;
        else if (argument == "--resume")
          line.resume_directory = argument_of(
            words, i, argument, "the output directory of the run to continue");
        else if (argument == "--batch")
          line.batch_file =
            argument_of(words,
                        i,
                        argument,
                        "a batch file (one run per line; - reads "
                        "standard input)");
        else if (argument == "--set")
          line.overrides.push_back(parse_assignment(argument_of(
            words, i, argument, "an argument \"Subsection/Name=value\"")));
        else if (argument == "-np" || argument == "-n" || argument == "--np")
          throw InputError("'" + argument +
                           "' is an option of mpirun, not of stickslip: "
                           "start a run on N ranks as 'mpirun -np N "
                           "stickslip FILE.prm'");
        else if (!argument.empty() && argument[0] == '-')
          throw InputError("unknown option '" + printable_excerpt(argument) +
                           "'" + usage_hint);
        else if (line.parameter_file.empty())
          line.parameter_file = argument;
        else
          throw InputError("more than one parameter file given ('" +
                           line.parameter_file + "' and '" + argument + "')" +
                           usage_hint);
      }
    if (line.print_parameters &&
        (!line.parameter_file.empty() || !line.overrides.empty() ||
         !line.resume_directory.empty() || !line.batch_file.empty()))
      throw InputError(
        "--print-parameters takes only a format (markdown or json) and "
        "--model NAME, not '" +
        printable_excerpt(!line.parameter_file.empty()   ? line.parameter_file :
                          !line.overrides.empty()        ? "--set" :
                          !line.resume_directory.empty() ? "--resume" :
                                                           "--batch") +
        "'" + usage_hint);
    if (!line.print_model.empty() && !line.print_parameters)
      throw InputError("--model " + printable_excerpt(line.print_model) +
                       " goes with --print-parameters (in a run, the file "
                       "sets Model)" +
                       usage_hint);
    if (!line.batch_file.empty() &&
        (!line.parameter_file.empty() || !line.overrides.empty() ||
         line.quiet || !line.resume_directory.empty() || line.print_parameters))
      throw InputError("--batch " + line.batch_file +
                       " takes no other argument: every line of the batch "
                       "file is a whole run's command line (its parameter "
                       "file, --set, --quiet)" +
                       usage_hint);
    return line;
  }



  CommandLine
  parse_batch_line(const std::vector<std::string> &words)
  {
    const std::string first   = words.empty() ? "" : words[0];
    const std::string program = first.substr(first.rfind('/') + 1);
    if (program == "stickslip" || program == "mpirun" || program == "mpiexec")
      throw InputError("the line begins with '" + first +
                       "': write only what follows 'stickslip' (the "
                       "parameter file and the options)");
    const CommandLine line = parse_command_line(words, "");
    if (!line.batch_file.empty())
      throw InputError("--batch inside a batch file (a line is one run)");
    if (line.help || line.version || line.print_parameters)
      throw InputError("--help, --version and --print-parameters are not runs");
    if (line.parameter_file.empty())
      throw InputError("no parameter file given (a line is a run's command "
                       "line: FILE.prm [--set \"Subsection/Name=value\"]... "
                       "[--quiet] [--resume DIRECTORY])");
    return line;
  }
} // namespace stickslip
