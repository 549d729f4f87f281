#include <time/generalized_alpha.h>

namespace stickslip
{
  GeneralizedAlpha
  GeneralizedAlpha::average_acceleration()
  {
    return GeneralizedAlpha();
  }



  GeneralizedAlpha
  GeneralizedAlpha::from_spectral_radius(const double rho_infinity)
  {
    GeneralizedAlpha scheme;
    scheme.alpha_m   = (2 * rho_infinity - 1) / (rho_infinity + 1);
    scheme.alpha_f   = rho_infinity / (rho_infinity + 1);
    scheme.gamma     = 0.5 - scheme.alpha_m + scheme.alpha_f;
    const double sum = 1 - scheme.alpha_m + scheme.alpha_f;
    scheme.beta      = 0.25 * sum * sum;
    return scheme;
  }



  double
  GeneralizedAlpha::inertia_coefficient(const double dt) const
  {
    return (1 - alpha_m) / ((1 - alpha_f) * beta * dt * dt);
  }



  double
  GeneralizedAlpha::acceleration(const double du,
                                 const double velocity,
                                 const double acceleration,
                                 const double dt) const
  {
    return (du - dt * velocity) / (beta * dt * dt) -
           (0.5 - beta) / beta * acceleration;
  }



  double
  GeneralizedAlpha::velocity(const double velocity,
                             const double acceleration,
                             const double new_acceleration,
                             const double dt) const
  {
    return velocity +
           dt * ((1 - gamma) * acceleration + gamma * new_acceleration);
  }



  double
  GeneralizedAlpha::old_acceleration_weight() const
  {
    return (1 - alpha_m) * (0.5 - beta) / beta - alpha_m;
  }
} // namespace stickslip
