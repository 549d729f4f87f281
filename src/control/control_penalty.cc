#include <control/control_penalty.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stickslip
{
  namespace
  {
    constexpr double infinity_norm = std::numeric_limits<double>::infinity();

    /** |a - b| in the l^k norm, k = 1, 2 or infinity. */
    double
    difference_norm(const std::vector<double> &a,
                    const std::vector<double> &b,
                    const double               k)
    {
      double sum = 0, largest = 0;
      for (unsigned int i = 0; i < a.size(); ++i)
        {
          const double d = std::abs(a[i] - b[i]);
          largest        = std::max(largest, d);
          sum += (k == 1 ? d : d * d);
        }
      return k == infinity_norm ? largest : k == 1 ? sum : std::sqrt(sum);
    }
  } // namespace



  ControlPenalty::ControlPenalty(const ControlParameters &parameters,
                                 const double             duration)
    : rho_1(parameters.dynamic_rho ? parameters.initial_dynamic_rho :
                                     parameters.rho)
    , rho_2(rho_1)
    , rho_3(rho_1)
    , parameters(parameters)
    , duration(duration)
    , has_best(false)
    , best_cost(0)
    , norm_k(2)
    , best_violation(0)
  {}



  double
  ControlPenalty::cost(const std::vector<double> &control) const
  {
    double sum = 0;
    for (unsigned int i = 0; i < control.size(); ++i)
      sum += parameters.cost_matrix[i] * control[i] * control[i];
    return duration * sum;
  }



  double
  ControlPenalty::constraint_norm(const ControlOutcome &outcome,
                                  const double          k) const
  {
    const double x =
      difference_norm(outcome.displacement, parameters.target_displacement, k);
    if (parameters.target_velocity.empty())
      return x;
    const double v =
      difference_norm(outcome.velocity, parameters.target_velocity, k);
    if (k == infinity_norm)
      return std::max(x, v);
    return k == 1 ? x + v : std::sqrt(x * x + v * v);
  }



  double
  ControlPenalty::value(const std::vector<double> &control,
                        const ControlOutcome      &outcome) const
  {
    const double j = cost(control);
    if (parameters.penalty == ControlParameters::Penalty::exact)
      {
        // (3.1): norms not squared, an exact nonsmooth penalty
        double p = j + rho_1 * difference_norm(outcome.displacement,
                                               parameters.target_displacement,
                                               2);
        if (!parameters.target_velocity.empty())
          p += rho_2 *
               difference_norm(outcome.velocity, parameters.target_velocity, 2);
        return p;
      }
    // (3.4)-(3.6): Pi_K = J + rho_3 G_K(v) + Z_K(v, v^c)
    const double g = constraint_norm(outcome, norm_k);
    double       z = 0;
    if (has_best)
      z = std::min(best_violation / std::max(g, 1e-8), 1.) *
          std::max(best_cost - j, 0.);
    return j + rho_3 * g + z;
  }



  void
  ControlPenalty::update(const std::vector<double> &best,
                         const ControlOutcome      &outcome)
  {
    if (parameters.dynamic_rho && has_best)
      {
        // (3.2)-(3.3) with the violation at v^c, then (3.8)
        rho_1 = std::min(parameters.rho,
                         rho_1 + difference_norm(outcome.displacement,
                                                 parameters.target_displacement,
                                                 infinity_norm));
        if (!parameters.target_velocity.empty())
          rho_2 = std::min(parameters.rho,
                           rho_2 + difference_norm(outcome.velocity,
                                                   parameters.target_velocity,
                                                   infinity_norm));
        rho_3 = 0.5 * (rho_1 + rho_2);
      }
    // (3.7): the norm K from G_2(v^c)
    const double g2 = constraint_norm(outcome, 2);
    norm_k          = g2 >= 2 ? infinity_norm : g2 > 1 ? 2. : 1.;
    best_violation  = constraint_norm(outcome, norm_k);
    best_cost       = cost(best);
    has_best        = true;
  }



  void
  ControlPenalty::register_state(CheckpointArchive &archive)
  {
    for (double *x :
         {&rho_1, &rho_2, &rho_3, &best_cost, &norm_k, &best_violation})
      archive.add(*x);
    archive.add(has_best);
  }



  double
  ControlPenalty::displacement_error(const ControlOutcome &outcome) const
  {
    double scale = 1;
    for (const double x : parameters.target_displacement)
      scale = std::max(scale, std::abs(x));
    return difference_norm(outcome.displacement,
                           parameters.target_displacement,
                           infinity_norm) /
           scale;
  }



  double
  ControlPenalty::velocity_error(const ControlOutcome &outcome) const
  {
    if (parameters.target_velocity.empty())
      return 0;
    double scale = 1;
    for (const double v : parameters.target_velocity)
      scale = std::max(scale, std::abs(v));
    return difference_norm(outcome.velocity,
                           parameters.target_velocity,
                           infinity_norm) /
           scale;
  }
} // namespace stickslip
