#ifndef stickslip_time_centered_steps_h
#define stickslip_time_centered_steps_h

#include <friction/friction_step_solver.h>
#include <friction/replicated_system.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/spd_solver.h>
#include <time/time_integrator.h>

#include <functional>
#include <type_traits>

namespace stickslip
{
  /**
   * The steps of the centered multiplier scheme of Glowinski & Kearsley
   * 1995, eqs. (1.1)-(1.6) (CenteredIntegrator, which sets up K = M + alpha
   * dt^2 A, its solver and the multiplier's solver): the two-step scheme's
   * levels x^{n-1}, x^n, lambda^{n-1}, the first step (1.4)-(1.6), the
   * right-hand side, lambda^n by the fixed point (1.12)-(1.15) or (1.19) or
   * by a friction-step solver, and the velocity, friction work and stick
   * flags of a step. Written once for both kinds of system: FrictionSystem
   * (distributed vectors, prescribed values) and ReplicatedSystem (a tiny
   * system whole on every rank), the same operations in the same order.
   */
  template <class System>
  class CenteredSteps
  {
  public:
    using Vector = typename System::Vector;
    /** The vectors are whole on every rank (ReplicatedSystem). */
    static constexpr bool on_arrays = std::is_same_v<System, ReplicatedSystem>;
    using OperatorSolver =
      std::conditional_t<on_arrays, ReplicatedSpdSolver, SpdSolver>;
    using StepSolver = typename System::StepSolver;

    /** What the steps use besides the system (they must outlive it). */
    struct Operators
    {
      /** y = K x, K = M + alpha dt^2 A. */
      std::function<void(Vector &, const Vector &)> apply;
      /** Solves with K. */
      const OperatorSolver *solver = nullptr;
      /** lambda by this friction-step solver; null: by the fixed point. */
      StepSolver *step_solver = nullptr;
      /** The diagonal of K, where values are prescribed. */
      const Vector *diagonal = nullptr;
    };

    /**
     * The steps of size @p dt with @p alpha, the fixed point's @p r, the
     * regularization's @p epsilon and (for messages) @p delta; whether any
     * c_i > 0 (@p any_friction).
     */
    CenteredSteps(const System               &system,
                  const Parameters::Centered &parameters,
                  const double                alpha,
                  const double                dt,
                  const double                r,
                  const double                epsilon,
                  const double                delta,
                  const bool                  any_friction,
                  const Operators            &operators);

    /**
     * Whether @p step continues the previous one (else it is a first step,
     * which reads the velocity).
     */
    bool
    continues(const TimeStep &step) const;

    /**
     * CenteredIntegrator::advance() on the state's vectors: x^{n+1} into
     * @p displacement, lambda^n into @p multiplier, the centered velocity
     * and the stick flags.
     */
    void
    advance(const TimeStep       &step,
            Vector               &displacement,
            Vector               &velocity,
            Vector               &multiplier,
            Vector               &stick,
            IntegratorStatistics &statistics);

    /** The levels x^{n-1}, x^n, lambda^{n-1} and the warm start. */
    void
    register_state(CheckpointArchive &archive);

  private:
    /**
     * The first step (1.4)-(1.6): lambda^0 = sign(x_1) (0 where c_i = 0
     * or the velocity vanishes) is explicit, and x^{-1} = x^1 - 2 dt x_1 is
     * eliminated from (1.1).
     */
    void
    first_step(const double t, const double dt, const Vector &velocity);

    /**
     * rhs = dt^2 f^n + M (2x^n - x^{n-1}) - dt^2 A ((1-2a) x^n + a x^{n-1}).
     */
    void
    assemble_rhs(const double t, const double dt);

    /** lambda^n and x^{n+1} by (1.12)-(1.15) or (1.19). Returns iterations. */
    unsigned int
    fixed_point(const double dt, const double t);

    /** lambda^n and x^{n+1} by the friction-step solver. Returns iterations. */
    unsigned int
    friction_solve(const double dt);

    /** With prescribed values, @p rhs of the solve gets them at t_{n+1}. */
    void
    impose_prescribed(const double dt, Vector &rhs);

    /**
     * The velocity (x^{n+1} - x^{n-1})/(2 dt), the friction work c_i
     * lambda_i (x^{n+1} - x^{n-1})/2 of this rank's rows and the stick
     * flags.
     */
    void
    finish(const bool            continuing,
           const double          dt,
           Vector               &velocity,
           Vector               &stick,
           IntegratorStatistics &statistics) const;

    const System              &system;
    const Parameters::Centered parameters;
    const double               alpha;
    const double               step;
    const double               r;
    const double               epsilon;
    const double               delta;
    const bool                 any_friction;
    const Operators            operators;

    bool   started;
    double expected_time; ///< t of the next advance() in a continuing run
    /** t_{n+1} of the current step, exactly (prescribed values at it). */
    double next_time;
    Vector x_previous, x_current, x_next; ///< x^{n-1}, x^n, x^{n+1}
    Vector lambda, lambda_previous, warm_start;
    Vector rhs, base, scratch, change, prescribed;
  };

  extern template class CenteredSteps<FrictionSystem>;
  extern template class CenteredSteps<ReplicatedSystem>;
} // namespace stickslip

#endif
