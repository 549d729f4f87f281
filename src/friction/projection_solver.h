#ifndef stickslip_friction_projection_solver_h
#define stickslip_friction_projection_solver_h

#include <friction/friction_step_solver.h>
#include <linear_algebra/spd_solver.h>

namespace stickslip
{
  /**
   * The projection (Uzawa) algorithm Glowinski et al. 2006, eqs. (39)-(41):
   *   M W^k = b - tau C lambda^k,  lambda^{k+1} = P_Lambda(lambda^k + rho C
   * W^k), convergent for 0 < rho < 2/(tau beta_d), beta_d =
   * lambda_max(M^{-1}C^2) (Theorem 3.2, (43)). Started from the previous time
   * step's multiplier of the same sub-step; stops when max|lambda^{k+1} -
   * lambda^k| <= tol. One solve with M per iteration, factorized once.
   */
  class ProjectionSolver : public FrictionStepSolver
  {
  public:
    ProjectionSolver(const FrictionSystem           &system,
                     const Parameters::Friction     &parameters,
                     const Parameters::LinearSolver &linear_solver,
                     const ParameterSource          &source);

    void
    set_substep(const double tau) override;

    unsigned int
    solve(const DistributedVector &b,
          DistributedVector       &w,
          DistributedVector       &lambda,
          DistributedVector       &warm_start) override;

    std::string
    name() const override;

    /** beta_d = lambda_max(M^{-1} C^2) of (43). */
    double
    beta_d() const;

  private:
    const FrictionSystem      &system;
    const Parameters::Friction parameters;
    const ParameterSource     &source;
    SpdSolver                  mass_solver;
    double                     largest_eigenvalue;
    double                     largest_c;
    double                     smallest_mass_diagonal;
    double                     tau;
    double                     rho;
    DistributedVector          rhs;
  };
} // namespace stickslip

#endif
