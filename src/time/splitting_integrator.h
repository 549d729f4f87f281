#ifndef stickslip_time_splitting_integrator_h
#define stickslip_time_splitting_integrator_h

#include <time/elastic_substeps.h>
#include <time/friction_substeps.h>
#include <time/fused_lie_step.h>

#include <memory>

namespace stickslip
{
  /**
   * Lie splitting Glowinski et al. 2006, eqs. (9)-(13) = Glowinski et al. 2005,
   * eqs. (2.3)-(2.9): friction step over dt, then elastic step over dt. Strang
   * splitting (16)-(22): friction over dt/2, elastic over dt, friction over
   * dt/2. The external force lives entirely in the friction step. The
   * multiplier reported for the step is the average of all its friction
   * sub-steps (37) (for Strang: over both halves, an open choice of
   * doc/theory.md §6.2). The step is written once (FrictionSubsteps,
   * ElasticSubsteps and their sequence here) for two kinds of system: a tiny
   * system (a finite-dof model of at most ReplicatedSystem::size_limit
   * unknowns) takes it on a ReplicatedSystem, the same arithmetic on plain
   * arrays on every rank; any other on the FrictionSystem itself, where Lie
   * with P = Q = 1, alpha = 0, a lumped M and the closed form runs as a
   * FusedLieStep (the same arithmetic in fewer passes over memory).
   */
  class SplittingIntegrator : public TimeIntegrator
  {
  public:
    SplittingIntegrator(const Parameters::Numerics &run,
                        const FrictionSystem       &system,
                        const ParameterSource      &source,
                        const double                dt);

    ~SplittingIntegrator() override;

    void
    advance(const TimeStep &step, FrictionState &state) override;

    std::string
    description() const override;

    void
    register_state(CheckpointArchive &archive) override;

  private:
    /**
     * The friction and elastic sub-steps of one Lie or Strang step on
     * (@p displacement, @p velocity), the average multiplier into
     * @p multiplier, the stick flags into @p stick.
     */
    template <class System>
    void
    split_step(FrictionSubsteps<System> &friction,
               ElasticSubsteps<System>  &elastic,
               const TimeStep           &step,
               typename System::Vector  &displacement,
               typename System::Vector  &velocity,
               typename System::Vector  &multiplier,
               typename System::Vector  &stick);

    /** The step of a tiny system on a ReplicatedSystem. */
    struct Replicated;

    const bool                       strang;
    FrictionSubsteps<FrictionSystem> friction;
    /** The step runs as a FusedLieStep (then elastic holds nothing). */
    const bool                      fuse;
    ElasticSubsteps<FrictionSystem> elastic;
    /** The fused form of the step where it applies, else empty. */
    std::unique_ptr<FusedLieStep> fused;
    /** The plain-array form of a tiny system's step, else empty. */
    std::unique_ptr<Replicated> replicated;
  };
} // namespace stickslip

#endif
