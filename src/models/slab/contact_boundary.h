#ifndef stickslip_models_slab_contact_boundary_h
#define stickslip_models_slab_contact_boundary_h

#include <friction/contact_node.h>
#include <friction/isotropic_inclusion.h>
#include <models/slab/slab_parameters.h>

#include <array>

namespace stickslip
{
  namespace Slab
  {
    /** The state of the contact node z = 0 at one time level. */
    struct BoundaryState
    {
      double       gap;              ///< w = u_3(t, 0) >= 0 (non-regularized)
      double       normal_velocity;  ///< u_3,t(t, 0)
      double       pressure;         ///< S, (51)
      Tangential   velocity;         ///< u_T,t(t, 0)
      Tangential   incoming;         ///< b_T+(t, 0)
      Tangential   friction_force;   ///< f in S mu Dir(v_s) [Pa]
      Tangential   displacement;     ///< u_T(t, 0)
      bool         stick;            ///< slip velocity exactly zero
      unsigned int iterations;       ///< of the slip-speed solve
      unsigned int n_solutions;      ///< solutions of (52) found
      double       residual  = 0;    ///< of the slip-speed solve
      bool         converged = true; ///< the slip-speed solve converged
      double friction_state  = 0; ///< of the friction law (Slab/Friction law)
      double coefficient     = 0; ///< mu~ of the last step at its slip rate
      double slip            = 0; ///< int |v_s| dt in contact [m]
      double rupture_time = -1;   ///< first |v_s| > V_r in contact; -1: not yet
    };

    /**
     * The boundary schemes at z = 0 (doc/theory.md §4.6 steps 3-5) for a
     * theta in [1/2, 1] (theta = 1: the paper's implicit Euler scheme):
     * - normal, non-regularized (47)-(48): w^{n+1} = (y)^+ with
     *   y = w^n + dt (theta b3+^{n+1} + (1 - theta) u3,t^n); the boundary
     *   moves with b3+ when the gap is open or opening, else u3,t = 0;
     * - normal, regularized (49)-(50): the theta-method for
     *   w' = b3+ + max(-w, 0)/eta~, eta~ = rho c2 eta, solved exactly
     *   (piecewise linear);
     * - pressure (51): S = rho c2 (u3,t - b3+) >= 0;
     * - tangential (52) with the surface mass epsilon, divided by
     *   dt theta/epsilon so that epsilon = 0 is allowed:
     *   (m + g) v^{n+1} + f^{n+1} = m v^n + g bT+^{n+1}
     *     + (1 - theta)/theta (g (bT+^n - v^n) - f^n),
     *   m = epsilon/(theta dt), g = G/c1, f^{n+1} in S mu(|s|) Dir(s),
     *   s = v^{n+1} - v_*, solved exactly by solve_isotropic_inclusion().
     * The node's normal and friction laws are the shared ContactNode
     * (friction/contact_node.h) with Z = rho c2 (normal), a = m + g
     * (tangential) and the ClosingVelocity::at_rest rule; this class forms
     * the slab's predicted gap, free velocity b3+ and right-hand side r from
     * the characteristics and integrates the tangential displacement. A
     * friction law with a state (Slab/Friction law) enters the friction
     * step with the state consistent with the step's slip rate
     * (doc/theory.md §8.3); the state after the step, the slip and the
     * rupture time are part of the BoundaryState.
     * The class holds no state of its own: it maps one BoundaryState to
     * the next.
     */
    class ContactBoundary
    {
    public:
      ContactBoundary(const SlabParameters &parameters, const double time_step);

      /**
       * The state at t0 from u^0, its gradient and u^1 at z = 0. The initial
       * friction force is S mu Dir(s^0) when sliding, else the shear
       * traction G u_T,3 projected on the disc of radius mu_s S.
       */
      BoundaryState
      initial_state(const std::array<double, 3> &displacement,
                    const std::array<double, 3> &gradient,
                    const std::array<double, 3> &velocity,
                    const double                 t0 = 0) const;

      /** The friction law of the node. */
      const FrictionLaw &
      friction_law() const;

      /**
       * Advance @p state by one step to the time @p next_time given
       * b+(t^{n+1}, 0).
       */
      void
      step(const std::array<double, 3> &incoming,
           BoundaryState               &state,
           const double                 next_time = 0) const;

      /**
       * Whether (52) is uniquely solvable at pressure S (doc/theory.md §4.7,
       * §8.3; for a law with a state, from its initial state).
       */
      bool
      unique_at(const double pressure) const;

    private:
      const double      time_step;
      const double      theta;
      const double      c1;
      const double      c2;
      const double      impedance_normal;     ///< rho c2
      const double      impedance_tangential; ///< g = G/c1 = rho c1
      const double      surface_mass;         ///< epsilon/(theta dt)
      const double      foundation_velocity;
      const double      rupture_slip_rate;
      const ContactNode node;
    };
  } // namespace Slab
} // namespace stickslip

#endif
