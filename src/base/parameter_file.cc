#include <deal.II/base/utilities.h>

#include <boost/property_tree/ptree.hpp>

#include <base/input_error.h>
#include <base/parameter_documentation.h>
#include <base/parameter_file.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

namespace stickslip
{
  namespace
  {
    using Tree = ParameterTree;

    /** The entries that moved to another subsection: old path -> new path. */
    std::map<std::string, std::string> &
    moved_entries()
    {
      static std::map<std::string, std::string> moved;
      return moved;
    }


    std::string
    join(const std::vector<std::string> &parts, const std::string &name = "")
    {
      std::string path;
      for (const auto &part : parts)
        path += (path.empty() ? "" : "/") + part;
      if (!name.empty())
        path += (path.empty() ? "" : "/") + name;
      return path;
    }

    std::string
    lower(std::string text)
    {
      for (char &c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return text;
    }

    std::size_t
    edit_distance(const std::string &a, const std::string &b)
    {
      std::vector<std::size_t> row(b.size() + 1);
      for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
      for (std::size_t i = 1; i <= a.size(); ++i)
        {
          std::size_t diagonal = row[0];
          row[0]               = i;
          for (std::size_t j = 1; j <= b.size(); ++j)
            {
              const std::size_t above = row[j];
              row[j]                  = std::min({row[j] + 1,
                                                  row[j - 1] + 1,
                                                  diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
              diagonal                = above;
            }
        }
      return row[b.size()];
    }

    /** The names directly inside @p parent among the @p paths. */
    std::vector<std::string>
    children(const std::set<std::string> &paths, const std::string &parent)
    {
      std::vector<std::string> names;
      const std::string        prefix = parent.empty() ? "" : parent + "/";
      for (const auto &path : paths)
        if (path.compare(0, prefix.size(), prefix) == 0 &&
            path.find('/', prefix.size()) == std::string::npos)
          names.push_back(path.substr(prefix.size()));
      return names;
    }

    /** The choices of a Patterns::Selection's description, else none. */
    std::vector<std::string>
    selection_choices(const std::string &description)
    {
      const std::string start = "[Selection ";
      if (description.compare(0, start.size(), start) != 0 ||
          description.back() != ']')
        return {};
      std::vector<std::string> choices;
      std::istringstream       in(
        description.substr(start.size(),
                           description.size() - start.size() - 1));
      for (std::string choice; std::getline(in, choice, '|');)
        choices.push_back(dealii::Utilities::trim(choice));
      return choices;
    }

    void
    collect(const Tree                                      &tree,
            const std::string                               &path,
            std::set<std::string>                           &entries,
            std::map<std::string, std::string>              &aliases,
            std::set<std::string>                           &subsections,
            std::map<std::string, std::vector<std::string>> &selections)
    {
      for (const auto &child : tree)
        {
          const std::string name = demangle_json_name(child.first);
          const std::string full = path.empty() ? name : path + "/" + name;
          if (child.second.find("value") != child.second.not_found())
            {
              entries.insert(full);
              const auto choices = selection_choices(
                child.second.get<std::string>("pattern_description", ""));
              if (!choices.empty())
                selections[full] = choices;
            }
          else if (child.second.find("alias") != child.second.not_found())
            aliases[full] = (path.empty() ? "" : path + "/") +
                            child.second.get<std::string>("alias");
          else
            {
              subsections.insert(full);
              collect(
                child.second, full, entries, aliases, subsections, selections);
            }
        }
    }

    /**
     * One pass over the lines of a parameter file in the way deal.II's
     * ParameterHandler::parse_input() reads them (continued lines joined,
     * comments dropped), checking names and structure with their line.
     */
    class FileScan
    {
    public:
      FileScan(const std::string &file_name, const DeclaredNames &names)
        : file_name(file_name)
        , names(names)
      {}

      void
      scan(const std::string &line, const unsigned int number);

      /** The end of the file: every subsection closed, something set. */
      void
      finish() const;

      /**
       * Lines that set an entry by its old name: line, old and new name,
       * and the new entry's path if it lies in another subsection.
       */
      std::vector<std::array<std::string, 4>> renamed;

    private:
      [[noreturn]] void
      fail(const unsigned int number, const std::string &what) const
      {
        throw InputError("in the parameter file '" + file_name + "', line " +
                         std::to_string(number) + ": " + what);
      }

      bool
      declared(const std::vector<std::string> &path,
               const std::string              &name) const;

      /** "; is the 'end' of ... missing?" if @p name fits an outer level. */
      std::string
      missing_end_hint(const std::string &name, const bool subsection) const;

      void
      open(const std::string &name, const unsigned int number);

      void
      set(const std::string &text, const unsigned int number);

      const std::string                  &file_name;
      const DeclaredNames                &names;
      std::vector<std::string>            path;
      std::vector<unsigned int>           opened_on;
      std::map<std::string, unsigned int> first_set;
      bool                                sets_something = false;
    };



    bool
    FileScan::declared(const std::vector<std::string> &where,
                       const std::string              &name) const
    {
      try
        {
          names.entry(where, name, "");
          return true;
        }
      catch (InputError &)
        {
          return false;
        }
    }



    std::string
    FileScan::missing_end_hint(const std::string &name,
                               const bool         subsection) const
    {
      for (std::size_t k = path.size(); k-- > 0;)
        {
          std::vector<std::string> outer(path.begin(), path.begin() + k);
          const bool               fits =
            subsection ?
                            (outer.push_back(name), names.subsection_problem(outer).empty()) :
                            declared(outer, name);
          if (fits)
            return "; is the 'end' of 'subsection " + path[k] + "' (line " +
                   std::to_string(opened_on[k]) + ") missing?";
        }
      return "";
    }



    void
    FileScan::open(const std::string &name, const unsigned int number)
    {
      std::vector<std::string> inner = path;
      inner.push_back(name);
      const std::string problem = names.subsection_problem(inner);
      if (!problem.empty())
        fail(number, problem + missing_end_hint(name, true));
      path = inner;
      opened_on.push_back(number);
    }



    void
    FileScan::set(const std::string &text, const unsigned int number)
    {
      const auto equal = text.find('=');
      if (equal == std::string::npos)
        fail(number,
             "'" + printable_excerpt(text) +
               "' is not of the form 'set NAME = VALUE'");
      const std::string name =
        dealii::Utilities::trim(text.substr(3, equal - 3));
      if (!declared(path, name))
        {
          std::string message;
          try
            {
              names.entry(path, name, "");
            }
          catch (InputError &e)
            {
              message = std::string(e.what()).substr(2);
            }
          fail(number, message + missing_end_hint(name, false));
        }
      const std::string canonical = names.entry(path, name, "");
      std::string       alias_of;
      if (names.is_alias(join(path, name), alias_of))
        {
          const auto slash = canonical.rfind('/');
          const bool moved =
            (slash == std::string::npos ? "" : canonical.substr(0, slash)) !=
            join(path);
          renamed.push_back({{std::to_string(number),
                              name,
                              canonical.substr(slash + 1),
                              moved ? canonical : ""}});
        }
      const auto earlier = first_set.find(canonical);
      if (earlier != first_set.end())
        fail(number,
             "'" + canonical + "' is set a second time (first on line " +
               std::to_string(earlier->second) +
               "); a file sets each parameter once (--set on the command "
               "line overrides the file's value)");
      first_set[canonical] = number;
      sets_something       = true;
      const std::string problem =
        names.value_problem(canonical,
                            dealii::Utilities::trim(text.substr(equal + 1)));
      if (!problem.empty())
        fail(number, problem);
    }



    void
    FileScan::scan(const std::string &line, const unsigned int number)
    {
      const std::string text =
        dealii::Utilities::trim(line.substr(0, line.find('#')));
      if (text.empty())
        return;
      std::istringstream words(text);
      std::string        keyword;
      words >> keyword;
      keyword = lower(keyword);
      if (keyword == "subsection")
        open(dealii::Utilities::trim(text.substr(keyword.size())), number);
      else if (keyword == "end" && text.size() == 3)
        {
          if (path.empty())
            fail(number, "'end' without a subsection to close");
          path.pop_back();
          opened_on.pop_back();
        }
      else if (keyword == "set")
        set(text, number);
      else if (keyword == "include")
        sets_something = true; // deal.II reads and checks the included file
      else
        fail(number,
             "cannot read the line '" + printable_excerpt(text) +
               "' (a line is 'subsection NAME', 'end', 'set NAME = VALUE' "
               "or a # comment)");
    }



    void
    FileScan::finish() const
    {
      if (!path.empty())
        throw InputError("in the parameter file '" + file_name +
                         "': 'subsection " + path.back() + "' (line " +
                         std::to_string(opened_on.back()) + ") has no 'end'");
      if (!sets_something)
        throw InputError("the parameter file '" + file_name +
                         "' sets nothing (it is empty or holds only "
                         "comments); start from one of the files in prm/, "
                         "or see stickslip --print-parameters");
    }



    /**
     * The line @p index of @p lines (with its continuation lines) that sets
     * an entry by an old name in another subsection, blanked, and returned
     * as the lines that set the entry @p new_path ("Sub/Inner/Name") from
     * the top level, to be read after the file's own lines (which keep
     * their numbers).
     */
    std::string
    move_entry(std::vector<std::string> &lines,
               const std::size_t         index,
               const std::string        &new_path)
    {
      std::string joined;
      for (std::size_t k = index; k < lines.size(); ++k)
        {
          std::string line = dealii::Utilities::trim(lines[k]);
          lines[k].clear();
          const bool continued = !line.empty() && line.back() == '\\';
          joined += continued ? line.substr(0, line.size() - 1) : line;
          if (!continued)
            break;
        }
      std::vector<std::string> parts;
      std::istringstream       in(new_path);
      for (std::string part; std::getline(in, part, '/');)
        parts.push_back(part);
      std::string block;
      for (std::size_t k = 0; k + 1 < parts.size(); ++k)
        block += "subsection " + parts[k] + "\n";
      block += "set " + parts.back() + " =" +
               joined.substr(joined.find('=') + 1) + "\n";
      for (std::size_t k = 0; k + 1 < parts.size(); ++k)
        block += "end\n";
      return block;
    }



    /**
     * @p text with the old names of @p renamed replaced by the new ones
     * (deal.II would warn about them on every rank), one warning each.
     */
    std::string
    with_new_names(const std::string                             &text,
                   const std::vector<std::array<std::string, 4>> &renamed,
                   const std::string                             &file_name,
                   std::vector<std::string>                      &warnings)
    {
      std::vector<std::string> lines;
      std::istringstream       in(text);
      for (std::string line; std::getline(in, line);)
        lines.push_back(line);
      std::string moved_lines;
      for (const auto &[number, old_name, new_name, new_path] : renamed)
        {
          if (!new_path.empty())
            {
              warnings.push_back(
                "warning: '" + old_name + "' (" + file_name + ", line " +
                number + ") is the deprecated old name of '" + new_path +
                "'; write 'set " + new_name + " = ...' in that subsection");
              moved_lines +=
                move_entry(lines, std::stoul(number) - 1, new_path);
              continue;
            }
          warnings.push_back("warning: '" + old_name + "' (" + file_name +
                             ", line " + number +
                             ") is the deprecated old name of '" + new_name +
                             "'; write 'set " + new_name + " = ...'");
          std::string &line     = lines[std::stoul(number) - 1];
          const auto   set      = lower(line).find("set");
          const auto   position = line.find(old_name, set + 3);
          if (set != std::string::npos && position != std::string::npos &&
              position < line.find('='))
            line.replace(position, old_name.size(), new_name);
        }
      std::string out;
      for (const auto &line : lines)
        out += line + "\n";
      return out + moved_lines;
    }



    /** The first byte of @p text that is not text, as (line, byte). */
    void
    check_text(const std::string &text, const std::string &file_name)
    {
      unsigned int line = 1;
      for (const char c : text)
        {
          const unsigned char byte = static_cast<unsigned char>(c);
          if (c == '\n')
            ++line;
          else if ((byte < 0x20 && c != '\t' && c != '\r') || byte == 0x7f)
            throw InputError("in the parameter file '" + file_name +
                             "', line " + std::to_string(line) +
                             ": the control byte " +
                             printable_excerpt(std::string(1, c)) +
                             " is not text (is this a parameter file?)");
        }
    }



    /**
     * Call @p action with every line of @p text as deal.II's
     * ParameterHandler::parse_input() reads it (trimmed, a line ending in a
     * backslash joined to the next) and the number of its first line.
     */
    void
    for_each_line(
      const std::string                                            &text,
      const std::function<void(const std::string &, unsigned int)> &action)
    {
      std::istringstream lines(text);
      std::string        line, joined;
      unsigned int       number = 0, first = 0;
      while (std::getline(lines, line))
        {
          ++number;
          line = dealii::Utilities::trim(line);
          if (joined.empty())
            first = number;
          if (!line.empty() && line.back() == '\\')
            {
              joined += line.substr(0, line.size() - 1);
              continue;
            }
          action(joined + line, first);
          joined.clear();
        }
      if (!joined.empty())
        action(joined, first);
    }



    /** A file of a chain of includes and the line that includes the next. */
    struct IncludeStep
    {
      std::string  file;
      unsigned int line;
    };



    /**
     * Follow the `include FILE` lines of @p text, the file chain.back(), as
     * deal.II will read them (FILE relative to the working directory; a
     * file that cannot be opened is left to deal.II's message), and refuse
     * a file already on the @p chain: deal.II would include it for ever.
     */
    void
    follow_includes(const std::string &text, std::vector<IncludeStep> &chain)
    {
      namespace fs       = std::filesystem;
      const auto same_as = [](const std::string &a, const std::string &b) {
        std::error_code code;
        return fs::equivalent(a, b, code);
      };
      for_each_line(text, [&](const std::string &line, unsigned int number) {
        const std::string statement =
          dealii::Utilities::trim(line.substr(0, line.find('#')));
        if (lower(statement.substr(0, 8)) != "include ")
          return;
        const std::string included =
          dealii::Utilities::trim(statement.substr(8));
        std::error_code error;
        if (fs::is_directory(included, error))
          throw InputError("in the parameter file '" + chain.back().file +
                           "', line " + std::to_string(number) + ": 'include " +
                           included +
                           "' names a directory; include a parameter file");
        if (!included.empty() && !fs::exists(included, error))
          throw InputError("in the parameter file '" + chain.back().file +
                           "', line " + std::to_string(number) +
                           ": cannot open the included file '" + included +
                           "': no such file (an included file is found "
                           "relative to the working directory)");
        std::ifstream in(included, std::ios::binary);
        if (included.empty() || !in)
          return;
        chain.back().line = number;
        for (const auto &step : chain)
          if (same_as(step.file, included))
            {
              std::string cycle;
              for (const auto &s : chain)
                cycle += "'" + s.file + "', line " + std::to_string(s.line) +
                         " includes ";
              throw InputError(
                "the parameter file '" + chain.front().file +
                "' includes itself: " + cycle + "'" + included +
                "' (deal.II would read it for ever; remove one of these "
                "include lines)");
            }
        chain.push_back({included, 0});
        follow_includes(std::string((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>()),
                        chain);
        chain.pop_back();
      });
    }
  } // namespace



  std::string
  read_parameter_file(const std::string        &file_name,
                      const DeclaredNames      &names,
                      std::vector<std::string> &warnings)
  {
    namespace fs = std::filesystem;
    std::error_code error;
    if (!fs::exists(file_name, error))
      throw InputError("cannot open the parameter file '" + file_name +
                       "': no such file");
    if (fs::is_directory(file_name, error))
      throw InputError("the parameter file '" + file_name +
                       "' is a directory, not a file");
    std::ifstream in(file_name, std::ios::binary);
    std::string   text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof())
      throw InputError("cannot read the parameter file '" + file_name + "'");
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0)
      text.erase(0, 3); // a UTF-8 byte order mark, written by some editors
    if (text.find('\r') != std::string::npos &&
        text.find('\n') == std::string::npos)
      throw InputError(
        "the parameter file '" + file_name +
        "' ends its lines with a carriage return only (classic Mac OS), "
        "which deal.II reads as one line; write it with Unix (LF) or "
        "Windows (CR LF) line ends, e.g. tr '\\r' '\\n' < " +
        file_name + " > fixed.prm");
    check_text(text, file_name);

    std::vector<IncludeStep> chain = {{file_name, 0}};
    follow_includes(text, chain);
    FileScan scan(file_name, names);
    for_each_line(text, [&scan](const std::string &line, unsigned int number) {
      scan.scan(line, number);
    });
    scan.finish();
    return with_new_names(text, scan.renamed, file_name, warnings);
  }



  DeclaredNames::DeclaredNames(const ParameterHandler &prm)
    : tree(declarations_of(prm))
  {
    collect(tree, "", entries, aliases, subsections, selections);
    for (const auto &[old_path, new_path] : moved_entries())
      if (entries.count(new_path) > 0)
        aliases[old_path] = new_path;
  }



  const ParameterTree &
  DeclaredNames::declarations() const
  {
    return tree;
  }



  void
  declare_moved_entry(const std::string &old_path, const std::string &new_path)
  {
    moved_entries()[old_path] = new_path;
  }



  std::string
  DeclaredNames::subsection_problem(const std::vector<std::string> &path) const
  {
    for (std::size_t depth = 0; depth < path.size(); ++depth)
      {
        const std::vector<std::string> parent(path.begin(),
                                              path.begin() + depth);
        const std::string              here = join(parent, path[depth]);
        if (subsections.count(here) > 0)
          continue;
        return "no subsection '" + path[depth] + "'" +
               (parent.empty() ? "" : " in subsection '" + join(parent) + "'") +
               did_you_mean(path[depth], children(subsections, join(parent)));
      }
    return "";
  }



  std::string
  DeclaredNames::entry(const std::vector<std::string> &path,
                       const std::string              &name,
                       const std::string              &where) const
  {
    const std::string problem = subsection_problem(path);
    if (!problem.empty())
      throw InputError(where + ": " + problem);
    const std::string full = join(path, name);
    if (entries.count(full) > 0)
      return full;
    const auto alias = aliases.find(full);
    if (alias != aliases.end())
      return alias->second;
    std::vector<std::string> names = children(entries, join(path));
    std::set<std::string>    alias_paths;
    for (const auto &a : aliases)
      alias_paths.insert(a.first);
    for (const auto &other : children(alias_paths, join(path)))
      names.push_back(other);
    throw InputError(where + ": no entry '" + name + "' " +
                     (path.empty() ? "at the top level" :
                                     "in subsection '" + join(path) + "'") +
                     did_you_mean(name, names));
  }



  const std::map<std::string, std::string> &
  DeclaredNames::alias_paths() const
  {
    return aliases;
  }



  bool
  DeclaredNames::is_alias(const std::string &path, std::string &canonical) const
  {
    const auto alias = aliases.find(path);
    if (alias == aliases.end())
      return false;
    canonical = alias->second;
    return true;
  }



  std::string
  DeclaredNames::value_problem(const std::string &path,
                               const std::string &value) const
  {
    const auto selection = selections.find(path);
    if (selection == selections.end())
      return "";
    const std::vector<std::string> &choices = selection->second;
    if (std::find(choices.begin(), choices.end(), value) != choices.end())
      return "";
    std::string list;
    for (const auto &choice : choices)
      list += (list.empty() ? "" : ", ") + choice;
    return "'" + path + "' is '" + printable_excerpt(value) +
           "', which is not one of its values (" + list + ")" +
           did_you_mean(value, choices);
  }



  std::string
  did_you_mean(const std::string              &name,
               const std::vector<std::string> &candidates)
  {
    std::string best;
    std::size_t best_distance = std::string::npos;
    for (const auto &candidate : candidates)
      {
        const std::size_t d = edit_distance(lower(name), lower(candidate));
        if (d < best_distance)
          {
            best          = candidate;
            best_distance = d;
          }
      }
    if (best.empty() ||
        best_distance > std::max<std::size_t>(2, name.size() / 3))
      return "";
    return "; did you mean '" + best + "'?";
  }



  std::string
  printable_excerpt(const std::string &text, const std::size_t max_length)
  {
    std::string out;
    for (const char c : text)
      {
        const unsigned char byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f)
          {
            static const char hex[] = "0123456789abcdef";
            out += std::string("\\x") + hex[byte / 16] + hex[byte % 16];
          }
        else
          out += c;
      }
    if (out.size() <= max_length)
      return out;
    return out.substr(0, max_length - 3) + "... (" +
           std::to_string(text.size()) + " characters)";
  }



