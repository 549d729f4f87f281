#ifndef stickslip_drivers_finite_dof_driver_h
#define stickslip_drivers_finite_dof_driver_h

#include <deal.II/base/parameter_handler.h>

#include <base/output_files.h>
#include <base/run_parameters.h>
#include <drivers/reference_solution.h>
#include <models/common/finite_dof_model.h>
#include <time/time_integrator.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * Runs a finite-dof model: a single run or a convergence study over the
   * list Time/Convergence time steps, with errors against the exact
   * solution or a fine reference run (Time/Reference time step). Writes
   * parameters.prm, history.csv (of the finest run) and errors.csv, all
   * atomically, and only after every input check has passed.
   */
  class FiniteDofDriver
  {
  public:
    FiniteDofDriver(const Parameters::Run &   run,
                    const ParameterSource &   source,
                    const FiniteDofModel &    model,
                    const ParameterHandler &  prm,
                    const ConditionalOStream &pcout);

    /** Do everything; throws on divergence or solver failure. */
    void
    run();

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
     * fills @p history when not null.
     */
    StepSizeErrors
    simulate(const double             dt,
             TimeIntegrator &         integrator,
             const ReferenceSolution *reference,
             RecordedReference *      recording,
             CsvTable *               history);

    std::vector<std::string>
    history_columns() const;

    void
    append_history_row(CsvTable &               history,
                       const double             t,
                       const FrictionState &    state,
                       const bool               has_multiplier,
                       const unsigned long      iterations) const;

    void
    report_errors(const std::vector<StepSizeErrors> &errors) const;

    const Parameters::Run &   parameters;
    const ParameterSource &   source;
    const FiniteDofModel &    model;
    const ParameterHandler &  prm;
    const ConditionalOStream &pcout;
    OutputDirectory           output;
  };
} // namespace stickslip

#endif
