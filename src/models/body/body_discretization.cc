#include <deal.II/base/quadrature_lib.h>

#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>

#include <deal.II/grid/grid_tools.h>

#include <deal.II/numerics/vector_tools.h>

#include <base/input_error.h>
#include <models/body/assembled_stiffness.h>
#include <models/body/body_discretization.h>
#include <models/body/body_grid.h>
#include <models/body/element_kernel_stiffness.h>
#include <models/body/matrix_free_stiffness.h>
#include <models/common/model.h>

#include <cmath>
#include <limits>

namespace stickslip
{
  namespace Body
  {
    namespace
    {
      /**
       * local(i) = int coefficient phi_i over the cell or face of @p values,
       * by its quadrature: with the Gauss-Lobatto rule, whose points are
       * the nodes, the row sum of the nodal-quadrature mass matrix, i.e.
       * its diagonal.
       */
      template <int dim>
      void
      nodal_integrals(const FEValuesBase<dim> &values,
                      const double             coefficient,
                      Vector<double>          &local)
      {
        const FiniteElement<dim> &fe = values.get_fe();
        for (unsigned int i = 0; i < fe.n_dofs_per_cell(); ++i)
          {
            const unsigned int component =
              fe.system_to_component_index(i).first;
            local(i) = 0;
            for (const unsigned int q : values.quadrature_point_indices())
              local(i) += coefficient *
                          values.shape_value_component(i, q, component) *
                          values.JxW(q);
          }
      }

      /** @p value, after the stage @p stage of @p clock (if any) ended. */
      template <typename T>
      T
      after_stage(SetupClock *clock, const char *stage, T value)
      {
        if (clock)
          clock->lap(stage);
        return value;
      }
    } // namespace



    template <int dim>
    BodyDiscretization<dim>::BodyDiscretization(
      const BodyParameters  &parameters,
      const ParameterSource &source,
      const MPI_Comm         comm,
      SetupClock            *clock)
      : comm(comm)
      , triangulation(
          after_stage(clock,
                      "mesh",
                      make_body_grid<dim>(parameters, source, comm)))
      , finite_element(FE_Q<dim>(parameters.degree), dim)
      , dofs(*triangulation)
      , degree(parameters.degree)
    {
      dofs.distribute_dofs(finite_element);
      make_constraints(parameters);
      if (clock)
        clock->lap("unknowns");
      StiffnessKind kind = parameters.stiffness;
      if (kind == StiffnessKind::automatic)
        {
          const StiffnessChoice choice =
            choose_stiffness_operator(dofs,
                                      degree,
                                      parameters.time_scheme ==
                                        TimeScheme::explicit_central);
          kind             = choice.kind;
          automatic_choice = choice.reason;
        }
      if (kind == StiffnessKind::assembled)
        elastic_operator =
          std::make_unique<AssembledStiffness<dim>>(dofs,
                                                    periodic_constraints,
                                                    degree,
                                                    parameters.lambda,
                                                    parameters.shear_modulus);
      else if (kind == StiffnessKind::element_kernels)
        elastic_operator = std::make_unique<ElementKernelStiffness<dim>>(
          dofs,
          periodic_constraints,
          degree,
          parameters.lambda,
          parameters.shear_modulus);
      else
        elastic_operator =
          std::make_unique<MatrixFreeStiffness<dim>>(dofs,
                                                     periodic_constraints,
                                                     degree,
                                                     parameters.lambda,
                                                     parameters.shear_modulus);
      if (clock)
        clock->lap("operator");
    }



    template <int dim>
    void
    BodyDiscretization<dim>::make_constraints(const BodyParameters &parameters)
    {
      IndexSet relevant;
      DoFTools::extract_locally_relevant_dofs(dofs, relevant);
      periodic_constraints.reinit(relevant);
      std::vector<
        GridTools::PeriodicFacePair<typename DoFHandler<dim>::cell_iterator>>
        pairs;
      for (const auto &pair : parameters.periodic_pairs)
        GridTools::collect_periodic_faces(
          dofs, pair.first, pair.second, pair.direction, pairs);
      DoFTools::make_periodicity_constraints<dim, dim>(pairs,
                                                       periodic_constraints);
      periodic_constraints.close();
    }



