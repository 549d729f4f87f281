#include <base/expressions.h>
#include <models/spring_slider/spring_slider_evolution.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** The law of the block (at x = 0: the block is one point). */
    FrictionLaw
    block_law(const SpringSliderParameters &parameters,
              const ParameterSource        &source)
    {
      std::string       problem;
      const FrictionLaw law =
        FrictionLawField<1>(parameters.friction, "x", source)
          .at(Point<1>(), problem);
      if (!problem.empty())
        throw InputError(problem);
      return law;
    }
  } // namespace



  SpringSliderEvolution::SpringSliderEvolution(
    const SpringSliderParameters &parameters,
    const ParameterSource        &source)
    : parameters(parameters)
    , law(block_law(parameters, source))
    , node(ContactLaw{NormalContactLaw::unilateral,
                      1.,
                      ClosingVelocity::at_rest,
                      law,
                      parameters.friction.root_scan_points})
    , x(0)
    , v(0)
    , state(0)
    , friction(0)
    , coefficient(0)
    , slip(0)
    , friction_work(0)
    , load_work(0)
    , initial_energy(0)
    , time(0)
    , last_slip_time(-std::numeric_limits<double>::infinity())
    , iterations(0)
    , ambiguous(0)
  {
    if (parameters.driven())
      slider = parse_function<1>(parameters.slider_displacement,
                                 "t",
                                 "Spring slider/Slider displacement",
                                 source);
  }



  std::string
  SpringSliderEvolution::description() const
  {
    std::ostringstream text;
    text << "spring-slider, ";
    if (parameters.driven())
      text << "slider displacement X(t) = " << parameters.slider_displacement;
    else
      text << "m = " << format_number(parameters.mass)
           << " kg, k = " << format_number(parameters.stiffness)
           << " N/m, V_load = " << format_number(parameters.load_velocity)
           << " m/s";
    text << ", N = " << format_number(parameters.normal_force)
         << " N, mu: " << law.description();
    return text.str();
  }



  void
  SpringSliderEvolution::initialize(const double t0)
  {
    time        = t0;
    state       = law.initial_state(t0);
    v           = parameters.initial_velocity == "steady" ?
                    parameters.load_velocity :
                    std::stod(parameters.initial_velocity);
    coefficient = law.value(v, state);
    if (slider)
      x = slider->value(Point<1>(t0));
    else if (parameters.initial_displacement == "steady")
      // k (V_load t0 - x) = N mu(v0, psi0): the force of steady sliding.
      x = parameters.load_velocity * t0 -
          parameters.normal_force * coefficient / parameters.stiffness;
    else
      x = std::stod(parameters.initial_displacement);
    friction = -parameters.normal_force * coefficient * (v > 0 ? 1 : 0);
    slip = friction_work = load_work = 0;
    const double f                   = spring_force(t0);
    initial_energy =
      0.5 * parameters.mass * v * v + 0.5 * f * f / parameters.stiffness;
  }



  double
  SpringSliderEvolution::spring_force(const double t) const
  {
    return parameters.stiffness * (parameters.load_velocity * t - x);
  }



  void
  SpringSliderEvolution::advance(const TimeStep &step)
  {
    const double dt = step.size, N = parameters.normal_force;
    double       v_new;
    if (slider)
      {
        // The slider moves with X(t): the step's mean velocity.
        const double x_new = slider->value(Point<1>(step.next_time));
        v_new              = (x_new - x) / dt;
        const double rate  = std::abs(v_new);
        coefficient        = law.step(state, dt).value(rate);
        state              = law.evolve(state, rate, dt);
        friction           = -N * coefficient * (v_new > 0 ? 1 : -1);
        x                  = x_new;
      }
    else
      {
        const double m = parameters.mass, k = parameters.stiffness;
        const double a = m / dt + k * dt;
        const double r =
          m * v / dt + k * (parameters.load_velocity * step.next_time - x);
        const TangentialUpdate update =
          node.tangential_step(a, N, {{r, 0.}}, {{v, 0.}}, law, state, dt);
        if (!update.converged)
          throw RunError("the friction step of the spring-slider did not "
                         "converge at t = " +
                         format_number(step.next_time));
        v_new = update.slip[0];
        // The load point's work with the mean force of the step.
        const double force_before = spring_force(step.time);
        x += dt * v_new;
        load_work += 0.5 * (force_before + spring_force(step.next_time)) *
                     parameters.load_velocity * dt;
        friction    = -update.friction_force[0];
        coefficient = update.coefficient;
        state       = update.state;
        iterations += update.iterations;
        ambiguous += update.unique ? 0 : 1;
      }
    v = v_new;
    slip += dt * std::abs(v);
    friction_work -= dt * friction * v;
    time = step.next_time;
    if (std::abs(v) > parameters.friction.rupture_slip_rate)
      last_slip_time = time;
    if (!std::isfinite(x + v + state))
      throw RunError("the state of the spring-slider is not finite at t = " +
                     format_number(step.next_time));
  }



  void
  SpringSliderEvolution::register_state(CheckpointArchive &archive)
  {
    // The same on every rank: any number of ranks reads it.
    for (double *value : {&x,
                          &v,
                          &state,
                          &friction,
                          &coefficient,
                          &slip,
                          &friction_work,
                          &load_work,
                          &initial_energy,
                          &time,
                          &last_slip_time})
      archive.add(*value);
    archive.add(iterations);
    archive.add(ambiguous);
  }



  bool
  SpringSliderEvolution::numbering_independent_of_partition() const
  {
    return true;
  }



  OutputSeries
  SpringSliderEvolution::output_series()
  {
    return {{history_columns(),
             [this](const double t) { return history_row(t); }},
            {},
            {}};
  }



  std::vector<std::string>
  SpringSliderEvolution::history_columns() const
  {
    return {"t",
            "displacement",
            "velocity",
            "friction_state",
            "friction_coefficient",
            "friction_force",
            "spring_force",
            "slip",
            "friction_work",
            "load_work",
            "energy_balance"};
  }



  std::vector<double>
  SpringSliderEvolution::history_row(const double t)
  {
    const double f = spring_force(t);
    // Kinetic + spring energy + friction work - load work - initial: the
    // energy the scheme's implicit Euler step removes (O(dt)); 0 for a
    // prescribed slider, whose energies are not those of the system.
    const double balance = slider ?
                             0. :
                             0.5 * parameters.mass * v * v +
                               0.5 * f * f / parameters.stiffness +
                               friction_work - load_work - initial_energy;
    return {t,
            x,
            v,
            state,
            -friction / parameters.normal_force,
            friction,
            slider ? 0. : f,
            slip,
            friction_work,
            load_work,
            balance};
  }



  std::string
  SpringSliderEvolution::stop_reason() const
  {
    const double quiet = parameters.friction.stop_time;
    if (!(quiet > 0) || !std::isfinite(last_slip_time) ||
        time - last_slip_time < quiet)
      return "";
    return "the block has not slipped faster than " +
           format_number(parameters.friction.rupture_slip_rate) +
           " m/s since t = " + format_number(last_slip_time) +
           " (Spring slider/Friction law/Stop after arrest = " +
           format_number(quiet) + " s)";
  }



  std::string
  SpringSliderEvolution::summary(const RunStatistics &statistics) const
  {
    std::ostringstream text;
    text << "  " << statistics.steps_taken << " steps of "
         << format_number(statistics.time_step)
         << " s; friction steps: " << iterations << " slip-rate iterations, "
         << ambiguous
         << " with several solutions (a <= N L, doc/theory.md §8.3)";
    return text.str();
  }
} // namespace stickslip
