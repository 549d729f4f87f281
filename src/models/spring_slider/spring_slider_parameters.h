#ifndef stickslip_models_spring_slider_spring_slider_parameters_h
#define stickslip_models_spring_slider_spring_slider_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <friction/friction_law.h>

#include <string>

namespace stickslip
{
  /**
   * The subsection `Spring slider` (Model = spring-slider, doc/theory.md
   * §8.5): a block of mass m pulled through a spring of stiffness k whose
   * end moves at V_load over a surface with the friction law of the
   * subsection `Friction law` (the component of Slab and Body/Contact),
   *
   *   m x'' = k (V_load t - x) - N mu(x', psi),
   *
   * or, with `Slider displacement` given, a slider moved at a prescribed
   * displacement X(t) (the velocity steps of doc/theory.md §8.4).
   */
  struct SpringSliderParameters
  {
    double mass;          ///< m [kg]
    double stiffness;     ///< k [N/m]
    double load_velocity; ///< V_load [m/s]
    double normal_force;  ///< N [N]
    /** x(t0) [m]; "steady": the spring force N mu_ss(v0). */
    std::string initial_displacement;
    /** x'(t0) [m/s]; "steady": V_load. */
    std::string initial_velocity;
    /** X(t) [m], an expression of t; "" (default): the spring drives. */
    std::string slider_displacement;
    /**
     * The error control of the adaptive integrator (rate and state,
     * SpringSliderOde): CVODE's relative tolerance, and its absolute one in
     * the scales of the unknowns (D_c for lengths, N D_c for work, 1 for ln
     * theta and for asinh(v/(2 V_s)), i.e. the relative error of v).
     */
    double relative_tolerance;
    double absolute_tolerance;

    Parameters::FrictionLaw friction;

    static void
    declare_parameters(ParameterHandler &prm);

    void
    parse(ParameterHandler &prm, const ParameterSource &source);

    /** Whether the slider's displacement is prescribed. */
    bool
    driven() const;

    /**
     * Whether the block is integrated as an ODE with error control
     * (SpringSliderOde): driven by the spring on rate and state, whose
     * friction is smooth in the slip rate; the laws with a static strength
     * (stick) keep the nodal implicit Euler step of Time/Time step.
     */
    bool
    adaptive() const;
  };
} // namespace stickslip

#endif
