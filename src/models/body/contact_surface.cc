#include <base/expressions.h>
#include <models/body/contact_surface.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /**
       * An orthonormal basis of the plane normal to @p n: in 2D t = (-n_y,
       * n_x) (e_x for the floor n = -e_y); in 3D t_1 the projection of the
       * coordinate axis most orthogonal to n, t_2 = t_1 x n (e_x, e_y for
       * n = -e_z).
       */
      template <int dim>
      std::vector<Tensor<1, dim>>
      tangent_plane(const Tensor<1, dim> &n)
      {
        std::vector<Tensor<1, dim>> basis;
        if (dim == 2)
          {
            Tensor<1, dim> t;
            t[0] = -n[1];
            t[1] = n[0];
            basis.push_back(t);
            return basis;
          }
        unsigned int axis = 0;
        for (unsigned int d = 1; d < dim; ++d)
          if (std::abs(n[d]) < std::abs(n[axis]))
            axis = d;
        Tensor<1, dim> t1;
        t1[axis] = 1;
        t1 -= (t1 * n) * n;
        t1 /= t1.norm();
        Tensor<1, dim> t2;
        t2[0] = t1[1] * n[2] - t1[2] * n[1];
        t2[1] = t1[2] * n[0] - t1[0] * n[2];
        t2[2] = t1[0] * n[1] - t1[1] * n[0];
        basis.push_back(t1);
        basis.push_back(t2);
        return basis;
      }
    } // namespace



    template <int dim>
    ContactSurface<dim>::ContactSurface(
      const BodyDiscretization<dim> &discretization,
      const ContactParameters       &parameters,
      const std::string             &variables,
      const BodyVector              &mass,
      const BodyVector              &area,
      const std::vector<bool>       &fully_prescribed,
      const ParameterSource         &source)
      : comm(discretization.communicator())
      , friction_field(std::make_unique<FrictionLawField<dim>>(
          parameters.friction,
          variables.substr(0, variables.rfind(',')),
          source))
      , solver(parameters.contact_law(friction_field->common_law()))
      , rupture_rate(parameters.friction.rupture_slip_rate)
      , stateful(parameters.friction.has_state())
      , regularization(parameters.friction.regularization_length,
                       parameters.friction.regularization_velocity)
      , automatic_length(parameters.friction.automatic_length)
      , automatic_velocity(parameters.friction.automatic_velocity)
      , boundary_id(parameters.boundary_id)
      , surface_mass(parameters.surface_mass)
      , initial_gap_text(parameters.initial_gap)
      , foundation_velocity_text(parameters.foundation_velocity)
      , pair(parameters.counterpart == Counterpart::mirror ? 2. : 1.)
      , normal_traction_text(parameters.normal_traction)
      , area_of_surface(0)
      , any_friction(false)
      , redistributed(parameters.redistributed_mass)
      , axis(0)
      , first_node(0)
      , max_sweeps(0)
      , total_sweeps(0)
    {
      for (unsigned int d = 0; d < dim; ++d)
        outward_normal[d] = parameters.normal[d];
      tangent_basis                 = tangent_plane(outward_normal);
      const std::string coordinates = variables.substr(0, variables.rfind(','));
      initial_gap = parse_function<dim>(parameters.initial_gap,
                                        coordinates,
                                        "Body/Contact/Initial gap",
                                        source);
      foundation_velocity =
        parse_function<1>(expand_zero_vector(parameters.foundation_velocity,
                                             dim),
                          "t",
                          "Body/Contact/Foundation velocity",
                          source,
                          dim);
      if (parameters.prescribed_traction)
        normal_traction = parse_function<dim>(parameters.normal_traction,
                                              variables,
                                              "Body/Contact/Normal traction",
                                              source);
      set_nodes(discretization, fully_prescribed, mass, area);
      // The strength at rest of each node's law in its initial state (for
      // rate and state its steady value): 0 everywhere is frictionless.
      double largest = 0;
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        largest =
          std::max(largest, law_of(k).strength(law_of(k).initial_state(0.)));
      any_friction = Utilities::MPI::max(largest, comm) > 0;
      for (unsigned int d = 0; d < dim; ++d)
        if (outward_normal[d] != 0)
          axis = d;
      if (redistributed)
        set_up_normal_problem(discretization);
    }



    template <int dim>
    std::vector<double>
    ContactSurface<dim>::gather(const std::vector<double> &local) const
    {
      std::vector<double> all;
      for (const std::vector<double> &part :
           Utilities::MPI::all_gather(comm, local))
        all.insert(all.end(), part.begin(), part.end());
      return all;
    }



    template <int dim>
    void
    ContactSurface<dim>::set_up_normal_problem(
      const BodyDiscretization<dim> &discretization)
    {
      const std::vector<unsigned int> counts =
        Utilities::MPI::all_gather(comm,
                                   static_cast<unsigned int>(unknowns.size()));
      const unsigned int rank  = Utilities::MPI::this_mpi_process(comm);
      unsigned int       total = 0;
      for (unsigned int r = 0; r < counts.size(); ++r)
        {
          if (r == rank)
            first_node = total;
          total += counts[r];
        }
      // The largest normal displacement of each node: g0 against the rigid
      // plane, g0/2 against the mirror image (the gap g0 - 2 w).
      all_gap0 = gather(gap0);
      for (double &limit : all_gap0)
        limit /= pair;
      all_area = gather(nodal_area);
      normal_position.assign(unknowns.size(), 0.);
      // Column j of K_NN: K applied to the unit normal displacement of node
      // j (n = +-e_axis, so n.K n is the entry of the axis component); the
      // operator brings the ghosts and periodic copies. Triplets (row,
      // column, value) of the owned rows, exact zeros left out.
      BodyVector probe, response;
      discretization.initialize_vector(probe);
      discretization.initialize_vector(response);
      std::vector<double> triplets;
      normal_columns.assign(total, {});
      normal_change.assign(total, 0.);
      for (unsigned int j = 0; j < total; ++j)
        {
          probe = 0;
          if (j >= first_node && j < first_node + unknowns.size())
            probe.local_element(unknowns[j - first_node][axis]) = 1;
          discretization.stiffness().apply(response, probe);
          for (unsigned int i = 0; i < response.locally_owned_size(); ++i)
            if (response.local_element(i) != 0)
              normal_columns[j].emplace_back(i, response.local_element(i));
          for (std::size_t k = 0; k < unknowns.size(); ++k)
            {
              const double value = response.local_element(unknowns[k][axis]);
              if (value != 0)
                triplets.insert(triplets.end(),
                                {double(first_node + k), double(j), value});
            }
        }
      const std::vector<double> all = gather(triplets);
      normal_matrix.assign(total, {});
      for (std::size_t t = 0; t + 2 < all.size(); t += 3)
        normal_matrix[std::size_t(all[t])].emplace_back(
          static_cast<unsigned int>(all[t + 1]), all[t + 2]);
      normal_diagonal.assign(total, 0.);
      for (std::size_t i = 0; i < total; ++i)
        for (const auto &[j, k_ij] : normal_matrix[i])
          if (j == i)
            normal_diagonal[i] = k_ij;
    }



    template <int dim>
    void
    ContactSurface<dim>::solve_normal(BodyVector       &displacement,
                                      BodyVector       &velocity,
                                      const BodyVector &force,
                                      const double      dt,
                                      ContactWork      &work)
    {
      const double        sign = outward_normal[axis];
      std::vector<double> w_local(unknowns.size()), r_local(unknowns.size());
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          w_local[k] = sign * displacement.local_element(unknowns[k][axis]);
          r_local[k] = sign * force.local_element(unknowns[k][axis]);
        }
      std::vector<double>       w = gather(w_local);
      const std::vector<double> r = gather(r_local), start = w;
      // Projected Gauss-Seidel on r(w) = r - K_NN (w - start): the nodal
      // equilibrium r_i(w) = 0 where the gap is open, w_i = g0_i where the
      // foundation pushes (r_i(w) = A_i S_i >= 0). Each row's residual is
      // computed afresh, so the converged w solves the problem to the
      // tolerance of the stopping test (a change of nodal force below 1e-13
      // of the force scale).
      double scale = 0;
      for (const double value : r)
        scale = std::max(scale, std::abs(value));
      const auto residual = [&](const std::size_t i) {
        double value = r[i];
        for (const auto &[j, k_ij] : normal_matrix[i])
          value -= k_ij * (w[j] - start[j]);
        return value;
      };
      const std::vector<double> &diagonal = normal_diagonal;
      // The force scale of the test: the largest nodal force, or of the
      // displacements' size (a problem without load at rest stops at once).
      for (std::size_t i = 0; i < w.size(); ++i)
        scale = std::max(scale,
                         diagonal[i] *
                           std::max(std::abs(w[i]), std::abs(all_gap0[i])));
      unsigned int sweeps = 0;
      for (double change = 1; change > 1e-13 * scale; ++sweeps)
        {
          if (sweeps == 10000)
            throw RunError("the normal problem of Body/Contact/Mass at "
                           "contact nodes = redistributed did not converge "
                           "in 10000 projected Gauss-Seidel sweeps");
          change = 0;
          for (std::size_t i = 0; i < w.size(); ++i)
            {
              const double next =
                std::min(all_gap0[i], w[i] + residual(i) / diagonal[i]);
              change = std::max(change, diagonal[i] * std::abs(next - w[i]));
              w[i]   = next;
            }
        }
      max_sweeps = std::max(max_sweeps, sweeps);
      total_sweeps += sweeps;
      for (std::size_t i = 0; i < w.size(); ++i)
        normal_change[i] = w[i] - start[i];
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          const std::size_t i = first_node + k;
          const double      S = w[i] == all_gap0[i] ?
                                  std::max(residual(i), 0.) / nodal_area[k] :
                                  0.;
          if (dt > 0)
            {
              // The pressure's work on the body (force -A S n) over the step.
              work.impact_work -= 0.5 * nodal_area[k] * (pressure[k] + S) *
                                  (w[i] - normal_position[k]);
              velocity.local_element(unknowns[k][axis]) =
                sign * (w[i] - normal_position[k]) / dt;
            }
          displacement.local_element(unknowns[k][axis]) = sign * w[i];
          normal_position[k]                            = w[i];
          gap[k]                                        = gap0[k] - pair * w[i];
          pressure[k]                                   = S;
          if (S == 0)
            status[k] = NodeStatus::separated;
          else if (status[k] == NodeStatus::separated)
            status[k] = NodeStatus::slip;
        }
    }



    template <int dim>
    void
    ContactSurface<dim>::add_normal_change(BodyVector &product) const
    {
      // u changed by sign Delta w_j e_axis at node j (w = u.n, n = sign
      // e_axis).
      const double sign = outward_normal[axis];
      for (std::size_t j = 0; j < normal_columns.size(); ++j)
        if (normal_change[j] != 0)
          for (const auto &[i, k_ij] : normal_columns[j])
            product.local_element(i) += sign * normal_change[j] * k_ij;
    }



    template <int dim>
    bool
    ContactSurface<dim>::redistributed_mass() const
    {
      return redistributed;
    }



    template <int dim>
    unsigned int
    ContactSurface<dim>::normal_axis() const
    {
      return axis;
    }



    template <int dim>
    std::pair<unsigned int, unsigned long>
    ContactSurface<dim>::normal_sweeps() const
    {
      return {max_sweeps, total_sweeps};
    }



    template <int dim>
    void
    ContactSurface<dim>::set_nodes(
      const BodyDiscretization<dim> &discretization,
      const std::vector<bool>       &fully_prescribed,
      const BodyVector              &mass,
      const BodyVector              &area)
    {
      const std::vector<Node<dim>> nodes = discretization.nodes(boundary_id);
      double                       local_area = 0;
      std::string                  problem;
      for (const Node<dim> &node : nodes)
        {
          if (fully_prescribed[node.unknowns[0]])
            continue;
          if (!friction_field->uniform())
            {
              std::string here;
              laws.push_back(friction_field->at(node.point, here));
              if (problem.empty())
                problem = here;
            }
          Tangential position = {{0., 0.}};
          for (unsigned int j = 0; j + 1 < dim; ++j)
            position[j] = node.point * tangent_basis[j];
          tangent_position.push_back(position);
          unknowns.push_back(node.unknowns);
          nodal_mass.push_back(mass.local_element(node.unknowns[0]));
          nodal_area.push_back(area.local_element(node.unknowns[0]));
          tangential_mass.push_back(nodal_mass.back() +
                                    surface_mass * nodal_area.back());
          gap0.push_back(initial_gap->value(node.point));
          points.push_back(node.point);
          local_area += nodal_area.back();
        }
      // A bad value of the law at some node stops every rank, with the
      // message of the lowest rank that found one.
      const std::string first = first_problem(comm, problem);
      if (!first.empty())
        throw InputError(first);
      area_of_surface     = Utilities::MPI::sum(local_area, comm);
      const std::size_t n = unknowns.size();
      previous_velocity.assign(n, Tensor<1, dim>());
      gap.assign(n, 0.);
      pressure.assign(n, 0.);
      impedance_of_step.assign(n, 0.);
      reference_displacement.assign(n, {{0., 0.}});
      tangential_displacement.assign(n, {{0., 0.}});
      slip.assign(n, {{0., 0.}});
      friction.assign(n, {{0., 0.}});
      status.assign(n, NodeStatus::separated);
      law_state.assign(n, 0.);
      slip_path.assign(n, 0.);
      rupture_time.assign(n, -1.);
      effective_pressure.assign(n, 0.);
      step_coefficient.assign(n, 0.);
      step_bound.assign(n, 0.);
    }



    template <int dim>
    double
    ContactSurface<dim>::prescribed_pressure(const std::size_t k,
                                             const double      t) const
    {
      normal_traction->set_time(t);
      const double value = normal_traction->value(points[k]);
      if (!(value >= 0) || !std::isfinite(value))
        throw RunError(
          "Body/Contact/Normal traction = '" + normal_traction_text + "' is " +
          format_number(value) + " at the contact node " +
          describe_point(points[k], "x,y,z") + " at t = " + format_number(t) +
          ": the prescribed normal traction S_p must be a "
          "finite compressive value >= 0");
      return value;
    }



    template <int dim>
    NormalUpdate
    ContactSurface<dim>::prescribed_normal_step(const double      free_velocity,
                                                const double      impedance,
                                                const std::size_t k,
                                                const double      t) const
    {
      // The impulse dt A S of the traction -S n on the body: S = Z (V - V_free)
      // as the unilateral law's pressure, with V the pair's separation
      // velocity.
      const double S = prescribed_pressure(k, t);
      return NormalUpdate{0., free_velocity + S / impedance, S};
    }



    template <int dim>
    bool
    ContactSurface<dim>::frictional() const
    {
      return any_friction;
    }



    template <int dim>
    const FrictionLaw &
    ContactSurface<dim>::law_of(const std::size_t k) const
    {
      return laws.empty() ? solver.friction_law() : laws[k];
    }



    template <int dim>
    void
    ContactSurface<dim>::check_initial_gap(
      const BodyVector      &displacement,
      const std::string     &initial_displacement,
      const double           length_scale,
      const ParameterSource &source) const
    {
      // The smallest initial gap g0 and the largest penetration u0.n - g0,
      // with their nodes.
      // A prescribed normal traction has no gap (the fault never opens).
      if (normal_traction)
        return;
      double     lowest = std::numeric_limits<double>::max(), worst = 0;
      Point<dim> lowest_at, worst_at;
      bool       finite = true;
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          double u_n = 0;
          for (unsigned int d = 0; d < dim; ++d)
            u_n +=
              displacement.local_element(unknowns[k][d]) * outward_normal[d];
          u_n *= pair;
          finite = finite && std::isfinite(gap0[k] - u_n);
          if (gap0[k] < lowest)
            std::tie(lowest, lowest_at) = std::make_pair(gap0[k], points[k]);
          if (u_n - gap0[k] > worst)
            std::tie(worst, worst_at) =
              std::make_pair(u_n - gap0[k], points[k]);
        }
      if (Utilities::MPI::logical_or(!finite, comm))
        throw_bad_parameter(source,
                            "Body/Contact/Initial gap",
                            initial_gap_text,
                            "the gap g0 - u0.n is not a finite number at every "
                            "contact node (check Initial gap and Initial "
                            "displacement)");
      const double tolerance      = 1e-12 * length_scale;
      std::tie(lowest, lowest_at) = global_minimum(lowest, lowest_at);
      if (lowest < -tolerance)
        throw_bad_parameter(source,
                            "Body/Contact/Initial gap",
                            initial_gap_text,
                            "the initial gap g0 must be >= 0 (the body starts "
                            "on or above the foundation), and it is " +
                              format_number(lowest) +
                              " m at the contact node " +
                              describe_point(lowest_at, "x,y,z"));
      std::tie(worst, worst_at) = global_minimum(-worst, worst_at);
      if (-worst > tolerance)
        throw_bad_parameter(source,
                            "Body/Initial displacement",
                            initial_displacement,
                            "it penetrates the " +
                              std::string(pair == 1 ? "foundation" :
                                                      "mirror image") +
                              " by " + format_number(-worst) +
                              " m at the contact node " +
                              describe_point(worst_at, "x,y,z") +
                              (pair == 1 ? ": u0.n <= g0" : ": 2 u0.n <= g0") +
                              " must hold (g0 = Body/Contact/"
                              "Initial gap = '" +
                              initial_gap_text + "')");
    }



    template <int dim>
    std::pair<double, Point<dim>>
    ContactSurface<dim>::global_minimum(const double      value,
                                        const Point<dim> &point) const
    {
      const double       smallest = Utilities::MPI::min(value, comm);
      const unsigned int n_ranks  = Utilities::MPI::n_mpi_processes(comm);
      const unsigned int owner =
        Utilities::MPI::min(value == smallest ?
                              Utilities::MPI::this_mpi_process(comm) :
                              n_ranks,
                            comm);
      return {smallest,
              owner < n_ranks ? Utilities::MPI::broadcast(comm, point, owner) :
                                point};
    }



    template <int dim>
    void
    ContactSurface<dim>::check_foundation_velocity(
      const double           t0,
      const double           final_time,
      const ParameterSource &source) const
    {
      // S_p of a prescribed traction at every node at both ends of the run.
      std::string bad_traction;
      for (std::size_t k = 0; normal_traction && k < unknowns.size(); ++k)
        for (const double t : {t0, final_time})
          {
            normal_traction->set_time(t);
            const double value = normal_traction->value(points[k]);
            if (bad_traction.empty() &&
                (!(value >= 0) || !std::isfinite(value)))
              bad_traction = "it is " + format_number(value) +
                             " at the contact node " +
                             describe_point(points[k], "x,y,z") +
                             " at t = " + format_number(t) +
                             ": the prescribed normal traction S_p must be a "
                             "finite compressive value >= 0 [Pa]";
          }
      const std::string first = first_problem(comm, bad_traction);
      if (!first.empty())
        throw_bad_parameter(source,
                            "Body/Contact/Normal traction",
                            normal_traction_text,
                            first);
      for (const double t : {t0, final_time})
        {
          Vector<double> v_star(dim);
          foundation_velocity->vector_value(Point<1>(t), v_star);
          double normal_part = 0, size = 0;
          for (unsigned int d = 0; d < dim; ++d)
            {
              normal_part += v_star[d] * outward_normal[d];
              size += v_star[d] * v_star[d];
            }
          if (!std::isfinite(size))
            throw_bad_parameter(source,
                                "Body/Contact/Foundation velocity",
                                foundation_velocity_text,
                                "v_* is not finite at t = " + format_number(t));
          if (std::abs(normal_part) > 1e-12 * std::sqrt(size))
            throw_bad_parameter(source,
                                "Body/Contact/Foundation velocity",
                                foundation_velocity_text,
                                "the foundation moves in its plane: v_*.n must "
                                "be 0, but it is " +
                                  format_number(normal_part) +
                                  " at t = " + format_number(t));
        }
    }



    template <int dim>
    void
    ContactSurface<dim>::initialize(const double      t0,
                                    const BodyVector &displacement,
                                    const BodyVector &velocity,
                                    const BodyVector &force)
    {
      Vector<double> v_star(dim);
      foundation_velocity->vector_value(Point<1>(t0), v_star);
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          double u_n = 0, r_n = 0;
          for (unsigned int d = 0; d < dim; ++d)
            {
              u_n +=
                displacement.local_element(unknowns[k][d]) * outward_normal[d];
              r_n += force.local_element(unknowns[k][d]) * outward_normal[d];
            }
          gap[k]            = normal_traction ? 0. : gap0[k] - pair * u_n;
          const bool closed = normal_traction ? true : gap[k] <= 0 && r_n > 0;
          pressure[k]       = normal_traction ? prescribed_pressure(k, t0) :
                              closed          ? r_n / nodal_area[k] :
                                                0.;
          effective_pressure[k]  = pressure[k];
          const FrictionLaw &law = law_of(k);
          law_state[k]           = law.initial_state(t0);
          slip_path[k]           = 0;
          rupture_time[k]        = -1;
          step_bound[k]       = law.step(law_state[k], 0.).lipschitz_constant();
          step_coefficient[k] = law.strength(law_state[k]);
          const double limit  = pressure[k] * step_coefficient[k];
          double       size   = 0;
          for (unsigned int j = 0; j < dim - 1; ++j)
            {
              double v_t = 0, r_t = 0, star = 0;
              for (unsigned int d = 0; d < dim; ++d)
                {
                  v_t += velocity.local_element(unknowns[k][d]) *
                         tangent_basis[j][d];
                  r_t +=
                    force.local_element(unknowns[k][d]) * tangent_basis[j][d];
                  star += v_star[d] * tangent_basis[j][d];
                }
              slip[k][j] = pair * v_t - star;
              // The friction force resists r_T (f is the resistance, along
              // -r_T).
              friction[k][j] = closed ? r_t / nodal_area[k] : 0.;
              size += friction[k][j] * friction[k][j];
            }
          size = std::sqrt(size);
          if (size > limit)
            for (unsigned int j = 0; j < dim - 1; ++j)
              friction[k][j] *= limit / size;
          const bool stuck = std::hypot(slip[k][0], slip[k][1]) == 0;
          status[k]        = !closed ? NodeStatus::separated :
                             stuck   ? NodeStatus::stick :
                                       NodeStatus::slip;
        }
    }



    template <int dim>
    void
    ContactSurface<dim>::set_reference_displacement(
      const BodyVector &displacement)
    {
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        for (unsigned int j = 0; j < dim - 1; ++j)
          {
            double u_t = 0;
            for (unsigned int d = 0; d < dim; ++d)
              u_t += displacement.local_element(unknowns[k][d]) *
                     tangent_basis[j][d];
            reference_displacement[k][j]  = u_t;
            tangential_displacement[k][j] = u_t;
          }
    }



    template <int dim>
    std::vector<unsigned int>
    ContactSurface<dim>::local_unknowns() const
    {
      std::vector<unsigned int> result;
      for (const auto &node : unknowns)
        result.insert(result.end(), node.begin(), node.end());
      return result;
    }



    template <int dim>
    void
    ContactSurface<dim>::remember_velocities(const BodyVector &velocity)
    {
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        for (unsigned int d = 0; d < dim; ++d)
          previous_velocity[k][d] = velocity.local_element(unknowns[k][d]);
    }



    template <int dim>
    void
    ContactSurface<dim>::step(const double      t_next,
                              const double      dt,
                              const BodyVector &displacement,
                              BodyVector       &velocity,
                              ContactWork      &work)
    {
      Vector<double> v_star_vector(dim);
      foundation_velocity->vector_value(Point<1>(t_next), v_star_vector);
      Tangential v_star = {{0., 0.}};
      for (unsigned int j = 0; j < dim - 1; ++j)
        for (unsigned int d = 0; d < dim; ++d)
          v_star[j] += v_star_vector[d] * tangent_basis[j][d];

      for (std::size_t k = 0; k < unknowns.size(); ++k)
        step_node(k, v_star, t_next, dt, displacement, velocity, work);
    }



    template <int dim>
    double
    ContactSurface<dim>::update_effective_pressure(
      const std::size_t k,
      const double      pressure,
      const Tangential &previous_slip,
      const double      dt)
    {
      // S' at the last step's slip rate (doc/theory.md §8.8; S' = S when
      // not regularized). A node out of contact has no friction. S' lags
      // S at stuck nodes too: ahead of a rupture front the pressure
      // changes while the nodes still stick, and a bound that followed it
      // at once there is what does not converge (measured: with S' = S at
      // stuck nodes the rupture times of friction_fronts_converge_
      // slip_weakening converge at order 0.22 instead of 1.06).
      effective_pressure[k] =
        regularization.evolve(effective_pressure[k],
                              pressure,
                              std::hypot(previous_slip[0], previous_slip[1]),
                              dt);
      return pressure > 0 ? effective_pressure[k] : 0.;
    }



    template <int dim>
    void
    ContactSurface<dim>::step_node(const std::size_t k,
                                   const Tangential &v_star,
                                   const double      t_next,
                                   const double      dt,
                                   const BodyVector &displacement,
                                   BodyVector       &velocity,
                                   ContactWork      &work)
    {
      const auto           &node     = unknowns[k];
      const Tensor<1, dim> &previous = previous_velocity[k];
      Tensor<1, dim>        predicted, position;
      for (unsigned int d = 0; d < dim; ++d)
        {
          predicted[d] = velocity.local_element(node[d]);
          position[d]  = displacement.local_element(node[d]);
        }

      // Normal, with the lumped mass (the surface mass of Renard 2001, eq. (29)
      // perturbs the friction condition only): the gap w = g0 - u.n opens
      // with the separation velocity -v.n (n points into the foundation).
      // Against the mirror image (pair = 2) the gap g0 - 2 u.n opens with
      // -2 v.n and the pair's impedance is that of its reduced mass m/2
      // (doc/theory.md §7.6); pair = 1 is the rigid plane, the same
      // arithmetic.
      const double v_n     = pair * (predicted * outward_normal);
      const double w       = gap0[k] - pair * (position * outward_normal);
      const double mass_dt = nodal_area[k] * dt;
      // Redistributed mass: no normal mass, the normal state is that of the
      // last normal solve (solve_normal()), the predicted normal velocity
      // kept (the next solve replaces the displacement it gives).
      // Prescribed traction: the impulse of S_p at t^n, the fault closed.
      const double       normal_impedance = nodal_mass[k] / (pair * mass_dt);
      const NormalUpdate normal =
        redistributed ?
          NormalUpdate{gap[k], -v_n, pressure[k]} :
        normal_traction ?
          prescribed_normal_step(-v_n, normal_impedance, k, t_next - dt) :
          solver.normal_step(w, w - dt * v_n, -v_n, normal_impedance, dt);

      // Tangential, (52) with the mass m~ = m + epsilon A: the free step's
      // increment of v_T scaled by m/m~, then the impedance Z = m~/(A dt)
      // (of the pair, m~/(2 A dt), for the slip 2 v_T against the mirror).
      const double impedance = tangential_mass[k] / (pair * mass_dt);
      const double ratio     = nodal_mass[k] / tangential_mass[k];
      Tangential   free_t = {{0., 0.}}, r = {{0., 0.}},
                 previous_slip = {{0., 0.}};
      for (unsigned int j = 0; j < dim - 1; ++j)
        {
          const double old_t = previous * tangent_basis[j];
          free_t[j] = old_t + ratio * (predicted * tangent_basis[j] - old_t);
          r[j]      = impedance * (pair * free_t[j] - v_star[j]);
          previous_slip[j] = pair * old_t - v_star[j];
        }
      const double bound_pressure =
        update_effective_pressure(k, normal.pressure, previous_slip, dt);
      const TangentialUpdate tangential = solver.tangential_step(impedance,
                                                                 bound_pressure,
                                                                 r,
                                                                 previous_slip,
                                                                 law_of(k),
                                                                 law_state[k],
                                                                 dt);

      // The body's velocities: the pair's separation velocity and slip over
      // pair (the mirror image moves with the opposite ones).
      const double   body_n = -normal.velocity / pair;
      Tensor<1, dim> v_new  = body_n * outward_normal;
      for (unsigned int j = 0; j < dim - 1; ++j)
        v_new += (v_star[j] + tangential.slip[j]) / pair * tangent_basis[j];
      for (unsigned int d = 0; d < dim; ++d)
        velocity.local_element(node[d]) = v_new[d];

      // The work of the correction with the mean velocity of the step (for
      // which the central-difference energy balance is exact), split into
      // the friction dissipation dt A f.s, the foundation's work -dt A f.v_*
      // and the rest. Against the mirror image the body's share of the
      // friction dissipation is half the fault's, dt A f.s/2.
      const double previous_n = previous * outward_normal;
      double       correction =
        nodal_mass[k] * (body_n - v_n / pair) * 0.5 * (previous_n + body_n);
      double dissipation = 0, foundation = 0;
      for (unsigned int j = 0; j < dim - 1; ++j)
        {
          const double new_t = (v_star[j] + tangential.slip[j]) / pair;
          correction += tangential_mass[k] * (new_t - free_t[j]) * 0.5 *
                        (previous * tangent_basis[j] + new_t);
          dissipation +=
            mass_dt * tangential.friction_force[j] * tangential.slip[j] / pair;
          foundation -= mass_dt * tangential.friction_force[j] * v_star[j];
          tangential_displacement[k][j] =
            (position + dt * v_new) * tangent_basis[j];
        }
      work.dissipation += dissipation;
      work.foundation_work += foundation;
      work.impact_work += correction + dissipation - foundation;
      if (bound_pressure > 0 && !tangential.unique)
        ++work.ambiguous_nodes;
      work.iterations += tangential.iterations;
      record_step(k, normal, tangential, impedance, t_next, dt);
    }



    template <int dim>
    void
    ContactSurface<dim>::record_step(const std::size_t       k,
                                     const NormalUpdate     &normal,
                                     const TangentialUpdate &tangential,
                                     const double            impedance,
                                     const double            t_next,
                                     const double            dt)
    {
      // The law's state, the slip in contact and the rupture time.
      const double rate   = std::hypot(tangential.slip[0], tangential.slip[1]);
      law_state[k]        = tangential.state;
      step_coefficient[k] = tangential.coefficient;
      step_bound[k]       = tangential.lipschitz_bound;
      if (normal.pressure > 0)
        {
          slip_path[k] += dt * rate;
          if (rupture_time[k] < 0 && rate > rupture_rate)
            rupture_time[k] = t_next;
        }

      gap[k]               = normal.gap;
      pressure[k]          = normal.pressure;
      impedance_of_step[k] = impedance;
      slip[k]              = tangential.slip;
      friction[k]          = tangential.friction_force;
      status[k]            = normal.pressure == 0 ? NodeStatus::separated :
                             tangential.stick     ? NodeStatus::stick :
                                                    NodeStatus::slip;
    }



    template <int dim>
    std::pair<double, Tensor<1, dim>>
    ContactSurface<dim>::surface_layer(const BodyVector &velocity) const
    {
      double         energy = 0;
      Tensor<1, dim> momentum;
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          const double layer = tangential_mass[k] - nodal_mass[k];
          for (unsigned int j = 0; j < dim - 1; ++j)
            {
              double v_t = 0;
              for (unsigned int d = 0; d < dim; ++d)
                v_t +=
                  velocity.local_element(unknowns[k][d]) * tangent_basis[j][d];
              energy += 0.5 * layer * v_t * v_t;
              momentum += layer * v_t * tangent_basis[j];
            }
        }
      return {energy, momentum};
    }



    template <int dim>
    SurfaceStatistics
    ContactSurface<dim>::statistics() const
    {
      // Sums: contact area, stuck area, slip-rate integral, normal force,
      // gap integral, friction force (dim - 1), slip integral (dim - 1),
      // slipping area, ruptured area.
      const unsigned int  n_sums = 5 + 2 * (dim - 1);
      std::vector<double> sums(n_sums + 2, 0.);
      double              max_rate = 0, max_drift = 0;
      // The extent of the ruptured nodes along t_j: -min and max.
      std::vector<double> extent(2 * (dim - 1),
                                 -std::numeric_limits<double>::max());
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          const double area = nodal_area[k];
          const double rate = std::hypot(slip[k][0], slip[k][1]);
          if (status[k] != NodeStatus::separated)
            {
              sums[0] += area;
              sums[1] += status[k] == NodeStatus::stick ? area : 0.;
              sums[2] += area * rate;
              max_rate = std::max(max_rate, rate);
              sums[n_sums] += rate > rupture_rate ? area : 0.;
            }
          if (rupture_time[k] >= 0)
            {
              sums[n_sums + 1] += area;
              for (unsigned int j = 0; j + 1 < dim; ++j)
                {
                  extent[2 * j] =
                    std::max(extent[2 * j], -tangent_position[k][j]);
                  extent[2 * j + 1] =
                    std::max(extent[2 * j + 1], tangent_position[k][j]);
                }
            }
          max_drift = std::max(max_drift,
                               std::hypot(tangential_displacement[k][0] -
                                            reference_displacement[k][0],
                                          tangential_displacement[k][1] -
                                            reference_displacement[k][1]));
          sums[3] += area * pressure[k];
          sums[4] += area * gap[k];
          for (unsigned int j = 0; j < dim - 1; ++j)
            {
              sums[5 + j] -= area * friction[k][j];
              sums[5 + (dim - 1) + j] += area * slip[k][j];
            }
        }
      Utilities::MPI::sum(sums, comm, sums);
      max_rate  = Utilities::MPI::max(max_rate, comm);
      max_drift = Utilities::MPI::max(max_drift, comm);
      Utilities::MPI::max(extent, comm, extent);
      SurfaceStatistics result;
      const double      total = area_of_surface > 0 ? area_of_surface : 1.;
      result.contact_fraction = sums[0] / total;
      result.stick_fraction   = sums[0] > 0 ? sums[1] / sums[0] : 0.;
      result.mean_slip_rate   = sums[0] > 0 ? sums[2] / sums[0] : 0.;
      result.max_slip_rate    = max_rate;
      result.normal_force     = sums[3];
      result.mean_pressure    = sums[3] / total;
      result.mean_gap         = sums[4] / total;
      result.max_tangential_displacement = max_drift;
      for (unsigned int j = 0; j < dim - 1; ++j)
        {
          result.friction_force.push_back(sums[5 + j]);
          result.mean_slip.push_back(sums[5 + (dim - 1) + j] / total);
        }
      result.slipping_fraction = sums[0] > 0 ? sums[n_sums] / sums[0] : 0.;
      result.ruptured_fraction = sums[n_sums + 1] / total;
      const bool ruptured      = sums[n_sums + 1] > 0;
      for (unsigned int j = 0; j < dim - 1; ++j)
        {
          result.front_min.push_back(ruptured ? -extent[2 * j] : 0.);
          result.front_max.push_back(ruptured ? extent[2 * j + 1] : 0.);
        }
      return result;
    }



    template <int dim>
    unsigned int
    ContactSurface<dim>::n_local_nodes() const
    {
      return unknowns.size();
    }



    template <int dim>
    types::global_dof_index
    ContactSurface<dim>::n_nodes() const
    {
      return Utilities::MPI::sum<types::global_dof_index>(unknowns.size(),
                                                          comm);
    }



    template <int dim>
    const std::vector<Tensor<1, dim>> &
    ContactSurface<dim>::tangents() const
    {
      return tangent_basis;
    }



    template <int dim>
    const Tensor<1, dim> &
    ContactSurface<dim>::normal() const
    {
      return outward_normal;
    }



    template <int dim>
    std::vector<std::string>
    ContactSurface<dim>::output_value_names()
    {
      return {"gap",
              "pressure",
              "slip_rate",
              "state",
              "friction_ratio",
              "uniqueness_ratio",
              "slip_1",
              "slip_2",
              "friction_1",
              "friction_2",
              "friction_coefficient",
              "slip",
              "rupture_time",
              "friction_state",
              "effective_pressure"};
    }



    template <int dim>
    std::vector<double>
    ContactSurface<dim>::output_values() const
    {
      std::vector<double> values;
      values.reserve(unknowns.size() * n_output_values);
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        {
          const double force = std::hypot(friction[k][0], friction[k][1]);
          for (const double value :
               {gap[k],
                pressure[k],
                std::hypot(slip[k][0], slip[k][1]),
                static_cast<double>(status[k]),
                pressure[k] > 0 ? force / pressure[k] : 0.,
                impedance_of_step[k] > 0 ?
                  pressure[k] * step_bound[k] / impedance_of_step[k] :
                  0.,
                slip[k][0],
                slip[k][1],
                friction[k][0],
                friction[k][1],
                step_coefficient[k],
                slip_path[k],
                rupture_time[k],
                law_state[k],
                effective_pressure[k]})
            values.push_back(value);
        }
      return values;
    }



    template <int dim>
    void
    ContactSurface<dim>::register_state(CheckpointArchive &archive,
                                        const BodyVector  &layout)
    {
      // One vector per nodal array (the values at each node's first
      // unknown), matched by place like the body's own unknowns; S' only
      // when regularized (else it is the pressure of the step).
      std::vector<std::vector<double> *> arrays = {&law_state,
                                                   &slip_path,
                                                   &rupture_time};
      if (regularization.active())
        arrays.push_back(&effective_pressure);
      // Redistributed mass: the pressure and gap of the last normal solve
      // (the next friction step's) and its normal displacements (for the
      // pressure's work).
      if (redistributed)
        for (std::vector<double> *array : {&pressure, &gap, &normal_position})
          arrays.push_back(array);
      auto vectors = std::make_shared<std::vector<BodyVector>>(arrays.size());
      for (BodyVector &vector : *vectors)
        {
          vector.reinit(layout);
          archive.add(vector);
        }
      archive.before_write.push_back([this, vectors, arrays]() {
        for (unsigned int a = 0; a < arrays.size(); ++a)
          for (std::size_t k = 0; k < unknowns.size(); ++k)
            (*vectors)[a].local_element(unknowns[k][0]) = (*arrays[a])[k];
      });
      archive.after_read.push_back([this, vectors, arrays]() {
        for (unsigned int a = 0; a < arrays.size(); ++a)
          for (std::size_t k = 0; k < unknowns.size(); ++k)
            (*arrays[a])[k] = (*vectors)[a].local_element(unknowns[k][0]);
      });
    }



    template <int dim>
    bool
    ContactSurface<dim>::has_friction_state() const
    {
      return stateful;
    }



    template <int dim>
    double
    ContactSurface<dim>::rupture_slip_rate() const
    {
      return rupture_rate;
    }



    template <int dim>
    double
    ContactSurface<dim>::max_slip_rate() const
    {
      double rate = 0;
      for (std::size_t k = 0; k < unknowns.size(); ++k)
        if (status[k] != NodeStatus::separated)
          rate = std::max(rate, std::hypot(slip[k][0], slip[k][1]));
      return Utilities::MPI::max(rate, comm);
    }



    template <int dim>
    std::string
    ContactSurface<dim>::friction_description() const
    {
      return friction_field->description();
    }



    template <int dim>
    std::string
    ContactSurface<dim>::regularization_description() const
    {
      if (!regularization.active())
        return "";
      return "; normal stress regularization L = " +
             format_number(regularization.slip_length()) + " m" +
             (automatic_length ? " (auto: h_C/50)" : "") +
             ", V* = " + format_number(regularization.velocity_scale()) +
             " m/s" +
             (automatic_length && automatic_velocity ? " (auto: c_s/500)" : "");
    }



    template <int dim>
    const std::vector<std::array<unsigned int, dim>> &
    ContactSurface<dim>::node_unknowns() const
    {
      return unknowns;
    }



    template <int dim>
    const ContactNode &
    ContactSurface<dim>::node_solver() const
    {
      return solver;
    }



    template <int dim>
    double
    ContactSurface<dim>::total_area() const
    {
      return area_of_surface;
    }



    template class ContactSurface<2>;
    template class ContactSurface<3>;
  } // namespace Body
} // namespace stickslip