    template <int dim>
    const DoFHandler<dim> &
    BodyDiscretization<dim>::dof_handler() const
    {
      return dofs;
    }



    template <int dim>
    const FESystem<dim> &
    BodyDiscretization<dim>::fe() const
    {
      return finite_element;
    }



    template <int dim>
    const AffineConstraints<double> &
    BodyDiscretization<dim>::constraints() const
    {
      return periodic_constraints;
    }



    template <int dim>
    const StiffnessOperator<dim> &
    BodyDiscretization<dim>::stiffness() const
    {
      return *elastic_operator;
    }



    template <int dim>
    const std::string &
    BodyDiscretization<dim>::stiffness_choice() const
    {
      return automatic_choice;
    }



    template <int dim>
    MPI_Comm
    BodyDiscretization<dim>::communicator() const
    {
      return comm;
    }



    template <int dim>
    void
    BodyDiscretization<dim>::initialize_vector(BodyVector &vector) const
    {
      elastic_operator->initialize_dof_vector(vector);
    }



    template <int dim>
    types::global_dof_index
    BodyDiscretization<dim>::n_dofs() const
    {
      return dofs.n_dofs();
    }



    template <int dim>
    unsigned int
    BodyDiscretization<dim>::n_active_cells() const
    {
      return triangulation->n_global_active_cells();
    }



    template <int dim>
    double
    BodyDiscretization<dim>::smallest_cell_diameter() const
    {
      double smallest = std::numeric_limits<double>::max();
      for (const auto &cell : triangulation->active_cell_iterators())
        if (cell->is_locally_owned())
          smallest = std::min(smallest, cell->diameter());
      return Utilities::MPI::min(smallest, comm);
    }



    template <int dim>
    double
    BodyDiscretization<dim>::largest_boundary_face_size(
      const types::boundary_id id) const
    {
      double largest = 0;
      for (const auto &cell : triangulation->active_cell_iterators())
        if (cell->is_locally_owned())
          for (const auto face : cell->face_indices())
            if (cell->face(face)->at_boundary() &&
                cell->face(face)->boundary_id() == id)
              largest =
                std::max(largest,
                         std::pow(cell->face(face)->measure(), 1. / (dim - 1)));
      return Utilities::MPI::max(largest, comm);
    }



    template <int dim>
    void
    BodyDiscretization<dim>::lumped_mass(const double density,
                                         BodyVector  &mass) const
    {
      // The redistribution with no unknown marked.
      BodyVector none;
      initialize_vector(none);
      redistributed_mass(density, none, mass);
    }



    template <int dim>
    void
    BodyDiscretization<dim>::redistributed_mass(const double density,
                                                BodyVector  &massless,
                                                BodyVector  &mass) const
    {
      // The periodic copies of a marked unknown are marked too.
      periodic_constraints.distribute(massless);
      massless.update_ghost_values();
      initialize_vector(mass);
      FEValues<dim>                        values(finite_element,
                           QGaussLobatto<dim>(degree + 1),
                           update_values | update_JxW_values);
      const unsigned int                   n = finite_element.n_dofs_per_cell();
      Vector<double>                       local(n);
      std::vector<types::global_dof_index> indices(n);
      bool stranded = false; // a cell with every node of a component marked
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            values.reinit(cell);
            cell->get_dof_indices(indices);
            nodal_integrals(values, density, local);
            for (unsigned int c = 0; c < dim; ++c)
              {
                double moved = 0, kept = 0;
                for (unsigned int i = 0; i < n; ++i)
                  if (finite_element.system_to_component_index(i).first == c)
                    (massless(indices[i]) > 0 ? moved : kept) += local(i);
                if (moved == 0)
                  continue;
                if (kept == 0)
                  {
                    stranded = true;
                    continue;
                  }
                for (unsigned int i = 0; i < n; ++i)
                  if (finite_element.system_to_component_index(i).first == c)
                    local(i) = massless(indices[i]) > 0 ?
                                 0. :
                                 local(i) * (kept + moved) / kept;
              }
            periodic_constraints.distribute_local_to_global(local,
                                                            indices,
                                                            mass);
          }
      mass.compress(VectorOperation::add);
      massless.zero_out_ghost_values();
      if (Utilities::MPI::logical_or(stranded, comm))
        throw InputError(
          "Body/Contact/Mass at contact nodes = redistributed: a cell has all "
          "its nodes on the contact boundary, so its mass cannot move to "
          "other nodes (refine the mesh, or use lumped)");
    }



