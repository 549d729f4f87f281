#ifndef stickslip_control_control_study_h
#define stickslip_control_control_study_h

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/timer.h>

#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <drivers/model_registry.h>
#include <drivers/run_parameters.h>
#include <drivers/study.h>

#include <memory>

namespace stickslip
{
  /**
   * Declare every parameter of a run: the models' (declare_model_parameters())
   * and Control.
   */
  void
  declare_all_parameters(ParameterHandler &prm);

  /**
   * The study of a run of @p model, every input checked (collective): with
   * Control/Enabled, the control search of Glowinski & Kearsley 1995 over
   * the model's friction systems (a ControlDriver, for the models whose
   * entry has make_controlled_model); else the model's own study.
   */
  std::unique_ptr<Study>
  create_study(const ModelEntry         &model,
               const Parameters::Run    &parameters,
               ParameterHandler         &prm,
               const ParameterSource    &source,
               const MPI_Comm            comm,
               const ConditionalOStream &pcout,
               TimerOutput              &timer);
} // namespace stickslip

#endif
