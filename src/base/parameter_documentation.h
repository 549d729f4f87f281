#ifndef stickslip_base_parameter_documentation_h
#define stickslip_base_parameter_documentation_h

#include <deal.II/base/parameter_handler.h>

#include <base/global.h>

#include <ostream>
#include <string>

namespace stickslip
{
  /**
   * Every declared parameter with its default, its allowed values (the
   * pattern) and its documentation, read from deal.II's own JSON
   * description of @p prm. As a parameter file (comments, then `set`), or
   * as the Markdown tables of doc/parameters.md, which README.md points to
   * and a test keeps identical to this output.
   */
  void
  print_parameter_documentation(const ParameterHandler &prm,
                                std::ostream           &out,
                                const bool              markdown);

  /**
   * A name as deal.II's JSON output writes it (characters other than
   * letters and digits as _xx, their hex code) turned back into the name.
   */
  std::string
  demangle_json_name(const std::string &name);
} // namespace stickslip

#endif
