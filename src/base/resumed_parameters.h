#ifndef stickslip_base_resumed_parameters_h
#define stickslip_base_resumed_parameters_h

#include <deal.II/base/parameter_handler.h>

#include <base/input_error.h>

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
   * 1e-3 and 0.001 agree.
   */
  void
  check_resumed_parameters(const dealii::ParameterHandler &prm,
                           const ParameterSource          &source,
                           const std::string              &directory);
} // namespace stickslip

#endif
