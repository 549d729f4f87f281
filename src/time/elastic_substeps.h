#ifndef stickslip_time_elastic_substeps_h
#define stickslip_time_elastic_substeps_h

#include <linear_algebra/spd_solver.h>
#include <time/time_integrator.h>

namespace stickslip
{
  /**
   * The elastic step of the splitting schemes (Glowinski et al. 2006, eqs.
   * (12)/(19)): M X'' + A X = 0 over one time step, by Q centered sub-steps
   * (55)-(57), M (X^{q+1} - 2X^q + X^{q-1})/tau^2
   *     + A (alpha X^{q+1} + (1 - 2 alpha) X^q + alpha X^{q-1}) = 0,
   * each a solve with K = M + alpha tau^2 A (factorized once; with a
   * matrix-free A, conjugate gradients on M x + alpha tau^2 A x). For alpha <
   * 1/4 the stability condition tau < 1/sqrt((1/4 - alpha) nu_d), nu_d =
   * lambda_max(M^{-1} A), is checked in the constructor. Only what the
   * step uses is held: alpha = 0 with a diagonal M and no prescribed values
   * is the leapfrog with 1/m (no K, no solver), and when the steps run as
   * a FusedLieStep (@p fused) nothing but the stability check is done.
   */
  class ElasticSubsteps
  {
  public:
    ElasticSubsteps(const FrictionSystem           &system,
                    const Parameters::Splitting    &splitting,
                    const Parameters::LinearSolver &linear_solver,
                    const ParameterSource          &source,
                    const double                    step_length,
                    const bool                      fused = false);

    /**
     * Advance (X, V) over @p step (of the length given to the
     * constructor); prescribed values are read at step.substep_time(q, Q),
     * X^Q exactly at step.next_time.
     */
    void
    advance(const TimeStep    &step,
            DistributedVector &displacement,
            DistributedVector &velocity);

    /** nu_d = lambda_max(M^{-1} A) (computed only when alpha < 1/4). */
    double
    largest_frequency_squared() const;

    std::string
    description() const;

  private:
    /** K = M + alpha tau^2 A as a matrix, and its solver. */
    void
    set_up_operator_matrix();

    /**
     * K applied as M x + alpha tau^2 (A x) when M, or A of an implicit
     * step, has no entries (FrictionSystem::mass_action,
     * stiffness_action): CG with K's diagonal.
     */
    void
    set_up_matrix_free_operator();

    /** The alpha = 0, diagonal-M case: leapfrog with fused passes. */
    void
    explicit_leapfrog(DistributedVector &displacement,
                      DistributedVector &velocity);

    /**
     * Check tau against the stability limit (alpha < 1/4): an InputError
     * naming Splitting/Elastic implicitness.
     */
    void
    check_stability(const Parameters::LinearSolver &linear_solver,
                    const ParameterSource          &source);

    const FrictionSystem &system;
    const double          alpha;
    const unsigned int    n_sub;
    const double          tau;
    /** alpha = 0, diagonal M, nothing prescribed: explicit_leapfrog(). */
    const bool        leapfrog;
    DistributedMatrix operator_matrix; ///< M + alpha tau^2 A
    SpdSolver         solver;
    double            nu_d;
    DistributedVector previous, current, next, rhs, scratch;
    DistributedVector prescribed, operator_diagonal, inverse_mass_diagonal;
    /** A x inside a matrix-free product with K. */
    mutable DistributedVector stiffness_product;
  };
} // namespace stickslip

#endif
