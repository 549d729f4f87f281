#ifndef stickslip_drivers_friction_study_h
#define stickslip_drivers_friction_study_h

#include <deal.II/base/timer.h>

#include <drivers/model_registry.h>
#include <drivers/run_loop.h>
#include <drivers/run_parameters.h>
#include <drivers/study.h>
#include <models/common/model.h>
#include <time/time_integrator.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * A friction-system model (ode, gearbox, string, membrane, chain) run
   * once, or in a convergence study over the list Time/Convergence time
   * steps, with errors against the exact solution or against a fine
   * reference run (Time/Reference time step). Every run goes through the
   * RunLoop; the finest writes history.csv and the fields, and the study
   * writes errors.csv with the observed orders.
   */
  class FrictionStudy : public Study
  {
  public:
    /**
     * Build every integrator (their checks, such as stability and the rho
     * range, fail here, before anything is written).
     */
    FrictionStudy(const Parameters::Run    &parameters,
                  std::unique_ptr<Model>    model,
                  const ParameterSource    &source,
                  const ConditionalOStream &pcout,
                  TimerOutput              &timer);

    ~FrictionStudy() override;

    void
    run(RunDirectory &directory, const bool resume) override;

    /**
     * A single run with the step Time/Time step into the already started
     * @p directory, without snapshots (the controlled run after a control
     * search).
     */
    void
    run_once(RunDirectory &directory);

    /** The model (to set a control force before run_once()). */
    Model &
    model();

  private:
    /** Errors of one run (NaN where not measured). */
    struct StepSizeErrors
    {
      double dt;
      double displacement_l2, velocity_l2, multiplier_l2;
      double displacement_max, velocity_max;
    };

    class ErrorObserver;
    class RecordingObserver;

    /** Snapshots and --resume are for single runs of resumable schemes. */
    void
    check_snapshots_allowed(const bool resume) const;

    /** Run number @p i of the study (through @p loop). */
    StepSizeErrors
    run_step_size(RunLoop                 &loop,
                  const unsigned int       i,
                  const bool               with_outputs,
                  const bool               resume,
                  const ReferenceSolution *reference);

    /** The fine reference run, recorded at every step. */
    void
    run_reference(RunLoop &loop);

    /** The error table on screen and in errors.csv. */
    void
    report_errors(const std::vector<StepSizeErrors> &errors,
                  const OutputDirectory             &directory) const;

    const Parameters::Run                        parameters;
    std::unique_ptr<Model>                       friction_model;
    const ParameterSource                       &source;
    const ConditionalOStream                    &pcout;
    TimerOutput                                 &timer;
    std::vector<double>                          time_steps;
    std::vector<std::unique_ptr<TimeIntegrator>> integrators;
    std::unique_ptr<TimeIntegrator>              reference_integrator;
    std::unique_ptr<ReferenceSolution>           recorded_reference;
  };



  /**
   * The model of a friction-system run, made by @p make_model once the time
   * steps are checked, with its initial data checked (collective).
   */
  std::unique_ptr<Model>
  make_checked_model(const ModelEntry::ModelFactory &make_model,
                     const Parameters::Run          &parameters,
                     ParameterHandler               &prm,
                     const ParameterSource          &source,
                     const MPI_Comm                  comm);

  /**
   * Warn on @p pcout about an output interval that is not a multiple of
   * each time step of the run (and, with @p checkpoints, a snapshot
   * interval); after the scheme's own checks, which come first.
   */
  void
  check_output_intervals(const Parameters::Run    &parameters,
                         const ParameterSource    &source,
                         const ConditionalOStream &pcout,
                         const bool                checkpoints);

  /**
   * The entries of the model registry (model_registry.cc) for the models
   * that are friction systems: each runs as a FrictionStudy.
   */
  ModelEntry
  ode_model();
  ModelEntry
  gearbox_model();
  ModelEntry
  string_model();
  ModelEntry
  chain_model();
} // namespace stickslip

#endif
