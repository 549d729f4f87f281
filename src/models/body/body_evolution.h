#ifndef stickslip_models_body_body_evolution_h
#define stickslip_models_body_body_evolution_h

#include <base/expressions.h>
#include <base/global.h>
#include <base/input_error.h>
#include <base/rest_monitor.h>
#include <models/body/body_data.h>
#include <models/body/body_discretization.h>
#include <models/body/body_output.h>
#include <models/body/body_parameters.h>
#include <models/body/contact_output.h>
#include <models/body/contact_surface.h>
#include <models/body/energy_account.h>
#include <models/body/floor_friction.h>
#include <models/body/implicit_step.h>
#include <models/common/evolution.h>
#include <models/common/model.h>
#include <time/time_parameters.h>

#include <memory>
#include <vector>

namespace stickslip
{
  namespace Body
  {
    /**
     * The elastic body in frictional contact (Model = body, doc/body.md) as
     * an Evolution of the run loop: the explicit central-difference scheme
     * with the lumped mass, velocities at half steps,
     *
     *   v_pr = v^{n-1/2} + dt M~^{-1} (f^n - K u^n)     (free step),
     *   v^{n+1/2} = v_pr corrected node by node: contact and friction on
     *               Gamma_C (ContactSurface), distributed friction
     *               (FloorFriction), prescribed displacements,
     *   u^{n+1} = u^n + dt v^{n+1/2},
     *
     * (Carpenter, Taylor and Katona 1991, with Renard's boundary laws: the
     * implicit Euler friction step (52) at the velocity of the step).
     * v^{n+1/2} is reported at t^{n+1}, as the slab reports the velocity of
     * its implicit Euler step. The first step starts the half-step velocity
     * from the data, v^{-1/2} = u1 - dt/2 M^{-1}(f - K u0) at free nodes (so
     * that v^{1/2} = u1 + dt/2 a^0), u1 at contact and prescribed nodes
     * (their first step is decided by their own laws).
     *
     * history.csv: energies and the works that balance them, momentum, and
     * the state of the contact surface.
     */
    template <int dim>
    class BodyEvolution : public Evolution
    {
    public:
      /**
       * Build the discretization and check every input that needs the mesh
       * (boundary ids, periodic pairs, initial penetration, non-finite data
       * at t0 and at the final time) (collective).
       */
      BodyEvolution(const BodyParameters   &parameters,
                    const Parameters::Time &time,
                    const ParameterSource  &source,
                    const MPI_Comm          comm);

      /**
       * The largest stable step 2/sqrt(lambda_max(M^{-1} K)) by the element
       * bound (element_eigenvalue_bound()) (collective).
       */
      double
      stable_time_step() const;

      const BodyDiscretization<dim> &
      discretization() const;

      std::string
      description() const override;

      void
      initialize(const double t0) override;

      void
      advance(const TimeStep &step) override;

      void
      register_state(CheckpointArchive &archive) override;

      /** p4est numbers the unknowns by partition: snapshots carry locations. */
      bool
      numbering_independent_of_partition() const override;

      /**
       * history.csv: energies, works, momentum, the contact surface; the
       * volume fields (solution.pvd) and, with a contact surface, its fields
       * (contact.pvd).
       */
      OutputSeries
      output_series() override;

      std::string
      discretization_key() const override;

      /** Body/Contact/Friction law/Stop after arrest: why the run ends now. */
      std::string
      stop_reason() const override;

      std::string
      summary(const RunStatistics &statistics) const override;

    private:
      std::vector<std::string>
      history_columns() const;

      std::vector<double>
      history_row(const double t);

      /**
       * The contact surface at @p t as output @p index of contact.pvd (the
       * implicit schemes: also solution/contact_NNNNN.csv, the table of
       * contact_nodes.csv at this output).
       */
      std::string
      write_contact_fields(const double       t,
                           const unsigned int index,
                           const FieldFiles  &files);

      /** Masses (with the surface mass), contact nodes, friction nodes,
       * prescribed unknowns. */
      void
      set_up_nodes(const ParameterSource &source);

      /**
       * Body/Contact with `auto` of the normal stress regularization
       * resolved for this body and mesh.
       */
      ContactParameters
      contact_parameters() const;

      /**
       * Mass at contact nodes = redistributed: the lumped @p mass without the
       * normal mass of the contact nodes (moved to their cells' other
       * nodes); a contact node whose normal unknown is @p held is an
       * InputError.
       */
      void
      redistribute_mass(const std::vector<bool> &held,
                        BodyVector              &mass,
                        const ParameterSource   &source);

      /**
       * The contact nodes' normal displacements at time @p t from the
       * static problem (ContactSurface::solve_normal(); @p dt = 0: the
       * initial state).
       */
      void
      solve_contact_normals(const double t, const double dt);

      /** Non-finite data at t0 or at the final time are InputErrors naming the
       * parameter. */
      void
      check_data(const double           t0,
                 const double           final_time,
                 const ParameterSource &source);

      /**
       * Body/Time scheme = implicit: one Newmark step with the contact at
       * its end (ImplicitStep).
       */
      void
      advance_implicit(const TimeStep &step);

