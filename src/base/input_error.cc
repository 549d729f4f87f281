#include <base/input_error.h>

#include <fstream>
#include <sstream>
#include <vector>

namespace stickslip
{
  namespace
  {
    std::string
    trim(const std::string &text)
    {
      const auto first = text.find_first_not_of(" \t\r\n");
      if (first == std::string::npos)
        return "";
      const auto last = text.find_last_not_of(" \t\r\n");
      return text.substr(first, last - first + 1);
    }
  } // namespace



  InputError::InputError(const std::string &message)
    : std::runtime_error(message)
  {}



  RunError::RunError(const std::string &message)
    : std::runtime_error(message)
  {}



  ParameterSource::ParameterSource(const std::string &file_name)
    : input_file(file_name)
  {
    std::ifstream            in(file_name);
    std::vector<std::string> subsections;
    std::string              line;
    unsigned int             line_number = 0;
    while (std::getline(in, line))
      {
        ++line_number;
        const std::string text = trim(line.substr(0, line.find('#')));
        std::istringstream words(text);
        std::string        keyword;
        words >> keyword;
        if (keyword == "subsection")
          subsections.push_back(trim(text.substr(keyword.size())));
        else if (keyword == "end" && !subsections.empty())
          subsections.pop_back();
        else if (keyword == "set")
          {
            const auto equal = text.find('=');
            if (equal == std::string::npos)
              continue;
            std::string path;
            for (const auto &s : subsections)
              path += s + "/";
            path += trim(text.substr(3, equal - 3));
            line_of_path[path] = line_number;
          }
      }
  }



  void
  ParameterSource::mark_command_line(const std::string &path)
  {
    from_command_line[path] = true;
  }



  std::string
  ParameterSource::where(const std::string &path) const
  {
    if (from_command_line.count(path) > 0)
      return " (set on the command line by --set)";
    const auto line = line_of_path.find(path);
    if (line != line_of_path.end())
      return " (" + input_file + ", line " + std::to_string(line->second) +
             ")";
    return " (default value)";
  }



  const std::string &
  ParameterSource::file_name() const
  {
    return input_file;
  }



  std::string
  bad_parameter_message(const ParameterSource &source,
                        const std::string &    path,
                        const std::string &    value,
                        const std::string &    allowed)
  {
    return "parameter '" + path + "'" + source.where(path) + " has the value '" +
           value + "', but " + allowed;
  }



  void
  throw_bad_parameter(const ParameterSource &source,
                      const std::string &    path,
                      const std::string &    value,
                      const std::string &    allowed)
  {
    throw InputError(bad_parameter_message(source, path, value, allowed));
  }
} // namespace stickslip
