#include <models/slab/contact_boundary.h>

#include <cmath>

namespace stickslip
{
  namespace Slab
  {
    ContactBoundary::ContactBoundary(const SlabParameters &parameters,
                                     const double          time_step)
      : time_step(time_step)
      , theta(parameters.theta)
      , c1(parameters.c1())
      , c2(parameters.c2())
      , impedance_normal(parameters.density * parameters.c2())
      , impedance_tangential(parameters.density * parameters.c1())
      , surface_mass(parameters.epsilon / (parameters.theta * time_step))
      , foundation_velocity(parameters.foundation_velocity)
      , rupture_slip_rate(parameters.friction.rupture_slip_rate)
      , node(ContactLaw{parameters.contact == ContactTreatment::regularized ?
                          NormalContactLaw::compliant :
                          NormalContactLaw::unilateral,
                        parameters.eta,
                        ClosingVelocity::at_rest,
                        parameters.friction_law(),
                        parameters.friction.root_scan_points})
    {}



    BoundaryState
    ContactBoundary::initial_state(const std::array<double, 3> &displacement,
                                   const std::array<double, 3> &gradient,
                                   const std::array<double, 3> &velocity,
                                   const double                 t0) const
    {
      BoundaryState state;
      // The normal state at t0 obeys the contact law, as every later state:
      // the boundary velocity is the one (48) (or (50)) gives for the
      // incoming b3+ of the data, and S follows from (51). For data in
      // equilibrium this is u^1_3(0) and -(lambda + 2G) u^0_3,3(0); data that
      // are not (stress at an open gap, tension, release at t0) are
      // projected here rather than in the first step.
      // The contact law at one instant is the node's step of length zero:
      // the gap predicted is the gap itself (an implicit step 0 leaves the
      // compliant gap as it is); the gap of the data is kept as given.
      const double       b3     = velocity[2] + c2 * gradient[2];
      const NormalUpdate normal = node.normal_step(
        displacement[2], displacement[2], b3, impedance_normal, 0.);
      state.gap             = displacement[2];
      state.normal_velocity = normal.velocity;
      state.pressure        = normal.pressure;
      const FrictionLaw &mu = node.friction_law();
      const double       g  = impedance_tangential;
      state.friction_state  = mu.initial_state(t0);
      state.slip            = 0;
      state.rupture_time    = -1;
      for (unsigned int k = 0; k < 2; ++k)
        {
          state.velocity[k]     = velocity[k];
          state.incoming[k]     = velocity[k] + c1 * gradient[k];
          state.displacement[k] = displacement[k];
        }
      const Tangential slip = {
        {state.velocity[0] - foundation_velocity, state.velocity[1]}};
      const double speed = std::hypot(slip[0], slip[1]);
      state.stick        = speed == 0;
      if (!state.stick)
        for (unsigned int k = 0; k < 2; ++k)
          state.friction_force[k] = state.pressure *
                                    mu.value(speed, state.friction_state) *
                                    slip[k] / speed;
      else
        {
          // Stuck surface layer in equilibrium: f = shear traction G u_T,3,
          // limited to the friction disc.
          Tangential   traction = {{g * (state.incoming[0] - state.velocity[0]),
                                    g * (state.incoming[1] - state.velocity[1])}};
          const double size     = std::hypot(traction[0], traction[1]);
          const double limit =
            state.pressure * mu.strength(state.friction_state);
          const double scale = size > limit ? limit / size : 1.;
          for (unsigned int k = 0; k < 2; ++k)
            state.friction_force[k] = scale * traction[k];
        }
      state.iterations  = 0;
      state.n_solutions = 1;
      return state;
    }



    void
    ContactBoundary::step(const std::array<double, 3> &incoming,
                          BoundaryState               &state,
                          const double                 next_time) const
    {
      // Normal direction, (47)-(51) with theta: the predicted gap y and the
      // free velocity b3+ of the characteristics, the contact law of the
      // node.
      const double b3 = incoming[2];
      const double y =
        state.gap +
        time_step * (theta * b3 + (1 - theta) * state.normal_velocity);
      const NormalUpdate normal =
        node.normal_step(state.gap, y, b3, impedance_normal, theta * time_step);
      state.gap             = normal.gap;
      state.normal_velocity = normal.velocity;
      state.pressure        = normal.pressure;

      // Tangential direction, (52) with theta (see the class documentation).
      const double g    = impedance_tangential;
      const double m    = surface_mass;
      const double a    = m + g;
      const double past = (1 - theta) / theta;
      Tangential   r, previous_slip;
      for (unsigned int k = 0; k < 2; ++k)
        {
          const double v_star = k == 0 ? foundation_velocity : 0.;

          r[k] = m * state.velocity[k] + g * incoming[k] +
                 past * (g * (state.incoming[k] - state.velocity[k]) -
                         state.friction_force[k]) -
                 a * v_star;
          previous_slip[k] = state.velocity[k] - v_star;
        }
      const TangentialUpdate tangential =
        node.tangential_step(a,
                             state.pressure,
                             r,
                             previous_slip,
                             node.friction_law(),
                             state.friction_state,
                             time_step);
      for (unsigned int k = 0; k < 2; ++k)
        {
          const double v_star     = k == 0 ? foundation_velocity : 0.;
          const double velocity   = v_star + tangential.slip[k];
          state.friction_force[k] = tangential.friction_force[k];
          state.displacement[k] +=
            time_step * (theta * velocity + (1 - theta) * state.velocity[k]);
          state.velocity[k] = velocity;
          state.incoming[k] = incoming[k];
        }
      // The law's state after the step, the slip and the rupture time.
      const double rate    = std::hypot(tangential.slip[0], tangential.slip[1]);
      state.friction_state = tangential.state;
      state.coefficient    = tangential.coefficient;
      if (state.pressure > 0)
        {
          state.slip += time_step * rate;
          if (state.rupture_time < 0 && rate > rupture_slip_rate)
            state.rupture_time = next_time;
        }
      state.stick       = tangential.stick;
      state.iterations  = tangential.iterations;
      state.n_solutions = tangential.n_solutions;
      state.residual    = tangential.residual;
      state.converged   = tangential.converged;
    }



    bool
    ContactBoundary::unique_at(const double pressure) const
    {
      const FrictionLaw &law = node.friction_law();
      return surface_mass + impedance_tangential >
             pressure *
               law.step(law.initial_state(0.), time_step).lipschitz_constant();
    }



    const FrictionLaw &
    ContactBoundary::friction_law() const
    {
      return node.friction_law();
    }
  } // namespace Slab
} // namespace stickslip
