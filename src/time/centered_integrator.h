#ifndef stickslip_time_centered_integrator_h
#define stickslip_time_centered_integrator_h

#include <friction/friction_step_solver.h>
#include <linear_algebra/operator_sum.h>
#include <linear_algebra/spd_solver.h>
#include <time/centered_steps.h>
#include <time/time_integrator.h>

#include <memory>

namespace stickslip
{
  /**
   * The centered multiplier scheme of Glowinski & Kearsley 1995, eqs.
   * (1.1)-(1.6) (doc/theory.md §3.2):
   *
   *   M (x^{n+1} - 2x^n + x^{n-1})/dt^2
   *     + A (alpha x^{n+1} + (1 - 2 alpha) x^n + alpha x^{n-1}) + C lambda^n
   *     = f^n,
   *   lambda^n in Sgn(x^{n+1} - x^{n-1}) where c_i > 0,
   *
   * a two-step scheme: it keeps x^{n-1} between calls. lambda^n comes from
   * the fixed-point iteration (1.12)-(1.15), with the regularized update
   * (1.19) as an option, or, beyond the paper, from a friction-step solver
   * of the core: with W = (x^{n+1} - x^{n-1})/(2 dt) the step is
   *
   *   (M + alpha dt^2 A) W + dt/2 C lambda = b,   lambda in Sgn(W),
   *
   * exactly Glowinski et al. 2006, eq. (38) with mass M + alpha dt^2 A and tau
   * = dt/2. With a matrix-free M or A that mass is never assembled: the solves
   * with it are conjugate gradients with its diagonal, and the friction
   * step's solver gets it as an action (OperatorSum).
   * The velocity reported at t^{n+1} is the scheme's own centered
   * difference (x^{n+1} - x^{n-1})/(2 dt), the one (1.3) constrains: a
   * stuck component of the centered scheme may carry the odd-even mode
   * x^{n+1} = x^{n-1} != x^n, which a one-step difference would report as
   * motion. It is the velocity at t^n, first order at t^{n+1} (as the
   * friction makes everything). The multiplier reported is lambda^n.
   * The steps themselves are CenteredSteps, written once: a tiny system (a
   * finite-dof model of at most ReplicatedSystem::size_limit unknowns)
   * takes them on a ReplicatedSystem, on plain arrays on every rank.
   */
  class CenteredIntegrator : public TimeIntegrator
  {
  public:
    CenteredIntegrator(const Parameters::Numerics &run,
                       const FrictionSystem       &system,
                       const ParameterSource      &source,
                       const double                dt);

    ~CenteredIntegrator() override;

    void
    advance(const TimeStep &step, FrictionState &state) override;

    std::string
    description() const override;

    void
    register_state(CheckpointArchive &archive) override;

    /** delta = lambda_max((M + alpha dt^2 A)^{-1} C^2) of (1.14). */
    double
    largest_friction_eigenvalue() const;

    /** The r of (1.14) in use. */
    double
    fixed_point_parameter() const;

  private:
    /**
     * M + alpha dt^2 A, its solver and (with prescribed values) diagonal:
     * a matrix when M and A (if alpha > 0) are, else an OperatorSum.
     */
    void
    build_operator(const double dt);

    /** K = M + alpha dt^2 A as one matrix: factorized, diagonal or AMG. */
    void
    build_operator_matrix(const double dt);

    /**
     * K x = M x + alpha dt^2 A x with a matrix-free M or A: CG with K's
     * diagonal, and step_system's mass is the action.
     */
    void
    build_matrix_free_operator(const double dt);

    /** @p product = K @p x, whichever form K has. */
    void
    apply_operator(DistributedVector       &product,
                   const DistributedVector &x) const;

    /** Refuses dt beyond the bound of Glowinski & Kearsley 1995, Theorem 1.1 /
     * Remark 2.1. */
    void
    check_stability(const Parameters::LinearSolver &linear_solver,
                    const double                    dt) const;

    /** The friction step (38) with the matrix M + alpha dt^2 A. */
    void
    set_up_friction_step_solver(const Parameters::Numerics &run,
                                const double                dt);

    /** delta = lambda_max((M + alpha dt^2 A)^{-1} C^2), Glowinski & Kearsley
     * 1995, §1.3. */
    double
    friction_operator_bound();

    /**
     * An upper bound of delta from M alone, without solves (0 if
     * Gershgorin's bound of M is not positive): for a matrix-free M + alpha
     * dt^2 A, whose power iteration would need hundreds of CG solves.
     */
    double
    friction_bound_from_mass() const;

    /** delta, r of (1.14) (checked or chosen) and the regularization. */
    void
    set_up_fixed_point(const double dt);

    /** The steps of a tiny system on a ReplicatedSystem. */
    struct Replicated;

    const FrictionSystem      &system;
    const Parameters::Centered parameters;
    const ParameterSource     &source;
    const double               alpha;
    const double               step;
    double                     epsilon;
    double                     delta;
    double                     r;
    /** delta is friction_bound_from_mass(), not the eigenvalue. */
    bool              delta_is_mass_bound = false;
    DistributedMatrix operator_matrix; ///< M + alpha dt^2 A
    /** M + alpha dt^2 A when M or A is matrix-free (then no matrix). */
    std::shared_ptr<OperatorSum>        operator_action;
    SpdSolver                           solver;
    FrictionSystem                      step_system; ///< mass M + alpha dt^2 A
    std::unique_ptr<FrictionStepSolver> step_solver;

    /** diag(K), where values are prescribed. */
    DistributedVector operator_diagonal;
    bool              any_friction;
    /** The steps on the distributed system, unless replicated. */
    std::unique_ptr<CenteredSteps<FrictionSystem>> steps;
    /** The steps of a tiny system on plain arrays, else empty. */
    std::unique_ptr<Replicated> replicated;
  };
} // namespace stickslip

#endif
