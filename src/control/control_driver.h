#ifndef stickslip_control_control_driver_h
#define stickslip_control_control_driver_h

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/parameter_handler.h>

#include <base/run_parameters.h>
#include <control/control_parameters.h>
#include <control/control_penalty.h>
#include <models/common/finite_dof_model.h>

#include <functional>
#include <memory>

namespace stickslip
{
  /**
   * The optimal control driver of seed 002 §2-3: a parallel direct search
   * over constant controls v whose function evaluations are whole
   * simulations of M x'' + A x + C lambda = f + B v. MPI_COMM_WORLD is split
   * into groups of Control/Ranks per simulation ranks; group g evaluates
   * the trial points g, g + n_groups, ..., and the outcomes are summed over
   * the world, so every rank sees every outcome and takes the same
   * decisions. Each evaluation builds a fresh integrator (no warm start
   * carried from another point), so the result does not depend on which
   * group ran which point: the optimum is the same for any number of ranks.
   * Writes optimization.csv (one row per simplex), then runs the controlled
   * system with the optimal control through the usual Driver (history.csv).
   * With snapshots (SearchSnapshots), a search stopped between two
   * iterations continues where it was, with the same result.
   */
  class ControlDriver
  {
  public:
    /** Builds a model of the run on a communicator. */
    using ModelFactory =
      std::function<std::unique_ptr<Model>(const MPI_Comm comm)>;

    ControlDriver(const Parameters::Run &   run,
                  const ControlParameters & control,
                  const ParameterSource &   source,
                  const ModelFactory &      factory,
                  const ParameterHandler &  prm,
                  const ConditionalOStream &pcout,
                  const MPI_Comm            world);

    ~ControlDriver();

    ControlDriver(const ControlDriver &) = delete;
    ControlDriver &
    operator=(const ControlDriver &) = delete;

    void
    run();

    /**
     * Continue the search from the newest complete snapshot in the output
     * directory (call before run()).
     */
    void
    resume_from_snapshot();

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

    const Parameters::Run &   parameters;
    const ControlParameters & control;
    const ParameterSource &   source;
    const ModelFactory        factory;
    const ParameterHandler &  prm;
    const ConditionalOStream &pcout;
    const MPI_Comm            world;
    MPI_Comm                  group;
    unsigned int              n_groups, group_index;
    std::unique_ptr<Model>    group_model;
    FiniteDofModel *          group_system_model;
    unsigned long             simulation_iterations;
    bool                      resume;
  };
} // namespace stickslip

#endif
