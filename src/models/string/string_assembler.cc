#include <base/local_values.h>
#include <models/string/string_assembler.h>

#include <cmath>
#include <limits>

namespace stickslip
{
  template <int dim>
  StringAssembler<dim>::StringAssembler(const DoFHandler<dim> &dof_handler,
                                        const unsigned int     degree,
                                        const bool             lumped,
                                        const Function<dim> &  wave_speed,
                                        const Function<dim> &  friction,
                                        const std::string &    wave_speed_text,
                                        const std::string &    friction_text,
                                        NonFiniteData &        non_finite_data)
    : dof_handler(dof_handler)
    , lumped(lumped)
    , wave_speed(wave_speed)
    , friction(friction)
    , wave_speed_text(wave_speed_text)
    , friction_text(friction_text)
    , non_finite_data(non_finite_data)
    , gauss(degree + 1)
    , lobatto(degree + 1)
    , fe_values(dof_handler.get_fe(),
                gauss,
                update_values | update_gradients | update_quadrature_points |
                  update_JxW_values)
    , nodal_values(dof_handler.get_fe(),
                   lobatto,
                   update_values | update_quadrature_points |
                     update_JxW_values)
    , cell_mass(dof_handler.get_fe().n_dofs_per_cell(),
                dof_handler.get_fe().n_dofs_per_cell())
    , cell_stiffness(dof_handler.get_fe().n_dofs_per_cell(),
                     dof_handler.get_fe().n_dofs_per_cell())
    , cell_weights(dof_handler.get_fe().n_dofs_per_cell())
    , cell_friction(dof_handler.get_fe().n_dofs_per_cell())
    , cell_lumped_mass(dof_handler.get_fe().n_dofs_per_cell())
    , min_speed(std::numeric_limits<double>::max())
    , min_g(std::numeric_limits<double>::max())
    , n_bad_speed(0)
    , n_bad_g(0)
  {}



