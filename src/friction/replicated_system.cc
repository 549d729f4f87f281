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
    : mass_matrix(system.replicated_mass())
    , stiffness_matrix(system.replicated_stiffness())
    , has_stiffness(system.has_stiffness)
    , system(system)
    , serial(Utilities::MPI::n_mpi_processes(system.comm) == 1)
    , mass(mass_matrix)
    , stiffness(stiffness_matrix)
    , diagonal_mass(system.mass_is_diagonal())
    , first_owned(0)
    , end_owned(0)
    , gamma(system.gamma.law())
  {
    const unsigned int d = size();
    if (system.locally_owned.n_elements() > 0)
      {
        first_owned = *system.locally_owned.begin();
        end_owned   = first_owned + system.locally_owned.n_elements();
      }
    diagonal_of_mass.reinit(d);
    for (unsigned int i = 0; i < d; ++i)
      diagonal_of_mass[i] = mass_matrix(i, i);
    gather(system.friction_weights, friction_weights);
    if (gamma != GammaLaw::Type::none)
      {
        Vector values;
        gather(system.gamma.beta_values(), values);
        gamma_beta = values.values();
        gather(system.gamma.epsilon_values(), values);
        gamma_epsilon = values.values();
      }
  }



  unsigned int
  ReplicatedSystem::size() const
  {
    return mass_matrix.m();
  }



  void
  ReplicatedSystem::reinit_vector(Vector &vector) const
  {
    vector.reinit(size());
  }



  void
  ReplicatedSystem::forcing(const double t, Vector &out) const
  {
    system.replicated_forcing(t, out.data());
  }



  void
  ReplicatedSystem::explicit_force(const double  t,
                                   const Vector &w,
                                   Vector       &out) const
  {
    // The operations of FrictionSystem::explicit_force, entry by entry.
    forcing(t, out);
    const unsigned int d = size();
    if (gamma != GammaLaw::Type::none)
      for (unsigned int k = 0; k < d; ++k)
        out[k] += friction_weights[k] *
                  GammaLaw::value(gamma, gamma_beta[k], gamma_epsilon[k], w[k]);
    if (system.extra_force)
      system.replicated_extra_force(t, w.data(), out.data());
  }



  void
  ReplicatedSystem::apply_mass(Vector       &product,
                               const Vector &x,
                               const bool) const
  {
    mass.vmult(product.data(), x.data());
  }



  void
  ReplicatedSystem::apply_stiffness(Vector       &product,
                                    const Vector &x,
                                    const bool) const
  {
    stiffness.vmult(product.data(), x.data());
  }



  bool
  ReplicatedSystem::mass_is_diagonal() const
  {
    return diagonal_mass;
  }



  const ReplicatedSystem::Vector &
  ReplicatedSystem::mass_diagonal() const
  {
    return diagonal_of_mass;
  }



  std::pair<std::size_t, std::size_t>
  ReplicatedSystem::owned_range() const
  {
    return {first_owned, end_owned};
  }



  void
  ReplicatedSystem::gather(const DistributedVector &vector, Vector &all) const
  {
    if (all.size() != vector.size())
      all.reinit(vector.size());
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
  ReplicatedSystem::scatter(const Vector &all, DistributedVector &vector) const
  {
    LocalValues values(vector);
    for (unsigned int i = first_owned; i < end_owned; ++i)
      values[i - first_owned] = all[i];
  }
} // namespace stickslip
