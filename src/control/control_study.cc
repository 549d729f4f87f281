#include <base/memory_stage.h>
#include <control/control_driver.h>
#include <control/control_study.h>
#include <drivers/friction_study.h>

namespace stickslip
{
  void
  declare_all_parameters(ParameterHandler &prm)
  {
    declare_model_parameters(prm);
    ControlParameters::declare_parameters(prm);
  }



  std::unique_ptr<Study>
  create_study(const ModelEntry         &model,
               const Parameters::Run    &parameters,
               ParameterHandler         &prm,
               const ParameterSource    &source,
               const MPI_Comm            comm,
               const ConditionalOStream &pcout,
               TimerOutput              &timer)
  {
    TimerOutput::Scope scope(timer, "set-up");
    const MemoryStage  stage("setting up the model");
    if (!ControlParameters::enabled_in(prm))
      return model.make_study({parameters, prm, source, comm, pcout, timer});
    if (!model.make_controlled_model)
      {
        std::string names;
        for (const auto &other : registered_models())
          if (other.make_controlled_model)
            names += (names.empty() ? "" : " or ") + other.name;
        throw_bad_parameter(source,
                            "Control/Enabled",
                            "true",
                            "the control problem of Glowinski & Kearsley "
                            "1995 is for the finite-dof models (Model = " +
                              names + ")");
      }
    auto controlled = make_checked_model(
      model.make_controlled_model, parameters, prm, source, comm);
    ControlParameters control;
    control.parse(prm, source, controlled->system().size(), comm);
    const auto factory = [&](const MPI_Comm group) {
      return model.make_controlled_model(parameters, prm, source, group);
    };
    auto study = std::make_unique<ControlDriver>(parameters,
                                                 control,
                                                 source,
                                                 factory,
                                                 std::move(controlled),
                                                 pcout,
                                                 timer,
                                                 comm);
    // A search's snapshots follow its iterations, not the time steps.
    check_output_intervals(parameters, source, pcout, false);
    return study;
  }
} // namespace stickslip
