#include <base/tracked_parameter_handler.h>

namespace stickslip
{
  void
  ParameterHandler::enter_subsection(const std::string &subsection)
  {
    dealii::ParameterHandler::enter_subsection(subsection);
    current_path.push_back(subsection);
  }



  void
  ParameterHandler::leave_subsection()
  {
    dealii::ParameterHandler::leave_subsection();
    current_path.pop_back();
  }



  std::string
  ParameterHandler::full_path(const std::string &entry) const
  {
    std::string path;
    for (const auto &subsection : current_path)
      path += subsection + "/";
    return path + entry;
  }



  std::string
  ParameterHandler::get(const std::string &entry) const
  {
    const std::string value = dealii::ParameterHandler::get(entry);
    read.insert(full_path(entry));
    return value;
  }



  std::string
  ParameterHandler::get(const std::vector<std::string> &subsections,
                        const std::string              &entry) const
  {
    const std::string value = dealii::ParameterHandler::get(subsections, entry);
    std::string       relative;
    for (const auto &subsection : subsections)
      relative += subsection + "/";
    read.insert(full_path(relative + entry));
    return value;
  }



  long int
  ParameterHandler::get_integer(const std::string &entry) const
  {
    const long int value = dealii::ParameterHandler::get_integer(entry);
    read.insert(full_path(entry));
    return value;
  }



  double
  ParameterHandler::get_double(const std::string &entry) const
  {
    const double value = dealii::ParameterHandler::get_double(entry);
    read.insert(full_path(entry));
    return value;
  }



  bool
  ParameterHandler::get_bool(const std::string &entry) const
  {
    const bool value = dealii::ParameterHandler::get_bool(entry);
    read.insert(full_path(entry));
    return value;
  }



  const std::set<std::string> &
  ParameterHandler::entries_read() const
  {
    return read;
  }



  void
  ParameterHandler::explain_unread(const std::string &subsection,
                                   const std::string &reason)
  {
    std::string path = full_path(subsection);
    if (!path.empty() && path.back() == '/')
      path.pop_back();
    reasons[path] = reason;
  }



  void
  ParameterHandler::mark_unused(const std::string &subsection,
                                const std::string &reason)
  {
    std::string prefix = full_path(subsection);
    if (!prefix.empty() && prefix.back() != '/')
      prefix += '/';
    const auto inside = [&prefix](const std::string &path) {
      return path.compare(0, prefix.size(), prefix) == 0;
    };
    for (auto entry = read.begin(); entry != read.end();)
      entry = inside(*entry) ? read.erase(entry) : std::next(entry);
    // This reason is the one that counts for everything inside.
    for (auto entry = reasons.begin(); entry != reasons.end();)
      entry = inside(entry->first) ? reasons.erase(entry) : std::next(entry);
    explain_unread(subsection, reason);
  }



  std::string
  ParameterHandler::unread_reason(const std::string &path) const
  {
    // The entry itself, then each enclosing subsection, innermost first.
    for (std::string prefix = path;;)
      {
        const auto reason = reasons.find(prefix);
        if (reason != reasons.end())
          return reason->second;
        const auto slash = prefix.rfind('/');
        if (slash == std::string::npos)
          return "";
        prefix.erase(slash);
      }
  }
} // namespace stickslip
