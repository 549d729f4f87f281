#include <models/slab/contact_boundary.h>

#include <algorithm>
#include <cmath>

namespace stickslip
{
  namespace Slab
  {
    ContactBoundary::ContactBoundary(const SlabParameters &parameters,
                                     const double      time_step)
      : time_step(time_step)
      , theta(parameters.theta)
      , regularized(parameters.contact == ContactTreatment::regularized)
      , c1(parameters.c1())
      , c2(parameters.c2())
      , impedance_normal(parameters.density * parameters.c2())
      , impedance_tangential(parameters.density * parameters.c1())
      , eta_tilde(parameters.density * parameters.c2() * parameters.eta)
      , surface_mass(parameters.epsilon / (parameters.theta * time_step))
      , foundation_velocity(parameters.foundation_velocity)
      , mu(parameters.friction_coefficient())
      , scan_points(parameters.root_scan_points)
    {}



    BoundaryState
    ContactBoundary::initial_state(const std::array<double, 3> &displacement,
                                   const std::array<double, 3> &gradient,
                                   const std::array<double, 3> &velocity) const
    {
      BoundaryState state;
      // The normal state at t0 obeys the contact law, as every later state:
      // the boundary velocity is the one (48) (or (50)) gives for the
      // incoming b3+ of the data, and S follows from (51). For data in
      // equilibrium this is u^1_3(0) and -(lambda + 2G) u^0_3,3(0); data that
      // are not (stress at an open gap, tension, release at t0) are
      // projected here rather than in the first step.
      const double b3 = velocity[2] + c2 * gradient[2];
      state.gap       = displacement[2];
      if (regularized)
        state.normal_velocity = b3 + std::max(-state.gap, 0.) / eta_tilde;
      else
        state.normal_velocity = (state.gap > 0 || b3 > 0) ? b3 : 0.;
      state.pressure = impedance_normal * (state.normal_velocity - b3);
      const double g = impedance_tangential;
      for (unsigned int k = 0; k < 2; ++k)
        {
          state.velocity[k]     = velocity[k];
          state.incoming[k]     = velocity[k] + c1 * gradient[k];
          state.displacement[k] = displacement[k];
        }
      const Tangential slip = {{state.velocity[0] - foundation_velocity,
                                state.velocity[1]}};
      const double     speed = std::hypot(slip[0], slip[1]);
      state.stick            = speed == 0;
      if (!state.stick)
        for (unsigned int k = 0; k < 2; ++k)
          state.friction_force[k] =
            state.pressure * mu.value(speed) * slip[k] / speed;
      else
        {
          // Stuck surface layer in equilibrium: f = shear traction G u_T,3,
          // limited to the friction disc.
          Tangential   traction = {{g * (state.incoming[0] - state.velocity[0]),
                                    g * (state.incoming[1] - state.velocity[1])}};
          const double size     = std::hypot(traction[0], traction[1]);
          const double limit    = state.pressure * mu.value(0.);
          const double scale    = size > limit ? limit / size : 1.;
          for (unsigned int k = 0; k < 2; ++k)
            state.friction_force[k] = scale * traction[k];
        }
      state.iterations  = 0;
      state.n_solutions = 1;
      return state;
    }



    void
    ContactBoundary::step(const std::array<double, 3> &incoming,
                          BoundaryState &              state) const
    {
      // Normal direction, (47)-(50) with theta.
      const double b3 = incoming[2];
      const double y =
        state.gap +
        time_step * (theta * b3 + (1 - theta) * state.normal_velocity);
      if (regularized)
        {
          state.gap = y >= 0 ? y : y / (1 + theta * time_step / eta_tilde);
          state.normal_velocity = b3 + std::max(-state.gap, 0.) / eta_tilde;
        }
      else
        {
          state.gap = std::max(y, 0.);
          // In contact the boundary is held (u3,t = 0) unless b3+ pulls it
          // away; this keeps S >= 0 and S w = 0 for every theta.
          state.normal_velocity = (state.gap > 0 || b3 > 0) ? b3 : 0.;
        }
      state.pressure = impedance_normal * (state.normal_velocity - b3); // (51)

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
      const InclusionSolution solution = solve_friction_inclusion(
        a, state.pressure, r, previous_slip, mu, scan_points);
      for (unsigned int k = 0; k < 2; ++k)
        {
          const double v_star    = k == 0 ? foundation_velocity : 0.;
          const double velocity  = v_star + solution.slip[k];
          state.friction_force[k] = r[k] - a * solution.slip[k];
          state.displacement[k] +=
            time_step * (theta * velocity + (1 - theta) * state.velocity[k]);
          state.velocity[k] = velocity;
          state.incoming[k] = incoming[k];
        }
      state.stick       = solution.stick;
      state.iterations  = solution.iterations;
      state.n_solutions = solution.n_solutions;
    }



    bool
    ContactBoundary::unique_at(const double pressure) const
    {
      return surface_mass + impedance_tangential >
             pressure * mu.lipschitz_constant();
    }
  } // namespace Slab
} // namespace stickslip
