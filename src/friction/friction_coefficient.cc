#include <base/expressions.h>
#include <base/selection.h>
#include <friction/friction_coefficient.h>

#include <cmath>

namespace stickslip
{
  FrictionCoefficient::FrictionCoefficient(const Law    law,
                                           const double static_coefficient,
                                           const double dynamic_coefficient,
                                           const double critical_slip_velocity)
    : law(law)
    , mu_s(static_coefficient)
    , mu_d(law == Law::constant ? static_coefficient : dynamic_coefficient)
    , v_c(critical_slip_velocity)
  {}



  double
  FrictionCoefficient::value(const double s) const
  {
    const double drop = mu_s - mu_d;
    switch (law)
      {
        case Law::constant:
          return mu_s;
        case Law::fig2:
          {
            if (s >= v_c)
              return mu_d;
            const double x = 1. - s / v_c;
            return mu_d + drop * x * x;
          }
        case Law::exponential:
          return mu_d + drop * std::exp(-s / v_c);
        case Law::rational:
          return mu_d + drop / (1. + s / v_c);
      }
    return mu_s;
  }



  double
  FrictionCoefficient::derivative(const double s) const
  {
    const double drop = mu_s - mu_d;
    switch (law)
      {
        case Law::constant:
          return 0.;
        case Law::fig2:
          return s >= v_c ? 0. : -2. * drop * (1. - s / v_c) / v_c;
        case Law::exponential:
          return -drop * std::exp(-s / v_c) / v_c;
        case Law::rational:
          {
            const double x = 1. + s / v_c;
            return -drop / (v_c * x * x);
          }
      }
    return 0.;
  }



  double
  FrictionCoefficient::lipschitz_constant() const
  {
    // |mu'| is largest at s = 0 for every law offered.
    return std::abs(derivative(0.));
  }



  double
  FrictionCoefficient::maximum() const
  {
    return mu_s;
  }



  double
  FrictionCoefficient::minimum() const
  {
    return mu_d;
  }



  std::string
  FrictionCoefficient::description() const
  {
    const char *names[] = {"constant", "fig2", "exponential", "rational"};
    std::string text    = std::string(names[static_cast<int>(law)]) +
                       ", mu_s = " + format_number(mu_s);
    if (law != Law::constant)
      text +=
        ", mu_d = " + format_number(mu_d) + ", v_c = " + format_number(v_c);
    return text;
  }



  FrictionCoefficient::Law
  FrictionCoefficient::parse_law(const std::string &name,
                                 const std::string &path)
  {
    return parse_selection<Law>(name,
                                {{"constant", Law::constant},
                                 {"fig2", Law::fig2},
                                 {"exponential", Law::exponential},
                                 {"rational", Law::rational}},
                                path);
  }



  void
  FrictionCoefficient::check_parameters(const Law              law,
                                        const double           mu_s,
                                        const double           mu_d,
                                        const double           v_c,
                                        const std::string     &prefix,
                                        const ParameterSource &source)
  {
    const auto require = [&](const bool         condition,
                             const std::string &name,
                             const double       value,
                             const std::string &allowed) {
      if (!condition)
        throw_bad_parameter(source,
                            prefix + name,
                            format_number(value),
                            allowed);
    };
    require(mu_s >= 0 && std::isfinite(mu_s),
            "Static friction coefficient",
            mu_s,
            "mu_s must be a number >= 0");
    if (law == Law::constant)
      return;
    require(mu_d >= 0 && std::isfinite(mu_d),
            "Dynamic friction coefficient",
            mu_d,
            "mu_d must be a number >= 0");
    require(mu_d <= mu_s,
            "Dynamic friction coefficient",
            mu_d,
            "the decreasing laws need mu_d <= mu_s = " + format_number(mu_s));
    require(v_c > 0 && std::isfinite(v_c),
            "Critical slip velocity",
            v_c,
            "v_c must be a positive number");
  }
} // namespace stickslip
