#include <base/local_values.h>
#include <friction/replicated_system.h>

namespace stickslip
{
  bool
  ReplicatedSystem::applies(const FrictionSystem &system)
  {
    return system.size() <= size_limit && system.mass_is_assembled() &&
           system.stiffness_is_assembled() && !system.prescribed_values &&
           static_cast<bool>(system.replicated_forcing) &&
           (!system.extra_force || system.replicated_extra_force) &&
           system.locally_owned.is_contiguous();
  }



  ReplicatedSystem::ReplicatedSystem(const FrictionSystem &system)
    : first_owned(0)
    , end_owned(0)
    , mass_matrix(system.replicated_mass())
    , stiffness_matrix(system.replicated_stiffness())
    , mass(mass_matrix)
    , stiffness(stiffness_matrix)
    , diagonal_mass(system.mass_is_diagonal())
    , has_stiffness(system.has_stiffness)
    , system(system)
    , serial(Utilities::MPI::n_mpi_processes(system.comm) == 1)
    , gamma(system.gamma.law())
  {
    const unsigned int d = size();
    if (system.locally_owned.n_elements() > 0)
      {
        first_owned = *system.locally_owned.begin();
        end_owned   = first_owned + system.locally_owned.n_elements();
      }
    mass_diagonal.resize(d);
    for (unsigned int i = 0; i < d; ++i)
      mass_diagonal[i] = mass_matrix(i, i);
    weights.resize(d);
    gather(system.friction_weights, weights.data());
    if (gamma != GammaLaw::Type::none)
      {
        for (auto *values : {&gamma_beta, &gamma_epsilon})
          values->resize(d);
        gather(system.gamma.beta_values(), gamma_beta.data());
        gather(system.gamma.epsilon_values(), gamma_epsilon.data());
      }
  }



  unsigned int
  ReplicatedSystem::size() const
  {
    return mass_matrix.m();
  }



  void
  ReplicatedSystem::explicit_force(const double  t,
                                   const double *w,
                                   double       *force) const
  {
    // The operations of FrictionSystem::explicit_force, entry by entry.
    system.replicated_forcing(t, force);
    const unsigned int d = size();
    if (gamma != GammaLaw::Type::none)
      for (unsigned int k = 0; k < d; ++k)
        force[k] +=
          weights[k] *
          GammaLaw::value(gamma, gamma_beta[k], gamma_epsilon[k], w[k]);
    if (system.extra_force)
      system.replicated_extra_force(t, w, force);
  }



  void
  ReplicatedSystem::gather(const DistributedVector &vector, double *all) const
  {
    if (serial)
      {
        ConstLocalValues values(vector);
        for (std::size_t k = 0; k < values.size(); ++k)
          all[k] = values[k];
        return;
      }
    replicate(vector, system.comm, replicated);
    for (unsigned int k = 0; k < replicated.size(); ++k)
      all[k] = replicated[k];
  }



  void
  ReplicatedSystem::scatter(const double *all, DistributedVector &vector) const
  {
    LocalValues values(vector);
    for (unsigned int i = first_owned; i < end_owned; ++i)
      values[i - first_owned] = all[i];
  }
} // namespace stickslip