  template <int dim>
  void
  StringAssembler<dim>::assemble(const AffineConstraints<double> &constraints,
                                 FrictionSystem &                 system,
                                 DistributedMatrix *              full_mass,
                                 DistributedMatrix *      full_stiffness,
                                 DistributedVector &      nodal_weights,
                                 const ParameterSource &  source)
  {
    // A lumped M: its constrained rows get |M_ii| of each cell from
    // distribute_local_to_global, which is M_ii itself (a positive nodal
    // weight): the constrained and unconstrained diagonals agree, summed as
    // one vector.
    DistributedVector lumped_mass;
    if (lumped)
      lumped_mass.reinit(system.locally_owned, system.comm);
    std::vector<types::global_dof_index> dof_indices(
      dof_handler.get_fe().n_dofs_per_cell());
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          assemble_cell(cell);
          cell->get_dof_indices(dof_indices);
          if (lumped)
            lumped_mass.add(dof_indices, cell_lumped_mass);
          else
            constraints.distribute_local_to_global(cell_mass,
                                                   dof_indices,
                                                   system.mass);
          constraints.distribute_local_to_global(cell_stiffness,
                                                 dof_indices,
                                                 system.stiffness);
          if (full_mass != nullptr)
            full_mass->add(dof_indices, cell_mass);
          if (full_stiffness != nullptr)
            full_stiffness->add(dof_indices, cell_stiffness);
          nodal_weights.add(dof_indices, cell_weights);
          system.friction_weights.add(dof_indices, cell_friction);
        }
    if (lumped)
      {
        lumped_mass.compress(VectorOperation::add);
        set_diagonal(lumped_mass, system.mass);
      }
    else
      system.mass.compress(VectorOperation::add);
    system.stiffness.compress(VectorOperation::add);
    for (DistributedMatrix *full : {full_mass, full_stiffness})
      if (full != nullptr)
        full->compress(VectorOperation::add);
    nodal_weights.compress(VectorOperation::add);
    system.friction_weights.compress(VectorOperation::add);
    check_coefficients(source, system.comm);
  }



  template <int dim>
  void
  StringAssembler<dim>::set_diagonal(const DistributedVector &diagonal,
                                     DistributedMatrix &      mass)
  {
    ConstLocalValues m(diagonal);
    const auto       first = *diagonal.locally_owned_elements().begin();
    for (std::size_t k = 0; k < m.size(); ++k)
      mass.set(first + k, first + k, m[k]);
    mass.compress(VectorOperation::insert);
  }



  template <int dim>
  void
  StringAssembler<dim>::assemble_cell(
    const typename DoFHandler<dim>::active_cell_iterator &cell)
  {
    const unsigned int n = cell_weights.size();
    cell_mass            = 0;
    cell_stiffness       = 0;
    cell_weights         = 0;
    cell_friction        = 0;
    fe_values.reinit(cell);
    nodal_values.reinit(cell);
    for (const unsigned int q : fe_values.quadrature_point_indices())
      {
        const double c = wave_speed.value(fe_values.quadrature_point(q));
        note(c, min_speed, n_bad_speed);
        note_data("Wave speed", wave_speed_text, fe_values.quadrature_point(q), c);
        const double JxW = fe_values.JxW(q);
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int j = 0; j < n; ++j)
            {
              cell_stiffness(i, j) +=
                fe_values.shape_grad(i, q) * fe_values.shape_grad(j, q) * JxW;
              if (!lumped)
                cell_mass(i, j) += fe_values.shape_value(i, q) *
                                   fe_values.shape_value(j, q) * JxW / (c * c);
            }
      }
    // Nodal (Gauss-Lobatto) rule: its points are the support points, so
    // phi_i(x_q) = delta_iq and every integral below is nodal.
    for (const unsigned int q : nodal_values.quadrature_point_indices())
      {
        const Point<dim> &x   = nodal_values.quadrature_point(q);
        const double      JxW = nodal_values.JxW(q);
        const double      c   = wave_speed.value(x);
        const double      g   = friction.value(x);
        note(c, min_speed, n_bad_speed);
        note(g, min_g, n_bad_g);
        note_data("Wave speed", wave_speed_text, x, c);
        note_data("Friction", friction_text, x, g);
        for (unsigned int i = 0; i < n; ++i)
          {
            const double phi = nodal_values.shape_value(i, q);
            cell_weights(i) += phi * JxW;
            cell_friction(i) += g * phi * JxW;
            if (lumped)
              cell_mass(i, i) += phi * JxW / (c * c);
          }
      }
    // Round-off of phi_i at the other nodes is below 1e-15: drop it, so that
    // the lumped M is exactly diagonal.
    if (lumped)
      for (unsigned int i = 0; i < n; ++i)
        {
          cell_lumped_mass(i) = cell_mass(i, i);
          for (unsigned int j = 0; j < n; ++j)
            if (i != j)
              cell_mass(i, j) = 0;
        }
  }



  template <int dim>
  void
  StringAssembler<dim>::note_data(const std::string &name,
                                  const std::string &text,
                                  const Point<dim> & x,
                                  const double       value)
  {
    if (std::isfinite(value))
      return;
    non_finite_data.note("String/" + name, text, 0., value, [&]() {
      return describe_point(x, "x,y") + " (a quadrature point)";
    });
  }



  template <int dim>
  void
  StringAssembler<dim>::check_coefficients(const ParameterSource &source,
                                           const MPI_Comm         comm)
  {
    min_speed   = Utilities::MPI::min(min_speed, comm);
    min_g       = Utilities::MPI::min(min_g, comm);
    n_bad_speed = Utilities::MPI::sum(n_bad_speed, comm);
    n_bad_g     = Utilities::MPI::sum(n_bad_g, comm);
    // The first non-finite value, with its point (the shared check).
    non_finite_data.throw_if_found(comm, true);
    if (!(min_speed > 0))
      throw_bad_parameter(source,
                          "String/Wave speed",
                          std::to_string(min_speed),
                          "c must be positive everywhere (this is its "
                          "smallest value at a quadrature point)");
    if (!(min_g >= 0))
      throw_bad_parameter(source,
                          "String/Friction",
                          std::to_string(min_g),
                          "g must be >= 0 everywhere (this is its smallest "
                          "nodal value)");
  }



  template <int dim>
  void
  StringAssembler<dim>::note(const double  value,
                             double &      smallest,
                             unsigned int &n_not_finite)
  {
    if (std::isfinite(value))
      smallest = std::min(smallest, value);
    else
      ++n_not_finite;
  }



  template class StringAssembler<1>;
  template class StringAssembler<2>;
} // namespace stickslip
