#ifndef stickslip_drivers_spring_slider_study_h
#define stickslip_drivers_spring_slider_study_h

#include <deal.II/base/timer.h>

#include <drivers/model_registry.h>
#include <drivers/run_loop.h>
#include <drivers/run_parameters.h>
#include <drivers/study.h>
#include <models/spring_slider/spring_slider_evolution.h>

namespace stickslip
{
  /**
   * A run of the spring-slider (Model = spring-slider, doc/theory.md §8.5)
   * through the RunLoop: one block on a friction law of the friction-law
   * component, pulled through a spring or moved at a prescribed
   * displacement.
   */
  class SpringSliderStudy : public Study
  {
  public:
    /** Check every parameter (InputError if bad). */
    SpringSliderStudy(const Parameters::Run        &parameters,
                      const SpringSliderParameters &slider,
                      const ParameterSource        &source,
                      const ConditionalOStream     &pcout,
                      TimerOutput                  &timer);

    void
    run(RunDirectory &directory, const bool resume) override;

  private:
    const Parameters::Run     parameters;
    const ConditionalOStream &pcout;
    TimerOutput              &timer;
    SpringSliderEvolution     evolution;
    const TimeGrid            grid;
  };



  /** The entry of the spring-slider in the model registry (model_registry.cc).
   */
  ModelEntry
  spring_slider_model();
} // namespace stickslip

#endif
