#include <drivers/spring_slider_study.h>

namespace stickslip
{
  SpringSliderStudy::SpringSliderStudy(const Parameters::Run        &parameters,
                                       const SpringSliderParameters &slider,
                                       const ParameterSource        &source,
                                       const ConditionalOStream     &pcout,
                                       TimerOutput                  &timer)
    : parameters(parameters)
    , pcout(pcout)
    , timer(timer)
    , evolution(slider, source)
    , grid{parameters.time.initial_time,
           parameters.time.time_step,
           parameters.time.n_steps(parameters.time.time_step, source)}
  {
    if (!parameters.time.convergence_time_steps.empty())
      throw_bad_parameter(source,
                          "Time/Convergence time steps",
                          "",
                          "Model = spring-slider runs one time step (its "
                          "order in time is measured by tests/friction/)");
  }



  void
  SpringSliderStudy::run(RunDirectory &directory, const bool resume)
  {
    if (!resume)
      directory.start_fresh();
    pcout << "stickslip: " << evolution.description() << '\n'
          << "  output: " << directory.file("") << std::endl;
    RunLoop loop(directory, parameters.output, pcout, timer);
    loop.run(evolution, grid, nullptr, resume);
    pcout << "  wrote " << directory.file("history.csv") << std::endl;
  }
} // namespace stickslip
