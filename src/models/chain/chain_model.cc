#include <deal.II/base/data_out_base.h>

#include <deal.II/lac/dynamic_sparsity_pattern.h>

#include <base/expressions.h>
#include <base/local_values.h>
#include <models/chain/chain_model.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** The value of Time/Scheme that selects @p scheme, for messages. */
    std::string
    scheme_name(const Parameters::Scheme scheme)
    {
      switch (scheme)
        {
          case Parameters::Scheme::lie:
            return "lie";
          case Parameters::Scheme::strang:
            return "strang";
          case Parameters::Scheme::regularized_arkode:
            return "regularized arkode";
          case Parameters::Scheme::centered:
            return "centered";
          case Parameters::Scheme::implicit_euler:
            break;
        }
      return "implicit euler";
    }
  } // namespace



  ChainModel::ChainModel(const ChainParameters  &parameters,
                         const Parameters::Time &time,
                         const ParameterSource  &source,
                         const MPI_Comm          comm)
    : comm(comm)
    , data(parameters, source, comm)
    , friction_system(comm)
  {
    // Only the dynamical chain is a system M V' + K X + C lambda = F with M
    // SPD; the others exist only in the form (A.7).
    if (data.regime != ChainRegime::dynamical &&
        time.scheme != Parameters::Scheme::implicit_euler)
      throw_bad_parameter(
        source,
        "Time/Scheme",
        scheme_name(time.scheme),
        "the " + data.regime_name() +
          " chain has massless masses (M singular), so "
          "only Time/Scheme = implicit euler (Bastien & Lamarque 2009, eqs. "
          "(5.1)-(5.3)) applies; the splitting and "
          "centered schemes need Chain/Regime = dynamical");

    friction_system.non_finite_data.set_source(source);
    for (auto *expression : {data.forces.get(),
                             data.end_force.get(),
                             data.end_displacement.get(),
                             data.initial_displacement.get(),
                             data.initial_velocity.get()})
      expression->note_non_finite_values_in(&friction_system.non_finite_data);
    assemble();
    set_initial_data(time.initial_time, source);
    friction_system.forcing = [this](const double t, DistributedVector &out) {
      load(t, out);
    };
    friction_system.finalize();
    inclusion = std::make_unique<ChainInclusion>(
      data,
      friction_system.stiffness,
      diagonal,
      upper,
      friction_system.friction_weights,
      [this](const double t, DistributedVector &out) { load(t, out); });
  }



  void
  ChainModel::assemble()
  {
    const IndexSet &owned         = data.owned;
    const auto      n             = data.n_masses;
    friction_system.locally_owned = owned;

    // K (3.4): K_ii = k_{i-1} + k_i, K_{i,i+1} = -k_i; with a force at the
    // free end the last spring is not in K (K_cf, (3.11c)).
    const unsigned int n_owned = owned.n_elements();
    diagonal.resize(n_owned);
    upper.resize(n_owned);
    const types::global_dof_index begin = n_owned > 0 ? *owned.begin() : 0;
    for (unsigned int r = 0; r < n_owned; ++r)
      {
        const bool last = begin + r + 1 == n;
        diagonal[r]     = data.left_stiffness[r] +
                      ((last && data.right_end == ChainRightEnd::force) ?
                         0. :
                         data.right_stiffness[r]);
        upper[r] = last ? 0. : -data.right_stiffness[r];
      }

    DynamicSparsityPattern pattern(n, n, owned), mass_pattern(n, n, owned);
    for (unsigned int r = 0; r < n_owned; ++r)
      {
        const types::global_dof_index i = begin + r;
        pattern.add(i, i);
        mass_pattern.add(i, i);
        if (i > 0)
          pattern.add(i, i - 1);
        if (i + 1 < n)
          pattern.add(i, i + 1);
      }
    friction_system.mass.reinit(owned, owned, mass_pattern, comm);
    friction_system.stiffness.reinit(owned, owned, pattern, comm);
    friction_system.has_stiffness = true;
    friction_system.friction_weights.reinit(owned, comm);
    {
      LocalValues c(friction_system.friction_weights);
      for (unsigned int r = 0; r < n_owned; ++r)
        {
          const types::global_dof_index i = begin + r;
          friction_system.mass.set(i, i, data.masses[r]);
          friction_system.stiffness.set(i, i, diagonal[r]);
          if (i + 1 < n)
            friction_system.stiffness.set(i, i + 1, upper[r]);
          if (i > 0)
            friction_system.stiffness.set(i, i - 1, -data.left_stiffness[r]);
          c[r] = data.thresholds[r];
        }
    }
    friction_system.mass.compress(VectorOperation::insert);
    friction_system.stiffness.compress(VectorOperation::insert);
    friction_system.friction_weights.compress(VectorOperation::insert);
    scratch.reinit(owned, comm);
  }



  void
  ChainModel::load(const double t, DistributedVector &out) const
  {
    const IndexSet &owned = data.owned;
    LocalValues     f(out);
    if (f.size() == 0)
      return;
    const types::global_dof_index begin  = *owned.begin();
    const IndexTimeExpression    &forces = *data.forces;
    if (forces.is_uniform())
      {
        const double value = forces.value(0, t);
        for (std::size_t r = 0; r < f.size(); ++r)
          f[r] = value;
      }
    else
      for (std::size_t r = 0; r < f.size(); ++r)
        f[r] = forces.value(begin + r + 1, t);
    // The right end: (3.11b)/(3.57) -F_{n+1} or (3.51) + k_n x on mass n.
    if (begin + f.size() == data.n_masses)
      {
        const double n = data.n_masses;
        if (data.right_end == ChainRightEnd::force)
          f[f.size() - 1] -= data.end_force->value(n + 1, t);
        else if (data.right_end == ChainRightEnd::displacement)
          f[f.size() - 1] +=
            data.last_stiffness * data.end_displacement->value(n + 1, t);
      }
  }



  void
  ChainModel::set_initial_data(const double t0, const ParameterSource &source)
  {
    const IndexSet &owned = data.owned;
    friction_system.initial_displacement.reinit(owned, comm);
    friction_system.initial_velocity.reinit(owned, comm);
    {
      LocalValues                   x(friction_system.initial_displacement);
      LocalValues                   v(friction_system.initial_velocity);
      const types::global_dof_index begin = x.size() > 0 ? *owned.begin() : 0;
      for (std::size_t r = 0; r < x.size(); ++r)
        {
          x[r] = data.initial_displacement->value(begin + r + 1, t0);
          v[r] = data.masses[r] > 0 ?
                   data.initial_velocity->value(begin + r + 1, t0) :
                   0.;
        }
    }

    // Massless rows: g(t0) = (K V0 - F(t0))_i must lie in [-alpha_i,
    // alpha_i] (X0 in D(dphi), Proposition A.1).
    DistributedVector force(owned, comm);
    load(t0, force);
    friction_system.non_finite_data.throw_if_found(comm, true);
    friction_system.stiffness.vmult(scratch,
                                    friction_system.initial_displacement);
    scratch -= force;
    long   first_bad = std::numeric_limits<long>::max();
    double bad_g = 0, bad_alpha = 0;
    {
      ConstLocalValues g(scratch);
      for (std::size_t r = 0; r < g.size(); ++r)
        if (!(data.masses[r] > 0) &&
            std::abs(g[r]) > data.thresholds[r] * (1 + 1e-12) + 1e-14)
          {
            first_bad = *owned.begin() + r + 1;
            bad_g     = g[r];
            bad_alpha = data.thresholds[r];
            break;
          }
    }
    const long i = Utilities::MPI::min(first_bad, comm);
    if (i != std::numeric_limits<long>::max())
      {
        const bool mine = first_bad == i;
        bad_g           = Utilities::MPI::sum(mine ? bad_g : 0., comm);
        bad_alpha       = Utilities::MPI::sum(mine ? bad_alpha : 0., comm);
        throw_bad_parameter(
          source,
          "Chain/Initial displacements",
          "g_" + std::to_string(i) + "(t0) = " + format_number(bad_g),
          "the initial friction force g = K V0 - F(t0) of "
          "a massless mass must lie in [-alpha_i, "
          "alpha_i] = [-" +
            format_number(bad_alpha) + ", " + format_number(bad_alpha) +
            "] (initial data in D(dphi), Bastien & Lamarque 2009, "
            "Proposition A.1); change the initial "
            "displacements or the loads at t0");
      }
  }



  const FrictionSystem &
  ChainModel::system() const
  {
    return friction_system;
  }



  const ReferenceSolution *
  ChainModel::exact_reference() const
  {
    return nullptr;
  }



  std::vector<double>
  ChainModel::gather(const DistributedVector                    &vector,
                     const std::vector<types::global_dof_index> &rows) const
  {
    std::vector<double> values(rows.size(), 0.);
    ConstLocalValues    local(vector);
    for (unsigned int j = 0; j < rows.size(); ++j)
      if (data.owned.is_element(rows[j]))
        values[j] = local[data.owned.index_within_set(rows[j])];
    std::vector<double> sums(rows.size());
    MPI_Allreduce(
      values.data(), sums.data(), values.size(), MPI_DOUBLE, MPI_SUM, comm);
    return sums;
  }



  std::vector<std::string>
  ChainModel::history_columns() const
  {
    std::vector<std::string> columns = {"t"};
    for (const std::string name : {"x", "v", "lambda", "g"})
      for (const auto i : data.history_masses)
        columns.push_back(name + std::to_string(i));
    for (const std::string name : {"reaction_left",
                                   "reaction_right",
                                   "end_displacement",
                                   "energy",
                                   "dissipated_energy",
                                   "iterations"})
      columns.push_back(name);
    return columns;
  }



  std::pair<double, double>
  ChainModel::energies(const double t, const FrictionState &state) const
  {
    // Kinetic energy of the masses; elastic energy of every spring,
    // 1/2 sum k_i u_i^2 = 1/2 V.KV + the terms of the last spring K leaves
    // out.
    friction_system.stiffness.vmult(scratch, state.displacement);
    double local_kinetic = 0, local_elastic = 0;
    {
      ConstLocalValues kv(scratch);
      ConstLocalValues xv(state.displacement);
      ConstLocalValues vv(state.velocity);
      for (std::size_t r = 0; r < kv.size(); ++r)
        {
          local_elastic += 0.5 * xv[r] * kv[r];
          local_kinetic += 0.5 * data.masses[r] * vv[r] * vv[r];
        }
    }
    const double kinetic = Utilities::MPI::sum(local_kinetic, comm);
    double       elastic = Utilities::MPI::sum(local_elastic, comm);
    const auto   n       = data.n_masses;
    const double k_n     = data.last_stiffness;
    if (data.right_end == ChainRightEnd::displacement)
      {
        const double end_x = data.end_displacement->value(n + 1, t);
        const double last  = gather(state.displacement, {n - 1})[0];
        elastic += 0.5 * k_n * (end_x * end_x - 2 * last * end_x);
      }
    else if (data.right_end == ChainRightEnd::force)
      {
        const double right = data.end_force->value(n + 1, t);
        elastic += 0.5 * right * right / k_n;
      }
    return {kinetic, elastic};
  }



  std::vector<double>
  ChainModel::history_row(const double         t,
                          const FrictionState &state,
                          const double         dissipated_energy,
                          const unsigned long  iterations) const
  {
    const auto                           n = data.n_masses;
    std::vector<types::global_dof_index> rows;
    for (const auto i : data.history_masses)
      rows.push_back(i - 1);
    const std::vector<double> x      = gather(state.displacement, rows);
    const std::vector<double> v      = gather(state.velocity, rows);
    const std::vector<double> lambda = gather(state.multiplier, rows);
    const std::vector<double> alpha =
      gather(friction_system.friction_weights, rows);
    const std::vector<double> ends = gather(state.displacement, {0, n - 1});

    std::vector<double> row = {t};
    row.insert(row.end(), x.begin(), x.end());
    row.insert(row.end(), v.begin(), v.end());
    row.insert(row.end(), lambda.begin(), lambda.end());
    for (unsigned int j = 0; j < lambda.size(); ++j)
      row.push_back(-alpha[j] * lambda[j]);

    // Reactions (3.7), (3.13), (3.50), (3.55), (3.64).
    const double k_0 = data.first_stiffness, k_n = data.last_stiffness;
    double       end_x = 0, right = 0;
    switch (data.right_end)
      {
        case ChainRightEnd::clamped:
          end_x = 0;
          right = k_n * ends[1];
          break;
        case ChainRightEnd::displacement:
          end_x = data.end_displacement->value(n + 1, t);
          right = k_n * (ends[1] - end_x);
          break;
        case ChainRightEnd::force:
          right = data.end_force->value(n + 1, t);
          end_x = ends[1] - right / k_n;
          break;
      }
    row.push_back(-k_0 * ends[0]);
    row.push_back(right);
    row.push_back(end_x);

    const auto [kinetic, elastic] = energies(t, state);
    row.push_back(kinetic + elastic);
    row.push_back(dissipated_energy);
    row.push_back(static_cast<double>(iterations));
    return row;
  }



  bool
  ChainModel::has_field_output() const
  {
    return true;
  }



  bool
  ChainModel::numbering_independent_of_partition() const
  {
    return true;
  }



  const InclusionForm *
  ChainModel::inclusion_form() const
  {
    return inclusion.get();
  }



  std::vector<double>
  ChainModel::point_values(const FrictionState &state,
                           const std::size_t    r) const
  {
    // The order of the fields of write_fields() and line_patch().
    ConstLocalValues x(state.displacement), v(state.velocity),
      lambda(state.multiplier), stick(state.stick),
      alpha(friction_system.friction_weights);
    return {x[r],
            v[r],
            -alpha[r] * lambda[r],
            lambda[r],
            stick[r],
            double(Utilities::MPI::this_mpi_process(comm))};
  }



  std::string
  ChainModel::write_fields(const double         t,
                           const FrictionState &state,
                           const unsigned int   index,
                           const FieldFiles    &files) const
  {
    // One straight-line patch per rank, points at the mass positions
    // x = i, joined to the first mass of the next rank so that the beam is
    // one connected line in ParaView.
    const std::vector<std::string> names    = {"displacement",
                                               "velocity",
                                               "friction_force",
                                               "multiplier",
                                               "stick",
                                               "subdomain"};
    const unsigned int             n_fields = names.size();
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const std::size_t  n_owned = state.displacement.locally_owned_size();

    // First owned point of every rank (begin index, then the fields).
    std::vector<double> first(n_fields + 1, -1.);
    if (n_owned > 0)
      {
        first[0]              = *data.owned.begin();
        const auto own_values = point_values(state, 0);
        std::copy(own_values.begin(), own_values.end(), first.begin() + 1);
      }
    std::vector<double> all_first((n_fields + 1) * n_ranks);
    MPI_Allgather(first.data(),
                  n_fields + 1,
                  MPI_DOUBLE,
                  all_first.data(),
                  n_fields + 1,
                  MPI_DOUBLE,
                  comm);
    unsigned int next = n_ranks;
    for (unsigned int q = rank + 1; q < n_ranks && next == n_ranks; ++q)
      if (all_first[q * (n_fields + 1)] >= 0)
        next = q;
    const std::vector<double> next_first =
      next < n_ranks ?
        std::vector<double>(all_first.begin() + next * (n_fields + 1) + 1,
                            all_first.begin() + (next + 1) * (n_fields + 1)) :
        std::vector<double>();

    DataOutBase::VtkFlags flags(t, index);
    flags.compression_level = DataOutBase::VtkFlags::best_speed;
    const std::vector<
      std::tuple<unsigned int,
                 unsigned int,
                 std::string,
                 DataComponentInterpretation::DataComponentInterpretation>>
      no_vectors;
    return files.write(
      index,
      FieldFiles::main_series,
      n_owned > 0,
      [&](std::ostream &out) {
        DataOutBase::write_vtu(
          std::vector<DataOutBase::Patch<1, 1>>{line_patch(state, next_first)},
          names,
          no_vectors,
          flags,
          out);
      },
      [&](std::ostream &out, const std::vector<std::string> &pieces) {
        DataOutBase::write_pvtu_record(out, pieces, names, no_vectors, flags);
      });
  }



  DataOutBase::Patch<1, 1>
  ChainModel::line_patch(const FrictionState       &state,
                         const std::vector<double> &next_first) const
  {
    // The owned masses, then the next non-empty rank's first mass (a single
    // mass alone is drawn as a short segment); written straight into the
    // patch (10^6 points: no intermediate copies).
    const std::size_t  n_owned  = state.displacement.locally_owned_size();
    const unsigned int n_fields = 6;
    const bool         joined   = !next_first.empty();
    const std::size_t  n_points = n_owned + ((joined || n_owned == 1) ? 1 : 0);
    DataOutBase::Patch<1, 1> patch;
    patch.data.reinit(n_fields, n_points);
    {
      ConstLocalValues x(state.displacement), v(state.velocity),
        lambda(state.multiplier), stick(state.stick),
        alpha(friction_system.friction_weights);
      const double rank = Utilities::MPI::this_mpi_process(comm);
      for (std::size_t r = 0; r < n_owned; ++r)
        {
          patch.data(0, r) = x[r];
          patch.data(1, r) = v[r];
          patch.data(2, r) = -alpha[r] * lambda[r];
          patch.data(3, r) = lambda[r];
          patch.data(4, r) = stick[r];
          patch.data(5, r) = rank;
        }
    }
    double last_position = *data.owned.begin() + n_owned;
    if (joined)
      {
        for (unsigned int c = 0; c < n_fields; ++c)
          patch.data(c, n_owned) = next_first[c];
        patch.data(n_fields - 1, n_owned) =
          Utilities::MPI::this_mpi_process(comm);
        last_position += 1;
      }
    else if (n_owned == 1)
      {
        for (unsigned int c = 0; c < n_fields; ++c)
          patch.data(c, 1) = patch.data(c, 0);
        last_position += 0.5;
      }
    patch.vertices[0]    = Point<1>(double(*data.owned.begin() + 1));
    patch.vertices[1]    = Point<1>(last_position);
    patch.n_subdivisions = n_points - 1;
    patch.reference_cell = ReferenceCells::get_hypercube<1>();
    return patch;
  }



  std::string
  ChainModel::description() const
  {
    std::ostringstream out;
    out << "chain model (Bastien & Lamarque 2009), " << data.regime_name()
        << ", " << data.right_end_name() << ", n = " << data.n_masses
        << " masses on " << Utilities::MPI::n_mpi_processes(comm) << " rank(s)";
    return out.str();
  }
} // namespace stickslip
