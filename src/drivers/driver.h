#ifndef stickslip_drivers_driver_h
#define stickslip_drivers_driver_h

#include <deal.II/base/parameter_handler.h>

#include <base/output_files.h>
#include <base/run_parameters.h>
#include <drivers/reference_solution.h>
#include <models/common/model.h>
#include <time/time_integrator.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * Runs a model: a single run or a convergence study over the list
   * Time/Convergence time steps, with errors against the exact solution or a
   * fine reference run (Time/Reference time step). Writes parameters.prm,
   * history.csv (of the finest run), errors.csv and, for field models,
   * solution.pvd with its PVTU/VTU files, the CSV and PVD files atomically,
   * and only after every input check has passed.
   */
  class Driver
  {
  public:
    Driver(const Parameters::Run &   run,
           const ParameterSource &   source,
           const Model &             model,
           const ParameterHandler &  prm,
           const ConditionalOStream &pcout);

    /** Do everything; throws on divergence or solver failure. */
    void
    run();

    /**
     * Continue the run from the newest complete snapshot in the output
     * directory instead of starting at t0 (call before run()).
     */
    void
    resume_from_snapshot();

  private:
    /** Errors of one run (NaN where not measured). */
    struct StepSizeErrors
    {
      double dt;
      double displacement_l2, velocity_l2, multiplier_l2;
      double displacement_max, velocity_max;
    };

    /**
     * One run with step @p dt by @p integrator. Measures errors against
     * @p reference (may be null), records into @p recording (may be null),
     * fills @p history (and writes field output) when not null.
     */
    StepSizeErrors
    simulate(const double             dt,
             TimeIntegrator &         integrator,
             const ReferenceSolution *reference,
             RecordedReference *      recording,
             CsvTable *               history);

    /** Squared norm of @p error: Euclidean, or weighted by the model. */
    double
    norm_squared(const DistributedVector &error) const;

    /** Write the fields of @p state and rewrite solution.pvd. */
    void
    write_fields(const double t, const FrictionState &state);

    void
    report_errors(const std::vector<StepSizeErrors> &errors) const;

    /** Output/Checkpoint interval or Checkpoint wall interval is set. */
    bool
    checkpoints_enabled() const;

    /** The driver's part of a snapshot: dt, field outputs, history rows. */
    std::string
    snapshot_meta(const double dt, const CsvTable &history) const;

    /** Read back what snapshot_meta() wrote. */
    void
    restore_meta(const std::string &meta, const double dt, CsvTable &history);

    const Parameters::Run &   parameters;
    const ParameterSource &   source;
    const Model &             model;
    const ParameterHandler &  prm;
    const ConditionalOStream &pcout;
    OutputDirectory           output;
    bool                      resume = false;
    /** (time, record file) of every field output, for solution.pvd. */
    std::vector<std::pair<double, std::string>> field_outputs;
  };
} // namespace stickslip

#endif
