#ifndef stickslip_drivers_body_study_h
#define stickslip_drivers_body_study_h

#include <deal.II/base/timer.h>

#include <drivers/model_registry.h>
#include <drivers/run_loop.h>
#include <drivers/run_parameters.h>
#include <drivers/study.h>
#include <models/body/body_parameters.h>
#include <models/common/evolution.h>

#include <memory>

namespace stickslip
{
  /**
   * A run of the elastic body in frictional contact (Model = body,
   * Dimension 2 or 3) through the RunLoop: the constructor builds the
   * discretization and checks every input, the CFL limit of the explicit
   * scheme among them, before the output directory is touched.
   */
  class BodyStudy : public Study
  {
  public:
    /** Check every parameter (collective; InputError if bad). */
    BodyStudy(const Parameters::Run      &parameters,
              const Body::BodyParameters &body,
              const ParameterSource      &source,
              const MPI_Comm              comm,
              const ConditionalOStream   &pcout,
              TimerOutput                &timer);

    void
    run(RunDirectory &directory, const bool resume) override;

  private:
    /**
     * Refuse a time step above the stability limit @p stable_step, naming
     * the limit and its form C h_min/c2.
     */
    void
    check_time_step(const double                stable_step,
                    const double                smallest_cell,
                    const Body::BodyParameters &body,
                    const ParameterSource      &source) const;

    const Parameters::Run parameters;
    /** What the run writes besides history.csv: a contact surface, and
     * the implicit schemes' table of its nodes. */
    const bool                 has_contact, writes_contact_nodes;
    const ConditionalOStream  &pcout;
    TimerOutput               &timer;
    std::unique_ptr<Evolution> evolution;
    TimeGrid                   grid;
  };



  /** The entry of the elastic body in the model registry (model_registry.cc).
   */
  ModelEntry
  body_model();
} // namespace stickslip

#endif
