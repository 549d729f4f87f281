#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <base/input_error.h>

#include <fstream>
#include <sstream>
#include <vector>

namespace stickslip
{
  InputError::InputError(const std::string &message)
    : std::runtime_error(message)
  {}



  RunError::RunError(const std::string &message)
    : std::runtime_error(message)
  {}



  std::string
  first_problem(const MPI_Comm comm, const std::string &problem)
  {
    using namespace dealii::Utilities::MPI;
    const unsigned int n_ranks = n_mpi_processes(comm);
    const unsigned int owner =
      min(problem.empty() ? n_ranks : this_mpi_process(comm), comm);
    return owner < n_ranks ? broadcast(comm, problem, owner) : std::string();
  }



  ParameterSource::ParameterSource(const std::string &file_name)
    : input_file(file_name)
  {
    std::vector<std::string> subsections;
    scan(file_name, subsections, 0);
  }



  void
  ParameterSource::scan(const std::string        &file_name,
                        std::vector<std::string> &subsections,
                        const unsigned int        depth)
  {
    // read_parameter_file() refuses a file that includes itself before
    // this scan; the depth only keeps a file that changed since finite.
    if (depth > 64)
      return;
    std::ifstream in(file_name);
    std::string   line;
    unsigned int  line_number = 0;
    while (std::getline(in, line))
      {
        ++line_number;
        if (line_number == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0)
          line.erase(0, 3); // a UTF-8 byte order mark
        const std::string text =
          dealii::Utilities::trim(line.substr(0, line.find('#')));
        std::istringstream words(text);
        std::string        keyword;
        words >> keyword;
        if (keyword == "subsection")
          subsections.push_back(
            dealii::Utilities::trim(text.substr(keyword.size())));
        else if (keyword == "end" && !subsections.empty())
          subsections.pop_back();
        else if (keyword == "include" || keyword == "INCLUDE")
          {
            const std::string included =
              dealii::Utilities::trim(text.substr(keyword.size()));
            if (!included.empty())
              scan(included, subsections, depth + 1);
          }
        else if (keyword == "set")
          {
            const auto equal = text.find('=');
            if (equal == std::string::npos)
              continue;
            std::string path;
            for (const auto &s : subsections)
              path += s + "/";
            path += dealii::Utilities::trim(text.substr(3, equal - 3));
            places_of_path[path].push_back({file_name, line_number});
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
    const auto places = places_of_path.find(path);
    if (places != places_of_path.end())
      return " (" + places->second.back().file + ", line " +
             std::to_string(places->second.back().line) + ")";
    return " (default value)";
  }



  const std::string &
  ParameterSource::file_name() const
  {
    return input_file;
  }



  void
  ParameterSource::use_entry_names(
    const std::map<std::string, std::string> &aliases)
  {
    for (const auto &[alias, entry] : aliases)
      {
        const auto places = places_of_path.find(alias);
        if (places == places_of_path.end())
          continue;
        auto &of_entry = places_of_path[entry];
        of_entry.insert(of_entry.end(),
                        places->second.begin(),
                        places->second.end());
        places_of_path.erase(alias);
      }
  }



  bool
  ParameterSource::is_set(const std::string &path) const
  {
    return from_command_line.count(path) > 0 || places_of_path.count(path) > 0;
  }



  const std::map<std::string, std::vector<ParameterSource::Place>> &
  ParameterSource::file_places() const
  {
    return places_of_path;
  }



  std::set<std::string>
  ParameterSource::command_line_paths() const
  {
    std::set<std::string> paths;
    for (const auto &entry : from_command_line)
      paths.insert(entry.first);
    return paths;
  }



  std::string
  quoted_value(const std::string &value)
  {
    // A value of a screenful or more (a generated expression, a file read
    // into one line) is shown by its ends: the message stays readable.
    constexpr std::size_t head = 120, tail = 40;
    if (value.size() <= head + tail + 40)
      return "'" + value + "'";
    return "'" + value.substr(0, head) + " ... " +
           value.substr(value.size() - tail) + "' (" +
           std::to_string(value.size()) + " characters; the first " +
           std::to_string(head) + " and the last " + std::to_string(tail) +
           " shown)";
  }



  std::string
  bad_parameter_message(const ParameterSource &source,
                        const std::string     &path,
                        const std::string     &value,
                        const std::string     &allowed)
  {
    return "parameter '" + path + "'" + source.where(path) + " has the value " +
           quoted_value(value) + ", but " + allowed;
  }



  void
  throw_bad_parameter(const ParameterSource &source,
                      const std::string     &path,
                      const std::string     &value,
                      const std::string     &allowed)
  {
    throw InputError(bad_parameter_message(source, path, value, allowed));
  }
} // namespace stickslip
