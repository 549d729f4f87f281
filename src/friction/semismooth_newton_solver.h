#ifndef stickslip_friction_semismooth_newton_solver_h
#define stickslip_friction_semismooth_newton_solver_h

#include <deal.II/lac/full_matrix.h>

#include <friction/friction_step_solver.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/masked_preconditioner.h>

#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * A semismooth Newton (primal-dual active set) method for
   *
   *   A W + T lambda = b,   lambda_i in Sgn(w_i) (t_i > 0),
   *   lambda_i = 0 (t_i = 0),   w_i = 0 on fixed rows,
   *
   * with A SPD and thresholds T = tau diag(c_i), c_i >= 0: W = argmin 1/2
   * AV.V + sum t_i |v_i| - b.V over the rows that are not fixed. Each
   * component is stuck (w_i = 0, |lambda_i| <= 1) or slipping (lambda_i =
   * +-1). Given the sets, W solves A W = b - T lambda on the slipping
   * components with w = 0 on the stuck ones, and lambda on the stuck ones
   * follows from the residual. The sets are then updated from the
   * complementarity function lambda = P_Lambda(lambda + rho_i c_i w_i),
   * rho_i = a_ii/(tau c_i^2) (so that for a diagonal A one iteration
   * reproduces the closed form), until they stop changing on every rank.
   * One linear solve with the masked A per iteration, by conjugate gradients
   * with a preconditioner of the caller's choice: A^{-1} and C A^{-1} C are
   * never formed, so it scales with a consistent mass. Warm-started from the
   * sets of the previous multiplier.
   *
   * The default configuration is the W form of the friction step of seed
   * 000 (38), beyond the papers: A = M, c = C, tau the sub-step, no fixed
   * rows, and masked solves by division for a diagonal M, by a dense
   * Cholesky factorization of the replicated M for tiny systems and by
   * Jacobi-preconditioned CG otherwise. With CG it is an inexact Newton
   * method by default (Friction/Newton step CG tolerance = forcing): the CG
   * tolerance follows the KKT residual of (38) (see kkt_residual()) and the
   * final KKT residual is checked against Friction/Tolerance. The general configuration takes the
   * operator, the preconditioner, the fixed rows and the weights; the chain
   * solves its static increment with it (A = K, thresholds alpha_i, the
   * massive rows fixed, an exact tridiagonal preconditioner per rank).
   */
  class SemismoothNewtonSolver : public FrictionStepSolver
  {
  public:
    /** y = A x on the owned rows (collective). */
    using Product =
      std::function<void(DistributedVector &, const DistributedVector &)>;

    /** The plain values of a general configuration. */
    struct AdditionalData
    {
      /** No KKT target (kkt_tolerance = 0); the rest is left to the caller. */
      AdditionalData();

      /** Active-set iterations before giving up. */
      unsigned int max_iterations;

      /**
       * CG stops at this tolerance times the norm of the right-hand side;
       * with a KKT target, the tightest CG tolerance it asks for.
       */
      double linear_tolerance;

      /**
       * The KKT residual of (38) in multiplier units (see kkt_residual())
       * to reach; > 0 makes the CG tolerance an inexact-Newton forcing term
       * that follows the KKT residual, with the final residual checked
       * against this target. 0: every CG solve to linear_tolerance.
       */
      double kkt_tolerance;

      /**
       * Start each CG solve from zero rather than from the previous iterate
       * restricted to the new set.
       */
      bool zero_initial_guess;

      /** Who failed, for the iteration-limit message ("the ... solver"). */
      std::string description;

      /** The last sentence of the iteration-limit message: what to do. */
      std::string advice;
    };

    /**
     * The default configuration: the friction step of @p system with A = M
     * and c = C. The limits come from Friction/Maximum iterations and
     * Linear solver/Tolerance.
     */
    SemismoothNewtonSolver(const FrictionSystem           &system,
                           const Parameters::Friction     &parameters,
                           const Parameters::LinearSolver &linear_solver);

    /**
     * A general configuration; the references must outlive the solver.
     *
     * @param[in] product y = A x for the SPD operator A, distributed by
     *   rows (a matrix's vmult or a matrix-free action).
     * @param[in] diagonal The owned entries of the diagonal of A (the
     *   scaling rho_i of the set update).
     * @param[in] preconditioner Used by the CG solves with the masked A.
     * @param[in] fixed_rows Per owned row, non-zero where w_i = 0 with no
     *   multiplier (lambda_i is left untouched there).
     * @param[in] weights The c_i >= 0: thresholds tau c_i, with tau = 1
     *   until set_substep(); rows with c_i = 0 are free (lambda_i = 0).
     * @param[in] additional_data Limits, CG start and messages.
     */
    SemismoothNewtonSolver(Product                               product,
                           const DistributedVector              &diagonal,
                           std::unique_ptr<MaskedPreconditioner> preconditioner,
                           const std::vector<unsigned char>     &fixed_rows,
                           const DistributedVector              &weights,
                           const AdditionalData &additional_data);

    void
    set_substep(const double tau) override;

    /**
     * As FrictionStepSolver::solve(); @p warm_start may be @p lambda itself
     * (a caller that keeps only the multiplier).
     */
    unsigned int
    solve(const DistributedVector &b,
          DistributedVector       &w,
          DistributedVector       &lambda,
          DistributedVector       &warm_start) override;

    std::string
    name() const override;

    /**
     * The default configuration solves its masked systems densely (M
     * replicated on every rank, factorized on the unstuck rows once per
     * change of the sets) up to this many unknowns, and by Jacobi-CG above:
     * the P = 10 friction solves of a Lie step of a d = 100 chain with a
     * tridiagonal M took 1.3e6 instructions densely, 3.9e6 by CG
     * (callgrind).
     */
    static constexpr unsigned int dense_size_limit = 128;

    /** Total inner CG iterations so far (for benchmarks). */
    unsigned long
    n_linear_iterations() const;

  private:
    /**
     * Solve A_SS w_S = rhs_S, w = 0 off the unstuck set S, by CG to the
     * absolute residual @p cg_tolerance (ignored by exact solves); returns
     * whether the CG ran at its tightest tolerance (linear_tolerance
     * relative to the right-hand side).
     */
    bool
    solve_masked(const DistributedVector &rhs,
                 DistributedVector       &w,
                 const double             cg_tolerance);

    /** Whether the masked solves are conjugate gradients (not exact). */
    bool
    uses_cg() const;

    /** The smallest positive c_i (collective); 0 if there is none. */
    double
    smallest_weight() const;

    /**
     * The KKT residual of (38) in multiplier units at W, from the member
     * residual r = b - A W (collective):
     *   max over rows with c_i > 0 of max(dist(mu_i, [-1, 1]),
     *     |l_i - P(l_i + a_ii w_i/(tau c_i))|), mu_i = r_i/(tau c_i),
     *     l_i = P(mu_i), P the projection on [-1, 1],
     * and |r_i|/(tau c_min) on free rows (c_i = 0; @p c_min the smallest
     * positive c_i); zero exactly at the solution. The part within the
     * stick/slip hysteresis of the set update (1e-10: stuck rows with
     * |mu_i| <= 1 + 1e-10, the complementarity of slipping rows) is not
     * counted: no CG accuracy removes it. The friction benchmark
     * (bench/friction_step_solvers.cc) holds every solver to this measure.
     */
    double
    kkt_residual(const DistributedVector &w, const double c_min) const;

    /** solve_masked() for tiny systems: dense, replicated on every rank. */
    void
    solve_masked_dense(const DistributedVector &rhs, DistributedVector &w);

    enum class State : unsigned char
    {
      stick,
      slip_positive,
      slip_negative,
      free, ///< c_i = 0: never constrained
      fixed ///< w_i = 0, no multiplier
    };

    /** Initial stick/slip sets from the warm-start multiplier. */
    void
    initialize_sets(const DistributedVector &warm_start);

    /** rhs and mask of the unstuck rows for the current sets. */
    void
    set_up_masked_system(const DistributedVector &b);

    /**
     * The multiplier from the residual on the stuck rows and the new sets;
     * returns how many of this rank's rows changed set.
     */
    unsigned int
    update_sets(DistributedVector &w, DistributedVector &lambda);

    const Product                               product;
    const DistributedVector                    &diagonal;
    const DistributedVector                    &weights;
    const std::unique_ptr<MaskedPreconditioner> preconditioner;
    const std::vector<unsigned char>            fixed_rows;
    const AdditionalData                        additional_data;
    const MPI_Comm                              comm;
    double                                      tau;
    /** Default configuration with a diagonal M: solves are divisions. */
    bool diagonal_operator;
    /** M replicated on every rank, for tiny systems (dense masked solves). */
    FullMatrix<double> replicated_operator;
    /** The Cholesky factor of M restricted to the unstuck rows of a mask. */
    struct MaskedFactor
    {
      dealii::Vector<double>    mask;
      std::vector<unsigned int> unstuck;
      DenseCholesky             cholesky;
    };

    /** Fill @p factor for the current replicated_mask. */
    void
    factorize_restricted(MaskedFactor &factor) const;

    /**
     * The factors of the last sets, most recently used first: the friction
     * sub-steps p = 1..P of a Lie or Strang step each have their own sets,
     * which change slowly from one time step to the next.
     */
    std::list<MaskedFactor>       masked_factors;
    static constexpr unsigned int max_cached_factors = 24;
    /** Scratch of the dense solves: replicated mask and right-hand side. */
    dealii::Vector<double> replicated_mask, replicated_rhs;
    std::vector<double>    restricted_values;
    std::vector<State> states;
    DistributedVector  mask; ///< 1 on unstuck rows
    DistributedVector  rhs, residual, scratch;
    unsigned long      linear_iterations;
  };
} // namespace stickslip

#endif
