#ifndef stickslip_base_selection_h
#define stickslip_base_selection_h

#include <base/input_error.h>

#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * The enum value named by @p name among @p choices (the names of a
   * Patterns::Selection). A name that is not among them is an error naming
   * @p path, never a silent default: ParameterHandler has already checked
   * the pattern, so this catches a choice that was added to the pattern but
   * not to the code.
   */
  template <typename Enum>
  Enum
  parse_selection(const std::string                               &name,
                  const std::vector<std::pair<std::string, Enum>> &choices,
                  const std::string                               &path)
  {
    std::string allowed;
    for (const auto &choice : choices)
      {
        if (choice.first == name)
          return choice.second;
        allowed += (allowed.empty() ? "" : "|") + choice.first;
      }
    throw InputError("parameter '" + path + "' has the value '" + name +
                     "', but it must be one of " + allowed);
  }
} // namespace stickslip

#endif
