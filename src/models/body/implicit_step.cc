#include <deal.II/base/quadrature_lib.h>

#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/lapack_full_matrix.h>
#include <deal.II/lac/solver_cg.h>
#include <deal.II/lac/solver_control.h>
#include <deal.II/lac/sparsity_tools.h>

#include <base/expressions.h>
#include <base/input_error.h>
#include <base/local_values.h>
#include <base/output_files.h>
#include <friction/friction_law.h>
#include <friction/isotropic_inclusion.h>
#include <linear_algebra/elasticity_amg.h>
#include <linear_algebra/spd_solver.h>
#include <models/body/implicit_step.h>
#include <models/body/stiffness_operator.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /**
       * The operator of a solve: the assembled K + c0 M and, on the rows of
       * the slipping contact nodes, the law's tangent P mu~'(V)/dt
       * (ImplicitStep::slip_tangent; none for the constant law, and then
       * the matrix's product alone).
       */
      class StepOperator
      {
      public:
        /**
         * @p rows the tangential unknowns, @p size of them per node, @p
         * blocks the nodes' size x size tangents row by row.
         */
        StepOperator(const DistributedMatrix         &matrix,
                     const std::vector<unsigned int> &rows,
                     const unsigned int               size,
                     const std::vector<double>       &blocks)
          : matrix(matrix)
          , rows(rows)
          , size(size)
          , blocks(blocks)
          , any(std::any_of(blocks.begin(), blocks.end(), [](const double d) {
            return d != 0;
          }))
        {}

        void
        vmult(DistributedVector &y, const DistributedVector &x) const
        {
          matrix.vmult(y, x);
          if (!any)
            return;
          ConstLocalValues in(x);
          LocalValues      out(y);
          for (std::size_t node = 0; node * size < rows.size(); ++node)
            for (unsigned int a = 0; a < size; ++a)
              for (unsigned int b = 0; b < size; ++b)
                out[rows[node * size + a]] +=
                  blocks[(node * size + a) * size + b] *
                  in[rows[node * size + b]];
        }

      private:
        const DistributedMatrix         &matrix;
        const std::vector<unsigned int> &rows;
        const unsigned int               size;
        const std::vector<double>       &blocks;
        const bool                       any;
      };

      /**
       * The exact inverse of the assembled K + c0 M as CG's preconditioner
       * (Linear solver/Preconditioner = direct): one iteration without the
       * laws' tangents, a few with them.
       */
      class FactorPreconditioner
      {
      public:
        explicit FactorPreconditioner(const SpdSolver &factor)
          : factor(factor)
        {}

        void
        vmult(DistributedVector &y, const DistributedVector &x) const
        {
          factor.solve(y, x);
        }

      private:
        const SpdSolver &factor;
      };
    } // namespace



    template <int dim>
    ImplicitStep<dim>::ImplicitStep(const BodyDiscretization<dim>   &mesh,
                                    const BodyParameters            &parameters,
                                    const BodyVector                &mass,
                                    const std::vector<unsigned int> &prescribed,
                                    const BodyVector                &area,
                                    const ParameterSource           &source)
      : mesh(mesh)
      , parameters(parameters)
      , comm(mesh.communicator())
      , quasi_static(parameters.time_scheme == TimeScheme::quasi_static)
      , scheme(
          parameters.spectral_radius == 1 ?
            GeneralizedAlpha::average_acceleration() :
            GeneralizedAlpha::from_spectral_radius(parameters.spectral_radius))
      , average_acceleration(parameters.spectral_radius == 1)
      , mass(mass)
      , prescribed(prescribed)
      , normal_sign(1)
      , total_area(0)
      , gap_tolerance(1e-9 * mesh.smallest_cell_diameter())
      , pair(parameters.contact.counterpart == Counterpart::mirror ? 2. : 1.)
      , frictional(false)
      , law_with_rate(parameters.contact.enabled &&
                      parameters.contact.friction.kind !=
                        Parameters::FrictionLaw::Kind::constant)
      , step_size(0)
      , spring_stiffness(0)
      , driver_now(0)
      , driver_next(0)
      , driver_value(0)
      , assembled_c0(0)
      , steps(0)
      , newton_iterations(0)
      , active_set_changes(0)
      , cg_iterations(0)
      , assemblies(0)
      , max_newton(0)
      , max_cg(0)
      , stick_slip_changes(0)
      , safeguards(0)
      , noise_floor_ends(0)
      , numerical_share(0)
      , numerical_total(0)
      , rigid_modes(rigid_body_modes(mesh.dof_handler()))
    {
      const IndexSet &owned = mesh.dof_handler().locally_owned_dofs();
      for (unsigned int i = 0; i < owned.n_elements(); ++i)
        if (mesh.constraints().is_constrained(owned.nth_index_in_set(i)))
          periodic_copies.push_back(i);
      if (parameters.contact.enabled)
        {
          // The normal is a coordinate axis (checked by BodyParameters).
          unsigned int axis = 0;
          for (unsigned int d = 0; d < dim; ++d)
            if (std::abs(parameters.contact.normal[d]) > 0.5)
              axis = d;
          normal_sign = parameters.contact.normal[axis] > 0 ? 1. : -1.;
          const auto initial_gap =
            parse_function<dim>(parameters.contact.initial_gap,
                                parameters.coordinates(),
                                "Body/Contact/Initial gap",
                                source);
          std::vector<bool> held(mass.locally_owned_size(), false);
          for (const unsigned int i : prescribed)
            held[i] = true;
          std::vector<Node<dim>> nodes;
          for (const Node<dim> &node :
               mesh.nodes(parameters.contact.boundary_id, true))
            if (!held[node.unknowns[axis]])
              {
                normal_unknown.push_back(node.unknowns[axis]);
                gap0.push_back(initial_gap->value(node.point));
                area_of_node.push_back(area.local_element(node.unknowns[0]));
                total_area += area_of_node.back();
                nodes.push_back(node);
                points.push_back(node.point);
                contact_index.push_back(
                  owned.nth_index_in_set(node.unknowns[axis]));
              }
          total_area = Utilities::MPI::sum(total_area, comm);
          if (parameters.contact.prescribed_traction)
            normal_traction =
              parse_function<dim>(parameters.contact.normal_traction,
                                  parameters.variables(),
                                  "Body/Contact/Normal traction",
                                  source);
          set_up_friction(nodes, held, source);
        }
      active.assign(normal_unknown.size(), false);
      stuck.assign(normal_unknown.size(), false);
      slip_force.assign(normal_unknown.size() * (dim - 1), 0.);
      next_force = slip_force;
      given_normal.assign(normal_unknown.size(), 0.);
      next_normal = given_normal;
      pressure.assign(normal_unknown.size(), 0.);
      gap = gap0;
      for (BodyVector *vector : {&acceleration,
                                 &reaction,
                                 &active_marker,
                                 &reference,
                                 &slip_marker,
                                 &state_marker,
                                 &rate_marker,
                                 &spring_origin})
        mesh.initialize_vector(*vector);
      if (parameters.pull_spring.enabled)
        {
          std::vector<bool> held(mass.locally_owned_size(), false);
          for (const unsigned int i : prescribed)
            held[i] = true;
          set_up_pull_spring(held, source);
        }

      // The sparsity of K with the periodic constraints condensed: the
      // constraints of prescribed and active unknowns only remove entries.
      DoFTools::extract_locally_relevant_dofs(mesh.dof_handler(),
                                              relevant_dofs);
      const IndexSet &relevant = relevant_dofs;
      relevant_partitioner =
        std::make_shared<Utilities::MPI::Partitioner>(owned, relevant, comm);
      DynamicSparsityPattern pattern(relevant);
      DoFTools::make_sparsity_pattern(mesh.dof_handler(),
                                      pattern,
                                      mesh.constraints(),
                                      false);
      SparsityTools::distribute_sparsity_pattern(pattern,
                                                 owned,
                                                 comm,
                                                 relevant);
      matrix.reinit(owned, owned, pattern, comm);
      rhs.reinit(owned, comm);
      solution.reinit(owned, comm);
      if (quasi_static)
        check_rigid_modes(source);
      if (frictional)
        set_up_tangential_stiffness();
    }



    template <int dim>
    double
    ImplicitStep<dim>::inertia_coefficient(const double dt) const
    {
      if (quasi_static)
        return 0.;
      return average_acceleration ? 4. / (dt * dt) :
                                    scheme.inertia_coefficient(dt);
    }



    template <int dim>
    void
    ImplicitStep<dim>::check_rigid_modes(const ParameterSource &source) const
    {
      // The rigid-body modes r_a (rigid_body_modes(): dim translations, 1
      // or 3 rotations about the centroid) at the prescribed unknowns:
      // G_ab = sum_i r_a(x_i) r_b(x_i) over them, scaled by the modes'
      // norms over the whole body (free of the body's size), is singular
      // iff some mode moves no prescribed unknown (it moves the whole body).
      const unsigned int  n_modes = rigid_modes.size();
      std::vector<double> gram(n_modes * n_modes, 0.), norm(n_modes);
      for (unsigned int a = 0; a < n_modes; ++a)
        norm[a] = std::max(rigid_modes[a].l2_norm(), 1e-300);
      std::vector<std::unique_ptr<ConstLocalValues>> modes;
      for (const auto &mode : rigid_modes)
        modes.push_back(std::make_unique<ConstLocalValues>(mode));
      for (const unsigned int i : prescribed)
        for (unsigned int a = 0; a < n_modes; ++a)
          for (unsigned int b = 0; b < n_modes; ++b)
            gram[a * n_modes + b] +=
              (*modes[a])[i] * (*modes[b])[i] / (norm[a] * norm[b]);
      modes.clear();
      Utilities::MPI::sum(gram, comm, gram);
      LAPACKFullMatrix<double> matrix(n_modes, n_modes);
      double                   trace = 0;
      for (unsigned int a = 0; a < n_modes; ++a)
        {
          for (unsigned int b = 0; b < n_modes; ++b)
            matrix(a, b) = gram[a * n_modes + b];
          trace += gram[a * n_modes + a];
        }
      Vector<double>     eigenvalues;
      FullMatrix<double> eigenvectors;
      matrix.compute_eigenvalues_symmetric(
        -1., 2. * trace + 1., 0., eigenvalues, eigenvectors);
      // The smallest eigenvalue against round-off of the largest; its
      // eigenvector names the free mode.
      const double largest = std::max(trace, 1.);
      if (eigenvalues.size() == n_modes && eigenvalues[0] > 1e-10 * largest)
        return;
      const std::vector<std::string> names =
        dim == 2 ? std::vector<std::string>{"a translation along x",
                                            "a translation along y",
                                            "a rotation about z"} :
                   std::vector<std::string>{"a translation along x",
                                            "a translation along y",
                                            "a translation along z",
                                            "a rotation about x",
                                            "a rotation about y",
                                            "a rotation about z"};
      std::string free_mode;
      for (unsigned int a = 0; a < n_modes; ++a)
        if (eigenvectors.m() == n_modes && std::abs(eigenvectors(a, 0)) > 0.1)
          free_mode += (free_mode.empty() ? "" : " with ") + names[a];
      throw_bad_parameter(
        source,
        "Body/Time scheme",
        "quasi-static",
        "with no inertia the body must be held without contact: the "
        "prescribed displacements (Body/Displacement k) leave " +
          (free_mode.empty() ? std::string("a rigid-body mode") : free_mode) +
          " free, and K u = f + R is singular before contact (prescribe "
          "components that remove it, e.g. a symmetry line, or use Time "
          "scheme = implicit)");
    }



    template <int dim>
    void
    ImplicitStep<dim>::for_each_cell_stiffness(
      const std::function<void(const FullMatrix<double> &,
                               const std::vector<types::global_dof_index> &)>
        &add) const
    {
      const FiniteElement<dim>            &fe = mesh.fe();
      FEValues<dim>                        values(fe,
                           QGauss<dim>(parameters.degree + 1),
                           update_gradients | update_JxW_values);
      const unsigned int                   n = fe.n_dofs_per_cell();
      FullMatrix<double>                   local(n, n);
      std::vector<types::global_dof_index> indices(n);
      for (const auto &cell : mesh.dof_handler().active_cell_iterators())
        if (cell->is_locally_owned())
          {
            values.reinit(cell);
            cell_stiffness(values,
                           parameters.lambda,
                           parameters.shear_modulus,
                           local);
            cell->get_dof_indices(indices);
            add(local, indices);
          }
    }



    template <int dim>
    void
    ImplicitStep<dim>::set_up_tangential_stiffness()
    {
      // K_ii cell by cell (the diagonal of the quasi-static friction's
      // fixed point, in place of c0 m_i).
      LinearAlgebra::distributed::Vector<double> diagonal(relevant_partitioner);
      for_each_cell_stiffness(
        [&](const FullMatrix<double>                   &local,
            const std::vector<types::global_dof_index> &indices) {
          for (unsigned int i = 0; i < indices.size(); ++i)
            diagonal(indices[i]) += local(i, i);
        });
      diagonal.compress(VectorOperation::add);
      tangential_stiffness.clear();
      for (const unsigned int i : tangential_unknown)
        tangential_stiffness.push_back(diagonal.local_element(i));
    }



    template <int dim>
    void
    ImplicitStep<dim>::set_up_pull_spring(const std::vector<bool> &held,
                                          const ParameterSource   &source)
    {
      // k/N over the boundary's nodes of all ranks (a prescribed unknown
      // along the axis takes no share: its force is the prescription's).
      const PullSpringParameters &spring = parameters.pull_spring;
      for (const Node<dim> &node : mesh.nodes(spring.boundary_id, false))
        if (!held[node.unknowns[spring.axis]])
          spring_unknown.push_back(node.unknowns[spring.axis]);
      const unsigned long n_nodes =
        Utilities::MPI::sum<unsigned long>(spring_unknown.size(), comm);
      if (n_nodes == 0)
        throw InputError(
          "Body/Pull spring/Boundary id = " +
          std::to_string(spring.boundary_id) +
          source.where("Body/Pull spring/Boundary id") +
          ": no free node of the mesh lies on that boundary; give the id of "
          "a boundary of the body whose unknowns along Axis are not "
          "prescribed");
      spring_stiffness = spring.stiffness / double(n_nodes);
      driver           = parse_function<1>(spring.driver,
                                 "t",
                                 "Body/Pull spring/Driver displacement",
                                 source);
    }



    template <int dim>
    double
    ImplicitStep<dim>::spring_force(const std::size_t m,
                                    const BodyVector &u,
                                    const double      x) const
    {
      const unsigned int i = spring_unknown[m];
      return spring_stiffness *
             (x - (u.local_element(i) - spring_origin.local_element(i)));
    }



    template <int dim>
    void
    ImplicitStep<dim>::set_up_friction(const std::vector<Node<dim>> &nodes,
                                       const std::vector<bool>      &held,
                                       const ParameterSource        &source)
    {
      // mu_i from the constant law at the node (an expression of the
      // position); a node with a prescribed tangential unknown is
      // frictionless (its tangential reaction is the prescription's). A law
      // with a rate or a state: the node's law, mu_i its strength at rest in
      // the initial state (> 0: the node is frictional; the bound itself
      // comes from the law over each step, node_friction()).
      const FrictionLawField<dim> field(parameters.contact.friction,
                                        parameters.coordinates(),
                                        source);
      std::string                 problem;
      double                      largest = 0;
      for (const Node<dim> &node : nodes)
        {
          std::string       here;
          const FrictionLaw law   = field.at(node.point, here);
          const double      value = law_with_rate ?
                                      law.strength(law.initial_state(0.)) :
                                      law.value(0., 0.);
          if (law_with_rate)
            laws.push_back(law);
          bool free = true;
          for (unsigned int d = 0; d < dim; ++d)
            if (std::abs(parameters.contact.normal[d]) < 0.5)
              {
                tangential_unknown.push_back(node.unknowns[d]);
                tangential_mass.push_back(mass.local_element(node.unknowns[d]));
                free = free && !held[node.unknowns[d]];
              }
          mu.push_back(free ? value : 0.);
          law_mu.push_back(mu.back());
          largest = std::max(largest, mu.back());
          if (problem.empty())
            problem = here;
        }
      // A bad value at some node stops every rank with the lowest rank's
      // message.
      const std::string first = first_problem(comm, problem);
      if (!first.empty())
        throw InputError(first);
      frictional = Utilities::MPI::max(largest, comm) > 0;
      if (frictional)
        foundation_velocity = parse_function<1>(
          expand_zero_vector(parameters.contact.foundation_velocity, dim),
          "t",
          "Body/Contact/Foundation velocity",
          source,
          dim);
      foundation_displacement.assign(dim, 0.);
      shift.assign(dim - 1, 0.);
      law_state.assign(laws.size(), 0.);
      last_rate.assign(laws.size() * (dim - 1), 0.);
      slip_tangent.assign(normal_unknown.size() * (dim - 1) * (dim - 1), 0.);
    }



    template <int dim>
    void
    ImplicitStep<dim>::initialize(const double      t0,
                                  const BodyVector &displacement,
                                  const BodyVector &force)
    {
      // Quasi-static: no acceleration.
      for (unsigned int i = 0; i < acceleration.locally_owned_size(); ++i)
        acceleration.local_element(i) =
          !quasi_static && mass.local_element(i) > 0 ?
            force.local_element(i) / mass.local_element(i) :
            0.;
      for (const unsigned int i : prescribed)
        acceleration.local_element(i) = 0;
      reaction = 0;
      // A prescribed traction: the contact never opens, every node is
      // pressed by S_p(t0) A_i.
      if (normal_traction)
        set_prescribed_pressure(t0);
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          const unsigned int j = normal_unknown[k];
          gap[k]               = normal_traction ? 0. :
                                                   gap0[k] - pair * normal_sign *
                                                 displacement.local_element(j);
          active[k] =
            normal_traction || (gap[k] <= gap_tolerance &&
                                normal_sign * force.local_element(j) > 0);
          // The pressed node's reaction R^0 = -(f - K u) (its normal
          // unknown has no mass): the first step's contact work, if it
          // opens, is that of the pressure it starts with.
          if (holds_normal(k))
            {
              reaction.local_element(j) = -force.local_element(j);
              pressure[k] =
                area_of_node[k] > 0 ?
                  normal_sign * force.local_element(j) / area_of_node[k] :
                  0.;
            }
          // Frictional nodes in contact start stuck, with R_T = 0 (under a
          // prescribed traction those it presses: S_p = 0 holds nothing).
          stuck[k] = active[k] && mu[k] > 0 && pressed(k);
        }
      std::fill(slip_force.begin(), slip_force.end(), 0.);
      std::fill(given_normal.begin(), given_normal.end(), 0.);
      for (std::size_t k = 0; k < laws.size(); ++k)
        law_state[k] = laws[k].initial_state(0.);
      // The spring is unstretched at t0 (X(t0) = 0).
      for (const unsigned int i : spring_unknown)
        spring_origin.local_element(i) = displacement.local_element(i);
      driver_value = 0;
      std::fill(last_rate.begin(), last_rate.end(), 0.);
      std::fill(foundation_displacement.begin(),
                foundation_displacement.end(),
                0.);
      reference = 0;
      for (const unsigned int i : tangential_unknown)
        reference.local_element(i) = displacement.local_element(i);
      steps = newton_iterations = active_set_changes = cg_iterations = 0;
      numerical_share                                                = 0;
      assemblies = max_newton = max_cg = stick_slip_changes = safeguards = 0;
      noise_floor_ends                                                   = 0;
      if (law_with_rate)
        initialize_law_reactions(force);
    }



    template <int dim>
    void
    ImplicitStep<dim>::initialize_law_reactions(const BodyVector &force)
    {
      // Newmark's a^0 enters every later velocity (v^1 = v^0 + dt (a^0 +
      // a^1)/2): a^0 without the friction at rest would shift the whole
      // slip history by dt/2 times the missing friction over m, an error
      // of the first order in dt (measured on the rigid-like block of
      // tests/body/implicit_laws.cmake). The reaction at rest is the
      // pressed node's: -f_T while |f_T| <= P mu(0, psi) (stuck, a_T = 0),
      // else P mu(0, psi) against f_T (slipping from rest).
      for (std::size_t k = 0; k < laws.size(); ++k)
        {
          if (!active[k] || !(mu[k] > 0))
            continue;
          const double normal =
            normal_traction ?
              pressure[k] * area_of_node[k] :
              normal_sign * force.local_element(normal_unknown[k]);
          const double bound = normal * laws[k].value(0., law_state[k]);
          double       norm  = 0;
          for (unsigned int c = 0; c + 1 < dim; ++c)
            norm += std::pow(
              force.local_element(tangential_unknown[k * (dim - 1) + c]), 2);
          norm     = std::sqrt(norm);
          stuck[k] = norm <= bound;
          for (unsigned int c = 0; c + 1 < dim; ++c)
            {
              const unsigned int m      = k * (dim - 1) + c;
              const unsigned int i      = tangential_unknown[m];
              const double       f      = force.local_element(i);
              const double       r      = stuck[k] ? -f : -bound * f / norm;
              reaction.local_element(i) = r;
              slip_force[m]             = stuck[k] ? 0. : r;
              acceleration.local_element(i) =
                !quasi_static && tangential_mass[m] > 0 ?
                  (f + r) / tangential_mass[m] :
                  0.;
            }
        }
    }



    template <int dim>
    void
    ImplicitStep<dim>::apply_effective(BodyVector       &y,
                                       const BodyVector &x,
                                       const double      c0)
    {
      mesh.stiffness().apply(y, x);
      for (unsigned int i = 0; i < y.locally_owned_size(); ++i)
        y.local_element(i) += c0 * mass.local_element(i) * x.local_element(i);
      for (const unsigned int i : spring_unknown)
        y.local_element(i) += spring_stiffness * x.local_element(i);
    }



    template <int dim>
    void
    ImplicitStep<dim>::assemble(const double c0)
    {
      // Which unknowns are held: owned flags, then the ghosts' from their
      // owners (a periodic copy's master may be held on another rank).
      LinearAlgebra::distributed::Vector<double> held(relevant_partitioner);
      for (const unsigned int i : prescribed)
        held.local_element(i) = 1;
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        if (active[k])
          {
            if (holds_normal(k))
              held.local_element(normal_unknown[k]) = 1;
            if (stuck[k] && mu[k] > 0)
              for (unsigned int c = 0; c + 1 < dim; ++c)
                held.local_element(tangential_unknown[k * (dim - 1) + c]) = 1;
          }
      held.update_ghost_values();
      AffineConstraints<double> constraints;
      constraints.reinit(relevant_dofs);
      for (const auto i : relevant_dofs)
        if (held(i) != 0 && !mesh.constraints().is_constrained(i))
          constraints.add_line(i);
      constraints.merge(mesh.constraints(),
                        AffineConstraints<double>::no_conflicts_allowed,
                        true);
      constraints.close();

      // K cell by cell, then c0 M on the diagonal: M is the body's lumped
      // mass (with the contact nodes' normal mass redistributed).
      matrix = 0;
      for_each_cell_stiffness(
        [&](const FullMatrix<double>                   &local,
            const std::vector<types::global_dof_index> &indices) {
          constraints.distribute_local_to_global(local, indices, matrix);
        });
      matrix.compress(VectorOperation::add);
      const IndexSet &owned = mesh.dof_handler().locally_owned_dofs();
      for (unsigned int i = 0; i < mass.locally_owned_size(); ++i)
        {
          const auto global = owned.nth_index_in_set(i);
          if (!constraints.is_constrained(global) && mass.local_element(i) > 0)
            matrix.add(global, global, c0 * mass.local_element(i));
        }
      for (const unsigned int i : spring_unknown)
        {
          const auto global = owned.nth_index_in_set(i);
          if (!constraints.is_constrained(global))
            matrix.add(global, global, spring_stiffness);
        }
      matrix.compress(VectorOperation::add);

      if (uses_direct_factor())
        {
          Parameters::LinearSolver direct;
          direct.type              = Parameters::LinearSolverType::direct;
          direct.tolerance         = parameters.linear_solver.tolerance;
          direct.direct_size_limit = matrix.m();
          factor                   = std::make_unique<SpdSolver>(direct, comm);
          factor->initialize(matrix);
        }
      else
        amg = std::make_unique<ElasticityAmg>(matrix, rigid_modes);
      assembled_for = held_set();
      assembled_c0  = c0;
      ++assemblies;
    }



    template <int dim>
    unsigned int
    ImplicitStep<dim>::solve(BodyVector &w, const BodyVector &r)
    {
      {
        LocalValues values(rhs);
        for (std::size_t k = 0; k < values.size(); ++k)
          values[k] = r.local_element(k);
      }
      const double norm = rhs.l2_norm();
      w                 = 0;
      if (norm == 0)
        return 0;
      solution = 0;
      SolverControl control(parameters.linear_solver.max_iterations,
                            parameters.linear_solver.tolerance * norm);
      SolverCG<DistributedVector> cg(control);
      // The multigrid of K + c0 M alone: the tangents change at every
      // iteration and touch a few rows only.
      const StepOperator step_operator(matrix,
                                       tangential_unknown,
                                       dim - 1,
                                       slip_tangent);
      try
        {
          if (uses_direct_factor())
            cg.solve(step_operator,
                     solution,
                     rhs,
                     FactorPreconditioner(*factor));
          else
            cg.solve(step_operator, solution, rhs, *amg);
        }
      catch (const SolverControl::NoConvergence &failure)
        {
          throw RunError(
            "the conjugate gradients of the implicit step did not reach "
            "Body/Linear solver/Tolerance = " +
            format_number(parameters.linear_solver.tolerance) + " in " +
            std::to_string(failure.last_step) +
            " iterations (Body/Linear solver/Maximum iterations = " +
            std::to_string(parameters.linear_solver.max_iterations) +
            "): raise it or loosen the tolerance");
        }
      ConstLocalValues values(solution);
      for (std::size_t k = 0; k < values.size(); ++k)
        w.local_element(k) = values[k];
      return control.last_step();
    }



    template <int dim>
    unsigned long
    ImplicitStep<dim>::update_active_set(const BodyVector &u,
                                         const BodyVector &residual)
    {
      // The complementarity function P - max(0, P - c g) (Hueber, Stadler
      // and Wohlmuth 2008) with P = 0 off the active set and g = 0 on it:
      // a node stays active while it pushes (P > 0), enters when it
      // penetrates (g < -delta). A prescribed traction never opens: its
      // P is S_p's (set_prescribed_pressure()).
      if (normal_traction)
        return 0;
      unsigned long changes = 0;
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          const unsigned int j = normal_unknown[k];
          gap[k] = gap0[k] - pair * normal_sign * u.local_element(j);
          const double force =
            active[k] ? -normal_sign * residual.local_element(j) : 0.;
          const bool now = active[k] ? force > 0 : gap[k] < -gap_tolerance;
          pressure[k] =
            area_of_node[k] > 0 ? std::max(force, 0.) / area_of_node[k] : 0.;
          if (now != active[k])
            {
              ++changes;
              // A node that enters contact starts slipping with no force
              // (held tangentially, its reaction would pull it off the
              // plane at an edge: measured cycling); one that leaves
              // carries no friction force.
              stuck[k] = false;
              if (!now && mu[k] > 0)
                {
                  std::fill(next_force.begin() + k * (dim - 1),
                            next_force.begin() + (k + 1) * (dim - 1),
                            0.);
                  clear_slip_tangent(k);
                }
            }
          active[k] = now;
        }
      return Utilities::MPI::sum(changes, comm);
    }



    template <int dim>
    void
    ImplicitStep<dim>::begin_friction_step(const double t, const double dt)
    {
      // Friction from time t_f: a step ending at t + dt <= t_f is
      // frictionless (no node stuck); at the step that crosses t_f the
      // nodes in contact start stuck with R_T = 0, as at the start of a
      // run (starting them slipping with F = 0 made the slip forces of
      // the whole contact cycle: measured), and the law acts on the
      // increment from the frictionless state.
      const double from   = parameters.contact.friction_from_time;
      const bool   on     = t + dt > from;
      const bool   starts = on && !(t > from);
      for (std::size_t k = 0; k < mu.size(); ++k)
        {
          mu[k] = on ? law_mu[k] : 0.;
          stuck[k] =
            on && (starts ? active[k] && mu[k] > 0 && pressed(k) : stuck[k]);
        }
      // ds_* = dt (v_*(t) + v_*(t + dt))/2 in the tangent axes.
      Vector<double> now(dim), next(dim);
      foundation_velocity->vector_value(Point<1>(t), now);
      foundation_velocity->vector_value(Point<1>(t + dt), next);
      unsigned int c = 0;
      for (unsigned int d = 0; d < dim; ++d)
        if (std::abs(parameters.contact.normal[d]) < 0.5)
          shift[c++] = 0.5 * dt * (now[d] + next[d]);
    }



    template <int dim>
    void
    ImplicitStep<dim>::alpha_right_hand_side(const double      dt,
                                             const BodyVector &displacement,
                                             const BodyVector &velocity,
                                             const BodyVector &load_now,
                                             const BodyVector &load_next,
                                             BodyVector       &b,
                                             BodyVector       &predictor)
    {
      // M a_{n+1-am} + K u_{n+1-af} = f_{n+1-af} + R with a_{n+1} of
      // Newmark's update, divided by 1 - af (doc/theory.md §7.14):
      //   (K + c0 M) u^{n+1} = b + R/(1 - af),
      //   b = [f_{n+1-af} - af K u^n + M ((1 - am)/(beta dt^2) (u^n + dt
      //        v^n) + w a^n)]/(1 - af),  w = (1 - am)(1/2 - beta)/beta - am.
      const double am = scheme.alpha_m, af = scheme.alpha_f;
      const double beta    = scheme.beta;
      const double w       = scheme.old_acceleration_weight();
      const double inertia = (1 - am) / (beta * dt * dt);
      BodyVector   stiffness_product;
      mesh.initialize_vector(stiffness_product);
      mesh.stiffness().apply(stiffness_product, displacement);
      for (unsigned int i = 0; i < b.locally_owned_size(); ++i)
        {
          const double u0 = displacement.local_element(i);
          const double v0 = velocity.local_element(i);
          const double a0 = acceleration.local_element(i);
          const double f0 =
            load_now.size() > 0 ? load_now.local_element(i) : 0.;
          const double f1 =
            load_next.size() > 0 ? load_next.local_element(i) : 0.;
          b.local_element(i) =
            ((1 - af) * f1 + af * f0 - af * stiffness_product.local_element(i) +
             mass.local_element(i) * (inertia * (u0 + dt * v0) + w * a0)) /
            (1 - af);
          // The predictor a^{n+1} = 0 (a start of the active set only).
          predictor.local_element(i) =
            u0 + dt * v0 + (0.5 - beta) * dt * dt * a0;
        }
    }



    template <int dim>
    bool
    ImplicitStep<dim>::settled(const double drift, const double previous)
    {
      // With the sets unchanged: the slip forces moved by at most Friction
      // tolerance, or by at most 100 times it without contracting since the
      // last iteration of the same sets (@p previous, < 0 if none): the
      // iteration stands at the noise of the linear solves (CG to
      // Tolerance on K + c0 M and the tangents: 1.1e-10 to 1.3e-10 per
      // iteration measured at a 3D block's arrest and on a strip with the
      // fig2 law, against Friction tolerance 1e-10).
      const double tolerance = parameters.linear_solver.friction_tolerance;
      if (drift <= tolerance)
        return true;
      const bool floor =
        previous >= 0 && drift <= 100 * tolerance && drift > 0.5 * previous;
      if (floor)
        ++noise_floor_ends;
      return floor;
    }



    template <int dim>
    bool
    ImplicitStep<dim>::ends_attempt_at_cycle() const
    {
      // A law with a rate under the limit rule: rule 3' settles the steps
      // where the limit rule's sets cycle (a node flipping between stick
      // and slip, which one change at a time cannot break: measured on the
      // rational law's 3D stop); under adaptive steps a smaller step.
      return (can_repeat_by_complementarity() &&
              !rate_laws_by_complementarity) ||
             step_can_be_cut;
    }



    template <int dim>
    std::pair<unsigned long, unsigned long>
    ImplicitStep<dim>::guard_against_cycling(
      const std::vector<bool>                       &active_before,
      const std::vector<bool>                       &stuck_before,
      std::vector<std::vector<bool>>                &seen,
      bool                                          &one_change_at_a_time,
      const std::pair<unsigned long, unsigned long> &changes,
      const unsigned int                             iteration)
    {
      // A change of the contact and stick flags from a set to a set that an
      // earlier iteration of the step had already made: the active-set
      // method cycles. (A set alone can return without a cycle: the slip
      // forces of a rate law are part of the iterate, and a node released
      // at the bound may stick again once the others' forces have moved:
      // measured on the slow pull, which then settled with no other
      // change.) The attempt then ends where a rule 3' repeat or a smaller
      // step can take over (ends_attempt_at_cycle()); otherwise only the
      // change of the least index is taken per iteration from then on
      // (Murty's least-index rule for the linear complementarity problem,
      // which terminates for a P-matrix: frictionless contact with K + c0 M
      // symmetric positive definite), the others kept as they were.
      const unsigned int from = parameters.linear_solver.one_change_from;
      if (!one_change_at_a_time && from > 0 && iteration >= from)
        {
          one_change_at_a_time = true;
          ++safeguards;
        }
      if (!one_change_at_a_time)
        {
          // The change as the sets before and after it, side by side.
          std::vector<bool> change    = held_set(active_before, stuck_before);
          const std::vector<bool> now = held_set();
          change.insert(change.end(), now.begin(), now.end());
          const bool repeats =
            std::find(seen.begin(), seen.end(), change) != seen.end();
          one_change_at_a_time =
            Utilities::MPI::min(repeats ? 1 : 0, comm) == 1;
          if (one_change_at_a_time && ends_attempt_at_cycle())
            {
              ++attempts_ended_at_cycle;
              throw ActiveSetNotSettled(
                "the active set of the implicit contact step made at "
                "iteration " +
                std::to_string(iteration) +
                " the change of its sets it had made before");
            }
          if (one_change_at_a_time)
            ++safeguards;
          else
            {
              seen.push_back(change);
              return changes;
            }
        }
      const auto changed = [&](const std::size_t k) {
        return active[k] != active_before[k] ||
               (mu[k] > 0 && stuck[k] != stuck_before[k]);
      };
      types::global_dof_index first =
        std::numeric_limits<types::global_dof_index>::max();
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        if (changed(k))
          first = std::min(first, contact_index[k]);
      first                         = Utilities::MPI::min(first, comm);
      unsigned long contact_changes = 0, stick_changes = 0;
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          if (!changed(k))
            continue;
          if (contact_index[k] == first)
            {
              (active[k] != active_before[k] ? contact_changes :
                                               stick_changes) = 1;
              continue;
            }
          // Back to the flags of the last solve, with the force it had.
          active[k]      = active_before[k];
          stuck[k]       = stuck_before[k];
          next_normal[k] = given_normal[k];
          for (unsigned int c = 0; c + 1 < dim; ++c)
            {
              const std::size_t m = k * (dim - 1) + c;
              next_force[m] =
                active[k] && !stuck[k] && mu[k] > 0 ? slip_force[m] : 0.;
            }
          clear_slip_tangent(k);
        }
      return {Utilities::MPI::sum(contact_changes, comm),
              Utilities::MPI::sum(stick_changes, comm)};
    }



    template <int dim>
    unsigned int
    ImplicitStep<dim>::solve_iterate(const BodyVector &b,
                                     const double      c0,
                                     BodyVector       &u,
                                     BodyVector       &residual)
    {
      const unsigned int n = u.locally_owned_size();
      if (!Utilities::MPI::min(
            assembled_for == held_set() && assembled_c0 == c0 ? 1 : 0, comm))
        assemble(c0);
      // The correction w = 0 on the held unknowns and the copies.
      BodyVector correction;
      mesh.initialize_vector(correction);
      apply_effective(residual, u, c0);
      for (unsigned int i = 0; i < n; ++i)
        residual.local_element(i) =
          b.local_element(i) - residual.local_element(i);
      if (frictional)
        for (std::size_t m = 0; m < tangential_unknown.size(); ++m)
          residual.local_element(tangential_unknown[m]) += slip_force[m];
      zero_held(residual);
      const unsigned int iterations = solve(correction, residual);
      // The exact correction is 0 on the held rows; the multigrid's
      // smoothers leave round-off there (1e-18 measured), which would move
      // a stuck node.
      zero_held(correction);
      for (unsigned int i = 0; i < n; ++i)
        u.local_element(i) += correction.local_element(i);
      // R = (K + c0 M) u - b: the constraint forces.
      apply_effective(residual, u, c0);
      for (unsigned int i = 0; i < n; ++i)
        residual.local_element(i) -= b.local_element(i);
      return iterations;
    }



    template <int dim>
    void
    ImplicitStep<dim>::add_spring_load(const double      t,
                                       const double      dt,
                                       const BodyVector &displacement,
                                       BodyVector       &b)
    {
      // (K + k/N) u = ... + (k/N) (X^{n+1} + u_i(t0)). Generalized alpha:
      // the spring's force of t^n takes alpha_f of the step's (divided by
      // 1 - alpha_f, as the whole equation).
      driver_now      = driver->value(Point<1>(t));
      driver_next     = driver->value(Point<1>(t + dt));
      const double af = average_acceleration ? 0. : scheme.alpha_f;
      for (std::size_t m = 0; m < spring_unknown.size(); ++m)
        {
          const unsigned int i = spring_unknown[m];
          b.local_element(i) +=
            spring_stiffness * (driver_next + spring_origin.local_element(i));
          if (af > 0)
            b.local_element(i) +=
              af / (1 - af) * spring_force(m, displacement, driver_now);
        }
    }



    template <int dim>
    void
    ImplicitStep<dim>::newmark_right_hand_side(const double      dt,
                                               const BodyVector &displacement,
                                               const BodyVector &velocity,
                                               const BodyVector &load_next,
                                               BodyVector       &b,
                                               BodyVector &predictor) const
    {
      // (7.7.3): b = f^{n+1} + M (c0 (u^n + dt v^n) + a^n); the predictor
      // u^n + dt v^n + dt^2/4 a^n (a^{n+1} = 0) starts the active set.
      const double c0 = inertia_coefficient(dt);
      for (unsigned int i = 0; i < b.locally_owned_size(); ++i)
        {
          const double u0 = displacement.local_element(i);
          const double v0 = velocity.local_element(i);
          const double a0 = acceleration.local_element(i);
          b.local_element(i) =
            mass.local_element(i) * (c0 * (u0 + dt * v0) + a0) +
            (load_next.size() > 0 ? load_next.local_element(i) : 0.);
          predictor.local_element(i) = u0 + dt * v0 + 0.25 * dt * dt * a0;
        }
    }



    template <int dim>
    void
    ImplicitStep<dim>::begin_counts(const RateLawRule rule)
    {
      // A repeated step: the abandoned attempt's safeguarded cycles are the
      // repeat's cause, counted apart from the accepted steps' (summary()).
      rate_laws_by_complementarity = rule == RateLawRule::complementarity;
      if (rate_laws_by_complementarity)
        {
          abandoned_safeguards += safeguards - safeguards_at_step_start;
          safeguards = safeguards_at_step_start;
        }
      safeguards_at_step_start = safeguards;
      active_at_start          = active;
      stuck_at_start           = stuck;
    }



    template <int dim>
    void
    ImplicitStep<dim>::step(const double               t,
                            const double               dt,
                            BodyVector                &displacement,
                            BodyVector                &velocity,
                            const BodyVector          &load_now,
                            const BodyVector          &load_next,
                            const std::vector<double> &prescribed_values,
                            ImplicitWork              &work,
                            const RateLawRule          rule)
    {
      const double c0 = inertia_coefficient(dt);
      step_size       = dt;
      // A prescribed traction is a load at both ends of the step; its P at
      // t + dt bounds the friction.
      BodyVector traction_now, traction_next;
      if (normal_traction)
        {
          set_prescribed_pressure(t);
          add_normal_traction(load_now, traction_now);
          set_prescribed_pressure(t + dt);
          add_normal_traction(load_next, traction_next);
        }
      const BodyVector &now_load  = normal_traction ? traction_now : load_now;
      const BodyVector &next_load = normal_traction ? traction_next : load_next;
      begin_counts(rule);
      BodyVector b, u, product;
      for (BodyVector *vector : {&b, &u, &product})
        mesh.initialize_vector(*vector);
      if (average_acceleration)
        newmark_right_hand_side(dt, displacement, velocity, next_load, b, u);
      else
        alpha_right_hand_side(
          dt, displacement, velocity, now_load, next_load, b, u);
      if (frictional)
        begin_friction_step(t, dt);
      // The first solve of a step without the laws' tangents (they are the
      // last iterate's: a resumed or repeated step starts the same way).
      std::fill(slip_tangent.begin(), slip_tangent.end(), 0.);
      if (driver)
        add_spring_load(t, dt, displacement, b);
      // The predictor's penetrating nodes start active (slipping, F = 0).
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        if (gap0[k] - pair * normal_sign * u.local_element(normal_unknown[k]) <
              -gap_tolerance &&
            !active[k])
          {
            active[k] = true;
            stuck[k]  = false;
          }
      unsigned int                   iteration = 0, cg_of_step = 0;
      std::vector<std::vector<bool>> seen_sets;
      bool                           one_change_at_a_time = false;
      double                         previous_drift       = -1;
      for (;;)
        {
          ++iteration;
          hold(u, displacement, prescribed_values);
          cg_of_step += solve_iterate(b, c0, u, product);
          const std::vector<bool> active_before = active, stuck_before = stuck;
          const auto [slip_changes, drift] =
            frictional ? update_friction(u, product, displacement, c0) :
                         std::pair<unsigned long, double>(0, 0.);
          const unsigned long changes = update_active_set(u, product);
          if (changes == 0 && slip_changes == 0 &&
              settled(drift, previous_drift))
            break;
          previous_drift = changes + slip_changes == 0 ? drift : -1.;
          const auto [applied_contact, applied_stick] =
            changes + slip_changes == 0 ?
              std::pair<unsigned long, unsigned long>(0, 0) :
              guard_against_cycling(active_before,
                                    stuck_before,
                                    seen_sets,
                                    one_change_at_a_time,
                                    {changes, slip_changes},
                                    iteration);
          active_set_changes += applied_contact;
          stick_slip_changes += applied_stick;
          slip_force   = next_force;
          given_normal = next_normal;
          check_iterations(iteration, changes, slip_changes, drift);
        }
      newton_iterations += iteration;
      cg_iterations += cg_of_step;
      max_newton = std::max<unsigned long>(max_newton, iteration);
      max_cg     = std::max<unsigned long>(max_cg, cg_of_step);
      ++steps;
      if (rate_laws_by_complementarity)
        ++steps_repeated_by_complementarity;

      finish_step(
        dt, u, product, displacement, velocity, now_load, next_load, work);
      unsigned long flags = 0;
      for (std::size_t k = 0; k < active.size(); ++k)
        flags += active[k] != active_at_start[k] ||
                     (active[k] && mu[k] > 0 && stuck[k] != stuck_at_start[k]) ?
                   1 :
                   0;
      last_flag_changes = Utilities::MPI::sum(flags, comm);
    }



    template <int dim>
    void
    ImplicitStep<dim>::set_prescribed_pressure(const double t)
    {
      normal_traction->set_time(t);
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          const double value = normal_traction->value(points[k]);
          if (!(value >= 0) || !std::isfinite(value))
            throw RunError("Body/Contact/Normal traction = '" +
                           parameters.contact.normal_traction + "' is " +
                           format_number(value) + " at the contact node " +
                           describe_point(points[k], "x,y,z") +
                           " at t = " + format_number(t) +
                           ": the prescribed normal traction S_p must be a "
                           "finite compressive value >= 0");
          pressure[k] = value;
        }
    }



    template <int dim>
    void
    ImplicitStep<dim>::add_normal_traction(const BodyVector &load,
                                           BodyVector &with_traction) const
    {
      if (load.size() > 0)
        with_traction = load;
      else
        mesh.initialize_vector(with_traction);
      // The traction on the body, -S_p n, lumped at the nodes.
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        with_traction.local_element(normal_unknown[k]) -=
          normal_sign * pressure[k] * area_of_node[k];
    }



    template <int dim>
    void
    ImplicitStep<dim>::save_state()
    {
      saved.acceleration            = acceleration;
      saved.reaction                = reaction;
      saved.active                  = active;
      saved.stuck                   = stuck;
      saved.slip_force              = slip_force;
      saved.next_force              = next_force;
      saved.given_normal            = given_normal;
      saved.next_normal             = next_normal;
      saved.pressure                = pressure;
      saved.gap                     = gap;
      saved.foundation_displacement = foundation_displacement;
      saved.law_state               = law_state;
      saved.last_rate               = last_rate;
      saved.driver_value            = driver_value;
    }



    template <int dim>
    void
    ImplicitStep<dim>::restore_state()
    {
      acceleration            = saved.acceleration;
      reaction                = saved.reaction;
      active                  = saved.active;
      stuck                   = saved.stuck;
      slip_force              = saved.slip_force;
      next_force              = saved.next_force;
      given_normal            = saved.given_normal;
      next_normal             = saved.next_normal;
      pressure                = saved.pressure;
      gap                     = saved.gap;
      foundation_displacement = saved.foundation_displacement;
      law_state               = saved.law_state;
      last_rate               = saved.last_rate;
      driver_value            = saved.driver_value;
    }



    template <int dim>
    bool
    ImplicitStep<dim>::can_repeat_by_complementarity() const
    {
      return law_with_rate &&
             parameters.linear_solver.complementarity_constant > 0;
    }



    template <int dim>
    void
    ImplicitStep<dim>::hold(BodyVector                &u,
                            const BodyVector          &displacement,
                            const std::vector<double> &prescribed_values) const
    {
      for (std::size_t k = 0; k < prescribed.size(); ++k)
        u.local_element(prescribed[k]) = prescribed_values[k];
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        if (active[k])
          {
            // At the gap: u.n = g0/pair (pair 2: the mirror's g0 - 2 u.n).
            if (holds_normal(k))
              u.local_element(normal_unknown[k]) = normal_sign * gap0[k] / pair;
            // Exact stick: u_T = u_T^n + ds_*.
            if (stuck[k] && mu[k] > 0)
              for (unsigned int c = 0; c + 1 < dim; ++c)
                {
                  const unsigned int i = tangential_unknown[k * (dim - 1) + c];
                  u.local_element(i) = displacement.local_element(i) + shift[c];
                }
          }
    }



    template <int dim>
    void
    ImplicitStep<dim>::zero_held(BodyVector &r) const
    {
      for (const unsigned int i : prescribed)
        r.local_element(i) = 0;
      for (const unsigned int i : periodic_copies)
        r.local_element(i) = 0;
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        if (active[k])
          {
            if (holds_normal(k))
              r.local_element(normal_unknown[k]) = 0;
            if (stuck[k] && mu[k] > 0)
              for (unsigned int c = 0; c + 1 < dim; ++c)
                r.local_element(tangential_unknown[k * (dim - 1) + c]) = 0;
          }
    }



    template <int dim>
    void
    ImplicitStep<dim>::check_iterations(const unsigned int  iteration,
                                        const unsigned long changes,
                                        const unsigned long slip_changes,
                                        const double        drift) const
    {
      if (iteration < parameters.linear_solver.max_active_set_iterations)
        return;
      std::string what =
        std::to_string(changes) + " nodes changed contact in the last";
      if (frictional)
        what += ", " + std::to_string(slip_changes) +
                " changed between stick and slip, the slip forces by " +
                format_number(drift) +
                " of the largest mu P (Body/Linear solver/Friction "
                "tolerance = " +
                format_number(parameters.linear_solver.friction_tolerance) +
                ")";
      throw ActiveSetNotSettled(
        "the active set of the implicit contact step did not settle in " +
        std::to_string(iteration) + " iterations (" + what +
        "; Body/Linear solver/Maximum active-set iterations = " +
        std::to_string(parameters.linear_solver.max_active_set_iterations) +
        "): the set cycles; try a smaller Time/Time step");
    }



    template <int dim>
    std::vector<bool>
    ImplicitStep<dim>::held_set() const
    {
      return held_set(active, stuck);
    }



    template <int dim>
    std::vector<bool>
    ImplicitStep<dim>::held_set(const std::vector<bool> &contact,
                                const std::vector<bool> &stick) const
    {
      std::vector<bool> set = contact;
      for (std::size_t k = 0; k < contact.size(); ++k)
        set.push_back(contact[k] && stick[k] && mu[k] > 0);
      return set;
    }



    template <int dim>
    std::pair<unsigned long, double>
    ImplicitStep<dim>::update_friction(const BodyVector &u,
                                       const BodyVector &residual,
                                       const BodyVector &displacement,
                                       const double      c0)
    {
      // The stick set and the slip forces from the iterate (doc/theory.md
      // §7.7): a stuck node slips where its reaction exceeds P mu~(0); a
      // slipping node sticks where its slip went along the force it was
      // given (it passed through rest: the active-set rule of Hueber,
      // Stadler and Wohlmuth 2008 in the limit of a small complementarity
      // constant); otherwise its force is the law's at the iterate's slip
      // rate, with the law's tangent for the next solve (Newton in the
      // rate; P is the last iterate's, the direction in 3D the slip's).
      unsigned long changes = 0;
      double        largest = 0, drift = 0;
      next_force  = slip_force;
      next_normal = given_normal;
      std::fill(slip_tangent.begin(), slip_tangent.end(), 0.);
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          if (!(mu[k] > 0))
            continue;
          double *const force = &next_force[k * (dim - 1)];
          if (!active[k])
            {
              std::fill(force, force + dim - 1, 0.);
              continue;
            }
          const double normal =
            normal_traction ?
              pressure[k] * area_of_node[k] :
              std::max(-normal_sign * residual.local_element(normal_unknown[k]),
                       0.);
          next_normal[k] = normal;
          // The scale of the slip forces' changes: P times the strength
          // at rest of the node's state (mu~(0) is 0 for rate and state).
          const NodeFriction law = node_friction(k);
          largest =
            std::max(largest,
                     normal * (law_with_rate ? laws[k].strength(law_state[k]) :
                                               mu[k]));
          const bool slips = stuck[k] ?
                               release_stuck_node(k, residual, normal, law) :
                               update_slipping_node(
                                 k, u, displacement, residual, normal, law, c0);
          if (slips == stuck[k])
            ++changes;
          stuck[k] = !slips;
          if (!slips)
            {
              std::fill(force, force + dim - 1, 0.);
              clear_slip_tangent(k);
              continue;
            }
          for (unsigned int c = 0; c + 1 < dim; ++c)
            drift =
              std::max(drift,
                       std::abs(force[c] - slip_force[k * (dim - 1) + c]));
          limit_slip_tangent(k, c0);
        }
      largest = Utilities::MPI::max(largest, comm);
      drift   = Utilities::MPI::max(drift, comm);
      return {Utilities::MPI::sum(changes, comm),
              largest > 0 ? drift / largest : 0.};
    }



    template <int dim>
    NodeFriction
    ImplicitStep<dim>::node_friction(const std::size_t k) const
    {
      if (law_with_rate)
        return NodeFriction(laws[k].step(law_state[k], step_size));
      return NodeFriction(mu[k]);
    }



    template <int dim>
    bool
    ImplicitStep<dim>::release_stuck_node(const std::size_t   k,
                                          const BodyVector   &residual,
                                          const double        normal,
                                          const NodeFriction &law)
    {
      // The reaction that holds the node against the bound P mu~(0), with
      // a margin (round-off at |R_T| = P mu~(0) cannot cycle it). Beyond
      // it the node slips along -R_T, its force starting at the bound with
      // the law's tangent at rest.
      const double bound = normal * law.value(0.);
      double       norm  = 0;
      for (unsigned int c = 0; c + 1 < dim; ++c)
        norm += std::pow(
          residual.local_element(tangential_unknown[k * (dim - 1) + c]), 2);
      norm = std::sqrt(norm);
      if (!(norm > bound * (1 + parameters.linear_solver.friction_tolerance)))
        return false;
      std::array<double, dim - 1> direction;
      for (unsigned int c = 0; c + 1 < dim; ++c)
        {
          const std::size_t m = k * (dim - 1) + c;
          next_force[m] =
            bound * residual.local_element(tangential_unknown[m]) / norm;
          direction[c] = -residual.local_element(tangential_unknown[m]) / norm;
        }
      // No slip yet: no tangent of the direction.
      set_slip_tangent(k,
                       direction,
                       normal * law.derivative(0.) * pair / step_size,
                       0.);
      return true;
    }



    template <int dim>
    bool
    ImplicitStep<dim>::update_slipping_node(const std::size_t   k,
                                            const BodyVector   &u,
                                            const BodyVector   &displacement,
                                            const BodyVector   &residual,
                                            const double        normal,
                                            const NodeFriction &law,
                                            const double        c0)
    {
      // The slip ds of the iterate against the force F it was given:
      // ds.F >= 0, the node went along its friction force, which it can do
      // only through rest: it sticks (where the law holds at rest, P
      // mu~(0) > 0; the regularized rate and state law has no strength at
      // rest and never sticks). A node that entered contact carries no
      // force yet: its slip gives the direction; no slip sticks it.
      std::array<double, dim - 1> slip;
      double                      norm = 0, along = 0, given = 0;
      for (unsigned int c = 0; c + 1 < dim; ++c)
        {
          const std::size_t  m = k * (dim - 1) + c;
          const unsigned int i = tangential_unknown[m];
          slip[c] =
            u.local_element(i) - displacement.local_element(i) - shift[c];
          norm += slip[c] * slip[c];
          along += slip[c] * slip_force[m];
          given += slip_force[m] * slip_force[m];
        }
      norm = std::sqrt(norm);
      // With a force given, the rule of a finite complementarity constant:
      // Coulomb's law always, a law with a rate in a step repeated by it
      // (RateLawRule::complementarity). Rule 3' is not the rate laws' first
      // choice: on the slow pull's weakening sliding mode, held by a soft
      // spring alone, it cycled where the limit rule settles; where the
      // limit rule cycles (a 3D arrest at large steps) it settles (doc/
      // theory.md §7.7, measured).
      if (parameters.linear_solver.complementarity_constant > 0 && given > 0 &&
          (!law_with_rate || rate_laws_by_complementarity))
        return slip_by_complementarity(k, slip, residual, normal, law, c0);
      const bool holds  = normal * law.value(0.) > 0;
      const bool sticks = holds && (given > 0 ? along >= 0 : norm == 0);
      if (sticks)
        return false;
      // F = -P mu~(V) d, d = ds/|ds|, V = |ds|/dt; its derivative in ds is
      // -P (mu~'(V)/dt d d^T + mu~(V)/|ds| (I - d d^T)): the next solve
      // has K + c0 M plus that (the second part turns the force with the
      // slip in 3D; 0 in 2D).
      // The fault's rate against the mirror image: 2 |ds|/dt.
      const double                rate = pair * norm / step_size;
      std::array<double, dim - 1> direction;
      for (unsigned int c = 0; c + 1 < dim; ++c)
        {
          const std::size_t m = k * (dim - 1) + c;
          direction[c]        = norm > 0 ? slip[c] / norm : 0.;
          next_force[m]       = -normal * law.value(rate) * direction[c];
        }
      set_slip_tangent(k,
                       direction,
                       normal * law.derivative(rate) * pair / step_size,
                       norm > 0 ? normal * law.value(rate) / norm : 0.);
      return true;
    }



    template <int dim>
    bool
    ImplicitStep<dim>::slip_by_complementarity(
      const std::size_t                  k,
      const std::array<double, dim - 1> &slip,
      const BodyVector                  &residual,
      const double                       normal,
      const NodeFriction                &law,
      const double                       c0)
    {
      // Hueber, Stadler and Wohlmuth 2008 with c = kappa (K + c0 M)_ii
      // (doc/theory.md §7.7, rule 3'): q = c ds - R_T, R_T the tangential
      // force of the last solve at this slip (the residual's rows: the
      // force given plus its tangent's part, F_i - T (ds - ds_i)). The node
      // sticks where |q| <= mu P; else the semismooth Newton step on
      // R_T - proj(R_T - c ds), the force eliminated: F(ds) = -mu P n -
      // kappa' (I - n n^T) ds, n = q/|q|, kappa' = mu P c/(|q| - mu P).
      // Near rest, |q| -> mu P, the tangent across n holds the node
      // nearly stuck instead of turning its force by a large angle. A law
      // with a rate: stick where |q| <= P mu~(0), the force P mu~(V) at the
      // iterate's rate V = |ds|/dt and the law's tangent P mu~'(V)/dt along
      // n (Newton in the rate, as the limit rule's).
      const double c = parameters.linear_solver.complementarity_constant *
                       tangential_diagonal(k, c0);
      std::array<double, dim - 1> q;
      double                      length = 0;
      for (unsigned int a = 0; a + 1 < dim; ++a)
        {
          const unsigned int i = tangential_unknown[k * (dim - 1) + a];
          q[a]                 = c * slip[a] - residual.local_element(i);
          length += q[a] * q[a];
        }
      length = std::sqrt(length);
      // The stick test against the bound of the force given, P of the
      // solve before (R_T is that force): against the new P, a node whose
      // reaction stood 0.2% above mu P flipped between stick and slip as P
      // moved by 6e-4 between the solves (the 2D block pushed at 1.5 mu p;
      // measured). At the fixed point the two P agree.
      const double given_at_rest = given_normal[k] * law.value(0.);
      if (given_at_rest > 0 && length <= given_at_rest)
        return false;
      const double at_rest   = normal * law.value(0.);
      double       slip_norm = 0;
      for (unsigned int a = 0; a + 1 < dim; ++a)
        slip_norm += slip[a] * slip[a];
      const double rate  = pair * std::sqrt(slip_norm) / step_size;
      const double bound = law_with_rate ? normal * law.value(rate) : at_rest;
      std::array<double, dim - 1> direction;
      double                      along = 0;
      for (unsigned int a = 0; a + 1 < dim; ++a)
        {
          direction[a] = length > 0 ? q[a] / length : 0.;
          along += direction[a] * slip[a];
        }
      // 2D: the direction is a sign, there is nothing across it.
      const double excess = std::max(length - bound, 1e-12 * bound);
      const double across = dim == 3 && excess > 0 ? bound * c / excess : 0.;
      for (unsigned int a = 0; a + 1 < dim; ++a)
        next_force[k * (dim - 1) + a] =
          -bound * direction[a] - across * (slip[a] - along * direction[a]);
      set_slip_tangent(k,
                       direction,
                       law_with_rate ?
                         normal * law.derivative(rate) * pair / step_size :
                         0.,
                       across);
      return true;
    }



    template <int dim>
    double
    ImplicitStep<dim>::tangential_diagonal(const std::size_t k,
                                           const double      c0) const
    {
      double diagonal = 0;
      for (unsigned int a = 0; a + 1 < dim; ++a)
        {
          const std::size_t m = k * (dim - 1) + a;
          diagonal +=
            (tangential_stiffness[m] + c0 * tangential_mass[m]) / (dim - 1);
        }
      return diagonal;
    }



    template <int dim>
    void
    ImplicitStep<dim>::set_slip_tangent(
      const std::size_t                  k,
      const std::array<double, dim - 1> &direction,
      const double                       along,
      const double                       across)
    {
      // along d d^T + across (I - d d^T), row by row.
      double *const block = &slip_tangent[k * (dim - 1) * (dim - 1)];
      for (unsigned int a = 0; a + 1 < dim; ++a)
        for (unsigned int b = 0; b + 1 < dim; ++b)
          block[a * (dim - 1) + b] =
            (along - across) * direction[a] * direction[b] +
            (a == b ? across : 0.);
    }



    template <int dim>
    void
    ImplicitStep<dim>::clear_slip_tangent(const std::size_t k)
    {
      const std::size_t size = (dim - 1) * (dim - 1);
      std::fill(slip_tangent.begin() + k * size,
                slip_tangent.begin() + (k + 1) * size,
                0.);
    }



    template <int dim>
    void
    ImplicitStep<dim>::limit_slip_tangent(const std::size_t k, const double c0)
    {
      // A weakening tangent lowers the rows' diagonal by half of it at
      // most, so that K + c0 M + D stays positive definite for CG (a damped
      // Newton step where the law weakens faster than the body holds the
      // node). The direction's part is kept whole, however large as the
      // slip vanishes: bounded by ten times the diagonal, the iteration
      // oscillated at a corner node of a 3D block pulled from rest
      // (measured: 50 iterations without settling; whole, 7 at most).
      const double  diagonal = tangential_diagonal(k, c0);
      double *const block    = &slip_tangent[k * (dim - 1) * (dim - 1)];
      if (dim == 2)
        {
          block[0] = std::max(block[0], -0.5 * diagonal);
          return;
        }
      // 3D: the eigenvalues along (the slip's) and across, clipped.
      const double          trace  = block[0] + block[3];
      const double          det    = block[0] * block[3] - block[1] * block[2];
      const double          mean   = 0.5 * trace;
      const double          half   = std::sqrt(std::max(mean * mean - det, 0.));
      std::array<double, 2> values = {{mean - half, mean + half}};
      std::array<double, 2> clipped;
      for (unsigned int e = 0; e < 2; ++e)
        clipped[e] = std::max(values[e], -0.5 * diagonal);
      if (clipped == values)
        return;
      // The same eigenvectors: block = clipped_0 I + (clipped_1 -
      // clipped_0) (block - values_0 I)/(values_1 - values_0).
      const double gap = values[1] - values[0];
      for (unsigned int a = 0; a < 2; ++a)
        for (unsigned int b = 0; b < 2; ++b)
          {
            const double projector =
              gap > 0 ? (block[a * 2 + b] - (a == b ? values[0] : 0.)) / gap :
                        (a == b ? 0.5 : 0.);
            block[a * 2 + b] = (a == b ? clipped[0] : 0.) +
                               (clipped[1] - clipped[0]) * projector;
          }
    }



    template <int dim>
    void
    ImplicitStep<dim>::advance_law_states(const BodyVector &u,
                                          const BodyVector &displacement)
    {
      // The state of the accepted step, integrated exactly at its constant
      // slip rate V = |ds|/dt (0 stuck; quasi-static: the slip of the load
      // step over dt; the fault's 2 |ds|/dt against the mirror image), as
      // the explicit contact node does (FrictionLaw::
      // evolve()); the rate is the next step's branch.
      for (std::size_t k = 0; k < laws.size(); ++k)
        {
          double rate = 0;
          for (unsigned int c = 0; c + 1 < dim; ++c)
            {
              const unsigned int m = k * (dim - 1) + c;
              const unsigned int i = tangential_unknown[m];
              const double       slip =
                active[k] && stuck[k] && mu[k] > 0 ?
                        0. :
                        u.local_element(i) - displacement.local_element(i) - shift[c];
              last_rate[m] = -pair * slip / step_size;
              rate += last_rate[m] * last_rate[m];
            }
          law_state[k] =
            laws[k].evolve(law_state[k], std::sqrt(rate), step_size);
        }
    }



    template <int dim>
    void
    ImplicitStep<dim>::finish_step(const double      dt,
                                   const BodyVector &u,
                                   const BodyVector &force,
                                   BodyVector       &displacement,
                                   BodyVector       &velocity,
                                   const BodyVector &load_now,
                                   const BodyVector &load_next,
                                   ImplicitWork     &work)
    {
      if (!average_acceleration && !quasi_static)
        {
          finish_alpha_step(
            dt, u, force, displacement, velocity, load_now, load_next, work);
          return;
        }
      const double       c0 = inertia_coefficient(dt);
      const unsigned int n  = displacement.locally_owned_size();
      // The works with the trapezoidal rule of the scheme's energy balance.
      const std::vector<bool> constrained =
        book_constraint_works(u, force, displacement, 0.5, 0.5, work);
      // The spring's work as a load's, trapezoidal.
      for (std::size_t m = 0; m < spring_unknown.size(); ++m)
        {
          const unsigned int i = spring_unknown[m];
          const double du = u.local_element(i) - displacement.local_element(i);
          work.load += 0.5 * du *
                       (spring_force(m, displacement, driver_now) +
                        spring_force(m, u, driver_next));
        }
      driver_value = driver ? driver_next : 0.;
      for (unsigned int i = 0; i < n; ++i)
        {
          const double du = u.local_element(i) - displacement.local_element(i);
          if (load_next.size() > 0)
            work.load +=
              0.5 * du *
              (load_now.local_element(i) + load_next.local_element(i));
          const double a_new = c0 * (du - dt * velocity.local_element(i)) -
                               acceleration.local_element(i);
          velocity.local_element(i) +=
            0.5 * dt * (acceleration.local_element(i) + a_new);
          acceleration.local_element(i) = a_new;
          displacement.local_element(i) = u.local_element(i);
          if (constrained[i])
            reaction.local_element(i) = force.local_element(i);
        }
    }



    template <int dim>
    std::vector<bool>
    ImplicitStep<dim>::book_constraint_works(const BodyVector &u,
                                             const BodyVector &force,
                                             const BodyVector &displacement,
                                             const double      old_weight,
                                             const double      new_weight,
                                             ImplicitWork     &work)
    {
      // du.(w_n R^n + w_{n+1} R^{n+1}) of the prescribed and the contact
      // rows, the friction's split (finish_friction()); the rows that carry
      // a constraint force.
      std::vector<bool> constrained(displacement.locally_owned_size(), false);
      for (const unsigned int i : prescribed)
        {
          const double du = u.local_element(i) - displacement.local_element(i);
          work.prescribed += du * (old_weight * reaction.local_element(i) +
                                   new_weight * force.local_element(i));
          constrained[i] = true;
        }
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          const unsigned int j = normal_unknown[k];
          const double du  = u.local_element(j) - displacement.local_element(j);
          const double now = holds_normal(k) ? force.local_element(j) : 0.;
          work.contact +=
            du * (old_weight * reaction.local_element(j) + new_weight * now);
          constrained[j] = holds_normal(k);
          if (!holds_normal(k))
            reaction.local_element(j) = 0;
        }
      if (frictional)
        finish_friction(u, force, displacement, work);
      return constrained;
    }



    template <int dim>
    void
    ImplicitStep<dim>::finish_alpha_step(const double      dt,
                                         const BodyVector &u,
                                         const BodyVector &force,
                                         BodyVector       &displacement,
                                         BodyVector       &velocity,
                                         const BodyVector &load_now,
                                         const BodyVector &load_next,
                                         ImplicitWork     &work)
    {
      // The forces of the intermediate level do the work du.F_{n+1-af}:
      // (1 - af) R of the constraint rows, f_{n+1-af}; the rest of the
      // energy change is the scheme's dissipation (doc/theory.md §7.14,
      // eq. (7.14.3)).
      const double            af = scheme.alpha_f, am = scheme.alpha_m;
      const unsigned int      n = displacement.locally_owned_size();
      const std::vector<bool> constrained =
        book_constraint_works(u, force, displacement, 0., 1 - af, work);
      // The spring is a stiffness: its work trapezoidal (its energy's
      // change when the driver stands still), the rest of its force of the
      // intermediate level, du.(1/2 - af)(F_s^{n+1} - F_s^n), the scheme's
      // dissipation as K's is in (7.14.3).
      for (std::size_t m = 0; m < spring_unknown.size(); ++m)
        {
          const unsigned int i = spring_unknown[m];
          const double du = u.local_element(i) - displacement.local_element(i);
          const double before = spring_force(m, displacement, driver_now);
          const double after  = spring_force(m, u, driver_next);
          work.load += 0.5 * du * (before + after);
          work.numerical -= du * (0.5 - af) * (after - before);
        }
      driver_value = driver ? driver_next : 0.;
      // The dissipation (7.14.3): -(af - 1/2) du.(K du + M da) + dt^2 (beta
      // - gamma/2) da.M (a^n + (1/2 + af - am) da).
      BodyVector increment, stiffness_product;
      mesh.initialize_vector(increment);
      mesh.initialize_vector(stiffness_product);
      for (unsigned int i = 0; i < n; ++i)
        increment.local_element(i) =
          u.local_element(i) - displacement.local_element(i);
      mesh.stiffness().apply(stiffness_product, increment);
      const double skew = scheme.beta - 0.5 * scheme.gamma;
      for (unsigned int i = 0; i < n; ++i)
        {
          const double du = increment.local_element(i);
          const double f0 =
            load_now.size() > 0 ? load_now.local_element(i) : 0.;
          const double f1 =
            load_next.size() > 0 ? load_next.local_element(i) : 0.;
          work.load += du * ((1 - af) * f1 + af * f0);
          const double a0 = acceleration.local_element(i);
          const double a_new =
            scheme.acceleration(du, velocity.local_element(i), a0, dt);
          const double da = a_new - a0;
          const double m  = mass.local_element(i);
          work.numerical +=
            -(af - 0.5) * du * (stiffness_product.local_element(i) + m * da) +
            dt * dt * skew * da * m * (a0 + (0.5 + af - am) * da);
          velocity.local_element(i) =
            scheme.velocity(velocity.local_element(i), a0, a_new, dt);
          acceleration.local_element(i) = a_new;
          displacement.local_element(i) = u.local_element(i);
          if (constrained[i])
            reaction.local_element(i) = force.local_element(i);
        }
    }



    template <int dim>
    void
    ImplicitStep<dim>::finish_friction(const BodyVector &u,
                                       const BodyVector &force,
                                       const BodyVector &displacement,
                                       ImplicitWork     &work)
    {
      // The trapezoidal work du_T.(R_T^n + R_T^{n+1})/2 split into the
      // dissipation -ds.F (F the slip force applied: mu P |ds| >= 0; 0 when
      // stuck), the foundation's ds_*.R_T^{n+1} and the rest (contact).
      // Generalized alpha: the work du_T.(1 - af) R_T^{n+1} of the force of
      // the intermediate level, split the same way (no trapezoidal rest).
      const bool   trapezoid = average_acceleration || quasi_static;
      const double weight    = trapezoid ? 1. : 1 - scheme.alpha_f;
      for (unsigned int c = 0; c + 1 < dim; ++c)
        foundation_displacement[c] += shift[c];
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        for (unsigned int c = 0; c + 1 < dim; ++c)
          {
            const unsigned int m = k * (dim - 1) + c;
            const unsigned int i = tangential_unknown[m];
            const double       du =
              u.local_element(i) - displacement.local_element(i);
            const double before = reaction.local_element(i);
            if (!(mu[k] > 0) || !active[k])
              {
                if (trapezoid)
                  work.contact += 0.5 * du * before;
                reaction.local_element(i) = 0;
                continue;
              }
            const double now     = force.local_element(i);
            const double slip    = stuck[k] ? 0. : du - shift[c];
            const double applied = stuck[k] ? now : slip_force[m];
            work.friction -= slip * (weight * applied);
            work.foundation += shift[c] * (weight * now);
            work.contact += (trapezoid ? 0.5 * du * (before - now) : 0.) +
                            (du - shift[c]) * (weight * now) -
                            slip * (weight * applied);
            reaction.local_element(i) = now;
          }
      if (law_with_rate)
        advance_law_states(u, displacement);
    }



    template <int dim>
    void
    ImplicitStep<dim>::register_state(CheckpointArchive &archive)
    {
      archive.add(acceleration);
      archive.add(reaction);
      archive.add(active_marker);
      // The dissipation's total; rank 0 carries it on (any rank count).
      if (dissipates_numerically())
        {
          archive.add(numerical_total);
          archive.before_write.push_back(
            [this]() { numerical_total = numerical_dissipation(); });
          archive.after_read.push_back([this]() {
            numerical_share = Utilities::MPI::this_mpi_process(comm) == 0 ?
                                numerical_total :
                                0.;
          });
        }
      if (driver)
        {
          archive.add(spring_origin);
          archive.add(driver_value);
        }
      for (unsigned long *count : {&steps,
                                   &newton_iterations,
                                   &active_set_changes,
                                   &cg_iterations,
                                   &assemblies,
                                   &max_newton,
                                   &max_cg,
                                   &safeguards,
                                   &noise_floor_ends})
        archive.add(*count);
      // With friction: 2 marks a slipping active node; the slip forces,
      // u_T(t0) and the foundation's displacement.
      if (frictional)
        {
          archive.add(slip_marker);
          archive.add(reference);
          archive.add(foundation_displacement);
          archive.add(stick_slip_changes);
          // A law: the state psi^n (at the normal unknown) and the last
          // step's slip rate (at the tangential unknowns).
          if (law_with_rate)
            {
              archive.add(state_marker);
              archive.add(rate_marker);
            }
        }
      archive.before_write.push_back([this]() {
        active_marker = 0;
        slip_marker   = 0;
        for (std::size_t k = 0; k < normal_unknown.size(); ++k)
          active_marker.local_element(normal_unknown[k]) =
            active[k] ? (frictional && !stuck[k] && mu[k] > 0 ? 2 : 1) : 0;
        for (std::size_t m = 0; m < tangential_unknown.size(); ++m)
          slip_marker.local_element(tangential_unknown[m]) = slip_force[m];
        // The normal unknown's slot: the P the slip force was given with.
        for (std::size_t k = 0; k < normal_unknown.size(); ++k)
          slip_marker.local_element(normal_unknown[k]) = given_normal[k];
        for (std::size_t k = 0; k < laws.size(); ++k)
          state_marker.local_element(normal_unknown[k]) = law_state[k];
        for (std::size_t m = 0; m < last_rate.size(); ++m)
          rate_marker.local_element(tangential_unknown[m]) = last_rate[m];
      });
      archive.after_read.push_back([this]() {
        for (std::size_t k = 0; k < normal_unknown.size(); ++k)
          {
            const double marker =
              active_marker.local_element(normal_unknown[k]);
            active[k] = marker > 0.5;
            stuck[k]  = active[k] && marker < 1.5 && mu[k] > 0;
          }
        for (std::size_t m = 0; m < tangential_unknown.size(); ++m)
          slip_force[m] = slip_marker.local_element(tangential_unknown[m]);
        for (std::size_t k = 0; k < normal_unknown.size(); ++k)
          given_normal[k] = slip_marker.local_element(normal_unknown[k]);
        for (std::size_t k = 0; k < laws.size(); ++k)
          law_state[k] = state_marker.local_element(normal_unknown[k]);
        for (std::size_t m = 0; m < last_rate.size(); ++m)
          last_rate[m] = rate_marker.local_element(tangential_unknown[m]);
        // Under a prescribed traction the fault never opens: its gap is 0,
        // as initialize() sets it (the iteration does not update it).
        if (normal_traction)
          std::fill(gap.begin(), gap.end(), 0.);
        assembled_for.clear();
        assembled_c0 = 0;
      });
    }



    template <int dim>
    std::vector<std::string>
    ImplicitStep<dim>::history_columns() const
    {
      std::vector<std::string> columns;
      if (parameters.contact.enabled)
        columns = {"contact_fraction",
                   "normal_force",
                   "mean_pressure",
                   "mean_gap"};
      if (frictional)
        {
          for (const std::string name : {"stick_fraction", "max_slip"})
            columns.push_back(name);
          for (unsigned int c = 0; c + 1 < dim; ++c)
            columns.push_back("friction_force_" + std::to_string(c + 1));
          columns.push_back("stick_slip_changes");
          // A law: the area-weighted mean and the largest friction
          // coefficient at rest (mu~(0) of the state) and, with a state,
          // the mean and largest state (the slip D, theta).
          if (law_with_rate)
            for (const std::string name : {"mean_strength", "max_strength"})
              columns.push_back(name);
          if (law_with_rate && parameters.contact.friction.has_state())
            for (const std::string name :
                 {"mean_friction_state", "max_friction_state"})
              columns.push_back(name);
        }
      if (driver)
        for (const std::string name : {"pull_displacement", "pull_force"})
          columns.push_back(name);
      if (dissipates_numerically())
        columns.push_back("numerical_dissipation");
      for (const std::string name : {"newton_iterations",
                                     "active_set_changes",
                                     "cg_iterations",
                                     "max_newton_iterations",
                                     "max_cg_iterations"})
        columns.push_back(name);
      return columns;
    }



    template <int dim>
    std::vector<double>
    ImplicitStep<dim>::history_values(const BodyVector &displacement) const
    {
      std::vector<double> values;
      if (parameters.contact.enabled)
        {
          std::vector<double> sums(3, 0.);
          for (std::size_t k = 0; k < normal_unknown.size(); ++k)
            {
              sums[0] += active[k] ? area_of_node[k] : 0.;
              sums[1] += pressure[k] * area_of_node[k];
              sums[2] += gap[k] * area_of_node[k];
            }
          Utilities::MPI::sum(sums, comm, sums);
          const double area = total_area > 0 ? total_area : 1.;
          values = {sums[0] / area, sums[1], sums[1] / area, sums[2] / area};
        }
      if (frictional)
        append_friction_values(displacement, values);
      if (driver)
        {
          // The spring's total force on the body, k (X - mean (u - u0)).
          double force = 0;
          for (std::size_t m = 0; m < spring_unknown.size(); ++m)
            force += spring_force(m, displacement, driver_value);
          values.push_back(driver_value);
          values.push_back(Utilities::MPI::sum(force, comm));
        }
      if (dissipates_numerically())
        values.push_back(numerical_dissipation());
      for (const unsigned long count : {newton_iterations,
                                        active_set_changes,
                                        cg_iterations,
                                        max_newton,
                                        max_cg})
        values.push_back(double(count));
      return values;
    }



    template <int dim>
    void
    ImplicitStep<dim>::append_friction_values(const BodyVector    &displacement,
                                              std::vector<double> &values) const
    {
      // max_slip: the largest |u_T - u_T(t0) - X_*| of a contact node (the
      // fault's 2 |u_T - u_T(t0)| against the mirror image); the
      // friction force: the sum of the tangential reactions of the nodes
      // with friction (law_mu 0: frictionless, or a tangential unknown
      // prescribed, e.g. on a symmetry plane, whose reaction is the
      // prescription's, not friction).
      double              slip = 0;
      std::vector<double> force(dim - 1, 0.);
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          double norm = 0;
          for (unsigned int c = 0; c + 1 < dim; ++c)
            {
              const unsigned int i = tangential_unknown[k * (dim - 1) + c];
              const double       d = pair * (displacement.local_element(i) -
                                       reference.local_element(i)) -
                               foundation_displacement[c];
              norm += d * d;
              if (law_mu[k] > 0)
                force[c] += reaction.local_element(i);
            }
          slip = std::max(slip, std::sqrt(norm));
        }
      Utilities::MPI::sum(force, comm, force);
      values.push_back(stick_fraction());
      values.push_back(Utilities::MPI::max(slip, comm));
      values.insert(values.end(), force.begin(), force.end());
      values.push_back(double(stick_slip_changes));
      if (law_with_rate)
        append_law_values(values);
    }



    template <int dim>
    void
    ImplicitStep<dim>::append_law_values(std::vector<double> &values) const
    {
      // Area-weighted means over the contact boundary, and the largest.
      std::vector<double> sums(3, 0.);
      double              strongest = 0, largest_state = 0;
      for (std::size_t k = 0; k < laws.size(); ++k)
        {
          const double strength = laws[k].strength(law_state[k]);
          sums[0] += area_of_node[k] * strength;
          sums[1] += area_of_node[k] * law_state[k];
          sums[2] += area_of_node[k];
          strongest     = std::max(strongest, strength);
          largest_state = std::max(largest_state, law_state[k]);
        }
      Utilities::MPI::sum(sums, comm, sums);
      const double area = sums[2] > 0 ? sums[2] : 1.;
      values.push_back(sums[0] / area);
      values.push_back(Utilities::MPI::max(strongest, comm));
      if (parameters.contact.friction.has_state())
        {
          values.push_back(sums[1] / area);
          values.push_back(Utilities::MPI::max(largest_state, comm));
        }
    }



    template <int dim>
    bool
    ImplicitStep<dim>::uses_direct_factor() const
    {
      // Small bodies on one rank: a solve by the factor costs less than a
      // multigrid cycle, whose set-up and per-iteration overhead bind there
      // (70 us per CG iteration at 594 unknowns). Measured on the sliding
      // block, 4 steps at c dt/h = 8 (doc/body.md): 2D 3.1x, 1.9x, 1.0x
      // faster at 8.5e3, 3.3e4, 1.3e5 unknowns; 3D 1.1x faster at 2.3e3,
      // 3x slower at 1.5e4.
      const ImplicitPreconditioner choice =
        parameters.linear_solver.preconditioner;
      if (choice != ImplicitPreconditioner::automatic)
        return choice == ImplicitPreconditioner::direct;
      const unsigned int limit = parameters.linear_solver.direct_size_limit;
      return Utilities::MPI::n_mpi_processes(comm) == 1 &&
             mesh.dof_handler().n_dofs() <= (dim == 2 ? limit : limit / 10);
    }



    template <int dim>
    double
    ImplicitStep<dim>::numerical_dissipation() const
    {
      return Utilities::MPI::sum(numerical_share, comm);
    }



    template <int dim>
    double
    ImplicitStep<dim>::stick_fraction() const
    {
      if (!frictional)
        return std::numeric_limits<double>::quiet_NaN();
      std::vector<double> areas(2, 0.);
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        if (active[k])
          {
            areas[0] += area_of_node[k];
            areas[1] += stuck[k] && mu[k] > 0 ? area_of_node[k] : 0.;
          }
      Utilities::MPI::sum(areas, comm, areas);
      return areas[0] > 0 ? areas[1] / areas[0] : 0.;
    }



    template <int dim>
    std::string
    ImplicitStep<dim>::contact_table(const BodyVector &u) const
    {
      // Each rank's rows, gathered on rank 0 in rank order.
      std::vector<double> rows;
      for (std::size_t k = 0; k < normal_unknown.size(); ++k)
        {
          for (unsigned int d = 0; d < dim; ++d)
            rows.push_back(points[k][d]);
          const double force = pressure[k] * area_of_node[k];
          rows.insert(rows.end(),
                      {gap[k], pressure[k], force, area_of_node[k]});
          for (unsigned int c = 0; c + 1 < dim; ++c)
            rows.push_back(
              frictional ?
                reaction.local_element(tangential_unknown[k * (dim - 1) + c]) :
                0.);
          rows.push_back(active[k] ? 1. : 0.);
          rows.push_back(active[k] && stuck[k] && mu[k] > 0 ? 1. : 0.);
          // The node's unknowns in axis order: the normal axis's, and the
          // tangential ones in the order set_up_friction() listed them.
          for (unsigned int d = 0, c = 0; d < dim; ++d)
            rows.push_back(
              u.local_element(std::abs(parameters.contact.normal[d]) > 0.5 ?
                                normal_unknown[k] :
                                tangential_unknown[k * (dim - 1) + c++]));
        }
      const auto all = Utilities::MPI::gather(comm, rows, 0);
      if (Utilities::MPI::this_mpi_process(comm) != 0)
        return "";
      std::vector<std::string> columns = {"x", "y", "z"};
      columns.resize(dim);
      for (const std::string name : {"gap", "pressure", "normal_force", "area"})
        columns.push_back(name);
      for (unsigned int c = 0; c + 1 < dim; ++c)
        columns.push_back("tangential_force_" + std::to_string(c + 1));
      columns.push_back("active");
      columns.push_back("stuck");
      for (unsigned int d = 0; d < dim; ++d)
        columns.push_back(std::string("u_") + "xyz"[d]);
      std::string text = csv_header(columns);
      for (const std::vector<double> &part : all)
        for (std::size_t i = 0; i + columns.size() <= part.size();
             i += columns.size())
          text +=
            csv_row(std::vector<double>(part.begin() + i,
                                        part.begin() + i + columns.size()));
      return text;
    }



    template <int dim>
    std::string
    ImplicitStep<dim>::summary() const
    {
      std::ostringstream text;
      text << "  implicit steps: " << steps << ", active-set iterations "
           << newton_iterations << " (at most " << max_newton
           << " in a step), active-set changes " << active_set_changes
           << ", CG iterations " << cg_iterations << " (at most " << max_cg
           << " in a step), matrix and AMG set-ups " << assemblies
           << ", steps whose active set cycled (then one change at a time) "
           << safeguards << ", steps ended at the solves' noise "
           << noise_floor_ends
           << ", attempts that cycled, then repeated or cut "
           << attempts_ended_at_cycle;
      if (law_with_rate)
        text << ", steps repeated by the complementarity rule "
             << steps_repeated_by_complementarity
             << " (their first attempts' cycles " << abandoned_safeguards
             << ")";
      if (frictional)
        text << "\n  implicit friction: "
             << (law_with_rate ? parameters.contact.friction.name() :
                                 std::string("Coulomb"))
             << ", exact stick (no penalty), " << stick_slip_changes
             << " stick/slip changes";
      return text.str();
    }



    template <int dim>
    std::string
    ImplicitStep<dim>::description() const
    {
      return std::string(quasi_static ?
                           "quasi-static (no inertia, load steps), " :
                         average_acceleration ?
                           "implicit Newmark (average acceleration), " :
                           "implicit generalized alpha (rho_inf = " +
                             format_number(parameters.spectral_radius) +
                             "), ") +
             (!parameters.contact.enabled ?
                "" :
              frictional ?
                std::string(normal_traction ? "a prescribed normal traction" :
                                              "unilateral contact") +
                  (pair == 2 ? " against the mirror image" : "") + " with " +
                  (law_with_rate ? "the " + parameters.contact.friction.name() +
                                     " friction law" :
                                   std::string("Coulomb friction")) +
                  " (exact stick) by a primal-dual active set, " :
              normal_traction ?
                "a prescribed normal traction without friction, " :
                std::string("frictionless unilateral contact") +
                  (pair == 2 ? " against the mirror image" : "") +
                  " by a primal-dual active set, ") +
             "CG + " +
             (uses_direct_factor() ? std::string("the sparse Cholesky factor") :
                                     ElasticityAmg::name()) +
             (quasi_static         ? " on K" :
              average_acceleration ? " on K + 4/dt^2 M" :
                                     " on K + c0 M");
    }



    template class ImplicitStep<2>;
    template class ImplicitStep<3>;
  } // namespace Body
} // namespace stickslip
