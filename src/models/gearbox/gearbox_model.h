#ifndef stickslip_models_gearbox_gearbox_model_h
#define stickslip_models_gearbox_gearbox_model_h

#include <base/input_error.h>
#include <models/common/finite_dof_model.h>
#include <models/gearbox/gearbox_parameters.h>

namespace stickslip
{
  /**
   * The gear box efficiency problem Glowinski et al. 2006, eq. (54)
   * (doc/theory.md §1.12), d = 1: m w' + c (sgn(w) - gamma(w)) + k(delta)
   * g(delta w) = f(t), g(xi) = (a+b)/2 + (b-a)/2 [sgn(xi) - gamma_ab(xi)],  0 <
   * a < b. For delta != 0, k(delta) Sgn(delta w) = |k(delta)| Sgn(w), so it is
   * a friction problem with one multiplier and c_eff = c + (b-a)/2 |k(delta)|;
   * the rest, f + c gamma(w) - k (a+b)/2 + k (b-a)/2 gamma_ab(delta w), is
   * treated explicitly by the friction sub-steps (26). There is no elastic
   * part (A = 0); x is the integral of w.
   */
  class GearboxModel : public FiniteDofModel
  {
  public:
    /** The system of @p parameters (subsection "Gear box") on @p comm. */
    GearboxModel(const GearboxParameters &parameters,
                 const ParameterSource   &source,
                 const MPI_Comm           comm);

    std::string
    description() const override;

  private:
    double effective_friction;
  };
} // namespace stickslip

#endif
