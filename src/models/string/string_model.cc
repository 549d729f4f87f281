#include <deal.II/base/mpi.h>

#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_values.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>

#include <deal.II/numerics/data_out.h>

#include <base/expressions.h>
#include <base/local_values.h>
#include <base/memory_stage.h>
#include <models/string/field_reference.h>
#include <models/string/matrix_free_operator.h>
#include <models/string/string_assembler.h>
#include <models/string/string_grid.h>
#include <models/string/string_model.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace stickslip
{
  template <int dim>
  StringModel<dim>::StringModel(const StringParameters &parameters,
                                const Parameters::Time &time,
                                const ParameterSource  &source,
                                const MPI_Comm          comm)
    : comm(comm)
    , degree(parameters.degree)
    , lumped(parameters.mass == StringMass::lumped)
    , matrix_free(parameters.stiffness == StringOperator::matrix_free)
    , matrix_free_mass(parameters.mass_operator == StringOperator::matrix_free)
    , friction_system(comm)
  {
    AssertThrow(parameters.dimension == dim, ExcInternalError());
    friction_system.non_finite_data.set_source(source);
    fe = std::make_unique<FE_Q<dim>>(degree);
    parse_functions(parameters, source);

    SetupClock clock;
    {
      MemoryStage stage("creating the mesh (String/Global refinements = " +
                        std::to_string(parameters.global_refinements) + ")");
      triangulation = make_string_grid<dim>(parameters, source, comm);
    }
    check_boundary_ids(*triangulation, parameters.dirichlet_ids, source, comm);
    min_cell_diameter = smallest_cell_diameter(*triangulation, comm);
    clock.lap("mesh");

    const AffineConstraints<double> constraints =
      setup_system(parameters.dirichlet_ids, clock);
    const auto row_data = [this, comm](const bool wanted) {
      std::unique_ptr<OperatorRows> rows;
      if (wanted)
        {
          rows = std::make_unique<OperatorRows>();
          rows->diagonal.reinit(friction_system.locally_owned, comm);
          rows->row_sums.reinit(friction_system.locally_owned, comm);
        }
      return rows;
    };
    const std::unique_ptr<OperatorRows> stiffness_rows = row_data(matrix_free);
    const std::unique_ptr<OperatorRows> mass_rows = row_data(matrix_free_mass);
    StringAssembler<dim>                assembler(dof_handler,
                                   degree,
                                   lumped,
                                   *wave_speed,
                                   *friction,
                                   parameters.wave_speed,
                                   parameters.friction,
                                   friction_system.non_finite_data);
    {
      MemoryStage stage("assembling the operators of " +
                        std::to_string(dof_handler.n_dofs()) + " unknowns");
      assembler.assemble(constraints,
                         friction_system,
                         full_mass.get(),
                         full_stiffness.get(),
                         nodal_weights,
                         stiffness_rows.get(),
                         mass_rows.get(),
                         source);
    }
    friction_system.frequency_bound = assembler.largest_element_frequency();
    if (matrix_free || matrix_free_mass)
      set_up_matrix_free_operators(constraints,
                                   stiffness_rows.get(),
                                   mass_rows.get(),
                                   parameters.wave_speed);
    // Dirichlet DoFs are prescribed: no friction there.
    {
      LocalValues c(friction_system.friction_weights);
      for (const unsigned int k : dirichlet_local)
        c[k] *= 0.;
    }
    clock.lap("operators");

    set_initial_data(parameters);
    set_forcing_and_boundary_values();
    friction_system.check_initial_data(time.initial_time);
    warn_if_dirichlet_data_differ(time.initial_time, source);
    friction_system.finalize();

    if (exact_u)
      reference =
        std::make_unique<FieldReference<dim>>(owned_points,
                                              *exact_u,
                                              *exact_v,
                                              exact_lambda.get(),
                                              nodal_weights,
                                              friction_system.friction_weights);
    release_set_up_data();
    clock.lap("data");
    setup_times = clock.summary(comm);
  }



  template <int dim>
  StringModel<dim>::~StringModel()
  {
    dof_handler.clear();
  }



  template <int dim>
  void
  StringModel<dim>::parse_functions(const StringParameters &parameters,
                                    const ParameterSource  &source)
  {
    variables           = parameters.variables();
    const auto function = [&](const std::string &text,
                              const std::string &name) {
      data_texts[name] = text;
      return parse_function<dim>(text,
                                 parameters.variables(),
                                 "String/" + name,
                                 source);
    };
    wave_speed = function(parameters.wave_speed, "Wave speed");
    friction   = function(parameters.friction, "Friction");
    forcing    = function(parameters.forcing, "Forcing");
    dirichlet  = function(parameters.dirichlet_data, "Dirichlet data");
    initial_displacement =
      function(parameters.initial_displacement, "Initial displacement");
    initial_velocity =
      function(parameters.initial_velocity, "Initial velocity");
    forcing_zero   = parameters.forcing == "0";
    dirichlet_zero = parameters.dirichlet_data == "0";
    if (is_blank(parameters.exact_displacement))
      return;
    exact_u = function(parameters.exact_displacement, "Exact displacement");
    exact_v = function(parameters.exact_velocity, "Exact velocity");
    if (!is_blank(parameters.exact_multiplier))
      exact_lambda = function(parameters.exact_multiplier, "Exact multiplier");
  }



  template <int dim>
  AffineConstraints<double>
  StringModel<dim>::setup_system(
    const std::vector<types::boundary_id> &dirichlet_ids,
    SetupClock                            &clock)
  {
    std::optional<MemoryStage> stage;
    stage.emplace("numbering the unknowns of " +
                  std::to_string(triangulation->n_global_active_cells()) +
                  " cells");
    dof_handler.reinit(*triangulation);
    dof_handler.distribute_dofs(*fe);
    const std::string unknowns =
      std::to_string(dof_handler.n_dofs()) + " unknowns";
    const IndexSet owned = dof_handler.locally_owned_dofs();
    AssertThrow(owned.is_contiguous(),
                ExcMessage("stickslip needs contiguous DoF ranges per rank"));
    DoFTools::extract_locally_relevant_dofs(dof_handler, locally_relevant);
    friction_system.locally_owned = owned;
    owned_points                  = owned_support_points();

    // Dirichlet DoFs: decoupled from the rest (homogeneous constraints).
    const std::set<types::boundary_id> ids(dirichlet_ids.begin(),
                                           dirichlet_ids.end());
    const IndexSet                     boundary =
      ids.empty() ?
                            IndexSet(dof_handler.n_dofs()) :
                            DoFTools::extract_boundary_dofs(dof_handler, ComponentMask(), ids);
    AffineConstraints<double> constraints(locally_relevant);
    for (const auto i : boundary)
      if (locally_relevant.is_element(i))
        constraints.add_line(i);
    constraints.close();
    dirichlet_local.clear();
    dirichlet_points.clear();
    const types::global_dof_index first =
      owned.n_elements() > 0 ? *owned.begin() : 0;
    for (const auto i : boundary)
      if (owned.is_element(i))
        {
          dirichlet_local.push_back(i - first);
          dirichlet_points.push_back(owned_points[i - first]);
        }
    clock.lap("unknowns");

    stage.reset();
    stage.emplace("the sparsity pattern and matrices of " + unknowns);
    size_operators(
      Utilities::MPI::max(static_cast<unsigned int>(dirichlet_local.size()),
                          comm) > 0);

    stage.reset();
    stage.emplace("the vectors of " + unknowns);
    nodal_weights.reinit(owned, comm);
    friction_system.friction_weights.reinit(owned, comm);
    return constraints;
  }



  template <int dim>
  std::vector<Point<dim>>
  StringModel<dim>::owned_support_points() const
  {
    // The support points of each owned cell (FE_Q: affine cells, the
    // mapping of the unit support points), not a map of every DoF.
    const IndexSet               &owned = friction_system.locally_owned;
    const types::global_dof_index first =
      owned.n_elements() > 0 ? *owned.begin() : 0;
    std::vector<Point<dim>> points(owned.n_elements());
    if (dim == 1 && degree == 1)
      {
        // FE_Q(1) in 1D: the support points are the vertices (what the
        // mapping gives at the reference cell's ends, exactly).
        std::vector<types::global_dof_index> vertex_dofs(2);
        for (const auto &cell : dof_handler.active_cell_iterators())
          if (cell->is_locally_owned())
            {
              cell->get_dof_indices(vertex_dofs);
              for (unsigned int v = 0; v < 2; ++v)
                if (owned.is_element(vertex_dofs[v]))
                  points[vertex_dofs[v] - first] = cell->vertex(v);
            }
        return points;
      }
    FEValues<dim>                        values(*fe,
                         Quadrature<dim>(fe->get_unit_support_points()),
                         update_quadrature_points);
    std::vector<types::global_dof_index> indices(fe->n_dofs_per_cell());
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          values.reinit(cell);
          cell->get_dof_indices(indices);
          for (unsigned int i = 0; i < indices.size(); ++i)
            if (owned.is_element(indices[i]))
              points[indices[i] - first] = values.quadrature_point(i);
        }
    return points;
  }



  template <int dim>
  void
  StringModel<dim>::size_operators(const bool has_dirichlet)
  {
    const IndexSet &owned         = friction_system.locally_owned;
    friction_system.has_stiffness = true;
    // Only a driven boundary (u_D != 0) needs the operators without the
    // constraints (FrictionSystem::prescribed_values): with u_D = 0 the
    // Dirichlet values are 0 and the constrained ones give the same
    // energies. A lumped M is the same with or without them (its
    // constrained rows keep their own diagonal entry, a positive nodal
    // weight), so it is never built twice. A matrix-free A or M has no
    // pattern: with both (or a matrix-free A and a lumped M) none is built.
    driven                    = has_dirichlet && !dirichlet_zero;
    const bool assembled_mass = !lumped && !matrix_free_mass;
    if (driven && !matrix_free)
      full_stiffness = std::make_unique<DistributedMatrix>();
    if (driven && assembled_mass)
      full_mass = std::make_unique<DistributedMatrix>();
    if (dim == 1 || (matrix_free && !assembled_mass))
      return;
    DynamicSparsityPattern pattern(locally_relevant);
    DoFTools::make_sparsity_pattern(dof_handler, pattern);
    SparsityTools::distribute_sparsity_pattern(pattern,
                                               owned,
                                               comm,
                                               locally_relevant);
    if (!matrix_free)
      friction_system.stiffness.reinit(owned, owned, pattern, comm);
    if (full_stiffness)
      full_stiffness->reinit(owned, owned, pattern, comm);
    if (assembled_mass)
      friction_system.mass.reinit(owned, owned, pattern, comm);
    if (full_mass)
      full_mass->reinit(owned, owned, pattern, comm);
  }



  template <int dim>
  void
  StringModel<dim>::release_set_up_data()
  {
    if (!forcing_zero || exact_u)
      return;
    std::vector<Point<dim>>().swap(owned_points);
    nodal_weights = DistributedVector();
  }



  template <int dim>
  void
  StringModel<dim>::set_up_matrix_free_operators(
    const AffineConstraints<double> &constraints,
    const OperatorRows              *stiffness_rows,
    const OperatorRows              *mass_rows,
    const std::string               &wave_speed_text)
  {
    // A variable c is read at the quadrature points once (the mass's
    // coefficient 1/c^2), which needs the points of the cells.
    const std::optional<double> constant_speed = plain_number(wave_speed_text);
    const bool need_points = mass_rows != nullptr && !constant_speed;
    using Operator         = MatrixFreeStringOperator<dim>;
    const auto make_operators =
      [&](const AffineConstraints<double>       &cell_constraints,
          std::shared_ptr<const OperatorAction> &stiffness,
          std::shared_ptr<const OperatorAction> &mass) {
        const auto cells = std::make_shared<const MatrixFreeCells<dim>>(
          dof_handler, cell_constraints, degree, need_points);
        if (stiffness_rows != nullptr)
          stiffness = std::make_shared<Operator>(
            cells,
            Operator::Form::stiffness,
            stiffness_rows->diagonal,
            stiffness_rows->row_sums,
            "String/Stiffness operator = matrix-free");
        if (mass_rows != nullptr)
          mass =
            std::make_shared<Operator>(cells,
                                       Operator::Form::mass,
                                       mass_rows->diagonal,
                                       mass_rows->row_sums,
                                       "String/Mass operator = matrix-free",
                                       wave_speed.get(),
                                       constant_speed);
      };
    make_operators(constraints,
                   friction_system.stiffness_action,
                   friction_system.mass_action);
    if (!driven)
      return;
    // The driven boundary's unconstrained operators: the same cell loops
    // without constraints (their row data are never asked for).
    AffineConstraints<double> none(locally_relevant);
    none.close();
    make_operators(none, full_stiffness_action, full_mass_action);
  }



  template <int dim>
  void
  StringModel<dim>::set_initial_data(const StringParameters &parameters)
  {
    // No gamma law (the default): no beta and epsilon vectors.
    if (parameters.gamma != GammaLaw::Type::none)
      {
        DistributedVector beta_vector(friction_system.locally_owned, comm);
        DistributedVector epsilon_vector(friction_system.locally_owned, comm);
        beta_vector    = parameters.gamma_beta;
        epsilon_vector = parameters.gamma_epsilon;
        friction_system.gamma.reinit(parameters.gamma,
                                     beta_vector,
                                     epsilon_vector);
      }

    friction_system.initial_displacement.reinit(friction_system.locally_owned,
                                                comm);
    friction_system.initial_velocity.reinit(friction_system.locally_owned,
                                            comm);
    interpolate_nodal(*initial_displacement,
                      "Initial displacement",
                      0.,
                      friction_system.initial_displacement);
    interpolate_nodal(*initial_velocity,
                      "Initial velocity",
                      0.,
                      friction_system.initial_velocity);
  }



  template <int dim>
  void
  StringModel<dim>::warn_if_dirichlet_data_differ(
    const double           t0,
    const ParameterSource &source) const
  {
    dirichlet->set_time(t0);
    double           mismatch = 0, scale = 0;
    ConstLocalValues u0(friction_system.initial_displacement);
    for (std::size_t k = 0; k < u0.size(); ++k)
      scale = std::max(scale, std::abs(u0[k]));
    for (std::size_t j = 0; j < dirichlet_local.size(); ++j)
      mismatch = std::max(mismatch,
                          std::abs(dirichlet->value(dirichlet_points[j]) -
                                   u0[dirichlet_local[j]]));
    mismatch = Utilities::MPI::max(mismatch, comm);
    scale    = Utilities::MPI::max(scale, comm);
    if (mismatch > 1e-10 * std::max(1., scale) &&
        Utilities::MPI::this_mpi_process(comm) == 0)
      std::cerr << "stickslip: warning: 'String/Dirichlet data'"
                << source.where("String/Dirichlet data")
                << " differs from 'String/Initial displacement' on the "
                   "Dirichlet boundary at t0 by up to "
                << mismatch
                << "; the boundary takes the Dirichlet value (a jump at "
                   "t0)."
                << std::endl;
  }



  template <int dim>
  void
  StringModel<dim>::set_forcing_and_boundary_values()
  {
    friction_system.forcing_is_zero = forcing_zero;
    friction_system.forcing = [this](const double t, DistributedVector &out) {
      if (forcing_zero)
        out = 0;
      else
        {
          interpolate_nodal(*forcing, "Forcing", t, out);
          out.scale(nodal_weights);
          LocalValues values(out);
          for (const unsigned int k : dirichlet_local)
            values[k] *= 0.;
        }
    };
    if (dirichlet_zero)
      return;
    // Driven boundary: the elastic step couples the interior to u_D(t).
    friction_system.prescribed_mask.reinit(friction_system.locally_owned, comm);
    {
      LocalValues mask(friction_system.prescribed_mask);
      for (const unsigned int k : dirichlet_local)
        mask[k] = 1.;
    }
    if (matrix_free_mass)
      friction_system.unconstrained_mass_action = full_mass_action;
    else
      friction_system.unconstrained_mass =
        full_mass ? full_mass.get() : &friction_system.mass;
    if (matrix_free)
      friction_system.unconstrained_stiffness_action =
        full_stiffness_action ? full_stiffness_action :
                                friction_system.stiffness_action;
    else
      friction_system.unconstrained_stiffness =
        full_stiffness ? full_stiffness.get() : &friction_system.stiffness;
    friction_system.prescribed_values = [this](const double       t,
                                               DistributedVector &out) {
      dirichlet->set_time(t);
      LocalValues values(out);
      for (std::size_t j = 0; j < dirichlet_local.size(); ++j)
        {
          const unsigned int k = dirichlet_local[j];
          values[k]            = dirichlet->value(dirichlet_points[j]);
          note_value("Dirichlet data", t, dirichlet_points[j], values[k]);
        }
    };
  }



  template <int dim>
  void
  StringModel<dim>::interpolate_nodal(const Function<dim> &function,
                                      const std::string   &name,
                                      const double         t,
                                      DistributedVector   &values) const
  {
    auto &f = const_cast<Function<dim> &>(function);
    f.set_time(t);
    LocalValues out(values);
    for (std::size_t k = 0; k < owned_points.size(); ++k)
      {
        out[k] = f.value(owned_points[k]);
        note_value(name, t, owned_points[k], out[k]);
      }
  }



  template <int dim>
  void
  StringModel<dim>::note_value(const std::string &name,
                               const double       t,
                               const Point<dim>  &point,
                               const double       value) const
  {
    if (std::isfinite(value))
      return; // no strings built at every node of every step
    friction_system.non_finite_data.note(
      "String/" + name, data_texts.at(name), t, value, [&]() {
        return describe_point(point, variables);
      });
  }



  template <int dim>
  void
  StringModel<dim>::complete_state(const double t, FrictionState &state) const
  {
    LocalValues x(state.displacement);
    LocalValues v(state.velocity);
    LocalValues l(state.multiplier);
    if (dirichlet_zero)
      {
        // The decoupled Dirichlet DoFs would oscillate on their own.
        for (const unsigned int k : dirichlet_local)
          x[k] = v[k] = l[k] = 0;
        return;
      }
    const double h = 1e-6 * std::max(1., std::abs(t));
    for (std::size_t j = 0; j < dirichlet_local.size(); ++j)
      {
        const unsigned int k     = dirichlet_local[j];
        const Point<dim>  &point = dirichlet_points[j];
        dirichlet->set_time(t);
        x[k] = dirichlet->value(point);
        dirichlet->set_time(t + h);
        const double forward = dirichlet->value(point);
        dirichlet->set_time(t - h);
        v[k] = (forward - dirichlet->value(point)) / (2 * h);
        l[k] = 0;
      }
  }



  template <int dim>
  const FrictionSystem &
  StringModel<dim>::system() const
  {
    return friction_system;
  }



  template <int dim>
  const ReferenceSolution *
  StringModel<dim>::exact_reference() const
  {
    return reference.get();
  }



  template <int dim>
  const DistributedVector *
  StringModel<dim>::error_weights() const
  {
    // Read only with an exact solution, which keeps them.
    return nodal_weights.size() > 0 ? &nodal_weights : nullptr;
  }



  template <int dim>
  std::vector<std::string>
  StringModel<dim>::history_columns() const
  {
    return {"t",
            "kinetic_energy",
            "elastic_energy",
            "dissipated_energy",
            "stick_fraction",
            "iterations"};
  }



  template <int dim>
  std::pair<double, double>
  StringModel<dim>::energies(const double, const FrictionState &state) const
  {
    // The full (unconstrained) operators: the Dirichlet values count. The
    // constrained ones give the same when those values are 0 (complete_state
    // sets them) or, for the lumped M, always (size_operators()).
    const bool driven_boundary =
      static_cast<bool>(friction_system.prescribed_values);
    return friction_system.energies(state.displacement,
                                    state.velocity,
                                    driven_boundary);
  }



  template <int dim>
  std::vector<double>
  StringModel<dim>::history_row(const double         t,
                                const FrictionState &state,
                                const double         dissipated_energy,
                                const unsigned long  iterations) const
  {
    const auto [kinetic, elastic] = energies(t, state);
    unsigned long    n_frictional = 0, n_stuck = 0;
    ConstLocalValues c(friction_system.friction_weights);
    ConstLocalValues stuck(state.stick);
    for (std::size_t k = 0; k < c.size(); ++k)
      if (c[k] > 0)
        {
          ++n_frictional;
          if (stuck[k] > 0)
            ++n_stuck;
        }
    n_frictional = Utilities::MPI::sum(n_frictional, comm);
    n_stuck      = Utilities::MPI::sum(n_stuck, comm);
    return {t,
            kinetic,
            elastic,
            dissipated_energy,
            n_frictional > 0 ? double(n_stuck) / n_frictional : 0.,
            double(iterations)};
  }



  template <int dim>
  bool
  StringModel<dim>::has_field_output() const
  {
    return true;
  }



  template <int dim>
  void
  StringModel<dim>::describe_unknown_locations(CheckpointArchive &archive) const
  {
    // The points may have been released after the set-up: recomputed.
    const std::vector<Point<dim>> recomputed =
      owned_points.empty() ? owned_support_points() : std::vector<Point<dim>>();
    const std::vector<Point<dim>> &points =
      owned_points.empty() ? recomputed : owned_points;
    std::vector<double> coordinates;
    coordinates.reserve(points.size() * dim);
    for (const Point<dim> &point : points)
      for (unsigned int d = 0; d < dim; ++d)
        coordinates.push_back(point[d]);
    archive.set_entry_locations(dim, std::move(coordinates));
  }



  template <int dim>
  std::string
  StringModel<dim>::write_fields(const double         t,
                                 const FrictionState &state,
                                 const unsigned int   index,
                                 const FieldFiles    &files) const
  {
    const IndexSet   &owned = friction_system.locally_owned;
    DistributedVector stick(owned, comm);
    {
      // 1 where the node does not slip: friction held it exactly at rest
      // during the whole step, or it is a Dirichlet node, whose motion is
      // prescribed (doc/at_rest.md); 0 where it slips or has no friction.
      ConstLocalValues c(friction_system.friction_weights);
      ConstLocalValues stuck(state.stick);
      LocalValues      s(stick);
      for (std::size_t k = 0; k < c.size(); ++k)
        s[k] = (c[k] > 0 && stuck[k] > 0) ? 1. : 0.;
      for (const unsigned int k : dirichlet_local)
        s[k] = 1.;
    }
    const auto ghosted = [&](const DistributedVector &v) {
      DistributedVector result(owned, locally_relevant, comm);
      result = v;
      return result;
    };
    const DistributedVector x      = ghosted(state.displacement);
    const DistributedVector v      = ghosted(state.velocity);
    const DistributedVector lambda = ghosted(state.multiplier);
    const DistributedVector s      = ghosted(stick);

    DataOut<dim> data_out;
    data_out.attach_dof_handler(dof_handler);
    data_out.add_data_vector(x, "displacement");
    data_out.add_data_vector(v, "velocity");
    data_out.add_data_vector(lambda, "multiplier");
    data_out.add_data_vector(s, "stick");
    dealii::Vector<float> subdomain(triangulation->n_active_cells());
    for (auto &value : subdomain)
      value = Utilities::MPI::this_mpi_process(comm);
    data_out.add_data_vector(subdomain, "subdomain");
    data_out.build_patches(degree);
    DataOutBase::VtkFlags flags(t, index);
    flags.compression_level = DataOutBase::VtkFlags::best_speed;
    data_out.set_flags(flags);
    return files.write(index, data_out);
  }



  template <int dim>
  std::string
  StringModel<dim>::description() const
  {
    std::ostringstream out;
    out << (dim == 1 ? "string" : "membrane") << " model, dim = " << dim
        << ", FE_Q(" << degree << "), " << (lumped ? "lumped" : "consistent")
        << (matrix_free_mass ? " matrix-free" : "") << " mass, "
        << (matrix_free ? "matrix-free" : "assembled") << " stiffness, "
        << triangulation->n_global_active_cells() << " cells, "
        << dof_handler.n_dofs() << " unknowns, smallest cell diameter "
        << min_cell_diameter << "\n  set-up of the model: " << setup_times;
    return out.str();
  }



  template <int dim>
  types::global_dof_index
  StringModel<dim>::n_dofs() const
  {
    return dof_handler.n_dofs();
  }



  template class StringModel<1>;
  template class StringModel<2>;
} // namespace stickslip
