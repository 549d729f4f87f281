#include <base/local_values.h>
#include <linear_algebra/compressed_rows.h>
#include <linear_algebra/dense_tools.h>
#include <models/string/string_assembler.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
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
          const dealii::Vector<double>               &values)
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
      DistributedVector            &target;
      const types::global_dof_index first;
      std::vector<double>           sums;
    };



    /**
     * A matrix StringAssembler::assemble_by_rows() makes: its values (in
     * the order of the compressed rows), the cell matrix summed into them,
     * and whether the Dirichlet constraints are eliminated.
     */
    struct RowMatrix
    {
      DistributedMatrix        *target;
      const FullMatrix<double> *cell_matrix;
      bool                      constrained;
      std::vector<double>       values;
    };



    /**
     * The owned rows of the 1D DoFs: each couples to the DoFs of the cells
     * it lies in, at most two, which share only it (a vertex). Counted,
     * filled and sorted in three passes over the cells (owned and ghost),
     * with no per-row allocation.
     */
    template <int dim>
    std::shared_ptr<const CompressedRows>
    coupling_rows(const DoFHandler<dim> &dof_handler, const IndexSet &owned)
    {
      AssertThrow(dim == 1 && dof_handler.get_fe().n_dofs_per_cell() <= 64,
                  ExcNotImplemented());
      auto              rows      = std::make_shared<CompressedRows>();
      const std::size_t n         = owned.n_elements();
      const auto        first     = n > 0 ? *owned.begin() : 0;
      rows->first_row             = first;
      const unsigned int per_cell = dof_handler.get_fe().n_dofs_per_cell();
      std::vector<types::global_dof_index> dofs(per_cell);
      const auto for_each_cell = [&](const auto &visit) {
        for (const auto &cell : dof_handler.active_cell_iterators())
          if (!cell->is_artificial())
            {
              cell->get_dof_indices(dofs);
              for (unsigned int a = 0; a < per_cell; ++a)
                if (dofs[a] >= first && dofs[a] - first < n)
                  visit(a, dofs[a] - first);
            }
      };
      // How many cells each owned DoF lies in; a DoF in c cells couples to
      // itself and c (per_cell - 1) others.
      std::vector<std::uint8_t> count(n, 0);
      for_each_cell([&](unsigned int, const std::size_t k) { ++count[k]; });
      rows->row_start.resize(n + 1);
      std::uint64_t total = 0;
      for (std::size_t k = 0; k < n; ++k)
        {
          AssertThrow(count[k] == 1 || count[k] == 2, ExcInternalError());
          rows->row_start[k] = static_cast<CompressedRows::Index>(total);
          total += count[k] * (per_cell - 1) + 1;
        }
      AssertThrow(total <= std::uint64_t(
                             std::numeric_limits<CompressedRows::Index>::max()),
                  ExcMessage("the matrix has more entries than the linear "
                             "algebra's indices can count"));
      rows->row_start[n] = static_cast<CompressedRows::Index>(total);
      rows->columns.resize(total);
      std::fill(count.begin(), count.end(), 0);
      for_each_cell([&](const unsigned int a, const std::size_t k) {
        auto *row = rows->columns.data() + rows->row_start[k];
        if (count[k] == 0)
          row[count[k]++] = static_cast<CompressedRows::Index>(dofs[a]);
        for (unsigned int b = 0; b < per_cell; ++b)
          if (b != a)
            row[count[k]++] = static_cast<CompressedRows::Index>(dofs[b]);
      });
      for (std::size_t k = 0; k < n; ++k)
        {
          auto *begin = rows->columns.data() + rows->row_start[k];
          auto *end   = rows->columns.data() + rows->row_start[k + 1];
          std::sort(begin, end);
          AssertThrow(std::adjacent_find(begin, end) == end,
                      ExcMessage("two cells share more than one DoF"));
        }
      return rows;
    }



    /**
     * What distribute_local_to_global puts on the diagonal of a constrained
     * row for the cell matrix @p matrix: |B_e(a,a)|, or the average of the
     * cell's |B_e(i,i)| where that is zero (then its l1 norm / n, then 1).
     */
    double
    constrained_diagonal(const FullMatrix<double> &matrix, const unsigned int a)
    {
      if (std::abs(matrix(a, a)) != 0.)
        return std::abs(matrix(a, a));
      double average = 0;
      for (unsigned int i = 0; i < matrix.m(); ++i)
        average += std::abs(matrix(i, i));
      average /= static_cast<double>(matrix.m());
      if (average == 0.)
        {
          average = matrix.l1_norm() / static_cast<double>(matrix.m());
          if (average == 0.)
            average = 1.;
        }
      return average;
    }



    /**
     * Add the cell's matrices to the owned rows among @p dofs: a free row
     * gets B_e(a,b) in the columns of the free DoFs (a matrix without
     * constraints: in every column), a constrained row only its diagonal.
     */
    void
    add_cell_rows(const CompressedRows                       &rows,
                  const AffineConstraints<double>            &constraints,
                  const std::vector<types::global_dof_index> &dofs,
                  std::vector<RowMatrix>                     &matrices)
    {
      const unsigned int n = dofs.size();
      // Which of the cell's DoFs are constrained (one look-up each).
      std::uint64_t constrained = 0;
      for (unsigned int a = 0; a < n; ++a)
        if (constraints.is_constrained(dofs[a]))
          constrained |= std::uint64_t(1) << a;
      const auto is_constrained = [&](const unsigned int a) {
        return (constrained >> a) & 1;
      };
      for (unsigned int a = 0; a < n; ++a)
        {
          const auto i = dofs[a];
          if (i < rows.first_row || i - rows.first_row >= rows.n_rows())
            continue;
          const std::size_t k = i - rows.first_row;
          for (RowMatrix &matrix : matrices)
            {
              const FullMatrix<double> &cell_matrix = *matrix.cell_matrix;
              if (matrix.constrained && is_constrained(a))
                {
                  matrix.values[rows.position(k, i)] +=
                    constrained_diagonal(cell_matrix, a);
                  continue;
                }
              for (unsigned int b = 0; b < n; ++b)
                if (!matrix.constrained || b == a || !is_constrained(b))
                  matrix.values[rows.position(k, dofs[b])] += cell_matrix(a, b);
            }
        }
    }
  } // namespace



  template <int dim>
  StringAssembler<dim>::StringAssembler(const DoFHandler<dim> &dof_handler,
                                        const unsigned int     degree,
                                        const bool             lumped,
                                        const Function<dim>   &wave_speed,
                                        const Function<dim>   &friction,
                                        const std::string     &wave_speed_text,
                                        const std::string     &friction_text,
                                        NonFiniteData         &non_finite_data)
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
                   update_values | update_quadrature_points | update_JxW_values)
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
    , max_speed(0)
    , min_g(std::numeric_limits<double>::max())
    , n_bad_speed(0)
    , n_bad_g(0)
  {}



  template <int dim>
  struct StringAssembler<dim>::Sums
  {
    Sums(FrictionSystem    &system,
         DistributedVector &nodal_weights,
         DistributedVector &lumped_mass,
         OperatorRows      *stiffness_rows,
         OperatorRows      *mass_rows)
      : weights(nodal_weights)
      , frictions(system.friction_weights)
    {
      if (lumped_mass.size() > 0)
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
    }

    /** Collective: every sum complete on its owner. */
    void
    finish()
    {
      for (auto *sums :
           {&masses, &diagonals, &row_sums, &mass_diagonals, &mass_row_sums})
        if (*sums)
          (*sums)->finish();
      weights.finish();
      frictions.finish();
    }

    NodalSums                weights, frictions;
    std::optional<NodalSums> masses, diagonals, row_sums, mass_diagonals,
      mass_row_sums;
  };



  template <int dim>
  void
  StringAssembler<dim>::assemble(const AffineConstraints<double> &constraints,
                                 FrictionSystem                  &system,
                                 DistributedMatrix               *full_mass,
                                 DistributedMatrix     *full_stiffness,
                                 DistributedVector     &nodal_weights,
                                 OperatorRows          *stiffness_rows,
                                 OperatorRows          *mass_rows,
                                 const ParameterSource &source)
  {
    // A lumped M: its constrained rows get |M_ii| of each cell from
    // distribute_local_to_global, which is M_ii itself (a positive nodal
    // weight): the constrained and unconstrained diagonals agree, summed as
    // one vector.
    DistributedVector lumped_mass;
    if (lumped)
      lumped_mass.reinit(system.locally_owned, system.comm);
    Sums sums(system, nodal_weights, lumped_mass, stiffness_rows, mass_rows);
    const MatrixTargets targets{!lumped && mass_rows == nullptr,
                                stiffness_rows == nullptr,
                                full_mass,
                                full_stiffness};
    if (dim == 1)
      assemble_by_rows(constraints, system, targets, sums);
    else
      assemble_by_cells(constraints, system, targets, sums);
    sums.finish();
    if (lumped)
      system.set_diagonal_mass(lumped_mass);
    check_coefficients(source, system.comm);
    element_frequency = Utilities::MPI::max(element_frequency, system.comm);
  }



  template <int dim>
  void
  StringAssembler<dim>::add_owned_cell(
    const AffineConstraints<double>            &constraints,
    const std::vector<types::global_dof_index> &dof_indices,
    Sums                                       &sums)
  {
    if (!lumped)
      note_element_frequency();
    if (sums.masses)
      sums.masses->add(dof_indices, cell_lumped_mass);
    if (sums.mass_diagonals)
      {
        cell_operator_rows(cell_mass, constraints, dof_indices);
        sums.mass_diagonals->add(dof_indices, cell_diagonal);
        sums.mass_row_sums->add(dof_indices, cell_row_sums);
      }
    if (sums.diagonals)
      {
        cell_operator_rows(cell_stiffness, constraints, dof_indices);
        sums.diagonals->add(dof_indices, cell_diagonal);
        sums.row_sums->add(dof_indices, cell_row_sums);
      }
    sums.weights.add(dof_indices, cell_weights);
    sums.frictions.add(dof_indices, cell_friction);
  }



  template <int dim>
  void
  StringAssembler<dim>::assemble_by_cells(
    const AffineConstraints<double> &constraints,
    FrictionSystem                  &system,
    const MatrixTargets             &targets,
    Sums                            &sums)
  {
    const auto [assembled_mass,
                assembled_stiffness,
                full_mass,
                full_stiffness] = targets;
    std::vector<types::global_dof_index> dof_indices(
      dof_handler.get_fe().n_dofs_per_cell());
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          assemble_cell(cell);
          cell->get_dof_indices(dof_indices);
          add_owned_cell(constraints, dof_indices, sums);
          if (assembled_mass)
            constraints.distribute_local_to_global(cell_mass,
                                                   dof_indices,
                                                   system.mass);
          if (assembled_stiffness)
            constraints.distribute_local_to_global(cell_stiffness,
                                                   dof_indices,
                                                   system.stiffness);
          if (full_mass != nullptr)
            full_mass->add(dof_indices, cell_mass);
          if (full_stiffness != nullptr)
            full_stiffness->add(dof_indices, cell_stiffness);
        }
    if (assembled_mass)
      system.mass.compress(VectorOperation::add);
    if (assembled_stiffness)
      system.stiffness.compress(VectorOperation::add);
    for (DistributedMatrix *full : {full_mass, full_stiffness})
      if (full != nullptr)
        full->compress(VectorOperation::add);
  }



  template <int dim>
  void
  StringAssembler<dim>::assemble_by_rows(
    const AffineConstraints<double> &constraints,
    FrictionSystem                  &system,
    const MatrixTargets             &targets,
    Sums                            &sums)
  {
    const auto [assembled_mass,
                assembled_stiffness,
                full_mass,
                full_stiffness] = targets;
    // The matrices to make: their values, the cell matrix they sum, and
    // whether the constraints are eliminated.
    std::vector<RowMatrix> matrices;
    if (assembled_stiffness)
      matrices.push_back({&system.stiffness, &cell_stiffness, true, {}});
    if (assembled_mass)
      matrices.push_back({&system.mass, &cell_mass, true, {}});
    if (full_stiffness != nullptr)
      matrices.push_back({full_stiffness, &cell_stiffness, false, {}});
    if (full_mass != nullptr)
      matrices.push_back({full_mass, &cell_mass, false, {}});
    const IndexSet                       &owned = system.locally_owned;
    std::shared_ptr<const CompressedRows> rows;
    if (!matrices.empty())
      rows = coupling_rows(dof_handler, owned);
    for (RowMatrix &matrix : matrices)
      matrix.values.assign(rows->n_entries(), 0.);

    const types::global_dof_index        first   = rows ? rows->first_row : 0;
    const types::global_dof_index        n_owned = owned.n_elements();
    std::vector<types::global_dof_index> dof_indices(
      dof_handler.get_fe().n_dofs_per_cell());
    for (const auto &cell : dof_handler.active_cell_iterators())
      {
        if (cell->is_artificial())
          continue;
        cell->get_dof_indices(dof_indices);
        const bool owns_a_row =
          std::any_of(dof_indices.begin(),
                      dof_indices.end(),
                      [&](const auto i) {
                        return i >= first && i - first < n_owned;
                      });
        if (!cell->is_locally_owned() && !(owns_a_row && rows))
          continue;
        assemble_cell_unless_known(cell);
        if (cell->is_locally_owned())
          add_owned_cell(constraints, dof_indices, sums);
        if (rows && owns_a_row)
          add_cell_rows(*rows, constraints, dof_indices, matrices);
      }
    for (RowMatrix &matrix : matrices)
      make_matrix(
        rows, std::move(matrix.values), owned, system.comm, *matrix.target);
  }



  template <int dim>
  void
  StringAssembler<dim>::note_element_frequency()
  {
    // A mass density 1/c^2 that underflows (c above about 1e154) makes the
    // cell mass singular: no frequency; check_coefficients() then refuses
    // the wave speed with its range (LAPACK would throw an exception
    // without a message).
    for (unsigned int i = 0; i < cell_mass.m(); ++i)
      if (!(std::isnormal(cell_mass(i, i)) && cell_mass(i, i) > 0))
        return;
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
  StringAssembler<dim>::cell_operator_rows(
    const FullMatrix<double>                   &cell_matrix,
    const AffineConstraints<double>            &constraints,
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
        const double c =
          value_at(constant_speed, wave_speed, fe_values.quadrature_point(q));
        note(c, min_speed, n_bad_speed);
        max_speed = std::max(max_speed, std::isfinite(c) ? c : 0.);
        note_data("Wave speed",
                  wave_speed_text,
                  fe_values.quadrature_point(q),
                  c);
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
        max_speed = std::max(max_speed, std::isfinite(c) ? c : 0.);
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
  StringAssembler<dim>::assemble_cell_unless_known(
    const typename DoFHandler<dim>::active_cell_iterator &cell)
  {
    if (dim != 1 || !constant_speed || !constant_friction)
      {
        assemble_cell(cell);
        return;
      }
    const double length = cell->vertex(1)[0] - cell->vertex(0)[0];
    if (known_cell_length &&
        std::memcmp(&*known_cell_length, &length, sizeof(length)) == 0)
      return;
    assemble_cell(cell);
    known_cell_length = length;
  }



  template <int dim>
  double
  StringAssembler<dim>::value_at(const std::optional<double> &constant,
                                 const Function<dim>         &function,
                                 const Point<dim>            &x)
  {
    return constant ? *constant : function.value(x);
  }



  template <int dim>
  void
  StringAssembler<dim>::note_data(const std::string &name,
                                  const std::string &text,
                                  const Point<dim>  &x,
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
    // The equation is u_tt/c^2 - div grad u + g lambda = f: its mass density
    // 1/c^2 must be a normal double (c^2 overflows above 1.3e154, and
    // 1/c^2 then is 0: the mass matrix would be singular).
    max_speed = Utilities::MPI::max(max_speed, comm);
    for (const double c : {min_speed, max_speed})
      if (!std::isnormal(1. / (c * c)))
        throw_bad_parameter(source,
                            "String/Wave speed",
                            format_number(c),
                            "the mass density 1/c^2 of the string's equation "
                            "(u_tt/c^2 - div grad u + g lambda = f) is " +
                              format_number(1. / (c * c)) +
                              " in double precision for this c: give c "
                              "between 1e-150 and 1e150 (rescale the unit of "
                              "time or of length)");
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
                             double       &smallest,
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
