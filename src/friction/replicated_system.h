#ifndef stickslip_friction_replicated_system_h
#define stickslip_friction_replicated_system_h

#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <base/global.h>
#include <friction/friction_system.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/replicated_vector.h>

#include <functional>
#include <vector>

namespace stickslip
{
  class ReplicatedFrictionSolver;

  /**
   * A FrictionSystem of a few unknowns (a finite-dof model) copied to every
   * rank, with FrictionSystem's operations on ReplicatedVectors: the second
   * instantiation of the step kernels (FrictionSubsteps, ElasticSubsteps,
   * CenteredSteps), for tiny systems. M and A are held by their non-zero
   * entries, C, the parameters of gamma, f(t) and g(t, w) for every
   * unknown. Every rank then does the whole step with the same operations
   * in the same order, so the results do not depend on the number of
   * ranks; the distributed state is read once at the start of a step and
   * written once at its end. At d <= 100 the PETSc vector and matrix
   * wrappers (an array access, a state check, a log event per operation)
   * cost more than the arithmetic (BENCHMARKS.md, "Small systems" and
   * "Measurements behind design choices in the code").
   */
  class ReplicatedSystem
  {
  public:
    /** The vector type of the kernels instantiated for this system. */
    using Vector = ReplicatedVector;

    /** The friction-step solver type of those kernels. */
    using StepSolver = ReplicatedFrictionSolver;

    /**
     * The largest system replicated: the limit of the dense paths of
     * SpdSolver and SemismoothNewtonSolver.
     */
    static constexpr unsigned int size_limit = 128;

    /**
     * Whether @p system can be replicated: at most size_limit unknowns, M
     * and A stored as matrices, no prescribed values, the forcing (and the
     * extra force, if any) given for every unknown by the model
     * (FrictionSystem::replicated_forcing), contiguous owned rows.
     */
    static bool
    applies(const FrictionSystem &system);

    /** Copy @p system (collective). */
    explicit ReplicatedSystem(const FrictionSystem &system);

    /** Number of unknowns d. */
    unsigned int
    size() const;

    /** A vector of size() entries. */
    void
    reinit_vector(Vector &vector) const;

    /**
     * @p out = f(t) + C gamma(w) + g(t, w) for every unknown, the explicit
     * force of Glowinski et al. 2006, eq. (26)
     * (FrictionSystem::explicit_force()).
     */
    void
    explicit_force(const double t, const Vector &w, Vector &out) const;

    /** f(t) of every unknown (FrictionSystem::forcing). */
    void
    forcing(const double t, Vector &out) const;

    /**
     * @p product = M @p x, row by row from zero as PETSc's AIJ product
     * (the last argument is FrictionSystem's: nothing is prescribed here).
     */
    void
    apply_mass(Vector &product, const Vector &x, const bool = false) const;

    /** @p product = A @p x, as apply_mass(). */
    void
    apply_stiffness(Vector &product, const Vector &x, const bool = false) const;

    bool
    mass_is_diagonal() const;

    /** The diagonal of M. */
    const Vector &
    mass_diagonal() const;

    /**
     * The entries whose friction work this rank sums, [first, end): its own
     * rows, so that the sum over the ranks counts each once.
     */
    std::pair<std::size_t, std::size_t>
    owned_range() const;

    /** Every entry of @p vector into @p all (a message on several ranks). */
    void
    gather(const DistributedVector &vector, Vector &all) const;

    /** The owned entries of @p vector from @p all. */
    void
    scatter(const Vector &all, DistributedVector &vector) const;

    /** M and A, dense (K = M + alpha tau^2 A is summed from them). */
    FullMatrix<double> mass_matrix, stiffness_matrix;
    bool               has_stiffness;
    Vector             friction_weights; ///< c_i of C
    /** Never set: nothing is prescribed (FrictionSystem's member). */
    std::function<void(const double, Vector &)> prescribed_values;

  private:
    const FrictionSystem  &system;
    const bool             serial;
    ReplicatedSparseMatrix mass, stiffness;
    bool                   diagonal_mass;
    Vector                 diagonal_of_mass;
    /** The first owned row and one past the last (the rows are contiguous). */
    unsigned int        first_owned, end_owned;
    GammaLaw::Type      gamma;
    std::vector<double> gamma_beta, gamma_epsilon;
    /** The buffer of gather() on several ranks. */
    mutable dealii::Vector<double> replicated;
  };
} // namespace stickslip

#endif
