#include <base/expressions.h>
#include <models/spring_slider/spring_slider_parameters.h>

#include <cmath>

namespace stickslip
{
  void
  SpringSliderParameters::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Spring slider");
    prm.declare_entry("Mass",
                      "1",
                      Patterns::Double(),
                      "m > 0 [kg]: the mass of the block in m x'' = k "
                      "(V_load t - x) - N mu(x', psi) (doc/theory.md §8.5).");
    prm.declare_entry("Stiffness",
                      "500",
                      Patterns::Double(),
                      "k > 0 [N/m]: the spring between the block and the "
                      "load point. Steady sliding on rate and state is "
                      "stable for k > k_c = N (b - a)/D_c (Ruina 1983).");
    prm.declare_entry("Load velocity",
                      "1e-6",
                      Patterns::Double(),
                      "V_load [m/s]: the velocity of the spring's far end.");
    prm.declare_entry("Normal force",
                      "1",
                      Patterns::Double(),
                      "N > 0 [N]: the normal force on the block (the "
                      "pressure S of the contact node times its area).");
    prm.declare_entry("Initial displacement",
                      "steady",
                      Patterns::Anything(),
                      "x(t0) [m]; steady: the spring force of steady sliding "
                      "at the initial velocity, k (V_load t0 - x) = N "
                      "mu_ss(x'(t0)).");
    prm.declare_entry("Initial velocity",
                      "steady",
                      Patterns::Anything(),
                      "x'(t0) >= 0 [m/s]; steady: V_load. A value slightly "
                      "off V_load perturbs steady sliding.");
    prm.declare_entry(
      "Slider displacement",
      "",
      Patterns::Anything(),
      "X(t) [m], an expression of t: when given, the block is moved with "
      "this displacement (no spring, no mass: the step's slip rate is "
      "(X(t_n+1) - X(t_n))/dt) and the friction it meets is recorded, "
      "e.g. a velocity step t < 1 ? 1e-6*t : 1e-6 + 1e-5*(t - 1); empty: "
      "the spring drives the block.");
    prm.declare_entry(
      "Relative tolerance",
      "1e-10",
      Patterns::Double(),
      "The relative tolerance of the adaptive integrator (SUNDIALS CVODE, "
      "BDF of orders 1 and 2) of the block on rate and state: the local "
      "error of each step is kept below it relative to each unknown (plus "
      "Absolute tolerance). The default gives the event times of "
      "prm/spring_slider_rate_state.prm to 1.4e-5 and its periods to 9e-5 "
      "relative (bench/spring_slider_tolerance.py, doc/theory.md §8.5). "
      "Used when the spring drives the block on rate and state; the other "
      "laws and a prescribed slider take steps of Time/Time step.");
    prm.declare_entry(
      "Absolute tolerance",
      "1e-10",
      Patterns::Double(),
      "The absolute tolerance of the adaptive integrator, in the scale of "
      "each unknown: the critical slip distance D_c for the displacement "
      "and the slip, N D_c for the works, 1 for ln theta and for the "
      "velocity's unknown asinh(v/(2 V_s)) (V_s = 1e-20 V_0), whose "
      "absolute error is the relative error of v. Keep it near the relative "
      "tolerance: much tighter, the velocity's error, which follows the "
      "force's, cannot meet it.");
    Parameters::FrictionLaw::declare_parameters(
      prm, {"Spring slider", "rate-and-state", "0.6", "0.5", 256, false});
    prm.leave_subsection();
  }



  void
  SpringSliderParameters::parse(ParameterHandler      &prm,
                                const ParameterSource &source)
  {
    prm.enter_subsection("Spring slider");
    mass                 = prm.get_double("Mass");
    stiffness            = prm.get_double("Stiffness");
    load_velocity        = prm.get_double("Load velocity");
    normal_force         = prm.get_double("Normal force");
    initial_displacement = prm.get("Initial displacement");
    initial_velocity     = prm.get("Initial velocity");
    slider_displacement  = prm.get("Slider displacement");
    relative_tolerance   = prm.get_double("Relative tolerance");
    absolute_tolerance   = prm.get_double("Absolute tolerance");
    friction.parse(prm, "Spring slider", source);
    prm.leave_subsection();
    const auto require = [&](const bool         condition,
                             const std::string &name,
                             const double       value,
                             const std::string &allowed) {
      if (!condition)
        throw_bad_parameter(source,
                            "Spring slider/" + name,
                            format_number(value),
                            allowed);
    };
    require(mass > 0 && std::isfinite(mass),
            "Mass",
            mass,
            "m must be a positive number");
    require(stiffness > 0 && std::isfinite(stiffness),
            "Stiffness",
            stiffness,
            "k must be a positive number");
    require(std::isfinite(load_velocity),
            "Load velocity",
            load_velocity,
            "V_load must be a finite number");
    require(normal_force > 0 && std::isfinite(normal_force),
            "Normal force",
            normal_force,
            "N must be a positive number");
    // Below 1e-13 the steps' round-off exceeds the error estimate.
    require(relative_tolerance >= 1e-13 && relative_tolerance < 1,
            "Relative tolerance",
            relative_tolerance,
            "a tolerance in [1e-13, 1)");
    require(absolute_tolerance > 0 && absolute_tolerance < 1,
            "Absolute tolerance",
            absolute_tolerance,
            "a tolerance in (0, 1) (in the scales of the unknowns)");
    for (const auto &[name, text] :
         {std::make_pair(std::string("Initial displacement"),
                         initial_displacement),
          std::make_pair(std::string("Initial velocity"), initial_velocity)})
      if (text != "steady")
        parse_number_list(text, "Spring slider/" + name, source);
    if (initial_velocity != "steady")
      require(parse_number_list(initial_velocity,
                                "Spring slider/Initial velocity",
                                source)[0] >= 0,
              "Initial velocity",
              parse_number_list(initial_velocity,
                                "Spring slider/Initial velocity",
                                source)[0],
              "x'(t0) must be >= 0 (the block is pulled forward)");
    if (driven())
      parse_function<1>(slider_displacement,
                        "t",
                        "Spring slider/Slider displacement",
                        source);
  }



  bool
  SpringSliderParameters::driven() const
  {
    return !is_blank(slider_displacement);
  }



  bool
  SpringSliderParameters::adaptive() const
  {
    return !driven() &&
           friction.kind == Parameters::FrictionLaw::Kind::rate_and_state;
  }
} // namespace stickslip
