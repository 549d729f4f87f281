#ifndef stickslip_friction_friction_system_h
#define stickslip_friction_friction_system_h

#include <deal.II/lac/full_matrix.h>

#include <base/expressions.h>
#include <base/global.h>
#include <friction/gamma_law.h>
#include <linear_algebra/operator_action.h>

#include <functional>
#include <memory>
#include <utility>

namespace stickslip
{
  class SpdSolver;
  class FrictionStepSolver;

  /**
   * The semi-discrete friction system every model reduces to (doc/theory.md
   * §1.1, Glowinski et al. 2006, eq. (4), Glowinski & Kearsley 1995, eqs.
   * (0.1)-(0.3)):
   *
   *   M V' + A X + C (lambda - gamma(V)) = f(t) + g(t, V),  X' = V,
   *   lambda_i in Sgn(v_i) where c_i > 0, lambda_i = 0 where c_i = 0,
   *
   * with M SPD, A SPSD, C = diag(c_i) >= 0, all distributed over the ranks
   * of the communicator by rows. g is an optional model-specific force that
   * the friction step treats explicitly (the gear box of Glowinski et al. 2006,
   * eq. (54)). Models fill the members; finalize() derives what the solvers
   * need.
   */
  class FrictionSystem
  {
  public:
    /**
     * The vector type of the step kernels instantiated for this system
     * (ReplicatedSystem, the other one, has ReplicatedVector).
     */
    using Vector = DistributedVector;

    /** The friction-step solver type of those kernels. */
    using StepSolver = FrictionStepSolver;

    explicit FrictionSystem(const MPI_Comm comm);

    /** Analyse the operators once they are filled (collective). */
    void
    finalize();

    /** out = f(t) + C gamma(w) + g(t, w): the explicit force of Glowinski et
     * al. 2006, eq. (26). */
    void
    explicit_force(const double             t,
                   const DistributedVector &w,
                   DistributedVector       &out) const;

    /** Kinetic plus elastic energy 1/2 V.MV + 1/2 X.AX. */
    double
    energy(const DistributedVector &x, const DistributedVector &v) const;

    /**
     * The kinetic and the elastic energy 1/2 V.MV and 1/2 X.AX, with the
     * unconstrained operators if @p unconstrained (collective; the work
     * vector of the system, no other).
     */
    std::pair<double, double>
    energies(const DistributedVector &x,
             const DistributedVector &v,
             const bool               unconstrained) const;

    /**
     * For a solve with K = M + @p stiffness_factor A (constrained, diagonal
     * @p operator_diagonal on the prescribed rows) whose unknown holds the
     * prescribed values g at @p time: rhs <- rhs - K_u g on the free rows
     * and K_bb g on the prescribed ones (K_u unconstrained), so that the
     * solve returns g there and the free unknowns feel it. @p prescribed
     * receives g, @p scratch is work space.
     */
    void
    impose_prescribed(const double             time,
                      const double             stiffness_factor,
                      const DistributedVector &operator_diagonal,
                      DistributedVector       &rhs,
                      DistributedVector       &prescribed,
                      DistributedVector       &scratch) const;

    bool
    mass_is_diagonal() const;

    /**
     * Evaluate the forcing and the prescribed values at @p t0 and check
     * that they, and every data value the model noted while it was set up
     * (non_finite_data), are finite: an InputError naming the first
     * non-finite one (collective).
     */
    void
    check_initial_data(const double t0) const;

    /** The diagonal of M (owned entries). */
    const DistributedVector &
    mass_diagonal() const;

    /**
     * @p product = A @p x: the matrix `stiffness`, or `stiffness_action`
     * when the model set one (matrix-free). With @p unconstrained, the
     * operator without the constraints of a system with prescribed values
     * (`unconstrained_stiffness` or its action). Collective.
     */
    void
    apply_stiffness(DistributedVector       &product,
                    const DistributedVector &x,
                    const bool               unconstrained = false) const;

    /**
     * @p product = M @p x: the matrix `mass`, or `mass_action` when the
     * model set one (matrix-free consistent mass). With @p unconstrained,
     * the operator without the constraints of a system with prescribed
     * values (`unconstrained_mass` or its action). Collective.
     */
    void
    apply_mass(DistributedVector       &product,
               const DistributedVector &x,
               const bool               unconstrained = false) const;

    /**
     * Set up @p solver for solves with M: with the matrix (factorized,
     * diagonal or AMG, as the solver's parameters say), or for a
     * matrix-free M by conjugate gradients with its diagonal.
     */
    void
    initialize_mass_solver(SpdSolver &solver) const;

    /**
     * M is stored as the matrix `mass`, not only known through its action.
     */
    bool
    mass_is_assembled() const;

    /**
     * Throw an InputError naming @p parameter = @p value when M is only an
     * action: @p purpose needs its entries; otherwise `mass` holds M
     * afterwards (mass_matrix()). Collective.
     */
    void
    require_assembled_mass(const ParameterSource &source,
                           const std::string     &parameter,
                           const std::string     &value,
                           const std::string     &purpose) const;

    /**
     * M and A replicated on every rank as dense matrices (tiny systems'
     * dense paths): the matrices' entries, or an action's columns
     * (one product per unknown). Collective.
     */
    FullMatrix<double>
    replicated_mass() const;
    FullMatrix<double>
    replicated_stiffness() const;

