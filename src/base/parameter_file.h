#ifndef stickslip_base_parameter_file_h
#define stickslip_base_parameter_file_h

#include <base/command_line.h>
#include <base/global.h>
#include <base/input_error.h>
#include <base/parameter_documentation.h>
#include <base/tracked_parameter_handler.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The names a ParameterHandler declares: its entries, their aliases and
   * its subsections, as "Subsection/Name" paths. The parameter file and the
   * command line's --set are checked against them before deal.II reads
   * them, so that a misspelled name gets a "did you mean" suggestion and a
   * wrong subsection is named as such.
   */
  class DeclaredNames
  {
  public:
    explicit DeclaredNames(const ParameterHandler &prm);

    /**
     * The canonical path of entry @p name in subsection @p subsections (an
     * alias is replaced by the entry it stands for); an InputError whose
     * message starts with @p where if there is no such entry or subsection.
     */
    std::string
    entry(const std::vector<std::string> &subsections,
          const std::string              &name,
          const std::string              &where) const;

    /** "" if @p subsections names a declared subsection, else the reason. */
    std::string
    subsection_problem(const std::vector<std::string> &subsections) const;

    /** @p path ("Sub/Name") is an alias; then @p canonical is its entry. */
    bool
    is_alias(const std::string &path, std::string &canonical) const;

    /** Every alias path with the path of its entry. */
    const std::map<std::string, std::string> &
    alias_paths() const;

    /**
     * "" if @p value is allowed for the entry @p path ("Sub/Name", its
     * canonical name), else why not: the value of an entry with a
     * Patterns::Selection must be one of its choices (named, with a "did
     * you mean" for a near miss); other patterns are left to deal.II.
     */
    std::string
    value_problem(const std::string &path, const std::string &value) const;

    /** The declarations, for listings (print_parameter_listing()). */
    const ParameterTree &
    declarations() const;

  private:
    ParameterTree                                   tree;
    std::set<std::string>                           entries;
    std::map<std::string, std::string>              aliases;
    std::set<std::string>                           subsections;
    std::map<std::string, std::vector<std::string>> selections;
  };



  /**
   * Declare that the entry @p old_path ("Slab/Static friction coefficient")
   * moved to @p new_path in another subsection ("Slab/Friction law/Static
   * friction coefficient"): a deprecated old name across subsections, which
   * deal.II's declare_alias() cannot express. Called while the parameters
   * are declared (the list depends on the code only); DeclaredNames then
   * treats @p old_path as an alias of @p new_path, so that a parameter
   * file's line and --set with the old name set the new entry, with a
   * warning.
   */
  void
  declare_moved_entry(const std::string &old_path, const std::string &new_path);



  /**
   * "; did you mean 'X'?" for the candidate closest to @p name (case
   * ignored, by edit distance), or "" if none is close.
   */
  std::string
  did_you_mean(const std::string              &name,
               const std::vector<std::string> &candidates);



  /**
   * Read and check the parameter file @p file_name: it must be a readable
   * text file that sets something, every subsection it opens must be
   * declared and closed by an `end`, every entry must be declared and set
   * at most once. A UTF-8 byte order mark is dropped, and a deprecated old
   * name (an alias) is replaced by its entry's name with a line in
   * @p warnings (the line of an entry that moved to another subsection,
   * declare_moved_entry(), is set at the end of the text, inside that
   * subsection, so that the lines keep their numbers). The files it
   * includes (`include FILE`, read by deal.II relative to the working
   * directory) are followed: a file that includes itself, directly or
   * through others, is an InputError naming the chain of files and lines.
   * Returns the text for
   * ParameterHandler::parse_input(); throws an InputError naming the line.
   */
  std::string
  read_parameter_file(const std::string        &file_name,
                      const DeclaredNames      &names,
                      std::vector<std::string> &warnings);

  /**
   * @p text as it can be shown in a message: bytes that are not printable
   * written as \xNN, and cut to about @p max_length characters.
   */
  std::string
  printable_excerpt(const std::string &text, const std::size_t max_length = 80);

  /** Every <...> of a deal.II message shortened by printable_excerpt(). */
  std::string
  shorten_quoted_values(const std::string &message);

  /**
   * The text after "Additional information:" of a deal.II exception's
   * what(), without its stack trace, on one line.
   */
  std::string
  short_reason(const std::string &what);

  /**
   * Read the parameter file of @p line and its --set options into @p prm,
   * whose declarations @p names lists (checked against them first, so that
   * every mistake names its line or option); the warnings (deprecated
   * names) go to @p out. --resume's directory and --quiet are set in
   * Output. Returns where each parameter was set.
   */
  ParameterSource
  read_parameters(const CommandLine        &line,
                  ParameterHandler         &prm,
                  const DeclaredNames      &names,
                  const ConditionalOStream &out);
} // namespace stickslip

#endif