  std::string
  shorten_quoted_values(const std::string &message)
  {
    // deal.II quotes values as <value>, or between spaces and line breaks.
    std::string bracketed;
    std::size_t position = 0;
    while (position < message.size())
      {
        const auto open = message.find('<', position);
        const auto close =
          open == std::string::npos ? open : message.find('>', open + 1);
        if (close == std::string::npos)
          {
            bracketed += message.substr(position);
            break;
          }
        bracketed +=
          message.substr(position, open + 1 - position) +
          printable_excerpt(message.substr(open + 1, close - open - 1)) + ">";
        position = close + 1;
      }
    std::string        out;
    std::istringstream words(bracketed);
    for (std::string word; words >> word;)
      out += (out.empty() ? "" : " ") + printable_excerpt(word);
    return out;
  }



  std::string
  short_reason(const std::string &what)
  {
    const std::string marker   = "Additional information:";
    const auto        position = what.find(marker);
    std::string       reason   = position == std::string::npos ?
                                   what :
                                   what.substr(position + marker.size());
    const auto        stack    = reason.find("Stacktrace:");
    if (stack != std::string::npos)
      reason = reason.substr(0, stack);
    std::string compact;
    bool        space = false;
    for (const char c : reason)
      {
        if (c == '\n' || c == ' ' || c == '\t')
          space = !compact.empty();
        else
          {
            if (space)
              compact += ' ';
            compact += c;
            space = false;
          }
      }
    return compact;
  }



