#ifndef stickslip_friction_gamma_law_h
#define stickslip_friction_gamma_law_h

#include <base/global.h>

#include <string>

namespace stickslip
{
  /**
   * The velocity-weakening part gamma of the friction law, componentwise
   * (Glowinski et al. 2006, Remark 2.1): gamma_i(0) = 0, gamma_i(+-inf) =
   * +-beta_i with 0 < beta_i < 1, so that static friction c_i exceeds kinetic
   * friction c_i (1 - beta_i).
   */
  class GammaLaw
  {
  public:
    enum class Type
    {
      none,   ///< pure Coulomb
      smooth, ///< Glowinski et al. 2006, eq. (2): beta xi / sqrt(eps^2 + xi^2)
      piecewise_linear ///< Glowinski et al. 2006, eq. (3): beta clamp(xi/eps,
                       ///< -1, 1)
    };

    GammaLaw();

    /** "none", "smooth" or "piecewise linear" (the parameter values). */
    static Type
    parse_type(const std::string &name);

    /** Set the law and its per-component parameters (owned entries). */
    void
    reinit(const Type               type,
           const DistributedVector &beta,
           const DistributedVector &epsilon);

    /** out = gamma(w), componentwise on the owned entries. */
    void
    apply(const DistributedVector &w, DistributedVector &out) const;

    bool
    is_zero() const;

    /** The law. */
    Type
    law() const;

    /** The per-component parameters beta_i and eps_i (owned entries). */
    const DistributedVector &
    beta_values() const;
    const DistributedVector &
    epsilon_values() const;

    /** gamma of one component. */
    static double
    value(const Type   type,
          const double beta,
          const double epsilon,
          const double xi);

  private:
    Type              type;
    DistributedVector beta;
    DistributedVector epsilon;
  };
} // namespace stickslip

#endif
