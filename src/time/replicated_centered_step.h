#ifndef stickslip_time_replicated_centered_step_h
#define stickslip_time_replicated_centered_step_h

#include <friction/replicated_semismooth_newton.h>
#include <friction/replicated_system.h>
#include <time/time_integrator.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * The step of CenteredIntegrator (Glowinski & Kearsley 1995, eqs.
   * (1.1)-(1.6), the fixed point (1.12)-(1.15) or (1.19), or the friction step
   * (38) with mass K = M + alpha dt^2 A) for a tiny system replicated on every
   * rank (ReplicatedSystem): the same operations on plain arrays, with the
   * two-step scheme's levels kept here. The solves with K use its Cholesky
   * factor (banded when K is) or divide by a diagonal K, as SpdSolver does.
   * CenteredIntegrator builds it after its own set-up (which checks the
   * data and chooses r) and hands each step to it.
   */
  class ReplicatedCenteredStep
  {
  public:
    /**
     * Whether the step of @p run for @p system can be taken this way: a
     * replicable system, and the fixed point or the closed-form or
     * semismooth Newton friction solver.
     */
    static bool
    applies(const Parameters::Numerics &run, const FrictionSystem &system);

    /**
     * For steps of length @p dt, with the fixed point's @p r and the
     * regularization's @p epsilon as CenteredIntegrator chose them
     * (@p delta for messages). Collective.
     */
    ReplicatedCenteredStep(const Parameters::Numerics &run,
                           const FrictionSystem       &system,
                           const double                dt,
                           const double                r,
                           const double                epsilon,
                           const double                delta);

    /** CenteredIntegrator::advance(). */
    void
    advance(const TimeStep       &time_step,
            FrictionState        &state,
            IntegratorStatistics &statistics);

    /** The levels x^{n-1}, x^n, lambda^{n-1} and the warm start. */
    void
    register_state(CheckpointArchive &archive);

  private:
    /** CenteredIntegrator::first_step(). */
    void
    first_step(const double t, const FrictionState &state);

    /** CenteredIntegrator::assemble_rhs(). */
    void
    assemble_rhs(const double t);

    /** CenteredIntegrator::fixed_point(); returns the iterations. */
    unsigned int
    fixed_point(const double t);

    /** x^{n+1} from rhs - dt^2 C lambda (1.13). */
    void
    solve_for_displacement();

    /** CenteredIntegrator::friction_solve(); returns the iterations. */
    unsigned int
    friction_solve();

    /** x = K^{-1} x. */
    void
    solve_operator(double *x) const;

    /** The velocity, the friction work and stick flags of the step. */
    void
    finish_step(const bool            continuing,
                FrictionState        &state,
                IntegratorStatistics &statistics);

    const ReplicatedSystem     data;
    const unsigned int         d;
    const Parameters::Centered parameters;
    const double               alpha;
    const double               dt;
    const double               r;
    const double               epsilon;
    const double               delta;
    bool                       any_friction;
    /** lambda by a friction-step solver (else by the fixed point). */
    const bool uses_friction_solver;
    /** That solver: semismooth Newton, or null for the closed form. */
    std::unique_ptr<ReplicatedSemismoothNewton> newton;
    /** K = M + alpha dt^2 A. */
    FullMatrix<double>     operator_matrix;
    ReplicatedSparseMatrix operator_rows;
    DenseCholesky          factor;
    std::vector<double>    inverse_diagonal;

    bool                started;
    double              expected_time;
    std::vector<double> x_previous, x_current, x_next;
    std::vector<double> lambda, lambda_previous, warm_start;
    std::vector<double> v, rhs, base, scratch, change;
  };
} // namespace stickslip

#endif
