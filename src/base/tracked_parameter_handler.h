#ifndef stickslip_base_tracked_parameter_handler_h
#define stickslip_base_tracked_parameter_handler_h

#include <deal.II/base/parameter_handler.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * deal.II's ParameterHandler that records which entries a run reads.
   *
   * Inside namespace stickslip this class hides dealii::ParameterHandler,
   * so every parse() of every model and harness reads through it without a
   * change: what a run uses is then known from what its parse functions
   * actually read, not from a list kept by hand beside them. An entry the
   * user set (parameter file, include or --set) that nothing read has no
   * effect on the run: it is reported as a warning and marked in
   * parameters.prm (report_unread_entries(), drivers/model_registry.h).
   *
   * Code that reads values to report them rather than to use them (the
   * listings of parameters.prm and of --print-parameters) takes a
   * dealii::ParameterHandler, whose reads are not recorded.
   */
  class ParameterHandler : public dealii::ParameterHandler
  {
  public:
    /** As deal.II's, keeping the path of the current subsection. */
    void
    enter_subsection(const std::string &subsection);

    /** As deal.II's, keeping the path of the current subsection. */
    void
    leave_subsection();

    /** @{ As deal.II's, recording the entry as read. */
    std::string
    get(const std::string &entry) const;
    std::string
    get(const std::vector<std::string> &subsections,
        const std::string              &entry) const;
    long int
    get_integer(const std::string &entry) const;
    double
    get_double(const std::string &entry) const;
    bool
    get_bool(const std::string &entry) const;
    /** @} */

    /** Every entry read so far, as "Subsection/Name" paths. */
    const std::set<std::string> &
    entries_read() const;

    /**
     * Say why the entries of subsection @p subsection (a path relative to
     * the current subsection; "" for the current subsection itself) or the
     * entry of that name are not read by this run, for a message that
     * names the setting that made them unused ("Law = rate-and-state does
     * not use it"). The parse function that decides not to read them calls
     * it.
     */
    void
    explain_unread(const std::string &subsection, const std::string &reason);

    /**
     * Count the entries read so far in subsection @p subsection (relative
     * to the current one; "" for the current one) as not used, for the
     * @p reason given: for a part that the parse function reads and checks
     * whatever it is set to, but that the run then leaves aside (the
     * contact of a body without a contact boundary). A later read of an
     * entry counts it as used again.
     */
    void
    mark_unused(const std::string &subsection, const std::string &reason);

    /**
     * The reason explain_unread() or mark_unused() gave for @p path
     * ("Sub/Name") or for the innermost subsection holding it; "" if none was
     * given.
     */
    std::string
    unread_reason(const std::string &path) const;

  private:
    /** "Sub/Sub/entry" of @p entry in the current subsection. */
    std::string
    full_path(const std::string &entry) const;

    std::vector<std::string>           current_path;
    mutable std::set<std::string>      read;
    std::map<std::string, std::string> reasons;
  };
} // namespace stickslip

#endif
