#ifndef stickslip_time_regularized_arkode_integrator_h
#define stickslip_time_regularized_arkode_integrator_h

#include <deal.II/sundials/arkode.h>

#include <linear_algebra/spd_solver.h>
#include <time/time_integrator.h>

#include <memory>

namespace stickslip
{
  /**
   * The regularized problem of Glowinski et al. 2006, eqs. (5)-(6): lambda
   * replaced by lambda_eta(v) = v/sqrt(eta^2 + v^2), a Lipschitz ODE X' = V,  M
   * V' = f + C gamma(V) + g - A X - C lambda_eta(V), integrated with adaptive
   * steps by SUNDIALS ARKode through deal.II's wrapper (explicit Runge-Kutta, M
   * inverted by SpdSolver). An independent reference route: as eta -> 0 its
   * solution approaches the splitting one (Glowinski et al. 2006, eq. (6)). The
   * unknowns are interleaved (x_i, v_i) so that every rank owns a contiguous
   * range.
   */
  class RegularizedArkodeIntegrator : public TimeIntegrator
  {
  public:
    RegularizedArkodeIntegrator(const Parameters::Numerics &run,
                                const FrictionSystem       &system);

    void
    advance(const TimeStep &step, FrictionState &state) override;

    std::string
    description() const override;

    /** ARKode's adaptive state is not exposed by deal.II's wrapper. */
    bool
    supports_checkpoints() const override;

  private:
    /** ydot = F(t, y). */
    void
    right_hand_side(const double             t,
                    const DistributedVector &y,
                    DistributedVector       &ydot);

    void
    regularized_multiplier(const DistributedVector &velocity,
                           DistributedVector       &multiplier) const;

    const FrictionSystem                                &system;
    const double                                         eta;
    const double                                         tolerance;
    const double                                         final_time;
    IndexSet                                             interleaved_owned;
    SpdSolver                                            mass_solver;
    std::unique_ptr<SUNDIALS::ARKode<DistributedVector>> arkode;
    void                                                *arkode_memory;
    long                                                 steps_so_far;
    DistributedVector                                    y;
    DistributedVector displacement, velocity, force, scratch, acceleration;
    DistributedVector prescribed, prescribed_second;
  };
} // namespace stickslip

#endif
