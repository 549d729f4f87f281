#include <deal.II/base/mpi.h>

#include <base/expressions.h>
#include <models/common/step_failure.h>
#include <models/spring_slider/spring_slider_evolution.h>

#include <cmath>
#include <fstream>
#include <iomanip>
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
    , slider_where(source.where("Spring slider/Slider displacement"))
    , events_ready(false)
    , n_events(0)
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
    if (parameters.adaptive())
      ode = std::make_unique<SpringSliderOde>(parameters, law);
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
    if (ode)
      ode->reinit(t0, ode_state());
    prepare_events_file(true);
  }



  void
  SpringSliderEvolution::check_initial_state(const double t0) const
  {
    const double theta = law.initial_state(t0);
    const double v0    = parameters.initial_velocity == "steady" ?
                           parameters.load_velocity :
                           std::stod(parameters.initial_velocity);
    const double mu    = law.value(v0, theta);
    const double force = parameters.normal_force * mu;
    if (slider || std::isfinite(0.5 * force * force / parameters.stiffness))
      return;
    throw InputError(
      "Spring slider: the friction coefficient of the initial state, mu(v = " +
      format_number(v0) + " m/s, state " + format_number(theta) + ") = " +
      format_number(mu) + ", or the spring energy N^2 mu^2/(2 k) it gives " +
      "the steady start, is not finite (" + law.description() +
      "); check the values of Spring slider/Friction law" +
      (law.kind() == FrictionLaw::Kind::rate_and_state ?
         " (rate and state: mu is about f_0 + a ln(v/V_0) + b ln(V_0 "
         "theta/D_c))" :
         ""));
  }



  void
  SpringSliderEvolution::set_events_file(const std::string &path)
  {
    events_file = path;
  }



  double
  SpringSliderEvolution::spring_force(const double t) const
  {
    return parameters.stiffness * (parameters.load_velocity * t - x);
  }



  void
  SpringSliderEvolution::advance(const TimeStep &step)
  {
    if (ode)
      advance_adaptive(step);
    else if (slider)
      advance_driven(step);
    else
      advance_nodal(step);
    if (std::abs(v) > parameters.friction.rupture_slip_rate)
      last_slip_time = time;
  }



  SpringSliderOde::State
  SpringSliderEvolution::ode_state() const
  {
    return {{x, v, std::log(state), slip, friction_work, load_work}};
  }



  void
  SpringSliderEvolution::set_state(const double                  t,
                                   const SpringSliderOde::State &values)
  {
    x             = values[SpringSliderOde::displacement];
    v             = values[SpringSliderOde::velocity];
    state         = std::exp(values[SpringSliderOde::log_state]);
    slip          = values[SpringSliderOde::slip];
    friction_work = values[SpringSliderOde::friction_work];
    load_work     = values[SpringSliderOde::load_work];
    coefficient   = ode->friction_coefficient(values);
    friction      = -parameters.normal_force * coefficient * (v < 0 ? -1 : 1);
    time          = t;
  }



  void
  SpringSliderEvolution::advance_adaptive(const TimeStep &step)
  {
    // A resumed run (or a first step) starts CVODE from the state read.
    if (!(ode->time() == step.time))
      ode->reinit(step.time, ode_state());
    if (!events_ready)
      prepare_events_file(false);
    std::vector<SpringSliderOde::Event> events;
    SpringSliderOde::State              values;
    try
      {
        values = ode->advance_to(step.next_time, events);
      }
    catch (const RunError &error)
      {
        write_events(events);
        throw StepFailedStateKept(error.what());
      }
    write_events(events);
    set_state(step.next_time, values);
  }



  void
  SpringSliderEvolution::advance_driven(const TimeStep &step)
  {
    // The slider moves with X(t): the step's mean velocity.
    const double dt = step.size, N = parameters.normal_force;
    const double x_new = slider->value(Point<1>(step.next_time));
    if (!std::isfinite(x_new))
      throw StepFailedStateKept(
        "parameter 'Spring slider/Slider displacement'" + slider_where +
        " = '" + parameters.slider_displacement + "' became " +
        format_number(x_new) + " at t = " + format_number(step.next_time) +
        " during the run: data must stay finite numbers (a division by zero "
        "or an overflow at that time?)");
    const double v_new     = (x_new - x) / dt;
    const double rate      = std::abs(v_new);
    const double mu        = law.step(state, dt).value(rate);
    const double state_new = law.evolve(state, rate, dt);
    if (!std::isfinite(v_new + mu + state_new))
      throw StepFailedStateKept(
        "the friction of the prescribed slider is not finite at t = " +
        format_number(step.next_time) + ": slip rate " + format_number(v_new) +
        " m/s, friction coefficient " + format_number(mu) + ", state " +
        format_number(state_new) + " (" + law.description() + ")");
    coefficient = mu;
    state       = state_new;
    friction    = -N * coefficient * (v_new > 0 ? 1 : -1);
    x           = x_new;
    v           = v_new;
    slip += dt * std::abs(v);
    friction_work -= dt * friction * v;
    time = step.next_time;
  }



  void
  SpringSliderEvolution::advance_nodal(const TimeStep &step)
  {
    const double dt = step.size, N = parameters.normal_force;
    const double m = parameters.mass, k = parameters.stiffness;
    const double a = m / dt + k * dt;
    const double r =
      m * v / dt + k * (parameters.load_velocity * step.next_time - x);
    const TangentialUpdate update =
      node.tangential_step(a, N, {{r, 0.}}, {{v, 0.}}, law, state, dt);
    if (!update.converged)
      throw StepFailedStateKept(
        "the friction step of the spring-slider did not converge at t = " +
        format_number(step.next_time) + ": the slip-rate solve of a s + N " +
        "mu~(s) = r (doc/theory.md §8.3) stopped after " +
        std::to_string(update.iterations) + " iterations with residual " +
        format_number(update.residual) + " (" + law.description() +
        "). It has one solution when a = m/dt + k dt = " + format_number(a) +
        " exceeds N L = " + format_number(N * update.lipschitz_bound) +
        "; reduce Time/Time step, or raise Spring slider/Friction law/Root " +
        "scan points to search the solutions more finely");
    const double v_new = update.slip[0];
    const double x_new = x + dt * v_new;
    if (!std::isfinite(x_new + v_new + update.state))
      throw StepFailedStateKept(
        "the state of the spring-slider is not finite at t = " +
        format_number(step.next_time) + " (velocity " + format_number(v_new) +
        " m/s, state " + format_number(update.state) + "; " +
        law.description() + ")");
    // The load point's work with the mean force of the step.
    const double force_before = spring_force(step.time);
    x                         = x_new;
    load_work += 0.5 * (force_before + spring_force(step.next_time)) *
                 parameters.load_velocity * dt;
    friction    = -update.friction_force[0];
    coefficient = update.coefficient;
    state       = update.state;
    iterations += update.iterations;
    ambiguous += update.unique ? 0 : 1;
    v = v_new;
    slip += dt * std::abs(v);
    friction_work -= dt * friction * v;
    time = step.next_time;
  }



  void
  SpringSliderEvolution::prepare_events_file(const bool fresh)
  {
    if (events_ready)
      return;
    events_ready = true;
    if (events_file.empty() || !ode ||
        Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) != 0)
      return;
    // Keep the header and the rows up to the current time.
    std::vector<std::string> kept;
    std::ifstream            in(fresh ? std::string() : events_file);
    std::string              line;
    while (std::getline(in, line))
      if (kept.empty() || std::stod(line.substr(0, line.find(','))) <=
                            time + 1e-12 * std::max(1., std::abs(time)))
        kept.push_back(line);
    in.close();
    std::ofstream out(events_file, std::ios::trunc);
    if (kept.empty())
      {
        for (const std::string &column : history_columns())
          out << column << ',';
        out << "event\n";
      }
    for (const std::string &row : kept)
      out << row << '\n';
    if (!out)
      throw RunError("cannot write " + events_file);
  }



  void
  SpringSliderEvolution::write_events(
    const std::vector<SpringSliderOde::Event> &events)
  {
    n_events += events.size();
    if (events.empty() || events_file.empty() ||
        Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) != 0)
      return;
    // The row of each event's state (the members hold the step's start).
    const SpringSliderOde::State now      = ode_state();
    const double                 now_time = time;
    std::ofstream                out(events_file, std::ios::app);
    out << std::setprecision(17);
    for (const SpringSliderOde::Event &event : events)
      {
        set_state(event.time, event.state);
        for (const double value : history_row(event.time))
          out << value << ',';
        out << SpringSliderOde::name(event.kind) << '\n';
      }
    set_state(now_time, now);
    if (!out)
      throw RunError("cannot write " + events_file);
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
    // energy the integration loses, within the tolerance for the adaptive
    // integrator, O(dt) for the implicit Euler step; 0 for a prescribed
    // slider, whose energies are not those of the system.
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
    if (ode)
      {
        text << "  " << statistics.steps_taken << " steps of the run loop, "
             << format_number(statistics.time_step) << " s; "
             << ode->statistics() << "; " << n_events << " events (events.csv)";
        return text.str();
      }
    text << "  " << statistics.steps_taken << " steps of "
         << format_number(statistics.time_step)
         << " s; friction steps: " << iterations << " slip-rate iterations, "
         << ambiguous
         << " with several solutions (a <= N L, doc/theory.md §8.3)";
    return text.str();
  }
} // namespace stickslip
