#include <base/shell_words.h>

#include <cstring>

namespace stickslip
{
  namespace
  {
    /** The characters a shell would interpret outside quotes. */
    const char *const shell_operators = "$`;|&<>()";

    /**
     * The splitter's state: where it is in the text, the command and word
     * being built, and the errors found so far.
     */
    class ShellSplitter
    {
    public:
      ShellSplitter(const std::string             &text,
                    std::vector<ShellSyntaxError> &errors)
        : text(text)
        , position(text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0)
        , line(1)
        , errors(errors)
        , command_line(0)
        , in_word(false)
        , failed(false)
      {}

      std::vector<ShellCommand>
      split()
      {
        while (position < text.size())
          step();
        end_command();
        return commands;
      }

    private:
      /** Read the next character outside quotes. */
      void
      step()
      {
        const char c = text[position];
        if (c == '\n')
          {
            end_command();
            ++line;
            ++position;
          }
        else if (c == '\r' && next_is('\n'))
          ++position;
        else if (c == ' ' || c == '\t' || c == '\r')
          {
            end_word();
            ++position;
          }
        else if (c == '#' && !in_word)
          skip_to_end_of_line();
        else if (c == '\'')
          single_quoted();
        else if (c == '"')
          double_quoted();
        else if (c == '\\')
          escaped();
        else if (c == '\0')
          fail("a NUL byte (is this a text file?)");
        else if (std::strchr(shell_operators, c) != nullptr ||
                 (c == '~' && !in_word))
          fail(std::string("an unquoted '") + c +
               "': a batch line is one stickslip command line, not a shell "
               "command (no variables, ~, pipes, redirections, ';' or '&'); "
               "quote the character to keep it");
        else
          append(c);
      }

      /** 'text': everything literal up to the next single quote. */
      void
      single_quoted()
      {
        const unsigned int start_line = line;
        start_word();
        for (++position; position < text.size(); ++position)
          {
            const char c = text[position];
            if (c == '\'')
              {
                ++position;
                return;
              }
            if (c == '\0')
              return fail("a NUL byte (is this a text file?)");
            if (c == '\n')
              ++line;
            word += c;
          }
        line = start_line;
        fail("a single quote that is never closed");
      }

      /** "text": literal but for \\ \" \$ \` and backslash-newline. */
      void
      double_quoted()
      {
        const unsigned int start_line = line;
        start_word();
        for (++position; position < text.size(); ++position)
          {
            const char c = text[position];
            if (c == '"')
              {
                ++position;
                return;
              }
            if (c == '$' || c == '`' || c == '\0')
              return fail(
                c == '\0' ?
                  std::string("a NUL byte (is this a text file?)") :
                  std::string("a '") + c +
                    "' inside double quotes, which a shell would expand: "
                    "write the value itself, or put it in single quotes");
            if (c == '\\' && position + 1 < text.size() &&
                std::strchr("\\\"$`\n", text[position + 1]) != nullptr)
              {
                if (text[++position] == '\n')
                  ++line;
                else
                  word += text[position];
                continue;
              }
            if (c == '\n')
              ++line;
            word += c;
          }
        line = start_line;
        fail("a double quote that is never closed");
      }

      /** A backslash outside quotes: the next character, or a continuation. */
      void
      escaped()
      {
        ++position;
        if (next_is_line_end())
          {
            position += text[position] == '\r' ? 2 : 1;
            ++line;
          }
        else if (position < text.size())
          append(text[position]);
      }

      /** The rest of the physical line is a comment (or is skipped). */
      void
      skip_to_end_of_line()
      {
        while (position < text.size() && text[position] != '\n')
          ++position;
      }

      /** Stop this command at an error; go on with the next line. */
      void
      fail(const std::string &message)
      {
        if (!failed)
          errors.push_back({line, message});
        failed = true;
        skip_to_end_of_line();
      }

      /** A word begins here (the command too, if it is its first word). */
      void
      start_word()
      {
        if (!in_word && current_words.empty())
          command_line = line;
        in_word = true;
      }

      void
      append(const char c)
      {
        start_word();
        word += c;
        ++position;
      }

      void
      end_word()
      {
        if (in_word)
          current_words.push_back(word);
        word.clear();
        in_word = false;
      }

      void
      end_command()
      {
        end_word();
        if (!failed && !current_words.empty())
          commands.push_back({command_line, current_words});
        current_words.clear();
        command_line = 0;
        failed       = false;
      }

      bool
      next_is(const char c) const
      {
        return position + 1 < text.size() && text[position + 1] == c;
      }

      /** At a newline (or CR newline) at the current position. */
      bool
      next_is_line_end() const
      {
        return position < text.size() &&
               (text[position] == '\n' ||
                (text[position] == '\r' && next_is('\n')));
      }

      const std::string             &text;
      std::size_t                    position;
      unsigned int                   line;
      std::vector<ShellSyntaxError> &errors;
      std::vector<ShellCommand>      commands;
      std::vector<std::string>       current_words;
      std::string                    word;
      unsigned int                   command_line;
      bool                           in_word;
      bool                           failed;
    };
  } // namespace



  std::vector<ShellCommand>
  split_shell_commands(const std::string             &text,
                       std::vector<ShellSyntaxError> &errors)
  {
    return ShellSplitter(text, errors).split();
  }
} // namespace stickslip
