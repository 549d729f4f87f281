#ifndef stickslip_friction_replicated_system_h
#define stickslip_friction_replicated_system_h

#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <base/global.h>
#include <friction/friction_system.h>
#include <linear_algebra/dense_tools.h>

#include <vector>

namespace stickslip
{
  /**
   * A FrictionSystem of a few unknowns (a finite-dof model) copied to every
   * rank as plain arrays, for the time schemes of tiny systems
   * (ReplicatedSplittingStep, ReplicatedCenteredStep): M and A by their
   * non-zero entries, C, the parameters of gamma, f(t) and g(t, w) of every
   * unknown. Every rank then does the whole step with the same operations in
   * the same order, so the results do not depend on the number of ranks; the
   * distributed state is read once at the start of a step and written once at
   * its end. At d <= 100 the PETSc vector and matrix wrappers (an array
   * access, a state check, a log event per operation) cost more than the
   * arithmetic: the p5b step (d = 3) made about 150 of them.
   */
  class ReplicatedSystem
  {
  public:
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

    /**
     * @p force = f(t) + C gamma(w) + g(t, w) for every unknown, the explicit
     * force of Glowinski et al. 2006, eq. (26)
     * (FrictionSystem::explicit_force()).
     */
    void
    explicit_force(const double t, const double *w, double *force) const;

    /**
     * Every entry of @p vector into @p all (size() entries; a message on
     * several ranks, a copy on one).
     */
    void
    gather(const DistributedVector &vector, double *all) const;

    /** The owned entries of @p vector from @p all. */
    void
    scatter(const double *all, DistributedVector &vector) const;

    /** The first owned row and one past the last (the rows are contiguous). */
    unsigned int first_owned, end_owned;

    /** M and A, dense and by their non-zero entries. */
    FullMatrix<double>     mass_matrix, stiffness_matrix;
    ReplicatedSparseMatrix mass, stiffness;
    bool                   diagonal_mass;
    bool                   has_stiffness;
    std::vector<double>    mass_diagonal;
    std::vector<double>    weights; ///< c_i of C

  private:
    const FrictionSystem &system;
    const bool            serial;
    GammaLaw::Type        gamma;
    std::vector<double>   gamma_beta, gamma_epsilon;
    /** The buffer of gather() on several ranks. */
    mutable dealii::Vector<double> replicated;
  };
} // namespace stickslip

#endif