  namespace
  {
    /**
     * Set "Subsection/Name" = @p value from the command line, once the path is
     * known to be declared (an alias stands for its entry: a warning is
     * returned).
     */
    std::string
    apply_override(ParameterHandler    &prm,
                   const DeclaredNames &names,
                   const std::string   &path,
                   const std::string   &value,
                   ParameterSource     &source)
    {
      std::vector<std::string> parts;
      std::string              part;
      std::istringstream       in(path);
      while (std::getline(in, part, '/'))
        parts.push_back(part);
      const std::string option =
        "--set \"" + path + "=" + printable_excerpt(value) + "\"";
      if (parts.empty())
        throw InputError(option + ": write \"Subsection/Name=value\"");
      const std::string name = parts.back();
      parts.pop_back();
      const std::string canonical = names.entry(parts, name, option);
      const std::string problem   = names.value_problem(canonical, value);
      if (!problem.empty())
        throw InputError(option + ": " + problem);
      std::string alias_of, warning;
      if (names.is_alias(path, alias_of))
        warning = "warning: " + option + ": '" + path +
                  "' is the deprecated old name of '" + canonical + "'";
      parts.clear();
      std::istringstream canonical_in(canonical);
      while (std::getline(canonical_in, part, '/'))
        parts.push_back(part);
      for (unsigned int i = 0; i + 1 < parts.size(); ++i)
        prm.enter_subsection(parts[i]);
      try
        {
          prm.set(parts.back(), value);
        }
      catch (std::exception &e)
        {
          for (unsigned int i = 0; i + 1 < parts.size(); ++i)
            prm.leave_subsection();
          throw InputError(option + ": " +
                           shorten_quoted_values(short_reason(e.what())) +
                           " (see stickslip --print-parameters)");
        }
      for (unsigned int i = 0; i + 1 < parts.size(); ++i)
        prm.leave_subsection();
      source.mark_command_line(canonical);
      return warning;
    }



