#ifndef stickslip_base_shell_words_h
#define stickslip_base_shell_words_h

#include <string>
#include <vector>

namespace stickslip
{
  /** One command of a text in shell syntax: its words and its first line. */
  struct ShellCommand
  {
    unsigned int             line;
    std::vector<std::string> words;
  };

  /** What cannot be read in a text in shell syntax, and on which line. */
  struct ShellSyntaxError
  {
    unsigned int line;
    std::string  message;
  };

  /**
   * Split @p text into commands as a POSIX shell splits a script into
   * simple commands, so that a line can be copied from a shell script:
   * words are separated by blanks; 'single quotes' keep everything, "double
   * quotes" keep everything but a backslash before \ " $ ` or a newline,
   * and a backslash outside quotes keeps the next character (a backslash at
   * the end of a line continues the command on the next line); a newline
   * ends a command, and a word that begins with # starts a comment up to
   * the end of the line. Empty commands are dropped. What a shell would
   * expand or interpret (an unquoted $, `, ;, |, &, <, >, ( or ), a $ or `
   * inside double quotes, a ~ that begins a word) is an error, not a literal
   * character: this is not a shell, and taking "$dir/out" literally would
   * write where the user did not mean to. Unclosed quotes and NUL bytes are
   * errors too. A CR before a newline (a file written on Windows) and a
   * UTF-8 byte order mark at the start are dropped.
   */
  std::vector<ShellCommand>
  split_shell_commands(const std::string             &text,
                       std::vector<ShellSyntaxError> &errors);
} // namespace stickslip

#endif
