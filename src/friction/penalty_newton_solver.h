#ifndef stickslip_friction_penalty_newton_solver_h
#define stickslip_friction_penalty_newton_solver_h

#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <friction/friction_step_solver.h>

#include <vector>

namespace stickslip
{
  /**
   * The penalty/Newton method of Glowinski et al. 2006, §6, (62)-(74):
   * eliminating W gives the obstacle problem min 1/2 A mu.mu - beta.mu over
   * Lambda with A = tau C M^{-1} C, beta = C M^{-1} b (63)-(66); its penalized
   * form (67) is minimized by Newton's method (72)-(74) with a Cholesky
   * factorization of F'_eps. A is dense when M is not diagonal, so the solver
   * works on matrices replicated on every rank (small systems only; the FE
   * models use the semismooth Newton solver).
   *
   * The penalized multiplier overshoots by O(sqrt(eps)) while sliding
   * (doc/theory.md §1.10): W and the reported multiplier use
   * P_Lambda(lambda_eps), while the unclipped lambda_eps is kept as the Newton
   * warm start (doc/verification.md).
   */
  class PenaltyNewtonSolver : public FrictionStepSolver
  {
  public:
    PenaltyNewtonSolver(const FrictionSystem       &system,
                        const Parameters::Friction &parameters,
                        const ParameterSource      &source);

    void
    set_substep(const double tau) override;

    unsigned int
    solve(const DistributedVector &b,
          DistributedVector       &w,
          DistributedVector       &lambda,
          DistributedVector       &warm_start) override;

    std::string
    name() const override;

    /** Largest system the dense solver accepts. */
    static constexpr unsigned int max_size = 2000;

  private:
    const FrictionSystem      &system;
    const Parameters::Friction parameters;
    FullMatrix<double>         mass_inverse;
    dealii::Vector<double>     c;
    /** Components with c_i > 0: the unknowns of the obstacle problem. */
    std::vector<unsigned int> frictional;
    FullMatrix<double>        obstacle_matrix; ///< A on the frictional set
    double                    tau;
  };
} // namespace stickslip

#endif
