#include <friction/replicated_semismooth_newton.h>
#include <time/splitting_integrator.h>

#include <sstream>

namespace stickslip
{
  namespace
  {
    /**
     * Whether the step of @p run for @p system runs on a ReplicatedSystem:
     * a replicable system, a direct linear solver, and the semismooth
     * Newton or (diagonal M) closed-form friction solver.
     */
    bool
    splitting_replicable(const Parameters::Numerics &run,
                         const FrictionSystem       &system)
    {
      const auto solver = run.friction.solver;
      return ReplicatedSystem::applies(system) &&
             run.linear_solver.type != Parameters::LinearSolverType::cg &&
             (solver == Parameters::FrictionSolverType::semismooth_newton ||
              (solver == Parameters::FrictionSolverType::closed_form &&
               system.mass_is_diagonal()));
    }
  } // namespace



  struct SplittingIntegrator::Replicated
  {
    Replicated(const Parameters::Numerics &run,
               const FrictionSystem       &distributed,
               const ParameterSource      &source,
               const double                dt)
      : system(distributed)
      , friction(
          system,
          std::make_unique<ReplicatedFrictionSolver>(system.mass_matrix,
                                                     system.friction_weights,
                                                     run.friction),
          run.splitting.friction_substeps,
          run.time.scheme == Parameters::Scheme::strang ? 2 : 1,
          run.time.scheme == Parameters::Scheme::strang ? dt / 2 : dt)
      , elastic(system, run.splitting, run.linear_solver, source, dt)
    {}

    ReplicatedSystem                   system;
    FrictionSubsteps<ReplicatedSystem> friction;
    ElasticSubsteps<ReplicatedSystem>  elastic;
    /** The state during a step. */
    ReplicatedVector displacement, velocity, multiplier, stick;
  };



  SplittingIntegrator::SplittingIntegrator(const Parameters::Numerics &run,
                                           const FrictionSystem       &system,
                                           const ParameterSource      &source,
                                           const double                dt)
    : strang(run.time.scheme == Parameters::Scheme::strang)
    , friction(system,
               create_friction_step_solver(run.friction,
                                           run.linear_solver,
                                           system,
                                           source),
               run.splitting.friction_substeps,
               strang ? 2 : 1,
               strang ? dt / 2 : dt)
    , fuse(!splitting_replicable(run, system) &&
           FusedLieStep::applies(run, system, friction.solver().closed_form()))
    , elastic(system, run.splitting, run.linear_solver, source, dt, fuse)
  {
    if (splitting_replicable(run, system))
      replicated = std::make_unique<Replicated>(run, system, source, dt);
    else if (fuse)
      fused = std::make_unique<FusedLieStep>(system, dt);
  }



  SplittingIntegrator::~SplittingIntegrator() = default;



  template <class System>
  void
  SplittingIntegrator::split_step(FrictionSubsteps<System> &friction,
                                  ElasticSubsteps<System>  &elastic,
                                  const TimeStep           &step,
                                  typename System::Vector  &displacement,
                                  typename System::Vector  &velocity,
                                  typename System::Vector  &multiplier,
                                  typename System::Vector  &stick)
  {
    multiplier = 0;
    stick      = 1.;
    if (strang)
      {
        // Friction on [t_n, t_n + dt/2] and [t_n + dt/2, t_{n+1}]: the
        // second half ends exactly at t_{n+1}.
        const double weight = 0.5 / friction.n_substeps();
        friction.advance(
          step.part(0, 2), 0, weight, velocity, multiplier, stick, statistics);
        elastic.advance(step, displacement, velocity);
        friction.advance(
          step.part(1, 2), 1, weight, velocity, multiplier, stick, statistics);
      }
    else
      {
        const double weight = 1. / friction.n_substeps();
        friction.advance(
          step, 0, weight, velocity, multiplier, stick, statistics);
        elastic.advance(step, displacement, velocity);
      }
  }



  void
  SplittingIntegrator::advance(const TimeStep &step, FrictionState &state)
  {
    if (replicated)
      {
        // The state is read once and written once per step.
        Replicated &r = *replicated;
        r.system.gather(state.displacement, r.displacement);
        r.system.gather(state.velocity, r.velocity);
        if (r.multiplier.size() != r.system.size())
          for (auto *v : {&r.multiplier, &r.stick})
            r.system.reinit_vector(*v);
        split_step(r.friction,
                   r.elastic,
                   step,
                   r.displacement,
                   r.velocity,
                   r.multiplier,
                   r.stick);
        r.system.scatter(r.displacement, state.displacement);
        r.system.scatter(r.velocity, state.velocity);
        r.system.scatter(r.multiplier, state.multiplier);
        r.system.scatter(r.stick, state.stick);
        return;
      }
    if (fused)
      {
        fused->advance(step, state, statistics);
        return;
      }
    split_step(friction,
               elastic,
               step,
               state.displacement,
               state.velocity,
               state.multiplier,
               state.stick);
  }



  std::string
  SplittingIntegrator::description() const
  {
    std::ostringstream out;
    out << (strang ? "Strang" : "Lie")
        << " splitting; friction step: P = " << friction.n_substeps()
        << ", solver " << friction.solver().name() << "; "
        << elastic.description();
    if (replicated)
      out << "; steps on plain arrays (tiny system)";
    return out.str();
  }


  void
  SplittingIntegrator::register_state(CheckpointArchive &archive)
  {
    if (replicated)
      replicated->friction.register_state(archive);
    else
      friction.register_state(archive);
  }
} // namespace stickslip
