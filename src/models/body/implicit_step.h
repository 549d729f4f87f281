#ifndef stickslip_models_body_implicit_step_h
#define stickslip_models_body_implicit_step_h

#include <deal.II/base/function_parser.h>
#include <deal.II/base/partitioner.h>

#include <deal.II/lac/affine_constraints.h>

#include <base/checkpoint_archive.h>
#include <base/global.h>
#include <friction/friction_law.h>
#include <linear_algebra/elasticity_amg.h>
#include <linear_algebra/spd_solver.h>
#include <models/body/body_discretization.h>
#include <models/body/body_parameters.h>
#include <time/generalized_alpha.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /** What one implicit step did: works of the constraint forces [J]. */
    struct ImplicitWork
    {
      /**
       * Of the contact reactions, trapezoidal rule, less the friction's
       * dissipation and the foundation's work (either sign).
       */
      double contact    = 0;
      double prescribed = 0; ///< of the reactions of prescribed unknowns
      double load       = 0; ///< of the loads, trapezoidal rule
      double friction   = 0; ///< dissipated on the slip, mu P |ds| >= 0
      double foundation = 0; ///< of the friction forces on the floor's motion
      /** The generalized-alpha method's dissipation (doc/theory.md §7.14). */
      double numerical = 0;
    };

    /**
     * The active set of an implicit step did not settle: a RunError that
     * the adaptive steps catch to halve the step (BodyEvolution).
     */
    class ActiveSetNotSettled : public RunError
    {
    public:
      using RunError::RunError;
    };

    /**
     * How a law with a rate decides its slipping nodes in a step (doc/
     * theory.md §7.7): the limit rule 3, or rule 3' with the law's tangent
     * for a step that the limit rule did not settle.
     */
    enum class RateLawRule
    {
      limit,
      complementarity
    };

    /**
     * The friction coefficient mu~(V) of one contact node over one step
     * and its derivative in the slip rate V: the node's law over the step
     * (StepFriction: a law with a rate or a state), or a constant mu.
     */
    class NodeFriction
    {
    public:
      explicit NodeFriction(const StepFriction &law)
        : law(law)
        , constant(0)
      {}

      explicit NodeFriction(const double mu)
        : constant(mu)
      {}

      double
      value(const double rate) const
      {
        return law ? law->value(rate) : constant;
      }

      double
      derivative(const double rate) const
      {
        return law ? law->derivative(rate) : 0.;
      }

    private:
      std::optional<StepFriction> law;
      double                      constant;
    };



    /**
     * Read-only views of the contact nodes' state of an ImplicitStep
     * (ImplicitStep::contact_nodes()): what the contact series writes
     * (ImplicitContactValues in contact_output.h). Per owned contact node
     * k: its normal unknown and dim - 1 tangential unknowns (local
     * indices), g_i, P_i/A_i, A_i, mu_i, the active and stuck flags; the
     * reactions R (tangential rows: the friction force on the body), u_T
     * at t0 and the foundation's displacement X_* since t0.
     */
    struct ImplicitContactNodes
    {
      const std::vector<unsigned int> &normal_unknown;
      const std::vector<unsigned int> &tangential_unknown;
      const std::vector<double>       &gap;
      const std::vector<double>       &pressure;
      const std::vector<double>       &area;
      const std::vector<double>       &mu;
      const std::vector<bool>         &active;
      const std::vector<bool>         &stuck;
      const BodyVector                &reaction;
      const BodyVector                &reference;
      const std::vector<double>       &foundation_displacement;
      /** v_*(t) (dim components), null without friction. */
      const FunctionParser<1> *foundation_velocity;
      bool                     quasi_static;
      /** 2 against the mirror image (the fault's gap and slip), else 1. */
      double pair;
    };



    /**
     * Body/Time scheme = implicit (doc/theory.md §7.7): Newmark's average
     * acceleration scheme (beta = 1/4, gamma = 1/2) with the lumped mass M
     * (the contact nodes' normal mass redistributed, §7.5: the body gives
     * it) and exact unilateral, frictionless contact at the end of the step,
     *
     *   M a^{n+1} + K u^{n+1} = f^{n+1} + R^{n+1},
     *   u^{n+1} = u^n + dt v^n + dt^2/4 (a^n + a^{n+1}),
     *   v^{n+1} = v^n + dt/2 (a^n + a^{n+1}),
     *
     * R^{n+1} = -sum_i P_i n e_i the nodal contact forces with the
     * Signorini conditions g_i = g0_i - u_i.n >= 0, P_i >= 0, P_i g_i = 0
     * at every contact node. Eliminating a^{n+1}:
     *
     *   (K + c0 M) u^{n+1} = b + R^{n+1},  c0 = 4/dt^2,
     *   b = f^{n+1} + M (c0 (u^n + dt v^n) + a^n),
     *
     * solved by the primal-dual active-set method (Hueber, Stadler and
     * Wohlmuth 2008; a semismooth Newton method for the complementarity
     * function P - max(0, P - c g), Alart and Curnier 1991): on the active
     * set A the normal displacement is fixed to the gap (u_i.n = g0_i), off
     * it P_i = 0; each iteration solves the elastic problem with these
     * constraints (and the prescribed displacements) by conjugate gradients
     * with algebraic multigrid on the assembled K + c0 M, reads P_i from the
     * residual at the active nodes, and moves a node out of A where P_i <= 0
     * and into A where g_i < -delta (delta = 1e-9 times the smallest cell
     * diameter: round-off cannot cycle a node at zero gap). It stops when A
     * does not change; more than Body/Maximum active-set iterations is a
     * RunError. The contact normal must be a coordinate axis.
     *
     * Energy: the scheme's exact balance E^{n+1} - E^n = (u^{n+1} - u^n).
     * (F^n + F^{n+1})/2, F = f + R, E = v.M v/2 + u.K u/2, books the
     * contact forces' work (either sign: the contact at the end of the
     * step is not energy-consistent) as impact_work.
     *
     * Body/Time scheme = quasi-static (doc/theory.md §7.8) is the same step
     * with no inertia, c0 = 0 and b = f^{n+1}: K u^{n+1} = f^{n+1} +
     * R^{n+1}, the loads and prescribed displacements at the load parameter
     * t^{n+1}, the velocity and acceleration 0. The friction's fixed point
     * then weighs the slip by the diagonal K_ii instead of c0 m_i. The
     * prescribed unknowns must hold every rigid-body mode (the constructor
     * throws an InputError otherwise): before contact the body is not
     * held by anything else.
     *
     * Body/Contact/Counterpart = mirror (doc/theory.md §7.6): the gap is
     * g0 - 2 u.n (an active node holds u.n = g0/2) and the fault slips by
     * 2 ds, the rate a law sees; without inertia at the contact nodes
     * (their normal mass is redistributed) nothing else of the pair
     * enters the step. Contact law = prescribed traction: the contact
     * never opens, -S_p A_i n is a load on each contact node at both
     * ends of the step and S_p A_i is the P of its friction bound.
     */
    template <int dim>
    class ImplicitStep
    {
    public:
      /**
       * @p mass the lumped mass (owned entries), @p prescribed the local
       * indices of the prescribed unknowns, @p area the nodal areas of the
       * contact boundary (with Body/Contact only).
       */
      ImplicitStep(const BodyDiscretization<dim>   &mesh,
                   const BodyParameters            &parameters,
                   const BodyVector                &mass,
                   const std::vector<unsigned int> &prescribed,
                   const BodyVector                &area,
                   const ParameterSource           &source);

      /**
       * a^0 = M^{-1} (f - K u) (@p force = f - K u at @p t0) at the
       * unknowns with mass, R^0 = 0, every contact node at zero gap that
       * f - K u pushes into the foundation active (with a prescribed
       * traction: every node, P_i = S_p(t0) A_i).
       */
      void
      initialize(const double      t0,
                 const BodyVector &displacement,
                 const BodyVector &force);

      /**
       * One step of size @p dt from @p t: @p displacement and @p velocity from
       * t^n to t^{n+1}; @p load_now and @p load_next the loads f^n, f^{n+1}
       * (empty: none); @p prescribed_values u_D(t^{n+1}) of the prescribed
       * unknowns (in the constructor's order); the works into @p work
       * (this rank's share). Throws a RunError when the active set does
       * not settle (collective), before @p displacement and @p velocity
       * change. @p rule: RateLawRule::complementarity repeats, from the
       * state of the last save_state(), a step that the limit rule did not
       * settle (can_repeat_by_complementarity()).
       */
      void
      step(const double               t,
           const double               dt,
           BodyVector                &displacement,
           BodyVector                &velocity,
           const BodyVector          &load_now,
           const BodyVector          &load_next,
           const std::vector<double> &prescribed_values,
           ImplicitWork              &work,
           const RateLawRule          rule = RateLawRule::limit);

      /**
       * The state beyond u and v at the start of a step (a, R, the contact
       * and stick flags, the slip forces, the foundation's displacement):
       * an adaptive step repeats a step from it (restore_state()). The
       * counts since t0 keep the work of the repeated steps.
       */
      void
      save_state();

      /** Back to the state of the last save_state(). */
      void
      restore_state();

      /**
       * Whether a step whose active set did not settle may be repeated with
       * RateLawRule::complementarity: a law with a rate and a
       * complementarity constant > 0.
       */
      bool
      can_repeat_by_complementarity() const;

      /**
       * The contact nodes whose contact or stick flag differs between the
       * start and the end of the last step (over all ranks): the event
       * indicator of the adaptive steps.
       */
      unsigned long
      flag_changes_of_last_step() const
      {
        return last_flag_changes;
      }

      /**
       * Whether the caller can cut the step (adaptive steps above the
       * smallest substep): an attempt whose active set cycles (makes a
       * change of its sets it had made before) then ends with
       * ActiveSetNotSettled instead of going on one change at a time
       * (guard_against_cycling()).
       */
      void
      set_step_can_be_cut(const bool can)
      {
        step_can_be_cut = can;
      }

      /**
       * An accepted step's numerical dissipation @p work.numerical (the
       * generalized-alpha method), booked since t0.
       */
      void
      book_numerical_dissipation(const ImplicitWork &work)
      {
        numerical_share += work.numerical;
      }

      /**
       * The generalized-alpha method's dissipation since t0 (collective;
       * 0 with Newmark's average acceleration and quasi-static).
       */
      double
      numerical_dissipation() const;

      /** Whether history.csv has numerical_dissipation (rho_inf < 1). */
      bool
      dissipates_numerically() const
      {
        return !quasi_static && !average_acceleration;
      }

      /** a, R and the active set (collective when read or written). */
      void
      register_state(CheckpointArchive &archive);

      /** The names of history_values(). */
      std::vector<std::string>
      history_columns() const;

      /**
       * contact_fraction, normal_force, mean_pressure, mean_gap (with
       * contact), then the active-set iterations and changes and the CG
       * iterations since t0 (collective).
       */
      std::vector<double>
      history_values(const BodyVector &displacement) const;

      /**
       * The stuck area over the area in contact, NaN without a frictional
       * node (collective).
       */
      double
      stick_fraction() const;

      /**
       * The contact nodes at the end of the last step as a CSV table (on
       * rank 0; empty elsewhere; collective): x, y(, z), the gap g, the
       * pressure P_i/A_i, the nodal normal force P_i, the nodal area A_i,
       * the tangential reactions R_T, active (1) and stuck (1) flags, and
       * the node's displacement @p u (u_x, u_y(, u_z)). The nodal pressure
       * of the Hertz check (postprocess/hertz.py); the displacements show
       * that a stuck node did not move (tests/body/check_cattaneo.py).
       */
      std::string
      contact_table(const BodyVector &u) const;

      /** The contact nodes' state, for the contact series. */
      ImplicitContactNodes
      contact_nodes() const
      {
        return {normal_unknown,
                tangential_unknown,
                gap,
                pressure,
                area_of_node,
                mu,
                active,
                stuck,
                reaction,
                reference,
                foundation_displacement,
                foundation_velocity.get(),
                quasi_static,
                pair};
      }

      /** For the log: the solver and the counts (collective). */
      std::string
      summary() const;

      /** "Newmark average acceleration, ..." */
      std::string
      description() const;

    private:
      /** c0 = 4/dt^2 of Newmark's scheme, 0 quasi-static. */
      double
      inertia_coefficient(const double dt) const;

      /**
       * The friction of the step from @p t to t + @p dt: mu_i switched on
       * by Contact/Friction from time, the foundation's slip increment.
       */
      void
      begin_friction_step(const double t, const double dt);

      /**
       * Quasi-static: an InputError (naming Body/Time scheme) when the
       * prescribed unknowns leave a rigid-body mode free.
       */
      void
      check_rigid_modes(const ParameterSource &source) const;

      /** Each owned cell's stiffness matrix and DoF indices to @p add. */
      void
      for_each_cell_stiffness(
        const std::function<void(const FullMatrix<double> &,
                                 const std::vector<types::global_dof_index> &)>
          &add) const;

      /**
       * The pull spring's share of the step's right-hand side @p b (the
       * driver at t and t + @p dt into driver_now, driver_next).
       */
      void
      add_spring_load(const double      t,
                      const double      dt,
                      const BodyVector &displacement,
                      BodyVector       &b);

      /**
       * Newmark's average acceleration (7.7.3): the step's right-hand side
       * @p b and the start @p predictor of its active set.
       */
      void
      newmark_right_hand_side(const double      dt,
                              const BodyVector &displacement,
                              const BodyVector &velocity,
                              const BodyVector &load_next,
                              BodyVector       &b,
                              BodyVector       &predictor) const;

      /**
       * The start of a step's counts: its RateLawRule @p rule (a repeated
       * step's abandoned cycles counted apart), the flags at its start.
       */
      void
      begin_counts(const RateLawRule rule);

      /**
       * Generalized alpha (doc/theory.md §7.14): the step's right-hand side
       * @p b and the start @p predictor of its active set.
       */
      void
      alpha_right_hand_side(const double      dt,
                            const BodyVector &displacement,
                            const BodyVector &velocity,
                            const BodyVector &load_now,
                            const BodyVector &load_next,
                            BodyVector       &b,
                            BodyVector       &predictor);

      /**
       * The works of the prescribed and contact rows' constraint forces,
       * du.(@p old_weight R^n + @p new_weight R^{n+1}) (R^{n+1} from
       * @p force), and the friction's (finish_friction()); R^n := R^{n+1}
       * is left to the caller. Returns the rows that carry a constraint.
       */
      std::vector<bool>
      book_constraint_works(const BodyVector &u,
                            const BodyVector &force,
                            const BodyVector &displacement,
                            const double      old_weight,
                            const double      new_weight,
                            ImplicitWork     &work);

      /**
       * finish_step() of the generalized-alpha method: the works of the
       * forces of the intermediate level, the numerical dissipation, a, v,
       * u of t^{n+1}.
       */
      void
      finish_alpha_step(const double      dt,
                        const BodyVector &u,
                        const BodyVector &force,
                        BodyVector       &displacement,
                        BodyVector       &velocity,
                        const BodyVector &load_now,
                        const BodyVector &load_next,
                        ImplicitWork     &work);

      /** K_ii of the tangential unknowns (constructor, with friction). */
      void
      set_up_tangential_stiffness();

      /** (K + c0 M) @p x into @p y (c0 M with the lumped mass). */
      void
      apply_effective(BodyVector &y, const BodyVector &x, const double c0);

      /**
       * The constraints: periodic, prescribed unknowns and active contact
       * nodes' normal unknowns (homogeneous: the solve is for a correction),
       * then K + c0 M assembled with them and the AMG set up.
       */
      void
      assemble(const double c0);

      /**
       * After the active set settled on @p u with the constraint forces
       * @p force: the works of the step into @p work, then a, v, u of
       * t^{n+1} and R on the constrained rows.
       */
      void
      finish_step(const double      dt,
                  const BodyVector &u,
                  const BodyVector &force,
                  BodyVector       &displacement,
                  BodyVector       &velocity,
                  const BodyVector &load_now,
                  const BodyVector &load_next,
                  ImplicitWork     &work);

      /**
       * Friction: the tangential reactions and slips of the iterate @p u
       * (reactions @p residual, @p displacement at t^n) against the law:
       * the new stick set, the slip forces into next_force and the law's
       * tangents into slip_tangent (@p c0 bounds them); returns the
       * changes of the stick set and the largest change of a slip force
       * relative to the largest P times the strength at rest (over all ranks).
       */
      std::pair<unsigned long, double>
      update_friction(const BodyVector &u,
                      const BodyVector &residual,
                      const BodyVector &displacement,
                      const double      c0);

      /** Node @p k's coefficient over the current step. */
      NodeFriction
      node_friction(const std::size_t k) const;

      /**
       * A stuck node @p k with the reactions @p residual and the normal
       * force @p normal: whether its tangential reaction exceeds P mu~(0);
       * if so its slip force (the bound along the reaction) and tangent
       * into next_force and slip_tangent.
       */
      bool
      release_stuck_node(const std::size_t   k,
                         const BodyVector   &residual,
                         const double        normal,
                         const NodeFriction &law);

      /**
       * A slipping node @p k: false (it sticks) where the iterate @p u
       * slipped along the force the node was given; else its force P
       * mu~(V) against the slip (V = |ds|/dt from @p displacement at t^n)
       * and the law's tangent into next_force and slip_tangent. Coulomb's
       * law with Linear solver/Complementarity constant > 0: decided by
       * slip_by_complementarity() from the tangential rows of @p residual.
       */
      bool
      update_slipping_node(const std::size_t   k,
                           const BodyVector   &u,
                           const BodyVector   &displacement,
                           const BodyVector   &residual,
                           const double        normal,
                           const NodeFriction &law,
                           const double        c0);

      /**
       * The slipping node @p k of Coulomb's law (bound mu P = @p bound)
       * by the rule of a finite complementarity constant c (doc/theory.md
       * §7.7, rule 3'): false (it sticks) where |c @p slip - R_T| <= mu P;
       * else its force and the tangent across its direction into
       * next_force and slip_tangent.
       */
      bool
      slip_by_complementarity(const std::size_t                  k,
                              const std::array<double, dim - 1> &slip,
                              const BodyVector                  &residual,
                              const double                       normal,
                              const NodeFriction                &law,
                              const double                       c0);

      /** The mean diagonal of K + c0 M on node @p k's tangential rows. */
      double
      tangential_diagonal(const std::size_t k, const double c0) const;

      /**
       * Node @p k's tangent along @p direction d (the slip's, unit) and
       * across it: @p along d d^T + @p across (I - d d^T) into slip_tangent.
       */
      void
      set_slip_tangent(const std::size_t                  k,
                       const std::array<double, dim - 1> &direction,
                       const double                       along,
                       const double                       across);

      /** No tangent at node @p k. */
      void
      clear_slip_tangent(const std::size_t k);

      /**
       * Node @p k's tangent with its eigenvalues at least -1/2 times the
       * diagonal of K + c0 M at the node (@p c0).
       */
      void
      limit_slip_tangent(const std::size_t k, const double c0);

      /**
       * mean_strength, max_strength (the friction coefficient at rest of
       * the state) and with a state mean_ and max_friction_state.
       */
      void
      append_law_values(std::vector<double> &values) const;

      /**
       * A law: the friction reactions at t0 from @p force = f - K u (the
       * stuck node's -f_T up to P mu(0, psi), else P mu(0, psi) against
       * f_T, the node slipping) into R^0, the slip forces and a^0.
       */
      void
      initialize_law_reactions(const BodyVector &force);

      /** The laws' states after the accepted step of the iterate @p u. */
      void
      advance_law_states(const BodyVector &u, const BodyVector &displacement);

      /** stick_fraction, max_slip, friction_force_*, stick_slip_changes. */
      void
      append_friction_values(const BodyVector    &displacement,
                             std::vector<double> &values) const;

      /** The friction's works of the step (finish_step()). */
      void
      finish_friction(const BodyVector &u,
                      const BodyVector &force,
                      const BodyVector &displacement,
                      ImplicitWork     &work);

      /**
       * The held values into @p u: the prescribed @p prescribed_values,
       * the active nodes' gaps, the stuck nodes' u_T^n + ds_*.
       */
      void
      hold(BodyVector                &u,
           const BodyVector          &displacement,
           const std::vector<double> &prescribed_values) const;

      /** Zero @p r on the held unknowns and the periodic copies. */
      void
      zero_held(BodyVector &r) const;

      /**
       * After an iteration's updates (from the flags @p active_before,
       * @p stuck_before of its solve, with @p changes = the proposed
       * contact and stick changes, at @p iteration): where the new set
       * repeats one in @p seen (the step cycles) or from Body/Linear
       * solver/One change at a time from, and from then on (@p
       * one_change_at_a_time), keep only the change of the least index;
       * returns the changes applied (contact, stick; over all ranks).
       */
      std::pair<unsigned long, unsigned long>
      guard_against_cycling(
        const std::vector<bool>                       &active_before,
        const std::vector<bool>                       &stuck_before,
        std::vector<std::vector<bool>>                &seen,
        bool                                          &one_change_at_a_time,
        const std::pair<unsigned long, unsigned long> &changes,
        const unsigned int                             iteration);

      /**
       * Whether an iteration that changed no set ends the step, its slip
       * forces having moved by @p drift (relative), @p previous at the
       * iteration before if that changed no set either (else < 0).
       */
      bool
      settled(const double drift, const double previous);

      /**
       * Whether an attempt whose sets cycle ends (to be repeated by rule 3'
       * or cut) rather than going on one change at a time.
       */
      bool
      ends_attempt_at_cycle() const;

      /** A RunError after Maximum active-set iterations. */
      void
      check_iterations(const unsigned int  iteration,
                       const unsigned long changes,
                       const unsigned long slip_changes,
                       const double        drift) const;

      /**
       * Whether node @p k's normal unknown is held at the gap: active, and
       * no prescribed traction.
       */
      bool
      holds_normal(const std::size_t k) const
      {
        return active[k] && !normal_traction;
      }

      /**
       * Whether node @p k can start stuck: in contact by the active set, or
       * pressed by a prescribed traction S_p > 0.
       */
      bool
      pressed(const std::size_t k) const
      {
        return !normal_traction || pressure[k] > 0;
      }

      /**
       * Contact law = prescribed traction: S_p(x_i, @p t) into pressure (P_i
       * = S_p A_i). A negative or non-finite S_p is a RunError naming the
       * parameter.
       */
      void
      set_prescribed_pressure(const double t);

      /**
       * @p load (empty: none) plus -S_p A_i n at the contact nodes, S_p
       * from pressure, into @p with_traction.
       */
      void
      add_normal_traction(const BodyVector &load,
                          BodyVector       &with_traction) const;

      /** Which unknowns the iteration holds: active, then stuck flags. */
      std::vector<bool>
      held_set() const;

      /** The same for the flags @p contact and @p stick. */
      std::vector<bool>
      held_set(const std::vector<bool> &contact,
               const std::vector<bool> &stick) const;

      /**
       * Body/Pull spring: its unknowns (the boundary's owned nodes along
       * the axis, prescribed ones left out), k/N and the driver X(t)
       * (constructor).
       */
      void
      set_up_pull_spring(const std::vector<bool> &held,
                         const ParameterSource   &source);

      /** The pull spring's force on unknown @p m of it at X = @p driver. */
      double
      spring_force(const std::size_t m,
                   const BodyVector &u,
                   const double      driver) const;

      /** The nodes' parameters of friction (constructor). */
      void
      set_up_friction(const std::vector<Node<dim>> &nodes,
                      const std::vector<bool>      &held,
                      const ParameterSource        &source);

      /**
       * One solve of an active-set iteration from the iterate @p u (its
       * held values set): the matrix and multigrid of the current sets
       * (assembled when they changed), the correction, u += w, and the
       * constraint forces (K + c0 M) u - @p b into @p residual; returns
       * the CG iterations.
       */
      unsigned int
      solve_iterate(const BodyVector &b,
                    const double      c0,
                    BodyVector       &u,
                    BodyVector       &residual);

      /**
       * Whether CG is preconditioned by the matrix's direct factor instead
       * of the multigrid (Body/Linear solver/Preconditioner).
       */
      bool
      uses_direct_factor() const;

      /** Solve for the correction @p w with right-hand side @p r. */
      unsigned int
      solve(BodyVector &w, const BodyVector &r);

      /**
       * One active-set update from the iterate: P and g of every node, the
       * new set; returns the number of changes over all ranks.
       */
      unsigned long
      update_active_set(const BodyVector &u, const BodyVector &reaction);

      const BodyDiscretization<dim> &mesh;
      const BodyParameters          &parameters;
      const MPI_Comm                 comm;
      const bool                     quasi_static;
      /** Body/Spectral radius at infinity's scheme (implicit only). */
      const GeneralizedAlpha scheme;
      /** rho_inf = 1: Newmark's average acceleration as Newmark wrote it. */
      const bool                average_acceleration;
      BodyVector                mass;
      std::vector<unsigned int> prescribed;
      /** Periodic copies (no equation of their own). */
      std::vector<unsigned int> periodic_copies;

      // The contact nodes (owned): the normal unknown, the sign of n along
      // its axis, g0, the area; the active flags and P, g of the last step.
      std::vector<unsigned int> normal_unknown;
      double                    normal_sign;
      std::vector<double>       gap0, area_of_node, pressure, gap;
      std::vector<Point<dim>>   points; ///< of the contact nodes
      /** The global index of each contact node's normal unknown. */
      std::vector<types::global_dof_index> contact_index;
      std::vector<bool>                    active;
      double                               total_area;
      double                               gap_tolerance;
      /**
       * Counterpart = mirror: 2 (the gap g0 - 2 u.n, the fault's slip 2
       * ds), the rigid plane 1.
       */
      const double pair;
      /** Contact law = prescribed traction's S_p(x, t), else null. */
      std::unique_ptr<FunctionParser<dim>> normal_traction;

      // Friction: the tangential unknowns (dim - 1 per node, the axes but
      // the normal's), mu_i (0: frictionless node), the tangential masses,
      // the stuck flags, the slip forces applied (and of the next
      // iteration), the foundation's displacement over the step.
      bool                      frictional;
      std::vector<unsigned int> tangential_unknown;
      std::vector<double>       mu, tangential_mass;
      /** mu_i of the law; mu is 0 at the steps before Friction from time. */
      std::vector<double> law_mu;
      /** K_ii of the tangential unknowns. */
      std::vector<double> tangential_stiffness;
      /**
       * The slipping nodes' -dF/d(ds), a (dim - 1) x (dim - 1) block per
       * contact node, row by row: P mu~'(V)/dt along the slip and, in 3D,
       * P mu~(V)/|ds| across it (0 stuck; in 2D 0 for the constant law):
       * the tangent in the step's operator (StepOperator in
       * implicit_step.cc).
       */
      std::vector<double> slip_tangent;
      std::vector<bool>   stuck;
      std::vector<double> slip_force, next_force;
      /**
       * The normal force P with which each node's slip force was given
       * (given_normal, of slip_force) and is being given (next_normal, of
       * next_force): rule 3' asks whether the slip went through rest
       * against the bound of the force it was given
       * (slip_by_complementarity()).
       */
      std::vector<double>                given_normal, next_normal;
      std::vector<double>                shift;
      std::unique_ptr<FunctionParser<1>> foundation_velocity;
      // X_* the foundation's displacement since t0 and u_T(t0): the slip
      // of history's max_slip; the slip forces as a vector (snapshots).
      std::vector<double> foundation_displacement;
      BodyVector          reference, slip_marker;

      // A law with a rate or a state (not constant, §7.12): the law of each
      // contact node, its state psi^n (the slip D, theta; 0 without a
      // state), the slip rate s = -ds/dt of the last accepted step (the
      // branch the nodal solve continues on, dim - 1 per node), the step
      // of the current step, and the snapshot's vectors of the two.
      bool law_with_rate;
      // Rule 3' for the rate laws' nodes: the step's RateLawRule (its counts
      // are this run's, not in snapshots).
      bool                     rate_laws_by_complementarity      = false;
      unsigned long            steps_repeated_by_complementarity = 0;
      unsigned long            safeguards_at_step_start          = 0;
      unsigned long            abandoned_safeguards              = 0;
      std::vector<FrictionLaw> laws;
      std::vector<double>      law_state, last_rate;
      double                   step_size;
      BodyVector               state_marker, rate_marker;

      // Body/Pull spring: the unknowns it holds, k/N, X(t), u_i(t0) at
      // them (snapshots), X at the ends of the current step and at the
      // last accepted step's end.
      std::vector<unsigned int>          spring_unknown;
      double                             spring_stiffness;
      std::unique_ptr<FunctionParser<1>> driver;
      BodyVector                         spring_origin;
      double                             driver_now, driver_next, driver_value;

      // The state beyond u, v: a^n and R^n (constraint rows only), the
      // active set as a vector (1 at active nodes' normal unknowns).
      BodyVector acceleration, reaction, active_marker;

      // The assembled K + c0 M with the constraints of assembled_for.
      IndexSet                                           relevant_dofs;
      std::shared_ptr<const Utilities::MPI::Partitioner> relevant_partitioner;
      DistributedMatrix                                  matrix;
      std::unique_ptr<ElasticityAmg>                     amg;
      /** Linear solver/Preconditioner = direct: the matrix's factor. */
      std::unique_ptr<SpdSolver> factor;
      std::vector<bool>          assembled_for; ///< active set of the matrix
      double                     assembled_c0;
      DistributedVector          rhs, solution;

      // Counts since t0 (the same on every rank).
      unsigned long steps, newton_iterations, active_set_changes, cg_iterations,
        assemblies;
      unsigned long max_newton, max_cg, stick_slip_changes;
      /** Steps whose active set cycled (guard_against_cycling()). */
      unsigned long safeguards;
      /**
       * Attempts ended where their sets cycled, to be repeated by rule 3'
       * or cut (this run's count, not in snapshots), and whether a cut is
       * available (set_step_can_be_cut()).
       */
      unsigned long attempts_ended_at_cycle = 0;
      bool          step_can_be_cut         = false;
      /** Steps ended at the linear solves' noise (settled()). */
      unsigned long noise_floor_ends;

      /** The flags' changes over the last step (its start's flags). */
      unsigned long     last_flag_changes = 0;
      std::vector<bool> active_at_start, stuck_at_start;

      /** What save_state() keeps. */
      struct SavedState
      {
        BodyVector          acceleration, reaction;
        std::vector<bool>   active, stuck;
        std::vector<double> slip_force, next_force, pressure, gap;
        std::vector<double> given_normal, next_normal;
        std::vector<double> foundation_displacement;
        std::vector<double> law_state, last_rate;
        double              driver_value;
      } saved;

      /**
       * The generalized-alpha method's dissipation since t0: this rank's
       * share, and the total a snapshot keeps (rank 0 carries it on).
       */
      double numerical_share, numerical_total;

      /** The near-null space of the multigrid. */
      const std::vector<DistributedVector> rigid_modes;
    };
  } // namespace Body
} // namespace stickslip

#endif
