#include <base/expressions.h>
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



  FrictionCoefficient::Law
  FrictionCoefficient::kind() const
  {
    return law;
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
} // namespace stickslip
