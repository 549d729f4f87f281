#include <base/local_values.h>
#include <friction/friction_system.h>
#include <linear_algebra/compressed_rows.h>
#include <linear_algebra/dense_tools.h>
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
    if (mass_action)
      {
        // A matrix-free M is a consistent mass, never diagonal.
        diagonal_of_mass = mass_action->diagonal();
        diagonal_mass    = false;
        return;
      }
    if (mass_matrix_pending)
      {
        diagonal_mass = true;
        return;
      }
    diagonal_of_mass.reinit(locally_owned, comm);
    diagonal_mass = extract_diagonal(mass, diagonal_of_mass, comm);
  }



  void
  FrictionSystem::set_diagonal_mass(const DistributedVector &diagonal)
  {
    diagonal_of_mass    = diagonal;
    mass_matrix_pending = true;
  }



  const DistributedMatrix &
  FrictionSystem::mass_matrix() const
  {
    Assert(!mass_action, ExcMessage("M is matrix-free"));
    if (mass_matrix_pending)
      {
        // The diagonal the model gave, as the one-entry-per-row matrix it
        // would have assembled (the same values).
        ConstLocalValues    m(diagonal_of_mass);
        std::vector<double> values(m.size());
        for (std::size_t k = 0; k < values.size(); ++k)
          values[k] = m[k];
        make_matrix(std::make_shared<const CompressedRows>(
                      CompressedRows::diagonal(locally_owned)),
                    std::move(values),
                    locally_owned,
                    comm,
                    mass);
        mass_matrix_pending = false;
      }
    return mass;
  }



  void
  FrictionSystem::reinit_vector(DistributedVector &vector) const
  {
    vector.reinit(locally_owned, comm);
  }



  std::pair<std::size_t, std::size_t>
  FrictionSystem::owned_range() const
  {
    return {0, locally_owned.n_elements()};
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
                                 DistributedVector       &out) const
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
    apply_mass(product, v);
    double e = 0.5 * (product * v);
    if (has_stiffness)
      {
        apply_stiffness(product, x);
        e += 0.5 * (product * x);
      }
    return e;
  }



  std::pair<double, double>
  FrictionSystem::energies(const DistributedVector &x,
                           const DistributedVector &v,
                           const bool               unconstrained) const
  {
    DistributedVector &product = work_vector();
    apply_mass(product, v, unconstrained);
    const double kinetic = 0.5 * (product * v);
    apply_stiffness(product, x, unconstrained);
    return {kinetic, 0.5 * (product * x)};
  }



  void
  FrictionSystem::apply_stiffness(DistributedVector       &product,
                                  const DistributedVector &x,
                                  const bool               unconstrained) const
  {
    const OperatorAction *action = unconstrained ?
                                     unconstrained_stiffness_action.get() :
                                     stiffness_action.get();
    if (action != nullptr)
      action->vmult(product, x);
    else
      (unconstrained ? *unconstrained_stiffness : stiffness).vmult(product, x);
  }



  void
  FrictionSystem::apply_mass(DistributedVector       &product,
                             const DistributedVector &x,
                             const bool               unconstrained) const
  {
    const OperatorAction *action =
      unconstrained ? unconstrained_mass_action.get() : mass_action.get();
    if (action != nullptr)
      action->vmult(product, x);
    else if (mass_matrix_pending &&
             (!unconstrained || unconstrained_mass == &mass))
      {
        // The diagonal not built as a matrix: the product of the matrix
        // it stands for, to the bit (each row's sum starts from +0).
        ConstLocalValues m(diagonal_of_mass);
        ConstLocalValues in(x);
        LocalValues      out(product);
        for (std::size_t k = 0; k < out.size(); ++k)
          out[k] = 0. + m[k] * in[k];
      }
    else
      (unconstrained ? *unconstrained_mass : mass).vmult(product, x);
  }



  void
  FrictionSystem::initialize_mass_solver(SpdSolver &solver) const
  {
    if (mass_is_assembled())
      solver.initialize(mass_matrix());
    else
      solver.initialize(
        [this](DistributedVector &product, const DistributedVector &x) {
          mass_action->vmult(product, x);
        },
        mass_action->diagonal());
  }



  bool
  FrictionSystem::mass_is_assembled() const
  {
    return !mass_action;
  }



  void
  FrictionSystem::require_assembled_mass(const ParameterSource &source,
                                         const std::string     &parameter,
                                         const std::string     &value,
                                         const std::string     &purpose) const
  {
    if (mass_is_assembled())
      {
        mass_matrix();
        return;
      }
    throw_bad_parameter(source,
                        parameter,
                        value,
                        purpose + ", which needs the entries of M; with '" +
                          mass_action->chosen_by() +
                          "' M is applied without a matrix. Use the "
                          "assembled mass for it");
  }



  FullMatrix<double>
  FrictionSystem::replicated_mass() const
  {
    if (mass_matrix_pending)
      {
        // A diagonal M: its entries without building the matrix.
        const dealii::Vector<double> m = replicate(diagonal_of_mass, comm);
        FullMatrix<double>           dense(m.size(), m.size());
        for (unsigned int i = 0; i < m.size(); ++i)
          dense(i, i) = m[i];
        return dense;
      }
    return mass_action ? replicate_action(*mass_action) : replicate(mass, comm);
  }



  FullMatrix<double>
  FrictionSystem::replicated_stiffness() const
  {
    return stiffness_action ? replicate_action(*stiffness_action) :
                              replicate(stiffness, comm);
  }



  FullMatrix<double>
  FrictionSystem::replicate_action(const OperatorAction &action) const
  {
    // Column j is B e_j; the ranks' rows are gathered with the vector's
    // own replicate, so every rank holds the same numbers.
    const auto         n = static_cast<unsigned int>(size());
    FullMatrix<double> dense(n, n);
    DistributedVector  unit(locally_owned, comm), column(locally_owned, comm);
    for (unsigned int j = 0; j < n; ++j)
      {
        unit = 0;
        if (locally_owned.is_element(j))
          unit[j] = 1.;
        unit.compress(VectorOperation::insert);
        action.vmult(column, unit);
        const dealii::Vector<double> values = replicate(column, comm);
        for (unsigned int i = 0; i < n; ++i)
          dense(i, j) = values[i];
      }
    return dense;
  }



  bool
  FrictionSystem::stiffness_is_assembled() const
  {
    return !stiffness_action;
  }



  void
  FrictionSystem::require_assembled_stiffness(const ParameterSource &source,
                                              const std::string     &parameter,
                                              const std::string     &value,
                                              const std::string &purpose) const
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
                                    DistributedVector       &rhs,
                                    DistributedVector       &prescribed,
                                    DistributedVector       &work) const
  {
    prescribed = 0;
    prescribed_values(time, prescribed);
    apply_mass(work, prescribed, true);
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
