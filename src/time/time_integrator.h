#ifndef stickslip_time_time_integrator_h
#define stickslip_time_time_integrator_h

#include <base/checkpoint.h>
#include <base/global.h>
#include <base/input_error.h>
#include <base/time_grid.h>
#include <friction/friction_state.h>
#include <friction/friction_system.h>
#include <time/inclusion_form.h>
#include <time/time_parameters.h>

#include <memory>
#include <string>

namespace stickslip
{
  /** Work counters of a time integrator. */
  struct IntegratorStatistics
  {
    unsigned long friction_solves     = 0;
    unsigned long friction_iterations = 0;
    /**
     * This rank's part of the friction work sum_p tau sum_i c_i lambda_i^p
     * w_i^p done so far (sum over ranks for the total).
     */
    double local_dissipated_energy = 0;
  };



  /** Advances a FrictionSystem by one time step. */
  class TimeIntegrator
  {
  public:
    virtual ~TimeIntegrator() = default;

    /**
     * From step.time = t_n to step.next_time = t_{n+1} (step.size = dt);
     * data at the end of the step are read at step.next_time exactly.
     */
    virtual void
    advance(const TimeStep &step, FrictionState &state) = 0;

    /** One line for the log. */
    virtual std::string
    description() const = 0;

    /**
     * Register what carries over from one step to the next besides the
     * FrictionState (warm starts, the previous level of a two-step scheme),
     * for snapshots.
     */
    virtual void
    register_state(CheckpointArchive &archive);

    /** Whether a run with this integrator can be resumed exactly. */
    virtual bool
    supports_checkpoints() const;

    /**
     * The likely causes of a run that diverged with this scheme, for the
     * message that stops it (the parameters to look at).
     */
    virtual std::string
    divergence_causes() const;

    IntegratorStatistics statistics;
  };



  /**
   * Build the integrator of Time/Scheme for @p system and step @p dt.
   * @p inclusion_form is the model's form (A.7) of Bastien & Lamarque 2009, or
   * nullptr if it has none (then Time/Scheme = implicit euler is an error).
   * Checks that depend on dt (elastic stability, rho range) throw InputErrors
   * here, before anything is written.
   */
  std::unique_ptr<TimeIntegrator>
  create_time_integrator(const Parameters::Numerics &numerics,
                         const FrictionSystem       &system,
                         const ParameterSource      &source,
                         const double                dt,
                         const InclusionForm        *inclusion_form);
} // namespace stickslip

#endif
