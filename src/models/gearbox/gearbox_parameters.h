#ifndef stickslip_models_gearbox_gearbox_parameters_h
#define stickslip_models_gearbox_gearbox_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <friction/gamma_law.h>

#include <string>

namespace stickslip
{
  /**
   * The subsection `Gear box`: the gear box efficiency problem Glowinski et al.
   * 2006, eq. (54) (doc/theory.md §1.12). parse() checks every value (m > 0, c
   * >= 0, 0 < a < b, the gamma laws, k(delta) odd with k(0) = 0) and throws an
   * InputError naming the parameter; f(t) is checked by the model, which parses
   * it.
   */
  struct GearboxParameters
  {
    double         mass;                 ///< m
    double         friction_coefficient; ///< c of the bearing friction
    GammaLaw::Type gamma;                ///< gamma of the bearing friction
    double         gamma_beta, gamma_epsilon;
    double         delta;      ///< the gear parameter delta
    std::string    gear_force; ///< k(delta), a muParser expression of delta
    double         gear_force_value; ///< k(delta), evaluated by parse()
    double         a, b;             ///< 0 < a < b of g
    GammaLaw::Type gamma_ab;         ///< gamma_ab of g
    double         gamma_ab_beta, gamma_ab_epsilon;
    std::string    forcing;          ///< f(t), a muParser expression of t
    double         initial_velocity; ///< w(t0)

    static void
    declare_parameters(ParameterHandler &prm);
    void
    parse(ParameterHandler &prm, const ParameterSource &source);

  private:
    /** k(delta), checked to be odd with k(0) = 0 and k(delta) delta >= 0. */
    double
    evaluate_gear_force(const ParameterSource &source) const;
  };
} // namespace stickslip

#endif
