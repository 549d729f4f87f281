#ifndef stickslip_friction_semismooth_newton_solver_h
#define stickslip_friction_semismooth_newton_solver_h

#include <deal.II/lac/full_matrix.h>

#include <friction/friction_step_solver.h>
#include <friction/stick_slip_sets.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/masked_cg.h>
#include <linear_algebra/masked_preconditioner.h>

#include <array>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <utility>
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
   * The default configuration is the W form of the friction step of Glowinski
   * et al. 2006, eq. (38), beyond the papers: A = M, c = C, tau the sub-step,
   * no fixed rows, and masked solves by division for a diagonal M, by a dense
   * Cholesky factorization of the replicated M for tiny systems and by
   * Jacobi-preconditioned CG otherwise. With CG it is an inexact Newton
   * method by default (Friction/Newton step CG tolerance = forcing): the CG
   * tolerance follows the KKT residual of (38) (StickSlipSets::kkt_residual())
   * and the final KKT residual is checked against Friction/Tolerance. The
   * general configuration takes the operator, the preconditioner, the fixed
   * rows and the weights; the chain solves its static increment with it (A = K,
   * thresholds alpha_i, the massive rows fixed, an exact tridiagonal
   * preconditioner per rank).
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
       * The KKT residual of (38) in multiplier units
       * (StickSlipSets::kkt_residual()) to reach; > 0 makes the CG tolerance an
       * inexact-Newton forcing term that follows the KKT residual, with the
       * final residual checked against this target. 0: every CG solve to
       * linear_tolerance.
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
     * change of the sets) up to this many unknowns, and by Jacobi-CG
     * above, where CG costs less (BENCHMARKS.md, "Measurements behind
     * design choices in the code").
     */
    static constexpr unsigned int dense_size_limit = 128;

    /** Total inner CG iterations so far (for benchmarks). */
    unsigned long
    n_linear_iterations() const;

  private:
    using State = StickSlipSets::State;

    /**
     * The rows of the masked CG: the unstuck set and the right-hand side
     * b_i - tau c_i lambda_i of the current sets (MaskedCG's Rows).
     */
    struct UnstuckRows
    {
      const State  *states;
      const double *b;
      const double *c;
      double        tau;

      bool
      in_set(const std::size_t k) const
      {
        return StickSlipSets::unstuck(states[k]);
      }

      double
      rhs(const std::size_t k) const
      {
        return b[k] - tau * c[k] * StickSlipSets::sign_of(states[k]);
      }
    };

    /**
     * Solve A_SS w_S = rhs_S, rhs_i = b_i - tau c_i lambda_i on the unstuck
     * set S (lambda_i = +-1 on slipping rows, 0 on free ones), w = 0 off S,
     * exactly or by CG until the residual is within @p target_eta in the
     * multiplier units of StickSlipSets::kkt_residual() (0: no such target;
     * ignored by exact solves), and A W into operator_times_w (not when it
     * sets solution_is_zero: W = 0); returns whether the CG ran at its
     * tightest tolerance (linear_tolerance relative to the right-hand side).
     */
    bool
    solve_masked(const DistributedVector &b,
                 DistributedVector       &w,
                 const double             target_eta);

    /** Whether the masked solves are conjugate gradients (not exact). */
    bool
    uses_cg() const;

    /**
     * solve_masked() by the masked CG (MaskedCG) with the caller's
     * preconditioner, started from w restricted to S. Stops when |r|_2 <=
     * linear_tolerance |rhs|_2 or, with @p target_eta > 0, when every |r_i|
     * <= target_eta tau c_i (weight_floor on free rows).
     */
    bool
    solve_masked_cg(const DistributedVector &b,
                    DistributedVector       &w,
                    const double             target_eta);

    /** solve_masked() for tiny systems: dense, replicated on every rank. */
    void
    solve_masked_dense(const DistributedVector &rhs, DistributedVector &w);

    /** Initial stick/slip sets from the warm-start multiplier. */
    void
    initialize_sets(const DistributedVector &warm_start);

    /**
     * inverse_thresholds and weight_floor for the current tau, when it
     * changed (collective).
     */
    void
    update_inverse_thresholds();

    /** rhs and mask of the unstuck rows for the current sets. */
    void
    set_up_masked_system(const DistributedVector &b);

    /**
     * One pass after a masked solve (StickSlipSets::update()): r = b - A W
     * (A W in operator_times_w, unless the solve returned W = 0), the
     * multiplier (from r on the stuck rows), the new sets and, with @p c_min
     * > 0, the KKT residual at W with the new sets. Returns how many of this
     * rank's rows changed set and this rank's KKT residual.
     */
    std::pair<unsigned int, double>
    update_sets(const DistributedVector &b,
                const DistributedVector &w,
                DistributedVector       &lambda,
                const double             c_min);

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
    /**
     * M replicated on every rank for tiny systems (dense masked solves): the
     * Cholesky factors of M restricted to the unstuck rows of the last sets.
     */
    MaskedCholeskyFactors dense_factors;
    /** Scratch of the dense solves: replicated mask and right-hand side. */
    dealii::Vector<double>     replicated_mask, replicated_rhs;
    std::vector<unsigned char> dense_mask;
    std::vector<State>         states;
    DistributedVector          mask;    ///< 1 on unstuck rows
    DistributedVector          rhs;     ///< of the exact masked solves
    DistributedVector operator_times_w; ///< A W after each masked solve
    /** The masked CG (created on the first CG solve). */
    std::unique_ptr<MaskedCG> cg;
    /** The last masked solve returned w = 0 (A w = 0 needs no product). */
    bool solution_is_zero;
    /** The smallest positive c_i over the rows that are not fixed, or 0. */
    double weight_floor;
    /**
     * 1/(tau c_i) per owned row (1/(tau weight_floor) on free rows, 0 on
     * fixed ones): the multiplier units of the set update, the KKT residual
     * and the CG's target. The weights are read once per tau: they must not
     * change between solves.
     */
    std::vector<double> inverse_thresholds;
    double              inverse_thresholds_tau;
    unsigned long       linear_iterations;
  };
} // namespace stickslip

#endif
