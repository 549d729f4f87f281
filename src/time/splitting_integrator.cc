#include <friction/closed_form_solver.h>
#include <time/splitting_integrator.h>

#include <sstream>

namespace stickslip
{
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
    , fuse(!ReplicatedSplittingStep::applies(run, system) &&
           FusedLieStep::applies(run,
                                 system,
                                 dynamic_cast<const ClosedFormSolver *>(
                                   &friction.solver()) != nullptr))
    , elastic(system, run.splitting, run.linear_solver, source, dt, fuse)
  {
    if (ReplicatedSplittingStep::applies(run, system))
      replicated = std::make_unique<ReplicatedSplittingStep>(run, system, dt);
    else if (fuse)
      fused = std::make_unique<FusedLieStep>(system, dt);
  }



  void
  SplittingIntegrator::advance(const TimeStep &step, FrictionState &state)
  {
    if (replicated)
      {
        replicated->advance(step, state, statistics);
        return;
      }
    if (fused)
      {
        fused->advance(step, state, statistics);
        return;
      }
    state.multiplier = 0;
    state.stick      = 1.;
    if (strang)
      {
        // Friction on [t_n, t_n + dt/2] and [t_n + dt/2, t_{n+1}]: the
        // second half ends exactly at t_{n+1}.
        const double weight = 0.5 / friction.n_substeps();
        friction.advance(step.part(0, 2),
                         0,
                         weight,
                         state.velocity,
                         state.multiplier,
                         state.stick,
                         statistics);
        elastic.advance(step, state.displacement, state.velocity);
        friction.advance(step.part(1, 2),
                         1,
                         weight,
                         state.velocity,
                         state.multiplier,
                         state.stick,
                         statistics);
      }
    else
      {
        const double weight = 1. / friction.n_substeps();
        friction.advance(step,
                         0,
                         weight,
                         state.velocity,
                         state.multiplier,
                         state.stick,
                         statistics);
        elastic.advance(step, state.displacement, state.velocity);
      }
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
      replicated->register_state(archive);
    else
      friction.register_state(archive);
  }
} // namespace stickslip
