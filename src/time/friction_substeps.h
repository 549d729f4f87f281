#ifndef stickslip_time_friction_substeps_h
#define stickslip_time_friction_substeps_h

#include <friction/friction_step_solver.h>
#include <friction/replicated_system.h>
#include <time/time_integrator.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * The friction step of the splitting schemes (Glowinski et al. 2006, eqs.
   * (10)/(17)/(21)): M W' + C(lambda - gamma(W)) = f on an interval,
   * discretized by P implicit-explicit sub-steps (25)-(26), M (W^p -
   * W^{p-1})/tau + C lambda^p = C gamma(W^{p-1}) + f(t0 + p tau), each an
   * instance of (38) for the friction step solver. Keeps one warm start per
   * sub-step and phase, so that each sub-step starts from the same sub-step of
   * the previous time step (doc/verification.md: ≈ 3 Newton iterations instead
   * of ≈ 6).
   *
   * Written once for both kinds of system: FrictionSystem (distributed
   * vectors, any FrictionStepSolver) and ReplicatedSystem (a tiny system
   * whole on every rank, ReplicatedFrictionSolver), the same operations in
   * the same order.
   */
  template <class System>
  class FrictionSubsteps
  {
  public:
    using Vector     = typename System::Vector;
    using StepSolver = typename System::StepSolver;

    FrictionSubsteps(const System               &system,
                     std::unique_ptr<StepSolver> solver,
                     const unsigned int          n_substeps,
                     const unsigned int          n_phases,
                     const double                interval_length);

    ~FrictionSubsteps();

    /**
     * Advance @p velocity over [interval.time, interval.next_time] (of
     * length interval.size, the length the sub-step tau was built for),
     * with the sub-step times interval.substep_time(p, P), the last one
     * exactly interval.next_time; add weight * lambda^p
     * of every sub-step to @p multiplier_sum; set @p stick to 0 where a
     * sub-step's w_i is not exactly 0.
     */
    void
    advance(const TimeStep       &interval,
            const unsigned int    phase,
            const double          weight,
            Vector               &velocity,
            Vector               &multiplier_sum,
            Vector               &stick,
            IntegratorStatistics &statistics);

    const StepSolver &
    solver() const;

    /** The per-sub-step warm starts of the solver (snapshots). */
    void
    register_state(CheckpointArchive &archive);

    unsigned int
    n_substeps() const;

  private:
    /** Size the warm starts (collective; the first time only). */
    void
    size_warm_starts();

    /**
     * The closed form (53) with a diagonal M, the whole sub-step in one
     * pass: b, W and lambda, the average multiplier (37), the friction
     * work and the stick flag.
     */
    void
    closed_form_substep(const double          weight,
                        Vector               &velocity,
                        Vector               &multiplier_sum,
                        Vector               &stick,
                        IntegratorStatistics &statistics);

    const System               &system;
    std::unique_ptr<StepSolver> step_solver;
    const unsigned int          n_sub;
    const double                tau;
    std::vector<Vector>         warm_starts;
    /** Closed form (diagonal M): the whole sub-step in one fused pass. */
    bool   fused_closed_form;
    Vector force, rhs, multiplier;
  };

  extern template class FrictionSubsteps<FrictionSystem>;
  extern template class FrictionSubsteps<ReplicatedSystem>;
} // namespace stickslip

#endif
