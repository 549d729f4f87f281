#include <base/input_error.h>
#include <base/resumed_parameters.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace stickslip
{
  namespace
  {
    /**
     * "Subsection/Name" -> value of a parameter listing as
     * ParameterHandler::print_parameters(..., PRM) writes it.
     */
    std::map<std::string, std::string>
    read_listing(std::istream &in)
    {
      std::map<std::string, std::string> values;
      std::vector<std::string>           path;
      std::string                        line;
      const auto                         trim = [](const std::string &s) {
        const auto first = s.find_first_not_of(" \t");
        if (first == std::string::npos)
          return std::string();
        const auto last = s.find_last_not_of(" \t\r");
        return s.substr(first, last - first + 1);
      };
      while (std::getline(in, line))
        {
          // A comment (print_parameters adds "# default: ..." to a value
          // that differs from its default) ends at the line's end.
          line = trim(line.substr(0, line.find('#')));
          if (line.empty() || line[0] == '#')
            continue;
          if (line.rfind("subsection ", 0) == 0)
            path.push_back(trim(line.substr(11)));
          else if (line == "end")
            {
              if (!path.empty())
                path.pop_back();
            }
          else if (line.rfind("set ", 0) == 0)
            {
              const auto equal = line.find('=');
              if (equal == std::string::npos)
                continue;
              std::string name = trim(line.substr(4, equal - 4));
              for (auto p = path.rbegin(); p != path.rend(); ++p)
                name = *p + "/" + name;
              values[name] = trim(line.substr(equal + 1));
            }
        }
      return values;
    }

    /**
     * @p value without the whitespace that separates nothing: a run of
     * spaces and tabs is kept (as one space) only between two characters
     * that would otherwise join into one name or number.
     */
    std::string
    without_spaces(const std::string &value)
    {
      const auto word = [](const char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               c == '.';
      };
      std::string out;
      bool        space = false;
      for (const char c : value)
        if (c == ' ' || c == '\t')
          space = true;
        else
          {
            if (space && !out.empty() && word(out.back()) && word(c))
              out += ' ';
            out += c;
            space = false;
          }
      return out;
    }

    bool
    same_value(const std::string &a, const std::string &b)
    {
      if (a == b || without_spaces(a) == without_spaces(b))
        return true;
      // 1e-3 and 0.001: the same number written differently.
      std::size_t used_a = 0, used_b = 0;
      try
        {
          const double x = std::stod(a, &used_a);
          const double y = std::stod(b, &used_b);
          return used_a == a.size() && used_b == b.size() && x == y;
        }
      catch (...)
        {
          return false;
        }
    }
  } // namespace



  void
  check_resumed_parameters(const std::string     &parameters,
                           const ParameterSource &source,
                           const std::string     &directory)
  {
    // None of these changes a result: where and how often the run saves
    // itself, and how much it prints.
    static const std::set<std::string> may_differ = {
      "Output/Directory",
      "Output/Overwrite",
      "Output/Quiet",
      "Output/Progress interval",
      "Output/Checkpoint interval",
      "Output/Checkpoint wall interval"};

    const std::string file =
      (std::filesystem::path(directory) / "parameters.prm").string();
    // Nothing to continue at all: the driver says so.
    if (!std::filesystem::is_directory(std::filesystem::path(directory) /
                                       "checkpoints"))
      return;
    std::ifstream in(file);
    if (!in)
      throw InputError("--resume " + directory + ": " + file +
                       ", the parameters of the run to continue, is missing "
                       "or unreadable");
    const auto written = read_listing(in);

    std::istringstream listing_in(parameters);
    const auto         given = read_listing(listing_in);

    // A run may also be taken further than it was meant to go, except a
    // control search, whose final time is part of the problem it solves.
    const auto control = given.find("Control/Enabled");
    const bool extendable =
      control == given.end() ||
      (control->second != "true" && control->second != "yes");

    const auto compare = [&](const std::string &name,
                             const std::string &value) {
      const auto        other = written.find(name);
      const std::string before =
        other == written.end() ? "(not set)" : other->second;
      if (!same_value(value, before))
        throw InputError(
          "--resume " + directory + ": parameter '" + name + "' is '" + value +
          "'" + source.where(name) + " but was '" + before +
          "' in the run being resumed (" + file +
          "); a resumed run continues that run and must be given its "
          "parameters (only Output/Directory, Overwrite, Quiet, Progress "
          "interval, Checkpoint interval and Checkpoint wall interval may "
          "change, and Time/Final time outside a control search)");
    };
    // The model and its dimension first: with another model, every
    // parameter of one of them is missing from the other.
    for (const std::string first : {"Model", "Dimension"})
      if (const auto entry = given.find(first); entry != given.end())
        compare(entry->first, entry->second);
    for (const auto &entry : given)
      if (may_differ.count(entry.first) == 0 &&
          !(extendable && entry.first == "Time/Final time"))
        compare(entry.first, entry.second);
  }



  std::map<std::string, std::string>
  parameter_listing_values(const std::string &listing)
  {
    std::istringstream in(listing);
    return read_listing(in);
  }
} // namespace stickslip
