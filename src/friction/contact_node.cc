#include <friction/contact_node.h>

#include <algorithm>
#include <cmath>

namespace stickslip
{
  ContactNode::ContactNode(const ContactLaw &law)
    : law(law)
  {}



  NormalUpdate
  ContactNode::normal_step(const double gap,
                           const double predicted_gap,
                           const double free_velocity,
                           const double impedance,
                           const double implicit_step) const
  {
    NormalUpdate update;
    if (law.normal_law == NormalContactLaw::compliant)
      {
        // Renard 2001, eqs. (49)-(50): the theta-method for w' = v_free +
        // max(-w, 0)/eta~, eta~ = Z eta, is piecewise linear in w^{n+1} and
        // solved exactly; the product Z eta is the slab's rho c2 eta, operation
        // for operation.
        const double eta_tilde = impedance * law.compliance;
        update.gap             = predicted_gap >= 0 ?
                                   predicted_gap :
                                   predicted_gap / (1 + implicit_step / eta_tilde);
        update.velocity = free_velocity + std::max(-update.gap, 0.) / eta_tilde;
      }
    else
      {
        // Renard 2001, eqs. (47)-(48): w^{n+1} = y^+. An open or opening node
        // moves freely, which keeps S >= 0 and S w = 0 for every theta.
        update.gap = std::max(predicted_gap, 0.);
        if (update.gap > 0 || free_velocity > 0)
          update.velocity = free_velocity;
        else if (law.closing == ClosingVelocity::at_rest)
          // (48): held in contact, u3,t = 0.
          update.velocity = 0.;
        else
          // closes_gap is the explicit scheme (theta = 1): implicit_step is
          // dt, and u^n + dt v lands on the foundation. 0 - w/dt rather
          // than -w/dt: a node already closed gets +0, not -0.
          update.velocity = 0. - gap / implicit_step;
      }
    // (51): the pressure is the impulse that turns the free velocity into
    // the contact's, S = Z (v - v_free) (for the slab rho c2 (u3,t - b3+)).
    update.pressure = impedance * (update.velocity - free_velocity);
    return update;
  }



  TangentialUpdate
  ContactNode::tangential_step(const double      impedance,
                               const double      pressure,
                               const Tangential &r,
                               const Tangential &previous_slip) const
  {
    return tangential_step(
      impedance, pressure, r, previous_slip, law.friction, 0., 0.);
  }



  TangentialUpdate
  ContactNode::tangential_step(const double       impedance,
                               const double       pressure,
                               const Tangential  &r,
                               const Tangential  &previous_slip,
                               const FrictionLaw &friction,
                               const double       state,
                               const double       dt) const
  {
    const StepFriction      mu       = friction.step(state, dt);
    const InclusionSolution solution = solve_isotropic_inclusion(
      impedance, pressure, r, previous_slip, mu, law.scan_points);
    TangentialUpdate update;
    update.slip = solution.slip;
    // (52): the friction force is what the inclusion leaves of r once the
    // node has slipped, f = r - a s in S mu(|s|) Dir(s).
    for (unsigned int k = 0; k < 2; ++k)
      update.friction_force[k] = r[k] - impedance * solution.slip[k];
    update.stick       = solution.stick;
    update.n_solutions = solution.n_solutions;
    update.iterations  = solution.iterations;
    update.residual    = solution.residual;
    update.converged   = solution.converged();
    // The state after the step at its slip rate: the one mu~ used.
    const double rate      = std::hypot(solution.slip[0], solution.slip[1]);
    update.state           = friction.evolve(state, rate, dt);
    update.coefficient     = mu.value(rate);
    update.lipschitz_bound = mu.lipschitz_constant();
    // phi(sigma) = a sigma + S mu~(sigma) is strictly increasing when
    // a > S L (doc/body.md, uniqueness; doc/theory.md §8.3).
    update.unique = impedance > pressure * update.lipschitz_bound;
    return update;
  }



  bool
  ContactNode::unique(const double impedance, const double pressure) const
  {
    // phi(sigma) = a sigma + S mu(sigma) is strictly increasing when
    // a > S L_mu (doc/body.md, uniqueness).
    return impedance >
           pressure * law.friction.step(0., 0.).lipschitz_constant();
  }



  const FrictionLaw &
  ContactNode::friction_law() const
  {
    return law.friction;
  }



  unsigned int
  ContactNode::scan_points() const
  {
    return law.scan_points;
  }
} // namespace stickslip
