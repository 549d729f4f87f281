#ifndef stickslip_models_spring_slider_spring_slider_evolution_h
#define stickslip_models_spring_slider_spring_slider_evolution_h

#include <deal.II/base/function_parser.h>

#include <base/input_error.h>
#include <friction/contact_node.h>
#include <friction/friction_law.h>
#include <models/common/evolution.h>
#include <models/spring_slider/spring_slider_ode.h>
#include <models/spring_slider/spring_slider_parameters.h>

#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The spring-slider (Model = spring-slider, doc/theory.md §8.5) as an
   * Evolution of the run loop, in one of three ways:
   * - driven by the spring on rate and state (SpringSliderParameters::
   *   adaptive()): the ODE of SpringSliderOde, integrated by CVODE with
   *   error control (Spring slider/Relative tolerance) from one step of the
   *   run loop to the next; Time/Time step only sets where the state is
   *   sampled (rows with Output/Interval = 0, snapshots). The events it
   *   locates (slip onsets, arrests, slip-rate maxima) are rows of
   *   events.csv;
   * - driven by the spring on a law with a static strength (stick): the
   *   block's velocity by implicit Euler with the nodal friction step of
   *   the contact nodes,
   *
   *     (m/dt + k dt) v^{n+1} + N mu~(|v^{n+1}|) Dir(v^{n+1})
   *       \ni m v^n/dt + k (V_load t^{n+1} - x^n),
   *     x^{n+1} = x^n + dt v^{n+1},
   *
   *   i.e. a s + S mu~(|s|) Dir(s) \ni r with a = m/dt + k dt, S = N, the
   *   step of Renard 2001, eq. (52) for one node;
   * - with a prescribed slider displacement X(t): v^{n+1} = (X(t^{n+1}) -
   *   X(t^n))/dt and the friction of the law at this rate.
   *
   * The state is one set of scalars, the same on every rank. A step that
   * fails leaves the state of its start (StepFailedStateKept), which the
   * run loop writes as the last row.
   */
  class SpringSliderEvolution : public Evolution
  {
  public:
    SpringSliderEvolution(const SpringSliderParameters &parameters,
                          const ParameterSource        &source);

    std::string
    description() const override;

    /**
     * An InputError if the initial state at @p t0 is not finite (a
     * friction coefficient that overflows), before anything is written.
     */
    void
    check_initial_state(const double t0) const;

    /**
     * Write the events of the adaptive integrator to @p path (rank 0; ""
     * writes none): the history's columns and an `event` column.
     */
    void
    set_events_file(const std::string &path);

    void
    initialize(const double t0) override;

    void
    advance(const TimeStep &step) override;

    void
    register_state(CheckpointArchive &archive) override;

    bool
    numbering_independent_of_partition() const override;

    /** history.csv only (the block has no fields). */
    OutputSeries
    output_series() override;

    std::string
    stop_reason() const override;

    std::string
    summary(const RunStatistics &statistics) const override;

  private:
    std::vector<std::string>
    history_columns() const;

    std::vector<double>
    history_row(const double t);

    /** The spring's force on the block at @p t, k (V_load t - x). */
    double
    spring_force(const double t) const;

    /** A step of the ODE with error control (adaptive()). */
    void
    advance_adaptive(const TimeStep &step);

    /** An implicit Euler step with the nodal friction step. */
    void
    advance_nodal(const TimeStep &step);

    /** A step of the prescribed slider displacement. */
    void
    advance_driven(const TimeStep &step);

    /** The state as the ODE's unknowns. */
    SpringSliderOde::State
    ode_state() const;

    /** Take over the ODE's @p values at @p t. */
    void
    set_state(const double t, const SpringSliderOde::State &values);

    /**
     * Start events.csv (@p fresh run), or keep its rows up to the current
     * time (a resumed run: the rows after the snapshot are computed again).
     */
    void
    prepare_events_file(const bool fresh);

    /** Append @p events to events.csv (rank 0). */
    void
    write_events(const std::vector<SpringSliderOde::Event> &events);

    const SpringSliderParameters       parameters;
    const FrictionLaw                  law;
    const ContactNode                  node;
    const std::string                  slider_where; ///< " (file, line)"
    std::unique_ptr<FunctionParser<1>> slider;
    std::unique_ptr<SpringSliderOde>   ode;
    std::string                        events_file;
    bool                               events_ready;
    unsigned long                      n_events;
    double x, v, state; ///< displacement, velocity, psi
    double friction;    ///< force on the block, -N mu~ Dir(v)
    double coefficient; ///< mu~ of the last step
    double slip, friction_work, load_work; ///< int |v| dt, int f v dt, ...
    double initial_energy, time;           ///< at t0; of the state
    double last_slip_time;                 ///< Stop after arrest
    unsigned long iterations, ambiguous;
  };
} // namespace stickslip

#endif