    template <int dim>
    void
    BodyDiscretization<dim>::boundary_weights(const types::boundary_id id,
                                              BodyVector &weights) const
    {
      initialize_vector(weights);
      FEFaceValues<dim>                    values(finite_element,
                               QGaussLobatto<dim - 1>(degree + 1),
                               update_values | update_JxW_values);
      const unsigned int                   n = finite_element.n_dofs_per_cell();
      Vector<double>                       local(n);
      std::vector<types::global_dof_index> indices(n);
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned())
          for (const auto face : cell->face_indices())
            if (cell->face(face)->at_boundary() &&
                cell->face(face)->boundary_id() == id)
              {
                values.reinit(cell, face);
                cell->get_dof_indices(indices);
                nodal_integrals(values, 1., local);
                periodic_constraints.distribute_local_to_global(local,
                                                                indices,
                                                                weights);
              }
      weights.compress(VectorOperation::add);
    }



    template <int dim>
    void
    BodyDiscretization<dim>::volume_weights(BodyVector &weights) const
    {
      lumped_mass(1., weights);
    }



    template <int dim>
    void
    BodyDiscretization<dim>::assemble_load(
      const Function<dim>              *body_force,
      const std::vector<Traction<dim>> &tractions,
      const double                      t,
      BodyVector                       &load) const
    {
      if (load.size() == 0)
        initialize_vector(load);
      load                                   = 0;
      const unsigned int                   n = finite_element.n_dofs_per_cell();
      Vector<double>                       local(n);
      Vector<double>                       datum(dim);
      std::vector<types::global_dof_index> indices(n);
      FEValues<dim>                        cell_values(finite_element,
                                QGauss<dim>(degree + 1),
                                update_values | update_JxW_values |
                                  update_quadrature_points);
      FEFaceValues<dim>                    face_values(finite_element,
                                    QGauss<dim - 1>(degree + 1),
                                    update_values | update_JxW_values |
                                      update_quadrature_points);
      // The consistent load of a datum g on a cell or face: (g, phi_i).
      const auto add_integral = [&](const FEValuesBase<dim> &values,
                                    const Function<dim>     &function) {
        for (const unsigned int q : values.quadrature_point_indices())
          {
            function.vector_value(values.quadrature_point(q), datum);
            for (unsigned int i = 0; i < n; ++i)
              {
                const unsigned int c =
                  finite_element.system_to_component_index(i).first;
                local(i) += datum(c) * values.shape_value_component(i, q, c) *
                            values.JxW(q);
              }
          }
      };
      if (body_force != nullptr)
        const_cast<Function<dim> *>(body_force)->set_time(t);
      for (const auto &traction : tractions)
        const_cast<Function<dim> *>(traction.value)->set_time(t);
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            local = 0;
            if (body_force != nullptr)
              {
                cell_values.reinit(cell);
                add_integral(cell_values, *body_force);
              }
            for (const auto &traction : tractions)
              for (const auto face : cell->face_indices())
                if (cell->face(face)->at_boundary() &&
                    std::find(traction.boundary_ids.begin(),
                              traction.boundary_ids.end(),
                              cell->face(face)->boundary_id()) !=
                      traction.boundary_ids.end())
                  {
                    face_values.reinit(cell, face);
                    add_integral(face_values, *traction.value);
                  }
            cell->get_dof_indices(indices);
            periodic_constraints.distribute_local_to_global(local,
                                                            indices,
                                                            load);
          }
      load.compress(VectorOperation::add);
    }



    template <int dim>
    std::vector<Node<dim>>
    BodyDiscretization<dim>::nodes(
      const std::optional<types::boundary_id> boundary,
      const bool                              with_points) const
    {
      const IndexSet      &owned       = dofs.locally_owned_dofs();
      const auto           first_owned = *owned.begin();
      const MappingQ1<dim> mapping;
      FEValues<dim>        support(mapping,
                            finite_element,
                            Quadrature<dim>(
                              finite_element.get_unit_support_points()),
                            update_quadrature_points);
      const unsigned int   n_nodes_per_cell =
        finite_element.n_dofs_per_cell() / dim;
      std::vector<types::global_dof_index> indices(
        finite_element.n_dofs_per_cell());
      std::vector<bool>      visited(owned.n_elements(), false);
      std::vector<Node<dim>> result;
      // An owned node of a boundary may lie on the boundary faces of ghost
      // cells only (a cell that touches the boundary at one vertex): those
      // are searched too.
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned() || (boundary && cell->is_ghost()))
          {
            cell->get_dof_indices(indices);
            bool cell_reinitialized = false;
            for (unsigned int k = 0; k < n_nodes_per_cell; ++k)
              {
                const unsigned int first_dof =
                  finite_element.component_to_system_index(0, k);
                const auto global = indices[first_dof];
                if (!owned.is_element(global) ||
                    visited[global - first_owned] ||
                    periodic_constraints.is_constrained(global))
                  continue;
                if (boundary)
                  {
                    bool on_boundary = false;
                    for (const auto face : cell->face_indices())
                      on_boundary =
                        on_boundary ||
                        (cell->face(face)->at_boundary() &&
                         cell->face(face)->boundary_id() == *boundary &&
                         finite_element.has_support_on_face(first_dof, face));
                    if (!on_boundary)
                      continue;
                  }
                visited[global - first_owned] = true;
                if (with_points && !cell_reinitialized)
                  support.reinit(cell);
                cell_reinitialized = true;
                Node<dim> node;
                for (unsigned int c = 0; c < dim; ++c)
                  node.unknowns[c] = static_cast<unsigned int>(
                    indices[finite_element.component_to_system_index(c, k)] -
                    first_owned);
                if (with_points)
                  node.point = support.quadrature_point(first_dof);
                result.push_back(node);
              }
          }
      return result;
    }



    template <int dim>
    std::vector<double>
    BodyDiscretization<dim>::owned_locations() const
    {
      const IndexSet      &owned       = dofs.locally_owned_dofs();
      const auto           first_owned = *owned.begin();
      std::vector<double>  locations(owned.n_elements() * (dim + 1),
                                    std::numeric_limits<double>::quiet_NaN());
      const MappingQ1<dim> mapping;
      FEValues<dim>        support(mapping,
                            finite_element,
                            Quadrature<dim>(
                              finite_element.get_unit_support_points()),
                            update_quadrature_points);
      std::vector<types::global_dof_index> indices(
        finite_element.n_dofs_per_cell());
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            support.reinit(cell);
            cell->get_dof_indices(indices);
            for (unsigned int i = 0; i < indices.size(); ++i)
              if (owned.is_element(indices[i]))
                {
                  double *entry =
                    &locations[(indices[i] - first_owned) * (dim + 1)];
                  for (unsigned int d = 0; d < dim; ++d)
                    entry[d] = support.quadrature_point(i)[d];
                  entry[dim] =
                    finite_element.system_to_component_index(i).first;
                }
          }
      return locations;
    }



    template <int dim>
    void
    BodyDiscretization<dim>::interpolate(const Function<dim> &function,
                                         BodyVector          &values) const
    {
      VectorTools::interpolate(MappingQ1<dim>(), dofs, function, values);
      periodic_constraints.distribute(values);
    }



    template <int dim>
    std::array<std::size_t, 3>
    BodyDiscretization<dim>::memory_consumption() const
    {
      return {
        {triangulation->memory_consumption(),
         dofs.memory_consumption() + periodic_constraints.memory_consumption(),
         elastic_operator->memory_consumption()}};
    }



    template class BodyDiscretization<2>;
    template class BodyDiscretization<3>;
  } // namespace Body
} // namespace stickslip
