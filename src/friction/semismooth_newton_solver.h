#ifndef stickslip_friction_semismooth_newton_solver_h
#define stickslip_friction_semismooth_newton_solver_h

#include <deal.II/lac/full_matrix.h>

#include <friction/friction_step_solver.h>

#include <vector>

namespace stickslip
{
  /**
   * A semismooth Newton (primal-dual active set) method on the W form of
   * seed 000 (38), beyond the papers. Each component is stuck (w_i = 0,
   * |lambda_i| <= 1) or slipping (lambda_i = +-1). Given the sets, W solves
   * M W = b - tau C lambda on the slipping components with w = 0 on the
   * stuck ones, and lambda on the stuck ones follows from the residual.
   * The sets are then updated from the complementarity function
   * lambda = P_Lambda(lambda + rho_i c_i w_i), rho_i = m_ii/(tau c_i^2) (so
   * that for a diagonal M one iteration reproduces the closed form), until
   * they stop changing on every rank. One linear solve with the masked M per
   * iteration, by conjugate gradients with a Jacobi preconditioner: M^{-1}
   * and C M^{-1} C are never formed, so it scales with a consistent mass.
   * Warm-started from the sets of the previous time step's multiplier.
   */
  class SemismoothNewtonSolver : public FrictionStepSolver
  {
  public:
    SemismoothNewtonSolver(const FrictionSystem &          system,
                           const Parameters::Friction &    parameters,
                           const Parameters::LinearSolver &linear_solver);

    void
    set_substep(const double tau) override;

    unsigned int
    solve(const DistributedVector &b,
          DistributedVector &      w,
          DistributedVector &      lambda,
          DistributedVector &      warm_start) override;

    std::string
    name() const override;

    /** Total inner CG iterations so far (for benchmarks). */
    unsigned long
    n_linear_iterations() const;

  private:
    /** Solve M_SS w_S = rhs_S, w = 0 on the stuck set, by PCG. */
    void
    solve_masked(const DistributedVector &rhs, DistributedVector &w);

    enum class State : unsigned char
    {
      stick,
      slip_positive,
      slip_negative,
      free ///< c_i = 0: never constrained
    };

    const FrictionSystem &         system;
    const Parameters::Friction     parameters;
    const Parameters::LinearSolver linear_solver;
    double                         tau;
    std::vector<State>             states;
    DistributedVector              mask; ///< 1 on unstuck, 0 on stuck
    DistributedVector              rhs, residual, scratch;
    /** M replicated on every rank, for tiny systems (dense masked solves). */
    FullMatrix<double>             replicated_mass;
    unsigned long                  linear_iterations;
  };
} // namespace stickslip

#endif
