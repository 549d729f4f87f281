#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <models/string/string_assembler.h>

#include <cmath>
#include <limits>
#include <optional>

namespace stickslip
{
  namespace
  {
    /**
     * Sums of cell vectors into a distributed vector: the owned entries in
     * a plain array, the others (cells on a partition boundary) through the
     * vector. A VecSetValues per cell and vector was a tenth of the set-up
     * of a large string.
     */
    class NodalSums
    {
    public:
      explicit NodalSums(DistributedVector &target)
        : target(target)
        , first(target.local_range().first)
        , sums(target.locally_owned_size(), 0.)
      {}

      void
      add(const std::vector<types::global_dof_index> &indices,
          const dealii::Vector<double> &              values)
      {
        for (unsigned int i = 0; i < indices.size(); ++i)
          if (indices[i] >= first && indices[i] - first < sums.size())
            sums[indices[i] - first] += values[i];
          else
            {
              const double value = values[i];
              target.add(1, &indices[i], &value);
            }
      }

      /** Collective: the other ranks' sums arrive, then the owned ones. */
      void
      finish()
      {
        target.compress(VectorOperation::add);
        LocalValues values(target);
        for (std::size_t k = 0; k < sums.size(); ++k)
          values[k] += sums[k];
      }

    private:
      DistributedVector &           target;
      const types::global_dof_index first;
      std::vector<double>           sums;
    };
  } // namespace



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
    , constant_speed(plain_number(wave_speed_text))
    , constant_friction(plain_number(friction_text))
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
    , cell_diagonal(dof_handler.get_fe().n_dofs_per_cell())
    , cell_row_sums(dof_handler.get_fe().n_dofs_per_cell())
    , solved_frequency(0)
    , element_frequency(0)
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
                                 OperatorRows *           stiffness_rows,
                                 OperatorRows *           mass_rows,
                                 const ParameterSource &  source)
  {
    // A lumped M: its constrained rows get |M_ii| of each cell from
    // distribute_local_to_global, which is M_ii itself (a positive nodal
    // weight): the constrained and unconstrained diagonals agree, summed as
    // one vector.
    DistributedVector lumped_mass;
    if (lumped)
      lumped_mass.reinit(system.locally_owned, system.comm);
    NodalSums weights(nodal_weights), frictions(system.friction_weights);
    std::optional<NodalSums> masses, diagonals, row_sums, mass_diagonals,
      mass_row_sums;
    if (lumped)
      masses.emplace(lumped_mass);
    if (stiffness_rows != nullptr)
      {
        diagonals.emplace(stiffness_rows->diagonal);
        row_sums.emplace(stiffness_rows->row_sums);
      }
    if (mass_rows != nullptr)
      {
        mass_diagonals.emplace(mass_rows->diagonal);
        mass_row_sums.emplace(mass_rows->row_sums);
      }
    std::vector<types::global_dof_index> dof_indices(
      dof_handler.get_fe().n_dofs_per_cell());
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          assemble_cell(cell);
          if (!lumped)
            note_element_frequency();
          cell->get_dof_indices(dof_indices);
          if (lumped)
            masses->add(dof_indices, cell_lumped_mass);
          else if (mass_rows != nullptr)
            {
              cell_operator_rows(cell_mass, constraints, dof_indices);
              mass_diagonals->add(dof_indices, cell_diagonal);
              mass_row_sums->add(dof_indices, cell_row_sums);
            }
          else
            constraints.distribute_local_to_global(cell_mass,
                                                   dof_indices,
                                                   system.mass);
          if (stiffness_rows != nullptr)
            {
              cell_operator_rows(cell_stiffness, constraints, dof_indices);
              diagonals->add(dof_indices, cell_diagonal);
              row_sums->add(dof_indices, cell_row_sums);
            }
          else
            constraints.distribute_local_to_global(cell_stiffness,
                                                   dof_indices,
                                                   system.stiffness);
          if (full_mass != nullptr)
            full_mass->add(dof_indices, cell_mass);
          if (full_stiffness != nullptr)
            full_stiffness->add(dof_indices, cell_stiffness);
          weights.add(dof_indices, cell_weights);
          frictions.add(dof_indices, cell_friction);
        }
    for (auto *sums :
         {&masses, &diagonals, &row_sums, &mass_diagonals, &mass_row_sums})
      if (*sums)
        (*sums)->finish();
    weights.finish();
    frictions.finish();
    if (lumped)
      set_diagonal(lumped_mass, system.mass);
    else if (mass_rows == nullptr)
      system.mass.compress(VectorOperation::add);
    if (stiffness_rows == nullptr)
      system.stiffness.compress(VectorOperation::add);
    for (DistributedMatrix *full : {full_mass, full_stiffness})
      if (full != nullptr)
        full->compress(VectorOperation::add);
    check_coefficients(source, system.comm);
    element_frequency = Utilities::MPI::max(element_frequency, system.comm);
  }



  template <int dim>
  void
  StringAssembler<dim>::note_element_frequency()
  {
    if (!(cell_mass == solved_mass && cell_stiffness == solved_stiffness))
      {
        solved_mass      = cell_mass;
        solved_stiffness = cell_stiffness;
        solved_frequency =
          largest_generalized_eigenvalue(cell_stiffness, cell_mass);
      }
    element_frequency = std::max(element_frequency, solved_frequency);
  }



  template <int dim>
  double
  StringAssembler<dim>::largest_element_frequency() const
  {
    return element_frequency;
  }



  template <int dim>
  void
  StringAssembler<dim>::set_diagonal(const DistributedVector &diagonal,
                                     DistributedMatrix &      mass)
  {
#ifdef STICKSLIP_USE_PETSC_LA
    // One call instead of a MatSetValues per row (the pattern has every
    // diagonal entry, so PETSc writes them in place).
    AssertThrow(MatDiagonalSet(mass, diagonal, INSERT_VALUES) == 0,
                ExcMessage("MatDiagonalSet failed"));
#else
    ConstLocalValues m(diagonal);
    const auto       first = *diagonal.locally_owned_elements().begin();
    for (std::size_t k = 0; k < m.size(); ++k)
      mass.set(first + k, first + k, m[k]);
#endif
    mass.compress(VectorOperation::insert);
  }



  template <int dim>
  void
  StringAssembler<dim>::cell_operator_rows(
    const FullMatrix<double> &                  cell_matrix,
    const AffineConstraints<double> &           constraints,
    const std::vector<types::global_dof_index> &dof_indices)
  {
    // A constrained row keeps only its diagonal; a free row loses the
    // columns of the constrained unknowns (AffineConstraints' elimination).
    const unsigned int n = dof_indices.size();
    for (unsigned int i = 0; i < n; ++i)
      {
        const bool row_constrained = constraints.is_constrained(dof_indices[i]);
        cell_diagonal(i)           = std::abs(cell_matrix(i, i));
        cell_row_sums(i)           = 0;
        for (unsigned int j = 0; j < n; ++j)
          if (j == i ||
              (!row_constrained && !constraints.is_constrained(dof_indices[j])))
            cell_row_sums(i) += std::abs(cell_matrix(i, j));
      }
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
        const double c = value_at(constant_speed, wave_speed, fe_values.quadrature_point(q));
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
        const double      c   = value_at(constant_speed, wave_speed, x);
        const double      g   = value_at(constant_friction, friction, x);
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
  double
  StringAssembler<dim>::value_at(const std::optional<double> &constant,
                                 const Function<dim> &       function,
                                 const Point<dim> &          x)
  {
    return constant ? *constant : function.value(x);
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
