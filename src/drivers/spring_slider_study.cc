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
    , grid(parameters.time.grid(parameters.time.time_step, source))
  {
    if (!parameters.time.convergence_time_steps.empty())
      throw_bad_parameter(source,
                          "Time/Convergence time steps",
                          parameters.time.convergence_time_steps_text,
                          "Model = spring-slider runs one time step (Time/"
                          "Time step, the sampling of its adaptive "
                          "integrator): leave it empty (its order in time "
                          "is measured by tests/friction/)");
    evolution.check_initial_state(grid.t0);
  }



  void
  SpringSliderStudy::run(RunDirectory &directory, const bool resume)
  {
    if (!resume)
      directory.start_fresh();
    pcout << "stickslip: " << evolution.description() << '\n'
          << "  output: " << directory.file("") << std::endl;
    evolution.set_events_file(directory.file("events.csv"));
    RunLoop loop(directory, parameters.output, pcout, timer);
    loop.run(evolution, grid, nullptr, resume);
    pcout << "  wrote " << directory.file("history.csv") << std::endl;
  }



  ModelEntry
  spring_slider_model()
  {
    ModelEntry entry;
    entry.name               = "spring-slider";
    entry.description        = "a block pulled through a spring over a "
                               "surface with a friction law with a state, "
                               "Rice & Ruina 1983";
    entry.declare_parameters = &SpringSliderParameters::declare_parameters;
    entry.subsections        = {"Spring slider"};
    entry.own_time_scheme    = "integrates in time by its own implicit Euler "
                               "step (doc/theory.md §8.5)";
    entry.make_study         = [](const ModelEntry::StudyInputs &in) {
      SpringSliderParameters slider;
      slider.parse(in.prm, in.source);
      in.pcout << in.parameters.output.check_intervals(
        in.parameters.time.time_step, "Time/Time step", true, in.source);
      return std::unique_ptr<Study>(std::make_unique<SpringSliderStudy>(
        in.parameters, slider, in.source, in.pcout, in.timer));
    };
    return entry;
  }
} // namespace stickslip