      /**
       * One implicit step of size @p dt from @p t to @p t_next (the grid's
       * times: t + dt can differ by an ulp): the loads of both ends, the
       * prescribed values of t_next; the works into @p work. With a law
       * with a rate, a step that the limit rule does not settle is repeated
       * by rule 3' from the last save_state(), which the caller made at the
       * step's start.
       */
      void
      implicit_step(const double  t,
                    const double  t_next,
                    const double  dt,
                    ImplicitWork &work);

      /** The works of an accepted implicit step into the energy account. */
      void
      book_implicit_work(const ImplicitWork &work);

      /**
       * Body/Adaptive time steps: the grid step @p step as substeps dt/2^l
       * (doc/body.md): a substep whose active set does not settle, or that
       * changes more than Maximum changes per step flags, is repeated from
       * its start at half the size; Calm steps quiet substeps double it.
       * An active set that does not settle at the smallest substep is a
       * RunError.
       */
      void
      advance_adaptive(const TimeStep &step);

      /** v^{-1/2} from the data (the first step of a fresh run). */
      void
      start_half_step(const double dt);

      /** v += dt M^{-1} (f - K u) at every owned unknown. */
      void
      free_step(const double dt);

      /**
       * Prescribed unknowns: u_D(t_next), their velocity and the reaction's
       * work (@p previous: their velocities of the last step, @p predicted:
       * of the free step).
       */
      void
      prescribe(const double               t_next,
                const double               dt,
                const std::vector<double> &previous,
                const std::vector<double> &predicted);

      /** A state or datum that is not finite is a RunError naming the step. */
      void
      check_finite(const TimeStep &step);

      /**
       * Note the load and the prescribed displacements of @p t (evaluated
       * this step) in non_finite_data if they are not finite.
       */
      void
      note_time_dependent_data(const double t);

      /**
       * The summary's names of the friction and whether the body has
       * inertia, once the contact surface is set up.
       */
      RestMonitor
      make_rest_monitor() const;

      /**
       * The summary's first lines: the steps, the memory, the set-up's
       * times (collective).
       */
      std::string
      cost_summary(const RunStatistics &statistics) const;

      /** "x = .., y = .., component c" of owned unknown @p i (for messages). */
      std::string
      describe_unknown(const unsigned int i) const;

      /** u0 and u1 into u and v (once). */
      void
      interpolate_initial_data();

      /** K u, if u changed since it was last computed. */
      void
      update_product();

      /** 1/2 v.M v and the momentum per component (collective). */
      std::pair<double, std::vector<double>>
      kinetic_energy_and_momentum() const;

      /** Not const: Contact/Normal = auto is resolved from the mesh. */
      BodyParameters parameters;
      const MPI_Comm comm;
      /** The stages of the set-up, before mesh (which times its own). */
      SetupClock setup_clock;
      /** Where the set-up went, for summary(). */
      std::string                          setup_times;
      BodyDiscretization<dim>              mesh;
      BodyData<dim>                        data;
      BodyOutput<dim>                      output;
      std::unique_ptr<ContactSurface<dim>> contact;
      std::unique_ptr<ContactOutput<dim>>  contact_output;
      std::unique_ptr<FloorFriction<dim>>  floor;
      /** Body/Time scheme = implicit (then no contact, no floor). */
      std::unique_ptr<ImplicitStep<dim>>  implicit;
      std::vector<PrescribedUnknown<dim>> prescribed;
      std::vector<unsigned char> component_of; ///< of each owned unknown
      /**
       * 1 / inverse_mass of each owned unknown (0 where that is 0), for
       * the rows' kinetic energy and momentum: the quotient they took at
       * every row, taken once (a division per unknown bound a row's time).
       */
      std::vector<double> row_mass;
      /** Whether component_of[i] is i mod dim (each node's unknowns
       * consecutive, in the order of the components). */
      bool components_interleaved = false;
      /**
       * The body's mass moving in each component (the unknowns with mass,
       * over every rank): the centre of mass's velocity is momentum / mass.
       */
      std::vector<double> component_mass;

      BodyVector u, v, inverse_mass, product, load;
      /** f - K u at the normal solves of the redistributed mass. */
      BodyVector free_force;
      /** Data that became non-finite during the run (the shared check). */
      NonFiniteData non_finite_data;
      BodyVector
           previous_velocity; ///< of the last step (distributed friction only)
      bool product_current;
      bool initial_data_set; ///< u, v hold u0, u1

      // Energy accounting since t0 (doc/body.md).
      double        initial_energy; ///< kinetic + elastic at t0
      EnergyAccount account;        ///< the works since t0
      RestMonitor   rest;           ///< the physical lines of the summary
      /**
       * The last time a contact node slipped faster than the rupture slip
       * rate (-infinity: never), and the time of the state (Stop after
       * arrest only).
       */
      double last_slip_time, current_time;

      /**
       * Body/Adaptive time steps: the substep is the grid step / 2^level;
       * the quiet substeps since the last change or size change; for
       * history.csv, since its last row: the substeps taken, the cuts, the
       * smallest substep; the last substep (snapshots keep all of them).
       */
      unsigned long substep_level = 0, calm_substeps = 0;
      unsigned long interval_substeps = 0, interval_cuts = 0;
      double        interval_min_substep = 0, last_substep = 0;
    };
  } // namespace Body
} // namespace stickslip

#endif
