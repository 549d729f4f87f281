#ifndef stickslip_friction_friction_coefficient_h
#define stickslip_friction_friction_coefficient_h

#include <string>

namespace stickslip
{
  /**
   * A slip-rate dependent friction coefficient mu(s), s = |v_s| >= 0
   * (Renard 2001, eqs. (7)-(9)), with mu(0) = mu_s and mu(s) -> mu_d. The paper
   * gives no formula (doc/theory.md §6.2); the laws offered are
   * - constant:    mu = mu_s;
   * - fig2:        mu_d + (mu_s - mu_d)(1 - s/v_c)^2 for s < v_c, mu_d
   *                beyond: our reading of the shape of Renard 2001, Fig. 2
   *                (steep drop from mu_s, flat at mu_d, C^1);
   * - exponential: mu_d + (mu_s - mu_d) exp(-s/v_c);
   * - rational:    mu_d + (mu_s - mu_d)/(1 + s/v_c).
   * All are Lipschitz and nonincreasing. They are the instantaneous laws of
   * the friction-law component (FrictionLaw, friction_law.h), which reads
   * and checks their parameters.
   */
  class FrictionCoefficient
  {
  public:
    enum class Law
    {
      constant,
      fig2,
      exponential,
      rational
    };

    FrictionCoefficient(const Law    law,
                        const double static_coefficient,
                        const double dynamic_coefficient,
                        const double critical_slip_velocity);

    /** mu(s) for s >= 0. */
    double
    value(const double s) const;

    /** mu'(s) for s >= 0 (right derivative). */
    double
    derivative(const double s) const;

    /** The Lipschitz constant L_mu = sup |mu'|. */
    double
    lipschitz_constant() const;

    /** sup mu (= mu(0) = mu_s). */
    double
    maximum() const;

    /** inf mu (mu_s for the constant law, mu_d otherwise). */
    double
    minimum() const;

    /** Which law. */
    Law
    kind() const;

    /** "rational, mu_s = 0.8, mu_d = 0.5, v_c = 0.1" */
    std::string
    description() const;

  private:
    Law    law;
    double mu_s;
    double mu_d;
    double v_c;
  };
} // namespace stickslip

#endif
