#ifndef stickslip_base_command_line_h
#define stickslip_base_command_line_h

#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /** The command lines stickslip takes (the core of `stickslip --help`). */
  extern const char *const usage;

  /**
   * What `stickslip --help` prints: what stickslip is, the usage, the
   * @p models (a line each) and where to start.
   */
  std::string
  help_text(const std::string &models);

  /**
   * The command line of one run of stickslip (or of a line of a batch file,
   * which is the same command line without the program's name).
   */
  struct CommandLine
  {
    std::string                                      parameter_file;
    std::vector<std::pair<std::string, std::string>> overrides;
    bool                                             print_parameters = false;
    std::string                                      print_format;
    /** --print-parameters --model NAME: the template of model NAME. */
    std::string print_model;
    bool        quiet   = false;
    bool        help    = false;
    bool        version = false;
    std::string resume_directory;
    /** --batch FILE: many runs in this process, one per line of FILE. */
    std::string batch_file;
  };

  /**
   * Parse the words after the program's name (InputError on a bad one).
   * @p usage_hint is appended to the messages that the usage explains (the
   * command line's usage; nothing for a line of a batch file).
   */
  CommandLine
  parse_command_line(const std::vector<std::string> &words,
                     const std::string              &usage_hint);

  /**
   * The words of a line of a batch file, which must be a run (a parameter
   * file, --set, --quiet, --resume): InputError saying what is wrong if it
   * is not.
   */
  CommandLine
  parse_batch_line(const std::vector<std::string> &words);
} // namespace stickslip

#endif
