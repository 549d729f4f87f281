#include <base/local_values.h>
#include <friction/friction_system.h>
#include <linear_algebra/spd_solver.h>

namespace stickslip
{
  FrictionSystem::FrictionSystem(const MPI_Comm comm)
    : comm(comm)
    , has_stiffness(false)
    , diagonal_mass(false)
  {}



  void
  FrictionSystem::finalize()
  {
    diagonal_of_mass.reinit(locally_owned, comm);
    diagonal_mass = extract_diagonal(mass, diagonal_of_mass, comm);
  }



  DistributedVector &
  FrictionSystem::work_vector() const
  {
    // Sized on first use (collective, as every caller): a run without the
    // gamma law and without energy() never holds it (8 B per unknown).
    if (scratch.size() != locally_owned.size())
      scratch.reinit(locally_owned, comm);
    return scratch;
  }



  void
  FrictionSystem::explicit_force(const double             t,
                                 const DistributedVector &w,
                                 DistributedVector &      out) const
  {
    forcing(t, out);
    if (!gamma.is_zero())
      {
        DistributedVector &gamma_w = work_vector();
        gamma.apply(w, gamma_w);
        ConstLocalValues g(gamma_w);
        ConstLocalValues c(friction_weights);
        LocalValues      result(out);
        for (std::size_t k = 0; k < result.size(); ++k)
          result[k] += c[k] * g[k];
      }
    if (extra_force)
      extra_force(t, w, out);
  }



  void
  FrictionSystem::check_initial_data(const double t0) const
  {
    DistributedVector values(locally_owned, comm);
    if (forcing)
      forcing(t0, values);
    if (prescribed_values)
      prescribed_values(t0, values);
    non_finite_data.throw_if_found(comm, true);
  }



  double
  FrictionSystem::energy(const DistributedVector &x,
                         const DistributedVector &v) const
  {
    DistributedVector &product = work_vector();
    mass.vmult(product, v);
    double e = 0.5 * (product * v);
    if (has_stiffness)
      {
        apply_stiffness(product, x);
        e += 0.5 * (product * x);
      }
    return e;
  }



  void
  FrictionSystem::apply_stiffness(DistributedVector &      product,
                                  const DistributedVector &x,
                                  const bool               unconstrained) const
  {
    const StiffnessAction *action =
      unconstrained ? unconstrained_stiffness_action.get() : stiffness_action.get();
    if (action != nullptr)
      action->vmult(product, x);
    else
      (unconstrained ? *unconstrained_stiffness : stiffness).vmult(product, x);
  }



  bool
  FrictionSystem::stiffness_is_assembled() const
  {
    return !stiffness_action;
  }



  void
  FrictionSystem::require_assembled_stiffness(const ParameterSource &source,
                                              const std::string &    parameter,
                                              const std::string &    value,
                                              const std::string &    purpose) const
  {
    if (stiffness_is_assembled())
      return;
    throw_bad_parameter(source,
                        parameter,
                        value,
                        purpose + ", which needs the entries of A; with '" +
                          stiffness_action->chosen_by() +
                          "' A is applied without a matrix. Choose an "
                          "explicit scheme (alpha = 0) or the assembled "
                          "operator");
  }



  void
  FrictionSystem::impose_prescribed(const double             time,
                                    const double             stiffness_factor,
                                    const DistributedVector &operator_diagonal,
                                    DistributedVector &      rhs,
                                    DistributedVector &      prescribed,
                                    DistributedVector &      work) const
  {
    prescribed = 0;
    prescribed_values(time, prescribed);
    unconstrained_mass->vmult(work, prescribed);
    rhs -= work;
    if (stiffness_factor > 0)
      {
        apply_stiffness(work, prescribed, true);
        rhs.add(-stiffness_factor, work);
      }
    ConstLocalValues mask(prescribed_mask);
    ConstLocalValues g(prescribed);
    ConstLocalValues diagonal(operator_diagonal);
    LocalValues      r(rhs);
    for (std::size_t k = 0; k < r.size(); ++k)
      if (mask[k] > 0)
        r[k] = diagonal[k] * g[k];
  }



  bool
  FrictionSystem::mass_is_diagonal() const
  {
    return diagonal_mass;
  }



  const DistributedVector &
  FrictionSystem::mass_diagonal() const
  {
    return diagonal_of_mass;
  }



  types::global_dof_index
  FrictionSystem::size() const
  {
    return locally_owned.size();
  }
} // namespace stickslip
