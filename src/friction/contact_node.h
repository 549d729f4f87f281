#ifndef stickslip_friction_contact_node_h
#define stickslip_friction_contact_node_h

#include <friction/friction_law.h>
#include <friction/isotropic_inclusion.h>

namespace stickslip
{
  /** The normal law of a contact node (Renard 2001, eqs. (3)/(14) and (37)). */
  enum class NormalContactLaw
  {
    unilateral, ///< Signorini: gap >= 0, pressure >= 0, gap * pressure = 0
    compliant   ///< normal compliance: pressure = max(-gap, 0)/eta
  };

  /**
   * Which velocity a closed unilateral contact gets: the two time
   * discretizations that share the node solver differ only here.
   */
  enum class ClosingVelocity
  {
    /**
     * The velocity is a value at the new time level, and a closed contact
     * is at rest there (Renard 2001, eq. (48): u3,t = 0 in contact unless the
     * incoming wave pulls the boundary away). The gap is integrated on its
     * own. Used by the slab.
     */
    at_rest,
    /**
     * The velocity is that of the step, u^{n+1} = u^n + dt v: a closed
     * contact gets the velocity that closes the gap exactly, -gap^n/dt
     * (the explicit central-difference contact of Carpenter, Taylor and
     * Katona 1991). Used by the finite-element body.
     */
    closes_gap
  };

  /** The normal state of a contact node after a step. */
  struct NormalUpdate
  {
    double gap;      ///< w^{n+1}: distance to the foundation (>= 0 unilateral)
    double velocity; ///< separation velocity (positive: the gap opens)
    double pressure; ///< S^{n+1} >= 0 [Pa]
  };

  /** The tangential state of a contact node after a step. */
  struct TangentialUpdate
  {
    Tangential   slip;           ///< s = v_T - v_*; exactly (0, 0) when stuck
    Tangential   friction_force; ///< f = r - a s in S mu(|s|) Dir(s) [Pa]
    bool         stick;          ///< s = 0 was selected
    unsigned int n_solutions;    ///< solutions of the inclusion found
    unsigned int iterations;     ///< of the slip-speed solve
    double       residual;  ///< of the slip-speed solve (InclusionSolution)
    bool         converged; ///< InclusionSolution::converged()
    double       state;     ///< the law's state after the step
    /** mu~(|s|): the friction coefficient of the step at its slip rate. */
    double coefficient;
    /** L of the step (StepFriction::lipschitz_constant()). */
    double lipschitz_bound;
    bool   unique; ///< a > S L: the step had exactly one solution
  };

  /** The constant data of the contact nodes of a model. */
  struct ContactLaw
  {
    NormalContactLaw normal_law;
    double           compliance; ///< eta of (37) [m/Pa] (compliant law only)
    ClosingVelocity  closing;
    FrictionLaw      friction; ///< of every node, unless given per node
    unsigned int
      scan_points; ///< of the root scan when (52) may have several solutions
  };

  /**
   * The contact and friction solver of one node, shared by the 1D slab
   * (Model = slab, at its node z = 0) and the finite-element body
   * (Model = body, at every node of the contact boundary): Renard's
   * implicit boundary scheme, Renard 2001, eqs. (47)-(52), written for a node
   * with an impedance Z (pressure per unit of velocity change):
   *
   * - the slab: Z = rho c2 (normal) and a = G/c1 + epsilon/(theta dt)
   *   (tangential), the impedances of the characteristics plus the surface
   *   mass (doc/body.md);
   * - the finite-element body: Z = a = m~_i/(A_i dt), the nodal mass (lumped
   *   mass plus epsilon A_i) over the nodal contact area A_i and the step
   *   (doc/body.md).
   *
   * Normal (unilateral, (47)-(48)): from the predicted gap y = w^n + dt v
   * (v the free separation velocity, as the step would move the node
   * without contact), w^{n+1} = max(y, 0); an open or opening node moves
   * freely with S = 0; a closed one gets the velocity of @p closing and the
   * pressure S = Z (v - v_free) >= 0 of the impulse that stops it.
   * Compliant ((49)-(50)): S = max(-w^{n+1}, 0)/eta solved implicitly,
   * w^{n+1} = y / (1 + theta dt/(Z eta)) when y < 0, v = v_free + S/Z.
   *
   * Tangential ((52) with mu(|s|)): a s + S mu(|s|) Dir(s) \ni r, solved
   * exactly by solve_isotropic_inclusion(). It is uniquely solvable when
   * a > S L_mu (doc/body.md, uniqueness); otherwise the solution nearest the
   * previous slip is selected and the step counted as ambiguous. A law with
   * a state psi (slip weakening, rate and state, time weakening) enters
   * with the state consistent with the step's slip rate,
   * mu~(|s|) = mu(|s|, psi(t^n + dt)) with psi integrated exactly at that
   * rate (StepFriction, doc/theory.md §8.3), and the step returns the new
   * state.
   *
   * The object holds no state of its own: it maps the quantities of one
   * step to those of the next (the caller keeps the law's state per node).
   */
  class ContactNode
  {
  public:
    explicit ContactNode(const ContactLaw &law);

    /**
     * The normal step: @p gap w^n, @p predicted_gap y (the gap if the node
     * moved freely over the step), @p free_velocity the separation
     * velocity without contact at the new level, @p impedance Z > 0,
     * @p implicit_step theta dt (the compliant law's implicit weight).
     * w^n enters only the closes_gap rule, whose scheme is explicit
     * (theta = 1): there @p implicit_step is the step dt itself.
     */
    NormalUpdate
    normal_step(const double gap,
                const double predicted_gap,
                const double free_velocity,
                const double impedance,
                const double implicit_step) const;

    /**
     * The tangential step: solve a s + S mu(|s|) Dir(s) \ni r with
     * a = @p impedance, S = @p pressure; @p previous_slip selects among
     * several solutions.
     */
    TangentialUpdate
    tangential_step(const double      impedance,
                    const double      pressure,
                    const Tangential &r,
                    const Tangential &previous_slip) const;

    /**
     * The tangential step with the law @p friction from its state @p state
     * over a step of length @p dt: a s + S mu~(|s|) Dir(s) \ni r, then the
     * state after the step at the rate |s| (TangentialUpdate::state).
     */
    TangentialUpdate
    tangential_step(const double       impedance,
                    const double       pressure,
                    const Tangential  &r,
                    const Tangential  &previous_slip,
                    const FrictionLaw &friction,
                    const double       state,
                    const double       dt) const;

    /**
     * Whether the tangential step of the law of every node is uniquely
     * solvable: a > S L_mu (a law without state).
     */
    bool
    unique(const double impedance, const double pressure) const;

    /** The law of every node (ContactLaw::friction). */
    const FrictionLaw &
    friction_law() const;

    /** ContactLaw::scan_points. */
    unsigned int
    scan_points() const;

  private:
    const ContactLaw law;
  };
} // namespace stickslip

#endif
