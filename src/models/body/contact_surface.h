#ifndef stickslip_models_body_contact_surface_h
#define stickslip_models_body_contact_surface_h

#include <deal.II/base/function_parser.h>

#include <base/checkpoint.h>
#include <base/global.h>
#include <base/input_error.h>
#include <friction/contact_node.h>
#include <models/body/body_discretization.h>
#include <models/body/body_parameters.h>

#include <memory>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /** What the nodal contact and friction of one step did, summed over the
     * nodes. */
    struct ContactWork
    {
      double dissipation = 0; ///< friction work on the slip, dt A f.s >= 0 [J]
      /**
       * The work of the nodal corrections on the body beyond the friction
       * dissipation and the foundation's work [J]: without friction, <= 0,
       * what the scheme's impacts (a node stopped in one step) remove; with
       * friction also an O(dt) term of either sign (the friction force works
       * with the mean velocity, the dissipation is counted with the slip of
       * the step).
       * The work of a correction is taken with the mean velocity of the
       * step, (v^{n-1/2} + v^{n+1/2})/2, the velocity for which the
       * central-difference scheme's energy balance is exact.
       */
      double        impact_work     = 0;
      double        foundation_work = 0; ///< work of the moving foundation [J]
      unsigned long ambiguous_nodes =
        0; ///< nodes whose friction step had several solutions
      unsigned long iterations = 0; ///< of the slip-speed solves
    };

    /** The state of the contact surface, reduced over the ranks. */
    struct SurfaceStatistics
    {
      double contact_fraction; ///< area in contact (S > 0) / area of Gamma_C
      double stick_fraction;   ///< stuck area / area in contact
      double mean_slip_rate;   ///< over the area in contact
      double max_slip_rate;    ///< over the nodes in contact
      double normal_force;     ///< sum A_i S_i [N (2D: N/m)]
      double mean_pressure;    ///< normal force / area of Gamma_C
      double mean_gap;         ///< area-weighted gap g0 - u.n
      double max_tangential_displacement; ///< largest |u_T - u0_T| of a node
      std::vector<double> friction_force; ///< on the body, tangent coordinates
      std::vector<double>
        mean_slip; ///< area-weighted slip velocity, tangent coordinates
      /** Area slipping faster than the rupture slip rate / area in contact. */
      double slipping_fraction;
      double ruptured_fraction; ///< area that has ruptured / area of Gamma_C
      /**
       * The extent of the ruptured area along each tangent t_j: the least
       * and the largest x.t_j of a ruptured node (0, 0 before any), the
       * positions of the two rupture fronts of a 2D interface.
       */
      std::vector<double> front_min, front_max;
    };

    /** The state of a contact node after a step, for output. */
    enum class NodeStatus : unsigned char
    {
      separated = 0,
      stick     = 1,
      slip      = 2
    };

    /**
     * The contact boundary Gamma_C of the body against a rigid foundation
     * (the plane with outward normal n of the body, moving with v_*(t) in
     * its plane), treated node by node as in the explicit dynamics of
     * Carpenter, Taylor and Katona (1991) with Renard's boundary laws
     * (doc/body.md): at every owned contact node, from the velocity v_pr
     * the free step predicts, the node solver (ContactNode, shared with the
     * slab) applies
     * - the normal contact (Renard 2001, eqs. (47)-(48), or the compliant
     * (49)-(50)) on the nodal gap w = g0 - u.n with the impedance m_i/(A_i dt)
     * of the lumped mass m_i, the pressure S from the impulse that stops the
     *   node;
     * - the implicit Euler friction step (52) with mu(|s|), s = v_T - v_*,
     *   with the impedance Z = m~_i/(A_i dt) of the tangential mass
     *   m~_i = m_i + epsilon A_i: the surface mass epsilon of Renard 2001, eq.
     * (29) perturbs the friction condition (30) only, as in the slab, where the
     *   normal problem (31)-(32) has none. Uniquely solvable when
     *   Z > S L_mu.
     * The friction law (Body/Contact/Friction law) may vary from node to
     * node and carry a state per node (slip weakening, rate and state, time
     * weakening; doc/theory.md §8): the step uses the law with the state
     * consistent with its slip rate, and the node keeps the state after it,
     * with its slip (the path length of the slip, int |s| dt) and its
     * rupture time (the first time its slip rate exceeds Friction
     * law/Rupture slip rate in contact), all registered for snapshots.
     * No communication is needed: each node's unknowns are owned by its rank.
     */
    template <int dim>
    class ContactSurface
    {
    public:
      /**
       * The owned contact nodes of @p discretization, with their lumped
       * masses @p mass and areas @p area (the tangential masses add
       * Body/Contact/Surface mass times the area),
       * but for the nodes whose every component is prescribed
       * (@p fully_prescribed, by the local index of a node's first unknown):
       * they cannot move, so they cannot touch.
       */
      ContactSurface(const BodyDiscretization<dim> &discretization,
                     const ContactParameters       &parameters,
                     const std::string             &variables,
                     const BodyVector              &mass,
                     const BodyVector              &area,
                     const std::vector<bool>       &fully_prescribed,
                     const ParameterSource         &source);

      /**
       * Check the initial displacement @p displacement (the value of
       * Body/Initial displacement, @p initial_displacement as written): a
       * non-finite gap, a negative initial gap g0 (naming Body/Contact/
       * Initial gap) or an initial penetration u0.n > g0 (naming Body/Initial
       * displacement), beyond 1e-12 @p length_scale at a node, is an
       * InputError naming the node's place (collective).
       */
      void
      check_initial_gap(const BodyVector      &displacement,
                        const std::string     &initial_displacement,
                        const double           length_scale,
                        const ParameterSource &source) const;

      /**
       * v_* must be finite at @p t0 and @p final_time, and (within
       * round-off) in the foundation's plane: InputErrors naming
       * Body/Contact/Foundation velocity. A prescribed normal traction must
       * be finite and >= 0 at every node at @p t0 and @p final_time: an
       * InputError naming Body/Contact/Normal traction (collective).
       */
      void
      check_foundation_velocity(const double           t0,
                                const double           final_time,
                                const ParameterSource &source) const;

      /**
       * The state at @p t0 from u0 (@p displacement), u1 (@p velocity) and
       * the free nodal force r = f - K u0 (@p force): a node at zero gap
       * that r pushes into the foundation carries the pressure r.n/A_i, and
       * the friction force that balances the tangential part of r within
       * the friction disc (as the slab's initial state).
       */
      void
      initialize(const double      t0,
                 const BodyVector &displacement,
                 const BodyVector &velocity,
                 const BodyVector &force);

      /**
       * Register the nodes' friction states, slips and rupture times in
       * @p archive, as vectors like @p layout (a vector of the body's
       * unknowns: a node's values at its first unknown), so that a
       * snapshot resumes on any number of ranks.
       */
      void
      register_state(CheckpointArchive &archive, const BodyVector &layout);

      /** Whether the friction law carries a state (history columns). */
      bool
      has_friction_state() const;

      /** Friction law/Rupture slip rate. */
      double
      rupture_slip_rate() const;

      /** The largest slip rate of a node in contact (collective). */
      double
      max_slip_rate() const;

      /** The friction law for descriptions. */
      std::string
      friction_description() const;

      /**
       * "; normal stress regularization L = 0.00125 m (auto: h_C/50),
       * V* = 0.001 m/s (auto: c_s/500)", "" when off.
       */
      std::string
      regularization_description() const;

      /**
       * Whether some contact node resists slip at rest (mu > 0 there in the
       * initial state; the same on every rank).
       */
      bool
      frictional() const;

      /**
       * The tangential displacements u0_T of the nodes from the initial data
       * @p displacement, from which SurfaceStatistics measures how far each
       * node has slid (set again on resume: it depends on the data only).
       */
      void
      set_reference_displacement(const BodyVector &displacement);

      /** The local indices of the unknowns of the contact nodes. */
      std::vector<unsigned int>
      local_unknowns() const;

      /** Keep the velocities of the last step (before the free step overwrites
       * them). */
      void
      remember_velocities(const BodyVector &velocity);

      /**
       * Correct the predicted velocities @p velocity at the contact nodes
       * for the step of size @p dt ending at @p t_next, from the
       * displacement @p displacement at its start; add what the step did to
       * @p work. The nodes' tangential displacement at the end of the step
       * is u_T + dt v_T, as the body's update computes it.
       */
      void
      step(const double      t_next,
           const double      dt,
           const BodyVector &displacement,
           BodyVector       &velocity,
           ContactWork      &work);

      /**
       * Mass at contact nodes = redistributed (doc/theory.md §7.5): the
       * normal displacements w_i = u_i.n of every contact node at the end
       * of a step solve the static unilateral problem
       *   r_i(w) = A_i S_i,  S_i >= 0,  w_i <= g0_i,  S_i (g0_i - w_i) = 0,
       * with r(w) = (f - K u).n at the nodes (against the mirror image
       * w_i <= g0_i/2, the gap g0 - 2 w), by projected Gauss-Seidel on
       * the normal block K_NN of the stiffness (built once by probing, the
       * same on every rank). @p force holds f - K u for the current
       * @p displacement; the solution replaces the nodes' normal
       * displacements, their normal velocities become the step's
       * (w - w_last)/@p dt (@p dt = 0: the initial state, velocities and
       * work untouched), and the work of the pressure over the step (the
       * trapezoidal rule) is added to @p work (collective).
       */
      void
      solve_normal(BodyVector       &displacement,
                   BodyVector       &velocity,
                   const BodyVector &force,
                   const double      dt,
                   ContactWork      &work);

      /**
       * Add K (u - u_before) to @p product = K u_before, u_before the
       * displacement the last solve_normal() started from: that solve
       * changed only the normal displacements of the contact nodes, whose
       * columns of K are kept from the set-up, so the product with K of the
       * corrected displacement needs no second operator application
       * (redistributed mass only; no communication).
       */
      void
      add_normal_change(BodyVector &product) const;

      /** Mass at contact nodes = redistributed. */
      bool
      redistributed_mass() const;

      /** The coordinate axis of the normal (redistributed mass only). */
      unsigned int
      normal_axis() const;

      /** Sweeps of the normal solves: the largest and the total. */
      std::pair<unsigned int, unsigned long>
      normal_sweeps() const;

      /** The statistics of the last step (collective). */
      SurfaceStatistics
      statistics() const;

      /** Nodes on this rank. */
      unsigned int
      n_local_nodes() const;

      /** Contact nodes of all ranks (collective). */
      types::global_dof_index
      n_nodes() const;

      /** The tangent basis t_1 (, t_2) of the foundation plane. */
      const std::vector<Tensor<1, dim>> &
      tangents() const;

      const Tensor<1, dim> &
      normal() const;

      /**
       * The names of the nodal values output_values() gives, in order: the
       * scalars gap, pressure, slip_rate, state (NodeStatus), friction_ratio
       * (|tau|/S, the friction coefficient mobilized), uniqueness_ratio
       * (S L_mu/Z, below 1 where the friction step has exactly one
       * solution), then the slip velocity and the friction traction on the
       * body in the tangent basis (dim - 1 values each, padded to 2), then
       * the friction coefficient of the last step at its slip rate, the
       * slip (int |s| dt in contact), the rupture time (-1 before the
       * rupture), the friction law's state and the effective normal stress
       * S' of the friction bound (the pressure without Normal stress
       * regularization).
       */
      static std::vector<std::string>
      output_value_names();

      /** Values per node of output_values(). */
      static constexpr unsigned int n_output_values = 15;

      /** The nodal values of the last step, node k at [k * n_output_values]. */
      std::vector<double>
      output_values() const;

      /** The unknowns of each node (local indices into the owned range). */
      const std::vector<std::array<unsigned int, dim>> &
      node_unknowns() const;

      const ContactNode &
      node_solver() const;

      /** Area of Gamma_C (collective). */
      double
      total_area() const;

      /**
       * The kinetic energy and momentum of the surface layer epsilon A_i
       * moving with the nodes' tangential velocities @p velocity (the
       * body's own are in its lumped mass; no communication).
       */
      std::pair<double, Tensor<1, dim>>
      surface_layer(const BodyVector &velocity) const;

    private:
      /** One node's step (step()). */
      void
      step_node(const std::size_t k,
                const Tangential &v_star,
                const double      t_next,
                const double      dt,
                const BodyVector &displacement,
                BodyVector       &velocity,
                ContactWork      &work);

      /**
       * Keep what the step of node @p k gave (@p normal, @p tangential, the
       * tangential @p impedance): the law's state, the slip in contact, the
       * rupture time and the state for output and statistics.
       */
      void
      record_step(const std::size_t       k,
                  const NormalUpdate     &normal,
                  const TangentialUpdate &tangential,
                  const double            impedance,
                  const double            t_next,
                  const double            dt);

      /**
       * Advance the effective normal stress S' of node @p k over the step
       * @p dt to the step's normal stress @p pressure, at the slip rate of
       * @p previous_slip (NormalStressRegularization); return the normal
       * stress of the friction bound: S', 0 out of contact.
       */
      double
      update_effective_pressure(const std::size_t k,
                                const double      pressure,
                                const Tangential &previous_slip,
                                const double      dt);

      /**
       * S_p(x_k, @p t) of Contact law = prescribed traction at node @p k;
       * a negative or non-finite value is a RunError naming Normal traction.
       */
      double
      prescribed_pressure(const std::size_t k, const double t) const;

      /**
       * The normal step of Contact law = prescribed traction at node @p k:
       * the fault stays closed (gap 0), S = S_p(x_k, @p t), and the pair's
       * separation velocity @p free_velocity grows by S/@p impedance.
       */
      NormalUpdate
      prescribed_normal_step(const double      free_velocity,
                             const double      impedance,
                             const std::size_t k,
                             const double      t) const;

      /** The friction law of node @p k. */
      const FrictionLaw &
      law_of(const std::size_t k) const;

      /** g0 at the nodes; the initial gap checked against u0 later. */
      void
      set_nodes(const BodyDiscretization<dim> &discretization,
                const std::vector<bool>       &fully_prescribed,
                const BodyVector              &mass,
                const BodyVector              &area);

      /**
       * K_NN, the normal-normal block of the stiffness between the contact
       * nodes of all ranks (in the order of the ranks), one column per
       * application of the operator to a unit normal displacement
       * (collective; redistributed mass only).
       */
      void
      set_up_normal_problem(const BodyDiscretization<dim> &discretization);

      /** @p local of every rank, in the order of the ranks (collective). */
      std::vector<double>
      gather(const std::vector<double> &local) const;

      /** The smallest of @p value over the ranks, and its @p point. */
      std::pair<double, Point<dim>>
      global_minimum(const double value, const Point<dim> &point) const;

      const MPI_Comm                               comm;
      const std::unique_ptr<FrictionLawField<dim>> friction_field;
      const ContactNode                            solver;
      const double rupture_rate; ///< Friction law/Rupture slip rate
      const bool   stateful;     ///< the law carries a state
      /** Friction law/Normal stress regularization: S' for the bound. */
      const NormalStressRegularization regularization;
      /** Whether L and V* were `auto` (for the description). */
      const bool                           automatic_length, automatic_velocity;
      Tensor<1, dim>                       outward_normal;
      std::vector<Tensor<1, dim>>          tangent_basis;
      std::unique_ptr<FunctionParser<dim>> initial_gap;
      std::unique_ptr<FunctionParser<1>>   foundation_velocity;
      const types::boundary_id             boundary_id;
      const double                         surface_mass; ///< epsilon
      /** Body/Contact/Initial gap and Foundation velocity, as written. */
      const std::string initial_gap_text, foundation_velocity_text;
      /**
       * Counterpart = mirror: 2 (the gap g0 - 2 u.n, the slip 2 v_T, the
       * impedances of the node pair halved); rigid plane: 1.
       */
      const double pair;
      /** Contact law = prescribed traction: S_p(x, t), else null. */
      std::unique_ptr<FunctionParser<dim>> normal_traction;
      const std::string                    normal_traction_text;

      // One entry per owned contact node.
      std::vector<std::array<unsigned int, dim>> unknowns;
      std::vector<double>         nodal_mass;        ///< m_i, the lumped mass
      std::vector<double>         tangential_mass;   ///< m_i + epsilon A_i
      std::vector<double>         nodal_area;        ///< A_i
      std::vector<double>         gap0;              ///< g0(x_i)
      std::vector<Point<dim>>     points;            ///< x_i
      std::vector<Tensor<1, dim>> previous_velocity; ///< v of the last step
      // The state after the last step (output and statistics).
      std::vector<double>     gap, pressure, impedance_of_step;
      std::vector<Tangential> reference_displacement, tangential_displacement;
      std::vector<Tangential> slip, friction;
      std::vector<NodeStatus> status;
      double                  area_of_surface;
      /** Some node has mu > 0 at rest (frictional()). */
      bool any_friction;
      // The friction law per node (empty: every node has the solver's),
      // its state, the slip, the rupture time (-1: not yet), and what the
      // last step's law gave (mu~ and its bound L) for output.
      std::vector<FrictionLaw> laws;
      std::vector<double>      law_state, slip_path, rupture_time;
      /** The effective normal stress S' (the pressure when not regularized). */
      std::vector<double>     effective_pressure;
      std::vector<double>     step_coefficient, step_bound;
      std::vector<Tangential> tangent_position; ///< x.t_j of the node

      // Mass at contact nodes = redistributed: the normal problem.
      const bool   redistributed;
      unsigned int axis;       ///< the coordinate axis of n
      unsigned int first_node; ///< the global number of the first owned node
      /** The rows of K_NN over all contact nodes: (column, value). */
      std::vector<std::vector<std::pair<unsigned int, double>>> normal_matrix;
      /** The diagonal of normal_matrix (the Gauss-Seidel divisors). */
      std::vector<double> normal_diagonal;
      std::vector<double> all_gap0;        ///< g0/pair of all contact nodes
      std::vector<double> all_area;        ///< A_i of all contact nodes
      std::vector<double> normal_position; ///< w_i of the last normal solve
      /**
       * Column j of K (the response to the unit normal displacement of
       * contact node j of all ranks) on this rank's owned rows: (local
       * index, value), exact zeros left out.
       */
      std::vector<std::vector<std::pair<unsigned int, double>>> normal_columns;
      /** w - w_before of every contact node in the last normal solve. */
      std::vector<double> normal_change;
      unsigned int        max_sweeps;   ///< of one normal solve
      unsigned long       total_sweeps; ///< of all normal solves
    };
  } // namespace Body
} // namespace stickslip

#endif
