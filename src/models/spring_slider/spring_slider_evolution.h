#ifndef stickslip_models_spring_slider_spring_slider_evolution_h
#define stickslip_models_spring_slider_spring_slider_evolution_h

#include <deal.II/base/function_parser.h>

#include <base/input_error.h>
#include <friction/contact_node.h>
#include <friction/friction_law.h>
#include <models/common/evolution.h>
#include <models/spring_slider/spring_slider_parameters.h>

#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The spring-slider (Model = spring-slider, doc/theory.md §8.5) as an
   * Evolution of the run loop: the block's velocity by implicit Euler with
   * the nodal friction step of the contact nodes (ContactNode with the
   * friction-law component, the state consistent with the step's slip
   * rate),
   *
   *   (m/dt + k dt) v^{n+1} + N mu~(|v^{n+1}|) Dir(v^{n+1})
   *     \ni m v^n/dt + k (V_load t^{n+1} - x^n),
   *   x^{n+1} = x^n + dt v^{n+1},
   *
   * i.e. a s + S mu~(|s|) Dir(s) \ni r with a = m/dt + k dt, S = N, the
   * step of Renard 2001, eq. (52) for one node. With a prescribed slider
   * displacement X(t), v^{n+1} = (X(t^{n+1}) - X(t^n))/dt and the friction
   * is that of the law at this rate. The state is one scalar, the same on
   * every rank.
   */
  class SpringSliderEvolution : public Evolution
  {
  public:
    SpringSliderEvolution(const SpringSliderParameters &parameters,
                          const ParameterSource        &source);

    std::string
    description() const override;

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

    const SpringSliderParameters       parameters;
    const FrictionLaw                  law;
    const ContactNode                  node;
    std::unique_ptr<FunctionParser<1>> slider;
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