    /**
     * A is stored as the matrix `stiffness` (its entries can be read and
     * added to other matrices), not only known through its action.
     */
    bool
    stiffness_is_assembled() const;

    /**
     * Throw an InputError naming @p parameter = @p value when A is only an
     * action: @p purpose (e.g. "the implicit elastic step solves with
     * M + alpha tau^2 A") needs its entries.
     */
    void
    require_assembled_stiffness(const ParameterSource &source,
                                const std::string     &parameter,
                                const std::string     &value,
                                const std::string     &purpose) const;

    /** Number of unknowns d. */
    types::global_dof_index
    size() const;

    /** A vector of this system's layout (collective). */
    void
    reinit_vector(DistributedVector &vector) const;

    /**
     * The owned entries of a vector, [0, owned size): the entries whose
     * friction work this rank sums (as ReplicatedSystem::owned_range()).
     */
    std::pair<std::size_t, std::size_t>
    owned_range() const;

    /**
     * A diagonal M given by its entries (a lumped mass; before finalize()):
     * the matrix `mass` is then built from them only when something asks
     * for it (mass_matrix(), require_assembled_mass(), the mass solver): the
     * fused explicit Lie step reads the diagonal only and never does.
     */
    void
    set_diagonal_mass(const DistributedVector &diagonal);

    /**
     * M as a matrix: `mass`, built first (collective) if the model gave only
     * its diagonal (set_diagonal_mass()). Not for a matrix-free M.
     */
    const DistributedMatrix &
    mass_matrix() const;

    MPI_Comm comm;
    IndexSet locally_owned;
    /**
     * M; empty when mass_action is set, and for a diagonal M given by
     * set_diagonal_mass() until mass_matrix() or require_assembled_mass()
     * builds it (those are called before it is read).
     */
    mutable DistributedMatrix mass;
    DistributedMatrix         stiffness; ///< empty when stiffness_action is set
    bool                      has_stiffness;

    /**
     * A applied without a matrix (set by a model that offers it, e.g.
     * String/Stiffness operator = matrix-free); then `stiffness` is empty
     * and every product goes through apply_stiffness().
     */
    std::shared_ptr<const OperatorAction> stiffness_action;

    /**
     * M applied without a matrix (String/Mass operator = matrix-free, a
     * consistent mass); then `mass` is empty.
     */
    std::shared_ptr<const OperatorAction> mass_action;

    /**
     * An upper bound of lambda_max(M^{-1} A) the model knows without an
     * eigenvalue iteration (the string's element bound for a consistent
     * M), 0 if none: the stability checks then use it.
     */
    double            frequency_bound = 0;
    DistributedVector friction_weights; ///< c_i of C
    GammaLaw          gamma;

    /** f(t) into the owned entries of the output vector. */
    std::function<void(const double, DistributedVector &)> forcing;

    /**
     * f(t) = 0 at every t (set by a model that knows it): the fused
     * explicit step then skips evaluating f into a vector.
     */
    bool forcing_is_zero = false;

    /** Optional extra explicit force g(t, w) (added), may be empty. */
    std::function<
      void(const double, const DistributedVector &, DistributedVector &)>
      extra_force;

    /**
     * f(t) of every unknown, all size() entries at the pointer, the same on
     * every rank: set by a model whose data are replicated (the finite-dof
     * models), so that the time schemes of tiny systems can work on plain
     * arrays (ReplicatedSystem). Empty otherwise.
     */
    std::function<void(const double, double *)> replicated_forcing;

    /**
     * g(t, w) added to every entry at the second pointer, from all entries
     * of w at the first (the same on every rank): the replicated form of
     * extra_force, required with it for the plain-array schemes.
     */
    std::function<void(const double, const double *, double *)>
      replicated_extra_force;

    DistributedVector initial_displacement;
    DistributedVector initial_velocity;

    /**
     * Optional prescribed (Dirichlet) unknowns with time-dependent values.
     * M, A and C above are constrained (those rows and columns decoupled,
     * c_i = 0); the elastic step then needs the unconstrained operators to
     * couple the interior to the prescribed values, and the values at its
     * sub-step times. Empty (no function) when nothing is prescribed or the
     * prescribed values are zero.
     */
    std::function<void(const double, DistributedVector &)> prescribed_values;
    DistributedVector        prescribed_mask; ///< 1 on prescribed unknowns
    const DistributedMatrix *unconstrained_mass      = nullptr;
    const DistributedMatrix *unconstrained_stiffness = nullptr;
    /** The unconstrained A without a matrix (with stiffness_action). */
    std::shared_ptr<const OperatorAction> unconstrained_stiffness_action;
    /** The unconstrained M without a matrix (with mass_action). */
    std::shared_ptr<const OperatorAction> unconstrained_mass_action;

    /**
     * The non-finite data values the model met, noted where it evaluates
     * its data expressions (the forcing, the prescribed values, the initial
     * data); FrictionEvolution checks it after every step.
     */
    mutable NonFiniteData non_finite_data;

  private:
    /** Columns B e_j of an action, gathered on every rank. */
    FullMatrix<double>
    replicate_action(const OperatorAction &action) const;

    /** The work vector, sized on first use. */
    DistributedVector &
    work_vector() const;

    bool              diagonal_mass;
    DistributedVector diagonal_of_mass;
    /** M is the diagonal diagonal_of_mass and `mass` is not built yet. */
    mutable bool              mass_matrix_pending = false;
    mutable DistributedVector scratch;
  };
} // namespace stickslip

#endif