    /**
     * The warning for an entry that the parameter file and the files it
     * includes set at several @p places (a file alone may set an entry
     * once: FileScan): deal.II keeps the last value without a word.
     */
    std::string
    repeated_setting_warning(const std::string                         &path,
                             const std::vector<ParameterSource::Place> &places)
    {
      std::string list;
      for (const auto &place : places)
        list += (list.empty() ? "" : "; ") + place.file + ", line " +
                std::to_string(place.line);
      return "warning: '" + path + "' is set " + std::to_string(places.size()) +
             " times through included files (" + list +
             "): the last one holds; set each parameter in one place";
    }



    /** The file's text to deal.II (a .json or .xml file: deal.II reads it). */
    void
    parse_file(ParameterHandler         &prm,
               const DeclaredNames      &names,
               const std::string        &file_name,
               std::vector<std::string> &warnings)
    {
      const std::string extension =
        std::filesystem::path(file_name).extension().string();
      std::string text;
      if (extension != ".json" && extension != ".xml")
        text = read_parameter_file(file_name, names, warnings);
      else if (!std::filesystem::is_regular_file(file_name))
        throw InputError("cannot open the parameter file '" + file_name +
                         "': no such file");
      try
        {
          if (extension == ".json" || extension == ".xml")
            prm.parse_input(file_name, "", false);
          else
            {
              std::istringstream in(text);
              prm.parse_input(in, file_name, "", false);
            }
        }
      catch (std::exception &e)
        {
          throw InputError("in the parameter file '" + file_name + "': " +
                           shorten_quoted_values(short_reason(e.what())) +
                           " (see stickslip --print-parameters for every "
                           "parameter and its allowed values)");
        }
    }
  } // namespace



  ParameterSource
  read_parameters(const CommandLine        &line,
                  ParameterHandler         &prm,
                  const DeclaredNames      &names,
                  const ConditionalOStream &pcout)
  {
    std::vector<std::string> warnings;
    parse_file(prm, names, line.parameter_file, warnings);
    for (const auto &warning : warnings)
      pcout << warning << std::endl;
    ParameterSource source(line.parameter_file);
    source.use_entry_names(names.alias_paths());
    for (const auto &[path, places] : source.file_places())
      if (places.size() > 1)
        pcout << repeated_setting_warning(path, places) << std::endl;
    for (const auto &assignment : line.overrides)
      {
        const std::string warning = apply_override(
          prm, names, assignment.first, assignment.second, source);
        if (!warning.empty())
          pcout << warning << std::endl;
      }
    prm.enter_subsection("Output");
    if (!line.resume_directory.empty())
      // The run continues in its own directory, whatever the file says.
      prm.set("Directory", line.resume_directory);
    if (line.quiet)
      prm.set("Quiet", true);
    prm.leave_subsection();
    return source;
  }
} // namespace stickslip
