#include <base/expressions.h>
#include <base/local_values.h>
#include <models/gearbox/gearbox_model.h>

#include <cmath>

namespace stickslip
{
  GearboxModel::GearboxModel(const GearboxParameters &parameters,
                             const ParameterSource   &source,
                             const MPI_Comm           comm)
    : FiniteDofModel(comm)
  {
    const GearboxParameters &p = parameters;
    const double             k = p.gear_force_value;
    effective_friction =
      p.friction_coefficient + 0.5 * (p.b - p.a) * std::abs(k);
    FullMatrix<double> M(1, 1), A(1, 1);
    M(0, 0) = p.mass;
    // gamma is part of the explicit force g below, not of the system.
    set_up_system({M,
                   A,
                   {effective_friction},
                   GammaLaw::Type::none,
                   {0.},
                   {1.},
                   {0.},
                   {p.initial_velocity}},
                  p.forcing,
                  "Gear box/Forcing",
                  source);
    // g(t, w) = c gamma(w) - k (a+b)/2 + k (b-a)/2 gamma_ab(delta w)
    const auto g = [p, k](const double w) {
      return p.friction_coefficient *
               GammaLaw::value(p.gamma, p.gamma_beta, p.gamma_epsilon, w) -
             k * 0.5 * (p.a + p.b) +
             k * 0.5 * (p.b - p.a) *
               GammaLaw::value(p.gamma_ab,
                               p.gamma_ab_beta,
                               p.gamma_ab_epsilon,
                               p.delta * w);
    };
    friction_system.extra_force =
      [g](const double, const DistributedVector &w, DistributedVector &out) {
        ConstLocalValues velocity(w);
        LocalValues      values(out);
        for (std::size_t j = 0; j < values.size(); ++j)
          values[j] += g(velocity[j]);
      };
    // The single unknown on every rank, for the plain-array steps.
    friction_system.replicated_extra_force =
      [g](const double, const double *w, double *out) { out[0] += g(w[0]); };
    friction_system.finalize();
  }



  std::string
  GearboxModel::description() const
  {
    return "gear box model (Glowinski et al. 2006, eq. (54)), c_eff = " +
           format_number(effective_friction);
  }
} // namespace stickslip
