#ifndef stickslip_control_control_driver_h
#define stickslip_control_control_driver_h

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/timer.h>

#include <base/output_files.h>
#include <control/control_parameters.h>
#include <control/control_penalty.h>
#include <control/parallel_direct_search.h>
#include <drivers/run_parameters.h>
#include <drivers/study.h>
#include <models/common/finite_dof_model.h>

#include <functional>
#include <memory>

namespace stickslip
{
  class SearchSnapshots;
  class IterationGuard;

  /**
   * The optimal control of Glowinski & Kearsley 1995, §2-3: a parallel direct
   * search over constant controls v whose function evaluations are whole
   * simulations of M x'' + A x + C lambda = f + B v. MPI_COMM_WORLD is split
   * into groups of Control/Ranks per simulation ranks; group g evaluates the
   * trial points g, g + n_groups, ..., and the outcomes are summed over the
   * world, so every rank sees every outcome and takes the same decisions.
   * Each evaluation builds a fresh integrator (no warm start carried from
   * another point) and runs through RunLoop::integrate, so the result does
   * not depend on which group ran which point: the optimum is the same for
   * any number of ranks. Writes optimization.csv (one row per simplex),
   * then runs the controlled system with the optimal control as a single
   * run (history.csv). With snapshots (SearchSnapshots), a search stopped
   * between two iterations continues where it was, with the same result.
   */
  class ControlDriver : public Study
  {
  public:
    /** Builds a model of the run on a communicator. */
    using ModelFactory =
      std::function<std::unique_ptr<Model>(const MPI_Comm comm)>;

    /**
     * @p model: the model on @p world, used for the controlled run after
     * the search; @p factory builds the models of the search's groups.
     */
    ControlDriver(const Parameters::Run    &run,
                  const ControlParameters  &control,
                  const ParameterSource    &source,
                  const ModelFactory       &factory,
                  std::unique_ptr<Model>    model,
                  const ConditionalOStream &pcout,
                  TimerOutput              &timer,
                  const MPI_Comm            world);

    ~ControlDriver() override;

    ControlDriver(const ControlDriver &) = delete;
    ControlDriver &
    operator=(const ControlDriver &) = delete;

    void
    run(RunDirectory &directory, const bool resume) override;

  private:
    /** x(T), x'(T) of the group's model for the control @p v. */
    ControlOutcome
    simulate(const std::vector<double> &v);

    /** Outcomes of a batch, spread over the groups (collective on world). */
    std::vector<ControlOutcome>
    evaluate(const std::vector<std::vector<double>> &points);

    /** B v, replicated. */
    std::vector<double>
    control_force(const std::vector<double> &v) const;

    /** The search from its start or its newest snapshot, to its end. */
    ParallelDirectSearch::Result
    search(RunDirectory &directory, const bool resume);

    /**
     * After every simplex: the row of optimization.csv, the penalty's
     * update, a screen line, and a snapshot when due or signalled.
     */
    void
    observe(const ParallelDirectSearch::State &state,
            const RunDirectory                &directory);

    void
    print_header(const RunDirectory &directory) const;

    void
    print_result(const ParallelDirectSearch::Result &result,
                 const double                        wall) const;

    const Parameters::Run            parameters;
    const ControlParameters          control;
    const ParameterSource           &source;
    const ModelFactory               factory;
    std::unique_ptr<Model>           world_model;
    const ConditionalOStream        &pcout;
    TimerOutput                     &timer;
    const MPI_Comm                   world;
    MPI_Comm                         group;
    unsigned int                     n_groups, group_index;
    std::unique_ptr<Model>           group_model;
    FiniteDofModel                  *group_system_model;
    unsigned long                    simulation_iterations;
    std::unique_ptr<ControlPenalty>  penalty;
    std::unique_ptr<CsvTable>        table;
    std::unique_ptr<SearchSnapshots> snapshots;
    /** Snapshot or signal, then stop, after each simplex. */
    std::unique_ptr<IterationGuard> guard;
    bool                            take_snapshots;
  };
} // namespace stickslip

#endif
