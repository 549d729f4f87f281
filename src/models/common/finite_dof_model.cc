#include <deal.II/lac/vector.h>

#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <models/common/finite_dof_model.h>
#include <models/common/system_builder.h>

#include <limits>

namespace stickslip
{
  FiniteDofModel::FiniteDofModel(const MPI_Comm comm)
    : friction_system(comm)
  {}



  const FrictionSystem &
  FiniteDofModel::system() const
  {
    return friction_system;
  }



  const ReferenceSolution *
  FiniteDofModel::exact_reference() const
  {
    return reference.get();
  }



  void
  FiniteDofModel::set_up_system(const SystemData      &data,
                                const std::string     &forcing_text,
                                const std::string     &forcing_path,
                                const ParameterSource &source)
  {
    const unsigned int d = data.mass.m();
    forcing =
      std::make_unique<TimeFunction>(forcing_text, d, forcing_path, source);
    build_small_system(data.mass,
                       data.stiffness,
                       data.friction_weights,
                       friction_system);
    set_owned_values(data.initial_displacement,
                     friction_system.initial_displacement);
    set_owned_values(data.initial_velocity, friction_system.initial_velocity);
    DistributedVector beta(friction_system.locally_owned, friction_system.comm);
    DistributedVector epsilon(friction_system.locally_owned,
                              friction_system.comm);
    set_owned_values(data.gamma_beta, beta);
    set_owned_values(data.gamma_epsilon, epsilon);
    friction_system.gamma.reinit(data.gamma, beta, epsilon);

    const TimeFunction *f     = forcing.get();
    const IndexSet      owned = friction_system.locally_owned;
    NonFiniteData      *check = &friction_system.non_finite_data;
    check->set_source(source);
    const auto note =
      [check, forcing_text, forcing_path](const double       t,
                                          const double       value,
                                          const unsigned int i) {
        check->note(forcing_path, forcing_text, t, value, [i]() {
          return "component " + std::to_string(i + 1);
        });
      };
    friction_system.forcing = [f, owned, note](const double       t,
                                               DistributedVector &out) {
      const std::vector<double> &all = f->values(t);
      LocalValues                values(out);
      std::size_t                k = 0;
      for (const auto i : owned)
        {
          values[k] = all[i];
          note(t, values[k], i);
          ++k;
        }
    };
    // The same values for every unknown, for the plain-array steps of tiny
    // systems (ReplicatedSystem).
    friction_system.replicated_forcing = [f, note](const double t,
                                                   double      *out) {
      const std::vector<double> &all = f->values(t);
      for (unsigned int i = 0; i < all.size(); ++i)
        {
          out[i] = all[i];
          note(t, out[i], i);
        }
    };
  }



  void
  FiniteDofModel::set_control_force(const std::vector<double> &force)
  {
    if (!uncontrolled_forcing)
      {
        uncontrolled_forcing            = friction_system.forcing;
        uncontrolled_replicated_forcing = friction_system.replicated_forcing;
        control_force.reinit(friction_system.locally_owned,
                             friction_system.comm);
      }
    set_owned_values(force, control_force);
    replicated_control_force = force;
    friction_system.forcing  = [this](const double t, DistributedVector &out) {
      uncontrolled_forcing(t, out);
      out += control_force;
    };
    friction_system.replicated_forcing = [this](const double t, double *out) {
      uncontrolled_replicated_forcing(t, out);
      for (unsigned int i = 0; i < replicated_control_force.size(); ++i)
        out[i] = out[i] + replicated_control_force[i];
    };
  }



  void
  FiniteDofModel::set_exact_solution(std::unique_ptr<ExactSolution> solution)
  {
    exact = std::move(solution);
    if (exact)
      reference =
        std::make_unique<ExactReference>(*exact, friction_system.locally_owned);
  }



  std::vector<std::string>
  FiniteDofModel::history_columns() const
  {
    std::vector<std::string> columns = {"t"};
    const unsigned int       d       = friction_system.size();
    for (const std::string name : {"x", "v", "lambda"})
      for (unsigned int i = 1; i <= d; ++i)
        columns.push_back(name + std::to_string(i));
    columns.push_back("energy");
    columns.push_back("iterations");
    return columns;
  }



  std::vector<double>
  FiniteDofModel::history_row(const double         t,
                              const FrictionState &state,
                              const double,
                              const unsigned long iterations) const
  {
    const MPI_Comm               comm   = friction_system.comm;
    const dealii::Vector<double> x      = replicate(state.displacement, comm);
    const dealii::Vector<double> v      = replicate(state.velocity, comm);
    const dealii::Vector<double> lambda = replicate(state.multiplier, comm);
    std::vector<double>          row    = {t};
    row.insert(row.end(), x.begin(), x.end());
    row.insert(row.end(), v.begin(), v.end());
    row.insert(row.end(), lambda.begin(), lambda.end());
    row.push_back(friction_system.energy(state.displacement, state.velocity));
    row.push_back(static_cast<double>(iterations));
    return row;
  }


  bool
  FiniteDofModel::numbering_independent_of_partition() const
  {
    return true;
  }



  std::pair<double, double>
  FiniteDofModel::energies(const double, const FrictionState &state) const
  {
    DistributedVector &product = energy_product;
    if (product.size() != friction_system.size())
      product.reinit(friction_system.locally_owned, friction_system.comm);
    friction_system.apply_mass(product, state.velocity);
    const double kinetic = 0.5 * (product * state.velocity);
    double       elastic = 0;
    if (friction_system.has_stiffness)
      {
        friction_system.apply_stiffness(product, state.displacement);
        elastic = 0.5 * (product * state.displacement);
      }
    return {kinetic, elastic};
  }
} // namespace stickslip
