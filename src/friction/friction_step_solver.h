#ifndef stickslip_friction_friction_step_solver_h
#define stickslip_friction_friction_step_solver_h

#include <base/input_error.h>
#include <friction/friction_parameters.h>
#include <friction/friction_system.h>
#include <linear_algebra/linear_solver_parameters.h>

#include <memory>
#include <string>

namespace stickslip
{
  /**
   * A solver of the friction sub-step problem Glowinski et al. 2006, eq. (38):
   *
   *   M W + tau C lambda = b,   lambda_i in Sgn(w_i) (c_i > 0),
   *   lambda_i = 0 (c_i = 0),
   *
   * equivalently W = argmin 1/2 MV.V + tau sum c_i |v_i| - b.V (33)-(34).
   */
  class FrictionStepSolver
  {
  public:
    virtual ~FrictionStepSolver() = default;

    /**
     * Prepare for sub-steps of size @p tau (checks that depend on tau, such
     * as the convergence range (43) of a given rho, happen here).
     */
    virtual void
    set_substep(const double tau) = 0;

    /**
     * Solve for @p w and @p lambda (lambda in the box Lambda). @p warm_start
     * is the solver's own iterate, kept by the caller per sub-step: on entry
     * the value of the same sub-step of the previous time step, on exit this
     * one's. Returns the number of iterations (linear solves or Newton
     * steps; 0 for the closed form).
     */
    virtual unsigned int
    solve(const DistributedVector &b,
          DistributedVector       &w,
          DistributedVector       &lambda,
          DistributedVector       &warm_start) = 0;

    virtual std::string
    name() const = 0;

    /**
     * Whether solve() is the closed form (53), componentwise with a diagonal
     * M: the friction sub-steps then fuse it with their other passes.
     */
    virtual bool
    closed_form() const;
  };



  /** Build the solver chosen by Friction/Solver for @p system. */
  std::unique_ptr<FrictionStepSolver>
  create_friction_step_solver(const Parameters::Friction     &friction,
                              const Parameters::LinearSolver &linear_solver,
                              const FrictionSystem           &system,
                              const ParameterSource          &source);
} // namespace stickslip

#endif
