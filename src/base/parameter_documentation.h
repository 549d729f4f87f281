#ifndef stickslip_base_parameter_documentation_h
#define stickslip_base_parameter_documentation_h

#include <deal.II/base/parameter_handler.h>

#include <boost/property_tree/ptree.hpp>

#include <base/global.h>

#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The declarations of a ParameterHandler as deal.II's JSON output
   * describes them, read back into a tree: each entry with its
   * documentation, pattern and default, the aliases, the subsections.
   */
  using ParameterTree = boost::property_tree::ptree;

  /**
   * The tree of @p prm's declarations. It depends on the code only, so a
   * process makes it once (DeclaredNames keeps it): deal.II writes every
   * declaration out and reads it back for it, about 3e7 instructions.
   */
  ParameterTree
  declarations_of(const dealii::ParameterHandler &prm);

  /**
   * Which parameters print_parameter_listing() writes, and how.
   */
  struct ParameterListing
  {
    /** The top-level subsections written (every one if empty). */
    std::vector<std::string> subsections;
    /**
     * Entries ("Sub/Name") left out: those a model never reads (Dimension
     * of a model without one, Time/Scheme of a model with its own).
     */
    std::set<std::string> omitted_entries;
    /**
     * Entries ("Sub/Name") written commented out in a parameter file, so
     * that a run of it leaves them to the model (see ModelEntry).
     */
    std::set<std::string> unset_entries;
    /**
     * Write the values the handler holds (a template, a run's parameters,
     * each marked "# default: ..." where it differs); else the defaults of
     * the declarations.
     */
    bool values = false;
    /**
     * Entries ("Sub/Name") a run did not use, with why: in a parameter
     * file, each one's `set` line is followed by "# not used by this run:
     * WHY" (a run's parameters.prm).
     */
    std::map<std::string, std::string> unused_entries;
    /** The lines written before the parameters (comments, or Markdown). */
    std::string header;
  };

  /**
   * The parameters of @p prm (declared as @p declarations describes them)
   * selected by @p listing: as a parameter file (@p format "": each entry's
   * documentation and allowed values as comments, then `set`), as Markdown
   * tables ("markdown": doc/parameters.md, which a test keeps identical to
   * this output) or as deal.II's JSON ("json"). The values are read
   * through deal.II's class: a listing reports them, it does not use them
   * (stickslip::ParameterHandler).
   */
  void
  print_parameter_listing(const ParameterTree            &declarations,
                          const dealii::ParameterHandler &prm,
                          std::ostream                   &out,
                          const std::string              &format,
                          const ParameterListing         &listing);

  /**
   * A name as deal.II's JSON output writes it (characters other than
   * letters and digits as _xx, their hex code) turned back into the name.
   */
  std::string
  demangle_json_name(const std::string &name);
} // namespace stickslip

#endif
