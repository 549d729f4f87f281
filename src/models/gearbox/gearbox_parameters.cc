#include <base/expressions.h>
#include <models/common/system_builder.h>
#include <models/gearbox/gearbox_parameters.h>

#include <cmath>

namespace stickslip
{
  void
  GearboxParameters::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Gear box");
    prm.declare_entry("Mass",
                      "1",
                      Patterns::Double(),
                      "Rotational inertia m > 0 of the gear box.");
    prm.declare_entry("Friction coefficient",
                      "0.5",
                      Patterns::Double(),
                      "Friction coefficient c >= 0 of the bearing.");
    prm.declare_entry(
      "Gamma",
      "piecewise linear",
      Patterns::Selection(gamma_law_names()),
      "Velocity weakening gamma of the bearing friction: none,"
      " smooth or piecewise linear (Glowinski et al. 2006, eq. (2) or (3)).");
    prm.declare_entry("Gamma beta",
                      "0.3",
                      Patterns::Double(),
                      "Weakening amount beta in (0, 1) of Gamma.");
    prm.declare_entry("Gamma epsilon",
                      "0.1",
                      Patterns::Double(),
                      "Velocity scale eps > 0 of Gamma.");
    prm.declare_entry("Delta",
                      "1",
                      Patterns::Double(),
                      "Gear parameter delta: the load k(delta) acts with the "
                      "sign of delta w (Glowinski et al. 2006, eq. (54)).");
    prm.declare_entry("Gear force",
                      "2*tanh(delta)",
                      Patterns::Anything(),
                      "Gear load k(delta) as a muParser expression of delta: "
                      "odd, increasing, Lipschitz, k(0) = 0.");
    prm.declare_entry(
      "Lower gear factor",
      "0.8",
      Patterns::Double(),
      "a, 0 < a < b: the gear factor g when the gear runs "
      "backward (delta w < 0); g moves between a and b "
      "with the sign of delta w (Glowinski et al. 2006, eq. (54)).");
    prm.declare_alias("Lower gear factor", "a", true);
    prm.declare_entry("Upper gear factor",
                      "1.2",
                      Patterns::Double(),
                      "b > a: the gear factor g when the gear runs forward "
                      "(delta w > 0) (Glowinski et al. 2006, eq. (54)).");
    prm.declare_alias("Upper gear factor", "b", true);
    prm.declare_entry("Gamma ab",
                      "smooth",
                      Patterns::Selection(gamma_law_names()),
                      "Velocity weakening gamma_ab of the gear factor g, of "
                      "the same families as Gamma.");
    prm.declare_entry("Gamma ab beta",
                      "0.5",
                      Patterns::Double(),
                      "Weakening amount in (0, 1) of Gamma ab.");
    prm.declare_entry("Gamma ab epsilon",
                      "0.1",
                      Patterns::Double(),
                      "Velocity scale > 0 of Gamma ab.");
    prm.declare_entry("Forcing",
                      "0",
                      Patterns::Anything(),
                      "Driving torque f(t), a muParser expression of t.");
    prm.declare_entry("Initial velocity",
                      "0",
                      Patterns::Double(),
                      "Angular velocity w(t0) at the initial time.");
    prm.leave_subsection();
  }



  void
  GearboxParameters::parse(ParameterHandler &prm, const ParameterSource &source)
  {
    prm.enter_subsection("Gear box");
    mass                 = prm.get_double("Mass");
    friction_coefficient = prm.get_double("Friction coefficient");
    gamma                = parse_gamma_law(prm.get("Gamma"), "Gear box/Gamma");
    gamma_beta           = prm.get_double("Gamma beta");
    gamma_epsilon        = prm.get_double("Gamma epsilon");
    delta                = prm.get_double("Delta");
    gear_force           = prm.get("Gear force");
    a                    = prm.get_double("Lower gear factor");
    b                    = prm.get_double("Upper gear factor");
    gamma_ab      = parse_gamma_law(prm.get("Gamma ab"), "Gear box/Gamma ab");
    gamma_ab_beta = prm.get_double("Gamma ab beta");
    gamma_ab_epsilon = prm.get_double("Gamma ab epsilon");
    forcing          = prm.get("Forcing");
    initial_velocity = prm.get_double("Initial velocity");
    prm.leave_subsection();

    if (!(mass > 0))
      throw_bad_parameter(source,
                          "Gear box/Mass",
                          format_number(mass),
                          "m must be positive");
    if (!(friction_coefficient >= 0))
      throw_bad_parameter(source,
                          "Gear box/Friction coefficient",
                          format_number(friction_coefficient),
                          "c must be >= 0");
    check_gamma_law(gamma,
                    {gamma_beta},
                    {gamma_epsilon},
                    "Gear box/Gamma beta",
                    "Gear box/Gamma epsilon",
                    source);
    if (!(a > 0 && b > a))
      throw_bad_parameter(source,
                          "Gear box/Lower gear factor",
                          format_number(a),
                          "the gear factors must satisfy 0 < a < b "
                          "(Upper gear factor b = " +
                            format_number(b) + ")");
    check_gamma_law(gamma_ab,
                    {gamma_ab_beta},
                    {gamma_ab_epsilon},
                    "Gear box/Gamma ab beta",
                    "Gear box/Gamma ab epsilon",
                    source);
    gear_force_value = evaluate_gear_force(source);
  }



  double
  GearboxParameters::evaluate_gear_force(const ParameterSource &source) const
  {
    const auto k =
      parse_function<1>(gear_force, "delta", "Gear box/Gear force", source);
    const double k_plus  = k->value(Point<1>(delta));
    const double k_minus = k->value(Point<1>(-delta));
    const double k_zero  = k->value(Point<1>(0.));
    if (!std::isfinite(k_plus) ||
        std::abs(k_plus + k_minus) > 1e-12 * (1 + std::abs(k_plus)) ||
        std::abs(k_zero) > 1e-14 || k_plus * delta < 0)
      throw_bad_parameter(source,
                          "Gear box/Gear force",
                          gear_force,
                          "k must be odd and increasing with k(0) = 0 "
                          "(here k(delta) = " +
                            format_number(k_plus) +
                            ", k(-delta) = " + format_number(k_minus) +
                            ", k(0) = " + format_number(k_zero) + ")");
    return k_plus;
  }
} // namespace stickslip
