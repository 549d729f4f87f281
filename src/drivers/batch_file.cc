#include <base/input_error.h>
#include <base/shell_words.h>
#include <drivers/batch_file.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

namespace stickslip
{
  namespace
  {
    /** At most this many bad lines are listed in the message. */
    constexpr unsigned int max_listed_errors = 20;

    /** The batch file's text (rank 0), or "" and the reason in @p error. */
    std::string
    read_text(const std::string &file_name, std::string &error)
    {
      if (file_name == "-")
        return std::string(std::istreambuf_iterator<char>(std::cin),
                           std::istreambuf_iterator<char>());
      std::error_code code;
      if (std::filesystem::is_directory(file_name, code))
        {
          error = "is a directory";
          return "";
        }
      std::ifstream in(file_name, std::ios::binary);
      if (!in)
        {
          error = "no such file, or it cannot be read";
          return "";
        }
      return std::string(std::istreambuf_iterator<char>(in),
                         std::istreambuf_iterator<char>());
    }



    /** "batch file 'x', line 3: ..." for every error, at most 20 of them. */
    std::string
    error_message(const std::string                   &where,
                  const std::vector<ShellSyntaxError> &errors)
    {
      std::string message = std::to_string(errors.size()) +
                            (errors.size() == 1 ? " line" : " lines") +
                            " of the " + where +
                            " cannot be run, so no run was started:";
      for (unsigned int i = 0; i < errors.size() && i < max_listed_errors; ++i)
        message += "\n  " + where + ", line " + std::to_string(errors[i].line) +
                   ": " + errors[i].message;
      if (errors.size() > max_listed_errors)
        message += "\n  ... and " +
                   std::to_string(errors.size() - max_listed_errors) + " more";
      return message;
    }
  } // namespace



  std::string
  batch_file_description(const std::string &file_name)
  {
    return file_name == "-" ? std::string("batch file on standard input") :
                              "batch file '" + file_name + "'";
  }



  std::vector<BatchEntry>
  read_batch_file(const std::string &file_name, const MPI_Comm comm)
  {
    const std::string where = batch_file_description(file_name);
    std::string       error, text;
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      text = read_text(file_name, error);
    error = Utilities::MPI::broadcast(comm, error, 0);
    if (!error.empty())
      throw InputError("cannot read the " + where + ": " + error);
    text = Utilities::MPI::broadcast(comm, text, 0);

    std::vector<ShellSyntaxError>   errors;
    const std::vector<ShellCommand> commands =
      split_shell_commands(text, errors);
    std::vector<BatchEntry> entries;
    for (const ShellCommand &command : commands)
      try
        {
          entries.push_back({command.line, parse_batch_line(command.words)});
        }
      catch (InputError &e)
        {
          errors.push_back({command.line, e.what()});
        }
    if (!errors.empty())
      {
        const auto by_line = [](const ShellSyntaxError &a,
                                const ShellSyntaxError &b) {
          return a.line < b.line;
        };
        std::stable_sort(errors.begin(), errors.end(), by_line);
        throw InputError(error_message(where, errors));
      }
    if (entries.empty())
      throw InputError("the " + where +
                       " holds no run (every line is blank or a # comment)");
    return entries;
  }
} // namespace stickslip
