#ifndef stickslip_friction_closed_form_solver_h
#define stickslip_friction_closed_form_solver_h

#include <friction/friction_step_solver.h>

#include <algorithm>
#include <cmath>

namespace stickslip
{
  /**
   * Exact componentwise solution for a diagonal (lumped) M, Glowinski et al.
   * 2006, eq. (53) generalized to d components (doc/theory.md §1.7): lambda_i =
   * P_[-1,1](b_i / (c_i tau)), w_i = S_{c_i tau}(b_i) / m_i, with the soft
   * threshold S so that a stuck component is exactly zero. Purely local to each
   * rank.
   */
  class ClosedFormSolver : public FrictionStepSolver
  {
  public:
    explicit ClosedFormSolver(const FrictionSystem &system);

    void
    set_substep(const double tau) override;

    unsigned int
    solve(const DistributedVector &b,
          DistributedVector       &w,
          DistributedVector       &lambda,
          DistributedVector       &warm_start) override;

    std::string
    name() const override;

    bool
    closed_form() const override;

    /**
     * One component: w = S_{c tau}(b)/m, lambda = P_[-1,1](b/(c tau)) for
     * c > 0; w = b/m, lambda = 0 for c = 0. Exactly w = 0 when stuck.
     */
    static inline void
    solve_component(const double b,
                    const double m,
                    const double c_tau,
                    double      &w,
                    double      &lambda)
    {
      if (c_tau > 0)
        {
          const double excess = std::abs(b) - c_tau;
          lambda              = std::min(1., std::max(-1., b / c_tau));
          w                   = excess > 0 ? std::copysign(excess, b) / m : 0.;
        }
      else
        {
          lambda = 0;
          w      = b / m;
        }
    }

  private:
    const FrictionSystem &system;
    double                tau;
  };
} // namespace stickslip

#endif
