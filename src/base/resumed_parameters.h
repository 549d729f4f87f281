#ifndef stickslip_base_resumed_parameters_h
#define stickslip_base_resumed_parameters_h

#include <base/input_error.h>

#include <map>
#include <string>

namespace stickslip
{
  /**
   * A resumed run must continue the run it resumes: the parameters it is
   * given are compared with the parameters.prm that run wrote in
   * @p directory, and any difference that changes the results (a time step,
   * a mesh, a solver, the output rows) is an InputError naming the
   * parameter, both values and where this run set it. Only where the output
   * goes, how often snapshots are taken and how much is printed may differ,
   * and the final time (a run taken further) outside a control search,
   * where it is part of the problem. Numbers are compared as numbers, so
   * 1e-3 and 0.001 agree, and other values (expressions above all) without
   * the spaces that separate nothing, so `i==1 ? 3 : 0` and `i == 1 ? 3 :
   * 0` agree while `x*2` and `2*x`, or `a b` and `ab`, differ.
   * @p parameters: this run's parameters as its parameters.prm will hold
   * them (a listing of `subsection`, `set` and `end` lines).
   */
  void
  check_resumed_parameters(const std::string     &parameters,
                           const ParameterSource &source,
                           const std::string     &directory);

  /**
   * The values of a parameter listing as parameters.prm holds it
   * (`subsection`, `set` and `end` lines), by "Subsection/Name".
   */
  std::map<std::string, std::string>
  parameter_listing_values(const std::string &listing);
} // namespace stickslip

#endif
