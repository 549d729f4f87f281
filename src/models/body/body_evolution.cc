#include <base/divergence_check.h>
#include <base/expressions.h>
#include <models/body/body_evolution.h>
#include <models/body/body_grid.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /** @p bytes with a unit: "119 B", "4.69 kB", "183 MB", "1.2 GB". */
      std::string
      bytes_text(const double bytes)
      {
        const char  *units[] = {"B", "kB", "MB", "GB", "TB"};
        unsigned int unit    = 0;
        double       value   = bytes;
        for (; value >= 1000 && unit + 1 < 5; ++unit)
          value /= 1000;
        char text[32];
        std::snprintf(text, sizeof(text), "%.3g %s", value, units[unit]);
        return text;
      }



      /**
       * The material as a reader knows it: the speeds of the P and S waves
       * (c2 and c1 of Renard 2001), or for the quasi-static scheme, which
       * has no waves, Young's modulus and Poisson's ratio.
       */
      std::string
      material_text(const BodyParameters &parameters)
      {
        const double lambda = parameters.lambda, G = parameters.shear_modulus;
        char         text[96];
        if (parameters.time_scheme == TimeScheme::quasi_static)
          std::snprintf(text,
                        sizeof(text),
                        "Young's modulus %.4g Pa, Poisson's ratio %.4g",
                        G * (3 * lambda + 2 * G) / (lambda + G),
                        lambda / (2 * (lambda + G)));
        else
          std::snprintf(text,
                        sizeof(text),
                        "P waves %.4g m/s, S waves %.4g m/s",
                        parameters.c2(),
                        parameters.c1());
        return text;
      }



      /** a.b over this rank's owned entries (no communication). */
      double
      local_dot(const BodyVector &a, const BodyVector &b)
      {
        double sum = 0;
        for (unsigned int i = 0; i < a.locally_owned_size(); ++i)
          sum += a.local_element(i) * b.local_element(i);
        return sum;
      }
    } // namespace



    template <int dim>
    BodyEvolution<dim>::BodyEvolution(const BodyParameters   &parameters,
                                      const Parameters::Time &time,
                                      const ParameterSource  &source,
                                      const MPI_Comm          comm)
      : parameters(parameters)
      , comm(comm)
      , mesh(parameters, source, comm, &setup_clock)
      , data(parameters, source)
      , output(mesh, parameters.lambda, parameters.shear_modulus)
      , product_current(false)
      , initial_data_set(false)
      , initial_energy(0)
      , last_slip_time(-std::numeric_limits<double>::infinity())
      , current_time(time.initial_time)
    {
      for (BodyVector *vector : {&u, &v, &inverse_mass, &product})
        mesh.initialize_vector(*vector);
      if (parameters.contact.enabled && parameters.contact.normal_from_mesh)
        this->parameters.set_contact_normal(
          plane_normal_of_boundary(mesh.dof_handler().get_triangulation(),
                                   parameters.contact.boundary_id,
                                   source),
          source);
      set_up_nodes(source);
      rest = make_rest_monitor();
      setup_clock.lap("nodes and contact");
      // The initial data, checked here and used by initialize() (a resumed
      // run reads its state instead).
      interpolate_initial_data();
      check_data(time.initial_time, time.final_time, source);
      if (contact)
        {
          contact->check_initial_gap(u,
                                     parameters.initial_displacement,
                                     mesh.smallest_cell_diameter(),
                                     source);
          contact->check_foundation_velocity(time.initial_time,
                                             time.final_time,
                                             source);
        }
      // The implicit scheme has its own contact nodes (ImplicitStep): the
      // explicit surface served the checks of the data only.
      if (implicit)
        contact.reset();
      setup_clock.lap("data");
      setup_times = setup_clock.summary(comm);
    }



    template <int dim>
    void
    BodyEvolution<dim>::set_up_nodes(const ParameterSource &source)
    {
      // Which nodes are held in some or every component: a node held in
      // every component takes no part in contact or friction; distributed
      // friction acts only on nodes with no prescribed component.
      prescribed = data.prescribed_unknowns(mesh);
      component_of.assign(inverse_mass.locally_owned_size(), 0);
      std::vector<bool> fully_prescribed(component_of.size(), false);
      std::vector<bool> partly_prescribed(component_of.size(), false);
      std::vector<bool> held(component_of.size(), false);
      {
        for (const auto &unknown : prescribed)
          held[unknown.local] = true;
        for (const Node<dim> &node : mesh.nodes({}, false))
          {
            bool all = true, any = false;
            for (unsigned int d = 0; d < dim; ++d)
              {
                component_of[node.unknowns[d]] = d;
                all                            = all && held[node.unknowns[d]];
                any                            = any || held[node.unknowns[d]];
              }
            fully_prescribed[node.unknowns[0]]  = all;
            partly_prescribed[node.unknowns[0]] = any;
          }
      }
      BodyVector mass;
      mesh.lumped_mass(parameters.density, mass);
      if (parameters.contact.enabled)
        {
          BodyVector area;
          mesh.boundary_weights(parameters.contact.boundary_id, area);
          contact =
            std::make_unique<ContactSurface<dim>>(mesh,
                                                  contact_parameters(),
                                                  parameters.variables(),
                                                  mass,
                                                  area,
                                                  fully_prescribed,
                                                  source);
          // The implicit scheme always takes the normal mass off the
          // contact nodes (ImplicitStep: its energy with contact); the
          // quasi-static one uses no mass.
          if (contact->redistributed_mass() ||
              parameters.time_scheme == TimeScheme::implicit_newmark)
            redistribute_mass(held, mass, source);
        }
      if (data.distributed_friction() != nullptr)
        {
          BodyVector weights;
          mesh.volume_weights(weights);
          floor = std::make_unique<FloorFriction<dim>>(
            mesh,
            *data.distributed_friction(),
            parameters.distributed_friction,
            mass,
            weights,
            partly_prescribed,
            source);
        }
      if (parameters.solves_implicitly())
        {
          BodyVector area;
          mesh.initialize_vector(area);
          if (parameters.contact.enabled)
            mesh.boundary_weights(parameters.contact.boundary_id, area);
          std::vector<unsigned int> held;
          for (const auto &unknown : prescribed)
            held.push_back(unknown.local);
          implicit = std::make_unique<ImplicitStep<dim>>(
            mesh, parameters, mass, held, area, source);
        }
      row_mass.assign(mass.locally_owned_size(), 0.);
      components_interleaved = true;
      for (unsigned int i = 0; i < component_of.size(); ++i)
        components_interleaved =
          components_interleaved && component_of[i] == i % dim;
      for (unsigned int i = 0; i < mass.locally_owned_size(); ++i)
        {
          inverse_mass.local_element(i) =
            mass.local_element(i) > 0 ? 1. / mass.local_element(i) : 0.;
          if (inverse_mass.local_element(i) > 0)
            row_mass[i] = 1. / inverse_mass.local_element(i);
        }
      component_mass.assign(dim, 0.);
      for (unsigned int i = 0; i < row_mass.size(); ++i)
        component_mass[component_of[i]] += row_mass[i];
      Utilities::MPI::sum(component_mass, comm, component_mass);
    }



    template <int dim>
    ContactParameters
    BodyEvolution<dim>::contact_parameters() const
    {
      // Normal stress regularization = auto (doc/theory.md §8.8): sliding
      // of the elastic body on the rigid plane is ill-posed or unstable at
      // the mesh scale without it (Renardy 1992, Martins et al. 1995,
      // Ranjith and Rice 2001); the explicit step with unilateral contact
      // gets L = h_C/50, V* = c_s/500. The mirror image (a symmetric
      // interface: slip does not change S), a prescribed normal traction,
      // the compliant law and the implicit steps (which have none) get 0.
      ContactParameters resolved = parameters.contact;
      const bool        applies =
        parameters.time_scheme == TimeScheme::explicit_central &&
        parameters.contact.counterpart == Counterpart::rigid_plane &&
        !parameters.contact.prescribed_traction &&
        parameters.contact.normal_law == NormalContactLaw::unilateral;
      resolved.friction.resolve_automatic_regularization(
        applies,
        mesh.largest_boundary_face_size(parameters.contact.boundary_id),
        std::sqrt(parameters.shear_modulus / parameters.density));
      return resolved;
    }



    template <int dim>
    RestMonitor
    BodyEvolution<dim>::make_rest_monitor() const
    {
      RestMonitor::FrictionNames names;
      if (parameters.contact.enabled)
        {
          // The stick fraction is of the area in contact (explicit and
          // implicit surfaces alike).
          names.all   = "contact node in contact";
          names.share = "of the area in contact";
          names.none  = "frictionless contact";
        }
      else if (floor)
        {
          names.all   = "node with distributed friction";
          names.share = "of the nodes with distributed friction";
        }
      else
        names.none = "no contact boundary, no distributed friction";
      return RestMonitor(names,
                         parameters.time_scheme != TimeScheme::quasi_static);
    }



    template <int dim>
    void
    BodyEvolution<dim>::redistribute_mass(const std::vector<bool> &held,
                                          BodyVector              &mass,
                                          const ParameterSource   &source)
    {
      // No normal mass at the contact nodes (doc/theory.md §7.5); a node
      // whose normal displacement is prescribed cannot solve for it.
      unsigned int axis = 0;
      for (unsigned int d = 0; d < dim; ++d)
        if (std::abs(parameters.contact.normal[d]) > 0.5)
          axis = d;
      if (contact->redistributed_mass())
        axis = contact->normal_axis();
      BodyVector massless;
      mesh.initialize_vector(massless);
      bool        clash = false;
      std::string where;
      for (const auto &node : contact->node_unknowns())
        {
          const unsigned int i      = node[axis];
          massless.local_element(i) = 1;
          if (held[i] && !clash)
            where = describe_unknown(i);
          clash = clash || held[i];
        }
      if (Utilities::MPI::logical_or(clash, comm))
        throw_bad_parameter(source,
                            "Body/Contact/Mass at contact nodes",
                            "redistributed",
                            "the normal displacement of a contact node is "
                            "prescribed (Body/Displacement k)" +
                              (clash ? " at " + where : std::string()) +
                              ", and with no normal mass it must solve the "
                              "contact problem: use lumped (Body/Time scheme "
                              "= implicit always takes the normal mass off "
                              "the contact nodes)");
      mesh.redistributed_mass(parameters.density, massless, mass);
    }



    template <int dim>
    void
    BodyEvolution<dim>::solve_contact_normals(const double t, const double dt)
    {
      // The static normal problem at t: the free force f(t) - K u at the
      // contact nodes, with the load of t (assembled again at the start of
      // the next step, where it is the same).
      if (data.has_load() && data.load_depends_on_time())
        mesh.assemble_load(data.body_force(), data.tractions(), t, load);
      update_product();
      if (free_force.size() == 0)
        mesh.initialize_vector(free_force);
      free_force.equ(-1., product);
      if (load.size() > 0)
        free_force += load;
      ContactWork work;
      contact->solve_normal(u, v, free_force, dt, work);
      account[EnergyAccount::impact] += work.impact_work;
      // K u of the corrected u from K u of the predicted one and the
      // columns of K of the changed normal unknowns: one operator
      // application per step instead of two (the second one doubled the
      // cost of the explicit step).
      contact->add_normal_change(product);
    }



    template <int dim>
    void
    BodyEvolution<dim>::check_data(const double           t0,
                                   const double           final_time,
                                   const ParameterSource &source)
    {
      // Data are checked where they are used, at both ends of the run: a
      // nan or inf found later stops the run with its name (check_finite).
      NonFiniteData check;
      check.set_source(source);
      non_finite_data.set_source(source);
      const auto at_unknown = [&](const unsigned int i) {
        return describe_unknown(i);
      };
      const auto require_finite = [&](const BodyVector  &values,
                                      const std::string &path,
                                      const std::string &text,
                                      const double       t) {
        for (unsigned int i = 0; i < values.locally_owned_size(); ++i)
          check.note(path, text, t, values.local_element(i), [&]() {
            return at_unknown(i);
          });
      };
      require_finite(u,
                     "Body/Initial displacement",
                     parameters.initial_displacement,
                     t0);
      require_finite(v,
                     "Body/Initial velocity",
                     parameters.initial_velocity,
                     t0);
      check.throw_if_found(comm, true);
      BodyVector values;
      if (data.has_load())
        for (const double t : {t0, final_time})
          {
            mesh.assemble_load(data.body_force(), data.tractions(), t, values);
            require_finite(values,
                           parameters.tractions.empty() ?
                             "Body/Body force" :
                             "Body/Body force' or 'Body/Traction k/Value",
                           parameters.body_force,
                           t);
          }
      for (const auto &unknown : prescribed)
        for (const double t : {t0, final_time})
          check.note(data.prescribed_parameter(unknown),
                     parameters.displacements[unknown.condition].value,
                     t,
                     data.prescribed_value(unknown, t),
                     [&]() { return at_unknown(unknown.local); });
      check.throw_if_found(comm, true);
    }



    template <int dim>
    double
    BodyEvolution<dim>::stable_time_step() const
    {
      const double bound = element_eigenvalue_bound(mesh.dof_handler(),
                                                    parameters.degree,
                                                    parameters.density,
                                                    parameters.lambda,
                                                    parameters.shear_modulus,
                                                    comm);
      return 2. / std::sqrt(bound);
    }



    template <int dim>
    const BodyDiscretization<dim> &
    BodyEvolution<dim>::discretization() const
    {
      return mesh;
    }



    template <int dim>
    std::string
    BodyEvolution<dim>::description() const
    {
      std::ostringstream text;
      text << "elastic body, " << (dim == 2 ? "2D plane strain" : "3D") << ", Q"
           << parameters.degree << "^" << dim << " lumped, "
           << mesh.stiffness().description() << " K"
           << (mesh.stiffness_choice().empty() ?
                 "" :
                 " (auto: " + mesh.stiffness_choice() + ")")
           << ", " << mesh.n_dofs() << " unknowns on " << mesh.n_active_cells()
           << " cells (" << material_text(parameters) << ")";
      if (parameters.contact.enabled && parameters.contact.normal_from_mesh)
        {
          text << "; contact normal (";
          for (unsigned int d = 0; d < dim; ++d)
            text << (d == 0 ? "" : ", ")
                 << format_number(parameters.contact.normal[d]);
          text << ") from the faces of boundary "
               << parameters.contact.boundary_id << " (Normal = auto)";
        }
      if (contact)
        text << "; contact on boundary " << parameters.contact.boundary_id
             << " (" << contact->n_nodes() << " nodes, "
             << (parameters.contact.prescribed_traction ?
                   "prescribed traction" :
                 parameters.contact.normal_law == NormalContactLaw::unilateral ?
                   "unilateral" :
                   "compliant")
             << (parameters.contact.counterpart == Counterpart::mirror ?
                   " against the mirror image" :
                   "")
             << ", mu: " << contact->friction_description() << ")"
             << contact->regularization_description();
      if (floor)
        text << "; distributed friction";
      if (implicit)
        text << "; " << implicit->description();
      return text.str();
    }



    template <int dim>
    void
    BodyEvolution<dim>::initialize(const double t0)
    {
      interpolate_initial_data();
      for (const auto &unknown : prescribed)
        u.local_element(unknown.local) = data.prescribed_value(unknown, t0);
      update_product();
      if (data.has_load())
        mesh.assemble_load(data.body_force(), data.tractions(), t0, load);
      if (contact && contact->redistributed_mass())
        {
          // u0 at the contact nodes in static equilibrium (no normal mass).
          solve_contact_normals(t0, 0.);
          update_product();
        }
      if (contact || implicit)
        {
          // The free nodal force r = f - K u0.
          BodyVector force;
          mesh.initialize_vector(force);
          if (load.size() > 0)
            force = load;
          force -= product;
          if (contact)
            {
              contact->initialize(t0, u, v, force);
              contact->set_reference_displacement(u);
            }
          else
            implicit->initialize(t0, u, force);
        }
      account.clear();
      initial_energy = 0;
      initial_energy =
        0.5 * (u * product) + kinetic_energy_and_momentum().first;
    }



    template <int dim>
    void
    BodyEvolution<dim>::interpolate_initial_data()
    {
      // Once: the constructor's interpolation serves the fresh start.
      if (initial_data_set)
        return;
      if (data.initial_displacement_is_zero())
        u = 0;
      else
        mesh.interpolate(data.initial_displacement(), u);
      if (data.initial_velocity_is_zero())
        v = 0;
      else
        mesh.interpolate(data.initial_velocity(), v);
      initial_data_set = true;
    }



    template <int dim>
    void
    BodyEvolution<dim>::update_product()
    {
      if (!product_current)
        mesh.stiffness().apply(product, u);
      product_current = true;
    }



    template <int dim>
    void
    BodyEvolution<dim>::start_half_step(const double dt)
    {
      // v^{-1/2} = u1 - dt/2 M^{-1} (f - K u0) at the free nodes; contact
      // and prescribed nodes keep u1.
      std::vector<unsigned int> kept =
        contact ? contact->local_unknowns() : std::vector<unsigned int>();
      for (const auto &unknown : prescribed)
        kept.push_back(unknown.local);
      std::vector<double> values;
      for (const unsigned int i : kept)
        values.push_back(v.local_element(i));
      free_step(-0.5 * dt);
      for (std::size_t k = 0; k < kept.size(); ++k)
        v.local_element(kept[k]) = values[k];
    }



    template <int dim>
    void
    BodyEvolution<dim>::free_step(const double dt)
    {
      const unsigned int n        = v.locally_owned_size();
      double            *velocity = v.begin();
      const double      *inverse  = inverse_mass.begin();
      const double      *force    = product.begin();
      if (load.size() > 0)
        {
          const double *external = load.begin();
          for (unsigned int i = 0; i < n; ++i)
            velocity[i] += dt * inverse[i] * (external[i] - force[i]);
        }
      else
        for (unsigned int i = 0; i < n; ++i)
          velocity[i] -= dt * inverse[i] * force[i];
    }



    template <int dim>
    void
    BodyEvolution<dim>::prescribe(const double               t_next,
                                  const double               dt,
                                  const std::vector<double> &previous,
                                  const std::vector<double> &predicted)
    {
      for (std::size_t k = 0; k < prescribed.size(); ++k)
        {
          const unsigned int i = prescribed[k].local;
          const double value   = data.prescribed_value(prescribed[k], t_next);
          const double target  = (value - u.local_element(i)) / dt;
          const double current = v.local_element(i);
          // The reaction moves the unknown from the free step's velocity to
          // the prescribed one, with the work of m (v - v_pr)/dt at the
          // mean velocity of the step; a contact correction of this unknown
          // (a node held in some components only) has booked its share,
          // m (v_c - v_pr)/dt at (v_prev + v_c)/2, already.
          if (inverse_mass.local_element(i) > 0)
            account[EnergyAccount::data] +=
              ((target - predicted[k]) * (previous[k] + target) -
               (current - predicted[k]) * (previous[k] + current)) *
              0.5 / inverse_mass.local_element(i);
          v.local_element(i) = target;
        }
    }



    template <int dim>
    void
    BodyEvolution<dim>::advance(const TimeStep &step)
    {
      if (implicit)
        {
          advance_implicit(step);
          return;
        }
      const double dt = step.size;
      update_product();
      if (data.has_load() && data.load_depends_on_time())
        mesh.assemble_load(data.body_force(),
                           data.tractions(),
                           step.time,
                           load);
      if (step.index == 1)
        start_half_step(dt);
      // What the corrections' and loads' work needs of the last step.
      if (contact)
        contact->remember_velocities(v);
      if (floor)
        previous_velocity = v;
      std::vector<double> previous_prescribed;
      for (const auto &unknown : prescribed)
        previous_prescribed.push_back(v.local_element(unknown.local));
      const double load_power = load.size() > 0 ? local_dot(load, v) : 0.;

      free_step(dt);
      std::vector<double> predicted_prescribed;
      for (const auto &unknown : prescribed)
        predicted_prescribed.push_back(v.local_element(unknown.local));
      if (contact)
        {
          ContactWork work;
          contact->step(step.next_time, dt, u, v, work);
          account[EnergyAccount::dissipated] += work.dissipation;
          account[EnergyAccount::impact] += work.impact_work;
          account[EnergyAccount::data] += work.foundation_work;
          account[EnergyAccount::ambiguous] += work.ambiguous_nodes;
          account[EnergyAccount::iterations] += work.iterations;
        }
      if (floor)
        {
          const auto [dissipation, rest] =
            floor->step(dt, previous_velocity, v);
          account[EnergyAccount::dissipated] += dissipation;
          account[EnergyAccount::impact] += rest;
        }
      prescribe(step.next_time, dt, previous_prescribed, predicted_prescribed);
      // The loads' work with the mean velocity of the step.
      if (load.size() > 0)
        account[EnergyAccount::data] +=
          0.5 * dt * (load_power + local_dot(load, v));
      u.add(dt, v);
      for (const auto &unknown : prescribed)
        u.local_element(unknown.local) =
          data.prescribed_value(unknown, step.next_time);
      note_time_dependent_data(step.next_time);
      product_current = false;
      if (contact && contact->redistributed_mass())
        solve_contact_normals(step.next_time, dt);
      // K u^{n+1} now, in the step: the next step needs it, and a history
      // row at t^{n+1} (its elastic energy) finds it current instead of
      // computing it inside the output's time (the same product either
      // way: no extra work, the same values).
      update_product();
      if (contact && parameters.contact.friction.stop_time > 0)
        {
          if (contact->max_slip_rate() > contact->rupture_slip_rate())
            last_slip_time = step.next_time;
          current_time = step.next_time;
        }
      if (step.index % 64 == 0)
        check_finite(step);
    }



    template <int dim>
    void
    BodyEvolution<dim>::advance_implicit(const TimeStep &step)
    {
      if (parameters.adaptive.enabled)
        advance_adaptive(step);
      else
        {
          // The state a repeated step starts from (implicit_step(); the
          // adaptive steps save it for their cuts).
          if (implicit->can_repeat_by_complementarity())
            implicit->save_state();
          ImplicitWork work;
          implicit_step(step.time, step.next_time, step.size, work);
          book_implicit_work(work);
        }
      note_time_dependent_data(step.next_time);
      product_current = false;
      if (step.index % 64 == 0)
        check_finite(step);
    }



    template <int dim>
    void
    BodyEvolution<dim>::implicit_step(const double  t,
                                      const double  t_next,
                                      const double  dt,
                                      ImplicitWork &work)
    {
      // The loads of both ends of the step (the trapezoidal rule).
      BodyVector load_now;
      if (data.has_load() && data.load_depends_on_time())
        {
          mesh.assemble_load(data.body_force(), data.tractions(), t, load_now);
          mesh.assemble_load(data.body_force(), data.tractions(), t_next, load);
        }
      else
        load_now = load;
      std::vector<double> values;
      for (const auto &unknown : prescribed)
        values.push_back(data.prescribed_value(unknown, t_next));
      // A step that the limit rule does not settle leaves u, v and work as
      // they were; the rest of its state is the caller's save_state().
      try
        {
          implicit->step(t, dt, u, v, load_now, load, values, work);
        }
      catch (const ActiveSetNotSettled &)
        {
          if (!implicit->can_repeat_by_complementarity())
            throw;
          implicit->restore_state();
          implicit->step(t,
                         dt,
                         u,
                         v,
                         load_now,
                         load,
                         values,
                         work,
                         RateLawRule::complementarity);
        }
    }



    template <int dim>
    void
    BodyEvolution<dim>::book_implicit_work(const ImplicitWork &work)
    {
      account[EnergyAccount::impact] += work.contact;
      account[EnergyAccount::data] +=
        work.prescribed + work.load + work.foundation;
      account[EnergyAccount::dissipated] += work.friction;
      implicit->book_numerical_dissipation(work);
    }



    template <int dim>
    void
    BodyEvolution<dim>::advance_adaptive(const TimeStep &step)
    {
      // Positions in units of the smallest substep dt/2^finest: the
      // substeps' ends are exact fractions of the grid step (substep_time
      // gives its end exactly), and a doubled substep starts at a multiple
      // of its own size.
      const AdaptiveStepParameters &adaptive = parameters.adaptive;
      const unsigned int            finest   = adaptive.finest_level(step.size);
      const std::uint64_t           parts    = std::uint64_t(1) << finest;
      std::uint64_t                 position = 0;
      substep_level = std::min<unsigned long>(substep_level, finest);
      BodyVector u_start, v_start;
      while (position < parts)
        {
          const std::uint64_t length = std::uint64_t(1)
                                       << (finest - substep_level);
          const double t      = step.substep_time(position, parts);
          const double t_next = step.substep_time(position + length, parts);
          const double dt     = std::ldexp(step.size, -int(substep_level));
          u_start             = u;
          v_start             = v;
          implicit->save_state();
          implicit->set_step_can_be_cut(substep_level < finest);
          ImplicitWork work;
          bool         cut = false;
          try
            {
              implicit_step(t, t_next, dt, work);
              cut =
                implicit->flag_changes_of_last_step() > adaptive.max_changes &&
                substep_level < finest;
            }
          catch (const ActiveSetNotSettled &failure)
            {
              if (substep_level >= finest)
                throw RunError(
                  std::string(failure.what()) + ", at t = " + format_number(t) +
                  " with the smallest substep " + format_number(dt) +
                  " (Body/Adaptive time steps/Minimum time step = " +
                  format_number(adaptive.minimum_time_step) +
                  "): lower it or raise the iterations");
              cut = true;
            }
          if (cut)
            {
              u = u_start;
              v = v_start;
              implicit->restore_state();
              ++substep_level;
              calm_substeps = 0;
              ++interval_cuts;
              continue;
            }
          book_implicit_work(work);
          position += length;
          interval_min_substep =
            interval_substeps == 0 ? dt : std::min(interval_min_substep, dt);
          ++interval_substeps;
          last_substep = dt;
          calm_substeps =
            implicit->flag_changes_of_last_step() == 0 ? calm_substeps + 1 : 0;
          if (calm_substeps >= adaptive.calm_steps && substep_level > 0 &&
              position % (2 * length) == 0)
            {
              --substep_level;
              calm_substeps = 0;
            }
        }
    }



    template <int dim>
    void
    BodyEvolution<dim>::note_time_dependent_data(const double t)
    {
      // The load was assembled at the start of the step (time t - dt).
      if (data.has_load() && data.load_depends_on_time())
        for (unsigned int i = 0; i < load.locally_owned_size(); ++i)
          if (!std::isfinite(load.local_element(i)))
            non_finite_data.note(parameters.tractions.empty() ?
                                   "Body/Body force" :
                                   "Body/Body force' or 'Body/Traction k/Value",
                                 parameters.body_force,
                                 t,
                                 load.local_element(i),
                                 [&]() {
                                   return describe_unknown(i) +
                                          " (in the step to this time)";
                                 });
      for (const auto &unknown : prescribed)
        if (!std::isfinite(u.local_element(unknown.local)))
          non_finite_data.note(
            data.prescribed_parameter(unknown),
            parameters.displacements[unknown.condition].value,
            t,
            u.local_element(unknown.local),
            [&]() { return describe_unknown(unknown.local); });
    }



    template <int dim>
    std::string
    BodyEvolution<dim>::describe_unknown(const unsigned int i) const
    {
      const std::vector<double> locations = mesh.owned_locations();
      Point<dim>                point;
      for (unsigned int d = 0; d < dim; ++d)
        point[d] = locations[i * (dim + 1) + d];
      return describe_point(point, "x,y,z") + ", component " +
             std::to_string(int(locations[i * (dim + 1) + dim]) + 1);
    }



    template <int dim>
    void
    BodyEvolution<dim>::check_finite(const TimeStep &step)
    {
      // A datum that became non-finite is named first (collective).
      non_finite_data.throw_if_found(comm, false);
      check_divergence(v.linfty_norm() + u.linfty_norm(),
                       std::numeric_limits<double>::infinity(),
                       step,
                       "",
                       "a time-dependent datum (Body/Body force, Body/Traction "
                       "k/Value, Body/Displacement k/Value, "
                       "Body/Contact/Foundation velocity) that is not finite "
                       "at some time, or a time step above the stability "
                       "limit");
    }



    template <int dim>
    std::pair<double, std::vector<double>>
    BodyEvolution<dim>::kinetic_energy_and_momentum() const
    {
      // One pass over the owned unknowns into 4 dim partial sums per
      // quantity, added up at the end: a single running sum is a chain of
      // dependent additions, one per unknown, that bound the row's time
      // (0.43 ms for 1.6e5 unknowns, 20% of body_fronts_2d.prm writing a
      // row at every step; perf), where 4 dim chains run side by side. The
      // order of the additions differs from a plain loop's: the values move
      // at round-off (as they do between numbers of ranks). The masses are
      // row_mass (0 without mass). Where the dim unknowns of each node are
      // consecutive (distribute_dofs() numbers them so), partial sum k
      // holds component k mod dim only; otherwise each unknown's momentum
      // goes to its component by weights 0 and 1.
      constexpr unsigned int lanes         = 4 * dim;
      const unsigned int     n             = v.locally_owned_size();
      const double          *velocity      = v.begin();
      const double          *mass          = row_mass.data();
      double                 energy[lanes] = {}, momentum[lanes][dim] = {};
      const auto             add = [&](const unsigned int i,
                           const unsigned int lane,
                           const unsigned int component) {
        // Without mass: nothing (not 0 times a velocity that need not be
        // finite there).
        const bool   massive = mass[i] > 0;
        const double p       = massive ? mass[i] * velocity[i] : 0.;
        energy[lane] += massive ? 0.5 * p * velocity[i] : 0.;
        for (unsigned int d = 0; d < dim; ++d)
          momentum[lane][d] += double(component == d) * p;
      };
      unsigned int i = 0;
      if (components_interleaved)
        for (; i + lanes <= n; i += lanes)
        // Unrolled (the library is compiled without -funroll-loops), so
        // that the partial sums live in registers.
#pragma GCC unroll 12
          for (unsigned int lane = 0; lane < lanes; ++lane)
            add(i + lane, lane, lane % dim);
      for (; i < n; ++i)
        add(i, i % lanes, component_of[i]);
      std::vector<double> sums(dim + 1, 0.);
      for (unsigned int lane = 0; lane < lanes; ++lane)
        {
          sums[0] += energy[lane];
          for (unsigned int d = 0; d < dim; ++d)
            sums[1 + d] += momentum[lane][d];
        }
      if (contact)
        {
          // The surface layer of Renard 2001, eq. (29), tangential only.
          const auto [energy, momentum] = contact->surface_layer(v);
          sums[0] += energy;
          for (unsigned int d = 0; d < dim; ++d)
            sums[1 + d] += momentum[d];
        }
      Utilities::MPI::sum(sums, comm, sums);
      return {sums[0], std::vector<double>(sums.begin() + 1, sums.end())};
    }



    template <int dim>
    void
    BodyEvolution<dim>::register_state(CheckpointArchive &archive)
    {
      archive.add(u);
      archive.add(v);
      archive.set_entry_locations(dim + 1, mesh.owned_locations());
      // The same on every rank (a global sum): any partition reads it.
      archive.add(initial_energy);
      account.register_state(archive, comm);
      rest.register_state(archive);
      if (implicit)
        implicit->register_state(archive);
      if (implicit && parameters.adaptive.enabled)
        {
          for (unsigned long *count : {&substep_level,
                                       &calm_substeps,
                                       &interval_substeps,
                                       &interval_cuts})
            archive.add(*count);
          archive.add(interval_min_substep);
          archive.add(last_substep);
        }
      if (contact)
        {
          contact->register_state(archive, u);
          archive.add(last_slip_time);
        }
      archive.after_read.push_back([this]() {
        product_current = false;
        if (contact)
          {
            // The initial data give the reference of the nodes' sliding.
            BodyVector initial;
            mesh.initialize_vector(initial);
            mesh.interpolate(data.initial_displacement(), initial);
            contact->set_reference_displacement(initial);
          }
        if (data.has_load() && !data.load_depends_on_time())
          mesh.assemble_load(data.body_force(), data.tractions(), 0., load);
      });
    }



    template <int dim>
    bool
    BodyEvolution<dim>::numbering_independent_of_partition() const
    {
      return false;
    }



    template <int dim>
    OutputSeries
    BodyEvolution<dim>::output_series()
    {
      OutputSeries series;
      series.history = {history_columns(),
                        [this](const double t) { return history_row(t); }};
      series.fields.push_back(
        {FieldFiles::main_series,
         [this](const double       t,
                const unsigned int index,
                const FieldFiles  &files) {
           return output.write_volume(t, index, u, v, files);
         }});
      // The contact surface: the explicit scheme's ContactSurface, or the
      // implicit and quasi-static schemes' contact nodes.
      if (contact || (implicit && parameters.contact.enabled))
        series.fields.push_back({"contact",
                                 [this](const double       t,
                                        const unsigned int index,
                                        const FieldFiles  &files) {
                                   return write_contact_fields(t, index, files);
                                 }});
      // The implicit and quasi-static schemes: the contact nodes at the
      // end of the run (contact_nodes.csv).
      if (implicit && parameters.contact.enabled)
        series.once.push_back(
          {{}, [this](const OutputDirectory &directory) {
             directory.write_atomically("contact_nodes.csv",
                                        implicit->contact_table(u));
           }});
      return series;
    }



    template <int dim>
    std::vector<std::string>
    BodyEvolution<dim>::history_columns() const
    {
      const std::string        axes    = "xyz";
      std::vector<std::string> columns = {"t",
                                          "kinetic_energy",
                                          "elastic_energy",
                                          "dissipated_energy",
                                          "data_work",
                                          "impact_work",
                                          "energy_balance"};
      for (unsigned int d = 0; d < dim; ++d)
        columns.push_back(std::string("momentum_") + axes[d]);
      if (contact)
        {
          for (const std::string name : {"contact_fraction",
                                         "stick_fraction",
                                         "mean_slip_rate",
                                         "max_slip_rate",
                                         "normal_force",
                                         "mean_pressure",
                                         "mean_gap",
                                         "max_tangential_displacement"})
            columns.push_back(name);
          for (unsigned int j = 1; j < dim; ++j)
            columns.push_back("friction_force_" + std::to_string(j));
          for (unsigned int j = 1; j < dim; ++j)
            columns.push_back("mean_slip_velocity_" + std::to_string(j));
          columns.push_back("ambiguous_nodes");
          columns.push_back("iterations");
          // A friction law with a state: where the interface slips and
          // where it has ruptured.
          if (contact->has_friction_state())
            {
              columns.push_back("slipping_fraction");
              columns.push_back("ruptured_fraction");
              for (unsigned int j = 1; j < dim; ++j)
                {
                  columns.push_back("front_min_" + std::to_string(j));
                  columns.push_back("front_max_" + std::to_string(j));
                }
            }
        }
      if (floor)
        columns.push_back("floor_stick_fraction");
      if (implicit)
        for (const std::string &name : implicit->history_columns())
          columns.push_back(name);
      if (implicit && parameters.adaptive.enabled)
        for (const std::string name :
             {"substeps", "substep_cuts", "min_substep", "last_substep"})
          columns.push_back(name);
      return columns;
    }



    template <int dim>
    std::vector<double>
    BodyEvolution<dim>::history_row(const double t)
    {
      // Named before a row that they made non-finite (collective).
      non_finite_data.throw_if_found(comm, false);
      update_product();
      const double elastic           = 0.5 * (u * product);
      const auto [kinetic, momentum] = kinetic_energy_and_momentum();
      const auto          works      = account.totals(comm);
      const double        dissipated = works[EnergyAccount::dissipated];
      const double        data_work  = works[EnergyAccount::data];
      const double        impact     = works[EnergyAccount::impact];
      std::vector<double> row        = {t,
                                        kinetic,
                                        elastic,
                                        dissipated,
                                        data_work,
                                        impact,
                                        kinetic + elastic + dissipated - data_work -
                                          impact - initial_energy};
      // Generalized alpha: its own dissipation closes the balance.
      if (implicit && implicit->dissipates_numerically())
        row.back() += implicit->numerical_dissipation();
      row.insert(row.end(), momentum.begin(), momentum.end());
      // The summary's stick fraction: the contact surface's, the floor's,
      // none for a body without friction.
      double stick   = std::numeric_limits<double>::quiet_NaN();
      double touched = std::numeric_limits<double>::quiet_NaN();
      if (contact)
        {
          const SurfaceStatistics s = contact->statistics();
          if (contact->frictional())
            stick = s.stick_fraction;
          touched = s.contact_fraction;
          for (const double value : {s.contact_fraction,
                                     s.stick_fraction,
                                     s.mean_slip_rate,
                                     s.max_slip_rate,
                                     s.normal_force,
                                     s.mean_pressure,
                                     s.mean_gap,
                                     s.max_tangential_displacement})
            row.push_back(value);
          row.insert(row.end(),
                     s.friction_force.begin(),
                     s.friction_force.end());
          row.insert(row.end(), s.mean_slip.begin(), s.mean_slip.end());
          row.push_back(works[EnergyAccount::ambiguous]);
          row.push_back(works[EnergyAccount::iterations]);
          if (contact->has_friction_state())
            {
              row.push_back(s.slipping_fraction);
              row.push_back(s.ruptured_fraction);
              for (unsigned int j = 0; j + 1 < dim; ++j)
                {
                  row.push_back(s.front_min[j]);
                  row.push_back(s.front_max[j]);
                }
            }
        }
      if (floor)
        {
          stick = floor->stick_fraction();
          row.push_back(stick);
        }
      if (implicit)
        {
          stick = implicit->stick_fraction();
          for (const double value : implicit->history_values(u))
            row.push_back(value);
        }
      if (implicit && parameters.adaptive.enabled)
        {
          // Since the last row (0 in the row at t0).
          row.push_back(double(interval_substeps));
          row.push_back(double(interval_cuts));
          row.push_back(interval_substeps > 0 ? interval_min_substep : 0.);
          row.push_back(last_substep);
          interval_substeps = interval_cuts = 0;
        }
      std::vector<double> centre(dim, 0.);
      for (unsigned int d = 0; d < dim; ++d)
        centre[d] =
          component_mass[d] > 0 ? momentum[d] / component_mass[d] : 0.;
      rest.record({t,
                   kinetic,
                   elastic,
                   dissipated,
                   stick,
                   std::numeric_limits<double>::quiet_NaN(),
                   touched,
                   centre});
      if (!std::isfinite(kinetic + elastic))
        throw RunError("the state is not finite at t = " + format_number(t) +
                       ": a time-dependent datum that is not finite at some "
                       "time, or a time step above the stability limit");
      return row;
    }



    template <int dim>
    std::string
    BodyEvolution<dim>::write_contact_fields(const double       t,
                                             const unsigned int index,
                                             const FieldFiles  &files)
    {
      if (!contact_output)
        contact_output =
          std::make_unique<ContactOutput<dim>>(mesh,
                                               parameters.contact.boundary_id);
      // The displacement of the faces' nodes: periodic copies from their
      // masters, ghosts from their owners (distribute() is collective: on
      // every rank, whether or not it holds a periodic unknown).
      mesh.constraints().distribute(u);
      u.update_ghost_values();
      std::string record;
      if (contact)
        record = contact_output->write(
          t, index, u, ContactSurfaceValues<dim>(*contact), files);
      else
        {
          record = contact_output->write(
            t,
            index,
            u,
            ImplicitContactValues<dim>(
              *implicit, parameters.contact.normal, u, v, t),
            files);
          // The table of contact_nodes.csv at this output, beside its
          // record (a resume removes it with the record's stale files).
          files.output_directory().write_atomically(
            std::string(OutputDirectory::field_folder) + "/contact_" +
              Utilities::int_to_string(index, 5) + ".csv",
            implicit->contact_table(u));
        }
      u.zero_out_ghost_values();
      return record;
    }



    template <int dim>
    std::string
    BodyEvolution<dim>::discretization_key() const
    {
      return "body of " + std::to_string(mesh.n_dofs()) + " unknowns";
    }



    template <int dim>
    std::string
    BodyEvolution<dim>::stop_reason() const
    {
      const double quiet = contact ? parameters.contact.friction.stop_time : 0.;
      if (!(quiet > 0) || !std::isfinite(last_slip_time) ||
          current_time - last_slip_time < quiet)
        return "";
      return "no contact node has slipped faster than " +
             format_number(contact->rupture_slip_rate()) +
             " m/s since t = " + format_number(last_slip_time) +
             " (Body/Contact/Friction law/Stop after arrest = " +
             format_number(quiet) + " s)";
    }



    template <int dim>
    std::string
    BodyEvolution<dim>::cost_summary(const RunStatistics &statistics) const
    {
      const double updates =
        double(statistics.steps_taken) * double(mesh.n_dofs());
      std::ostringstream text;
      // Quasi-static: t only orders the loads.
      text << "  " << statistics.steps_taken
           << (parameters.time_scheme == TimeScheme::quasi_static ?
                 " load steps of " :
                 " steps of ")
           << statistics.time_step << " s in " << std::setprecision(3)
           << statistics.wall_time << " s ("
           << (statistics.wall_time > 0 ? updates / statistics.wall_time : 0.)
           << " unknown-updates per second)";
      // Memory per unknown, as deal.II counts it, summed over the ranks.
      const auto   parts   = mesh.memory_consumption();
      const double n       = double(mesh.n_dofs());
      const double vectors = Utilities::MPI::sum(
        double(u.memory_consumption() + v.memory_consumption() +
               inverse_mass.memory_consumption() +
               row_mass.size() * sizeof(double) + product.memory_consumption() +
               load.memory_consumption() +
               previous_velocity.memory_consumption()),
        comm);
      Utilities::System::MemoryStats stats;
      Utilities::System::get_memory_stats(stats);
      const double peak =
        Utilities::MPI::sum(double(stats.VmHWM) * 1024., comm);
      text << "\n  memory per unknown: mesh "
           << Utilities::MPI::sum(double(parts[0]), comm) / n << " B, DoFs "
           << Utilities::MPI::sum(double(parts[1]), comm) / n << " B, operator "
           << Utilities::MPI::sum(double(parts[2]), comm) / n << " B, vectors "
           << vectors / n << " B; peak resident memory " << bytes_text(peak)
           << " in all (" << bytes_text(peak / n) << " per unknown)"
           << "\n  set-up of the model: " << setup_times;
      return text.str();
    }



    template <int dim>
    std::string
    BodyEvolution<dim>::summary(const RunStatistics &statistics) const
    {
      const double ambiguous = account.totals(comm)[EnergyAccount::ambiguous];
      std::ostringstream text;
      text << cost_summary(statistics);
      if (contact)
        text
          << "\n  friction steps with several solutions (Z <= S L_mu, doc/body.md): "
          << ambiguous << " node-steps";
      if (contact && contact->redistributed_mass())
        text << "\n  normal contact problems (redistributed mass): at most "
             << contact->normal_sweeps().first
             << " projected Gauss-Seidel sweeps, "
             << contact->normal_sweeps().second << " in all";
      if (implicit)
        text << '\n' << implicit->summary();
      const std::string physical = rest.summary();
      if (!physical.empty())
        text << '\n' << physical;
      return text.str();
    }



    template class BodyEvolution<2>;
    template class BodyEvolution<3>;
  } // namespace Body
} // namespace stickslip
