#ifndef stickslip_time_replicated_splitting_step_h
#define stickslip_time_replicated_splitting_step_h

#include <friction/replicated_semismooth_newton.h>
#include <friction/replicated_system.h>
#include <time/time_integrator.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * The Lie or Strang step of SplittingIntegrator (FrictionSubsteps, then
   * ElasticSubsteps) for a tiny system replicated on every rank
   * (ReplicatedSystem): the same sub-steps and the same operations, on plain
   * arrays, with one read of the state at the start of the step and one
   * write at its end instead of a PETSc operation per vector operation. The
   * friction sub-steps use the closed form (diagonal M) or the semismooth
   * Newton iteration (ReplicatedSemismoothNewton); the elastic sub-steps
   * solve with the Cholesky factor of K = M + alpha tau^2 A (banded when K
   * is), divide by a diagonal K, or leapfrog (alpha = 0, diagonal M), as
   * ElasticSubsteps does.
   */
  class ReplicatedSplittingStep
  {
  public:
    /**
     * Whether the step of @p run for @p system can be taken this way: a
     * replicable system and the closed-form or semismooth Newton friction
     * solver.
     */
    static bool
    applies(const Parameters::Numerics &run, const FrictionSystem &system);

    /** For time steps of length @p dt (collective). */
    ReplicatedSplittingStep(const Parameters::Numerics &run,
                            const FrictionSystem       &system,
                            const double                dt);

    /** SplittingIntegrator::advance(). */
    void
    advance(const TimeStep       &step,
            FrictionState        &state,
            IntegratorStatistics &statistics);

    /** The warm starts of the friction sub-steps (replicated arrays). */
    void
    register_state(CheckpointArchive &archive);

  private:
    /** FrictionSubsteps::advance() on the arrays. */
    void
    friction_substeps(const TimeStep       &interval,
                      const unsigned int    phase,
                      const double          weight,
                      IntegratorStatistics &statistics);

    /** One friction sub-step: velocity and lambda from b (38). */
    unsigned int
    friction_solve(const unsigned int substep);

    /** ElasticSubsteps::advance() on the arrays. */
    void
    elastic_substeps();

    /** ElasticSubsteps::explicit_leapfrog() on the arrays. */
    void
    explicit_leapfrog();

    /** x = K^{-1} x. */
    void
    solve_elastic(double *x) const;

    const ReplicatedSystem data;
    const unsigned int     d;
    const bool             strang;
    const unsigned int     n_friction;
    const unsigned int     n_elastic;
    const double           tau_friction;
    const double           tau_elastic;
    const double           alpha;
    /** Null: the closed form (diagonal M). */
    std::unique_ptr<ReplicatedSemismoothNewton> newton;
    /** One warm start per friction sub-step and phase, as FrictionSubsteps. */
    std::vector<std::vector<double>> warm_starts;
    /** K = M + alpha tau^2 A: factor, or the inverse of a diagonal K. */
    DenseCholesky       elastic_factor;
    std::vector<double> inverse_elastic_diagonal;
    /** The state and the work arrays of a step. */
    std::vector<double> x, v, multiplier_sum, stick;
    std::vector<double> force, rhs, lambda, previous, current, next, scratch;
  };
} // namespace stickslip

#endif
