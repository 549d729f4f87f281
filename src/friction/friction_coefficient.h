#ifndef stickslip_friction_friction_coefficient_h
#define stickslip_friction_friction_coefficient_h

#include <base/input_error.h>

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
   * All are Lipschitz and nonincreasing.
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

    /** "rational, mu_s = 0.8, mu_d = 0.5, v_c = 0.1" */
    std::string
    description() const;

    /**
     * Law from its name (constant|fig2|exponential|rational), the value of
     * the parameter @p path.
     */
    static Law
    parse_law(const std::string &name, const std::string &path);

    /**
     * The ranges of the laws' parameters, mu_s >= 0 and, for the decreasing
     * laws, 0 <= mu_d <= mu_s and v_c > 0, all finite: an InputError naming
     * the parameter (@p prefix + "Static friction coefficient",
     * "Dynamic friction coefficient", "Critical slip velocity") otherwise.
     */
    static void
    check_parameters(const Law              law,
                     const double           static_coefficient,
                     const double           dynamic_coefficient,
                     const double           critical_slip_velocity,
                     const std::string     &prefix,
                     const ParameterSource &source);

  private:
    const Law    law;
    const double mu_s;
    const double mu_d;
    const double v_c;
  };
} // namespace stickslip

#endif
