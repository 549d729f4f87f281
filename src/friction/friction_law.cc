#include <base/expressions.h>
#include <base/parameter_file.h>
#include <base/selection.h>
#include <friction/friction_law.h>

#include <cmath>
#include <limits>
#include <tuple>

namespace stickslip
{
  namespace Parameters
  {
    namespace
    {
      using Kind = FrictionLaw::Kind;

      const std::vector<std::pair<std::string, Kind>> law_names = {
        {"constant", Kind::constant},
        {"fig2", Kind::fig2},
        {"exponential", Kind::exponential},
        {"rational", Kind::rational},
        {"slip-weakening", Kind::slip_weakening},
        {"rate-and-state", Kind::rate_and_state},
        {"time-weakening", Kind::time_weakening}};

      /** The coefficients of the laws: mu_s, mu_d, v_c, D_c, t_h. */
      void
      declare_coefficients(
        ParameterHandler                                      &prm,
        const FrictionLaw::Defaults                           &defaults,
        const std::function<std::string(const std::string &)> &old_name)
      {
        prm.declare_entry(
          "Static friction coefficient",
          defaults.static_coefficient,
          Patterns::Anything(),
          "mu_s >= 0: the friction coefficient at rest, mu(0) of the "
          "instantaneous laws, the peak of slip weakening and of time "
          "weakening (doc/theory.md §8.1). An expression of the position." +
            old_name("Static friction coefficient"));
        prm.declare_entry(
          "Dynamic friction coefficient",
          defaults.dynamic_coefficient,
          Patterns::Anything(),
          "mu_d, 0 <= mu_d <= mu_s: the limit of mu(V) for large slip rates "
          "V (fig2, exponential, rational), the residual friction of slip "
          "and time weakening (not used by the constant law). An expression "
          "of the position." +
            old_name("Dynamic friction coefficient"));
        prm.declare_entry(
          "Critical slip velocity",
          "0.1",
          Patterns::Anything(),
          "v_c > 0 [m/s]: the slip-rate scale of fig2, exponential and "
          "rational. An expression of the position." +
            old_name("Critical slip velocity"));
        prm.declare_entry(
          "Critical slip distance",
          "1e-3",
          Patterns::Anything(),
          "D_c > 0 [m]: the slip over which slip weakening falls from mu_s "
          "to mu_d, and the state evolution distance (L) of rate and state, "
          "where theta relaxes to D_c/V. An expression of the position.");
        prm.declare_entry(
          "Healing time",
          "0",
          Patterns::Anything(),
          "t_h >= 0 [s] of slip weakening: the slip state D heals, "
          "dD/dt = V - D/t_h, so that a fault that stopped regains its "
          "strength mu_s over t_h; 0: no healing (dD/dt = V, a fault stays "
          "weak). An expression of the position.");
      }



      /** The rate-and-state and time-weakening entries. */
      void
      declare_rate_state_and_time(ParameterHandler &prm)
      {
        prm.declare_entry(
          "State evolution",
          "aging",
          Patterns::Selection("aging|slip"),
          "Evolution of the state theta of rate and state: aging, "
          "d theta/dt = 1 - V theta/D_c (Dieterich 1979); slip, d theta/dt "
          "= -(V theta/D_c) ln(V theta/D_c) (Ruina 1983). Both are "
          "integrated exactly at the slip rate of each step.");
        prm.declare_entry(
          "Direct effect a",
          "0.01",
          Patterns::Anything(),
          "a > 0 of rate and state, mu = a asinh[V/(2 V_0) exp((f_0 + b "
          "ln(V_0 theta/D_c))/a)] (Rice and Ben-Zion 1996, Lapusta et al. "
          "2000): the jump a ln(V2/V1) of mu at a step of the slip rate. An "
          "expression of the position.");
        prm.declare_entry(
          "Evolution effect b",
          "0.015",
          Patterns::Anything(),
          "b >= 0 of rate and state: steady sliding has mu_ss = f_0 + (a - "
          "b) ln(V/V_0), velocity weakening for b > a. An expression of the "
          "position.");
        prm.declare_entry("Reference coefficient f0",
                          "0.6",
                          Patterns::Anything(),
                          "f_0 of rate and state: mu_ss at V = V_0. An "
                          "expression of the position.");
        prm.declare_entry("Reference slip rate V0",
                          "1e-6",
                          Patterns::Anything(),
                          "V_0 > 0 [m/s] of rate and state. An expression of "
                          "the position.");
        prm.declare_entry(
          "Initial slip rate",
          "1e-9",
          Patterns::Anything(),
          "V_i > 0 [m/s]: Initial state = steady starts rate and state at "
          "theta_0 = D_c/V_i, steady sliding at V_i. An expression of the "
          "position.");
        prm.declare_entry(
          "Initial state",
          "steady",
          Patterns::Anything(),
          "theta_0 > 0 [s] of rate and state at the initial time, an "
          "expression of the position; steady: D_c/V_i.");
        prm.declare_entry(
          "Rupture speed",
          "1000",
          Patterns::Anything(),
          "v_r > 0 [m/s] of time weakening (Andrews 1985): the forced "
          "rupture front reaches a point at the distance r from the "
          "nucleation point at t = r/v_r, and mu falls linearly from mu_s "
          "to mu_d over the weakening time after it. An expression of the "
          "position.");
        prm.declare_entry("Nucleation point",
                          "0",
                          Patterns::Anything(),
                          "x_0 of time weakening: dim comma-separated "
                          "coordinates (0: the origin).");
        prm.declare_entry("Weakening time",
                          "1e-4",
                          Patterns::Anything(),
                          "t_w > 0 [s] of time weakening. An expression of "
                          "the position.");
      }
      /** The entries of NormalStressRegularization. */
      void
      declare_normal_stress_regularization(ParameterHandler &prm)
      {
        prm.declare_entry(
          "Normal stress regularization length",
          "auto",
          Patterns::Anything(),
          "L >= 0 [m]: the slip length of the effective normal stress S' of "
          "Prakash and Clifton 1993 (Cochard and Rice 2000; doc/theory.md "
          "§8.8), dS'/dt = -(|V| + V*)/L (S' - S): the friction bound of a "
          "contact node is mu S' instead of mu S, which makes sliding of an "
          "elastic body on the rigid plane well-posed when slip changes the "
          "normal stress. 0: off (S' = S). auto: L = h_C/50, h_C the size "
          "of the contact cells, for the explicit body against the rigid "
          "plane with unilateral contact (said in the log at the start), "
          "else 0. Body/Contact only.");
        prm.declare_entry(
          "Normal stress regularization velocity",
          "auto",
          Patterns::Anything(),
          "V* >= 0 [m/s]: the velocity scale of the effective normal stress "
          "(Normal stress regularization length): S' follows S over the "
          "time L/V* at rest. auto: c_s/500, "
          "c_s the shear-wave speed, with an automatic length, else 0. Used "
          "when the length is > 0.");
      }



      /**
       * The value of an entry that is a number or `auto`: the number
       * (0 for auto) and whether it was auto.
       */
      std::pair<double, bool>
      number_or_auto(const std::string     &text,
                     const std::string     &path,
                     const ParameterSource &source)
      {
        if (text == "auto")
          return {0., true};
        std::vector<double> values;
        try
          {
            values = parse_number_list(text, path, source);
          }
        catch (const InputError &)
          {
            values.clear();
          }
        if (values.size() != 1)
          throw_bad_parameter(source,
                              path,
                              text,
                              "expected one number >= 0 (0: off) or auto");
        return {values[0], false};
      }



      /** Refuse bad values, and a regularization outside Body/Contact. */
      void
      check_normal_stress_regularization(const FrictionLaw     &law,
                                         const std::string     &parent,
                                         const ParameterSource &source)
      {
        const std::string length =
          law.path + "/Normal stress regularization length";
        if (!(law.regularization_length >= 0) ||
            !std::isfinite(law.regularization_length))
          throw_bad_parameter(source,
                              length,
                              format_number(law.regularization_length),
                              "L must be a number >= 0 (0: off)");
        if (!(law.regularization_velocity >= 0) ||
            !std::isfinite(law.regularization_velocity))
          throw_bad_parameter(source,
                              law.path +
                                "/Normal stress regularization velocity",
                              format_number(law.regularization_velocity),
                              "V* must be a number >= 0");
        if (law.regularization_length > 0 && parent != "Body/Contact")
          throw_bad_parameter(source,
                              length,
                              format_number(law.regularization_length),
                              "only Body/Contact has a normal stress that "
                              "varies; here it must be 0");
      }
    } // namespace



    void
    FrictionLaw::declare_parameters(ParameterHandler &prm,
                                    const Defaults   &defaults)
    {
      const auto old_name = [&](const std::string &name) {
        if (!defaults.old_names)
          return std::string();
        return " (Old name: " + defaults.parent + "/" + name +
               ", still accepted.)";
      };
      prm.enter_subsection("Friction law");
      std::string names;
      for (const auto &choice : law_names)
        names += (names.empty() ? "" : "|") + choice.first;
      prm.declare_entry(
        "Law",
        defaults.law,
        Patterns::Selection(names),
        "The friction coefficient mu of Coulomb's law |tau| <= mu S "
        "(doc/theory.md §8): instantaneous laws of the slip rate V "
        "(Renard 2001, eqs. (7)-(9)): constant (mu_s), fig2 (mu_d + (mu_s "
        "- mu_d)(1 - V/v_c)^2 for V < v_c, mu_d beyond), exponential (mu_d "
        "+ (mu_s - mu_d) exp(-V/v_c)), rational (mu_d + (mu_s - mu_d)/(1 + "
        "V/v_c)); laws with a state: slip-weakening (mu_s - (mu_s - mu_d) "
        "min(D/D_c, 1), D the slip; Ida 1972, Andrews 1976), rate-and-state "
        "(the regularized law of Rice and Ben-Zion 1996 with the aging or "
        "the slip law), time-weakening (a rupture forced at the speed v_r; "
        "Andrews 1985)." +
          old_name("Friction law"));
      declare_coefficients(prm, defaults, old_name);
      declare_rate_state_and_time(prm);
      prm.declare_entry(
        "Root scan points",
        std::to_string(defaults.root_scan_points),
        Patterns::Integer(2),
        "Samples of the slip-rate bracket of the nodal friction step where "
        "it may have several solutions (a <= S L, doc/theory.md §4.7 and "
        "§8.3); every sign change is refined and the solution nearest the "
        "previous slip is taken." +
          old_name("Root scan points"));
      prm.declare_entry(
        "Rupture slip rate",
        "1e-3",
        Patterns::Double(),
        "V_r > 0 [m/s]: a point has ruptured when its slip rate first "
        "exceeds V_r (its rupture time, in contact.pvd), and it slips while "
        "its slip rate exceeds V_r (the slipping fraction of history.csv, "
        "laws with a state).");
      declare_normal_stress_regularization(prm);
      prm.declare_entry(
        "Stop after arrest",
        "0",
        Patterns::Double(),
        "t_a >= 0 [s]: when > 0, the run ends once the interface has "
        "slipped (some slip rate above the rupture slip rate) and then no "
        "point has slipped faster than it for the time t_a (a parameter "
        "study need not run past the end of its rupture); 0: the run ends "
        "at Time/Final time.");
      prm.leave_subsection();
      if (!defaults.old_names)
        return;
      for (const auto &[old_name_text, new_name] :
           std::vector<std::pair<std::string, std::string>>{
             {"Friction law", "Law"},
             {"Static friction coefficient", "Static friction coefficient"},
             {"Dynamic friction coefficient", "Dynamic friction coefficient"},
             {"Critical slip velocity", "Critical slip velocity"},
             {"Root scan points", "Root scan points"}})
        declare_moved_entry(defaults.parent + "/" + old_name_text,
                            defaults.parent + "/Friction law/" + new_name);
    }



    void
    FrictionLaw::read_law_entries(ParameterHandler &prm)
    {
      // Only the entries of the chosen law are read: an entry of another
      // law that the file sets is then reported as not used by the run.
      const std::string law  = prm.get("Law");
      const auto        read = [&](std::string &text, const std::string &name) {
        text = prm.get(name);
      };
      const auto unused = [&](const std::vector<std::string> &names) {
        for (const auto &name : names)
          prm.explain_unread(name, "Law = " + law + " does not use it");
      };
      const bool instantaneous = kind == Kind::constant || kind == Kind::fig2 ||
                                 kind == Kind::exponential ||
                                 kind == Kind::rational;
      unused({"Static friction coefficient",
              "Dynamic friction coefficient",
              "Critical slip velocity",
              "Critical slip distance",
              "Healing time",
              "State evolution",
              "Direct effect a",
              "Evolution effect b",
              "Reference coefficient f0",
              "Reference slip rate V0",
              "Initial slip rate",
              "Initial state",
              "Rupture speed",
              "Nucleation point",
              "Weakening time"});
      if (kind != Kind::rate_and_state)
        read(static_coefficient, "Static friction coefficient");
      if (kind != Kind::rate_and_state && kind != Kind::constant)
        read(dynamic_coefficient, "Dynamic friction coefficient");
      if (instantaneous && kind != Kind::constant)
        read(critical_slip_velocity, "Critical slip velocity");
      if (kind == Kind::slip_weakening || kind == Kind::rate_and_state)
        read(critical_slip_distance, "Critical slip distance");
      if (kind == Kind::slip_weakening)
        read(healing_time, "Healing time");
      if (kind == Kind::rate_and_state)
        {
          state_evolution =
            parse_selection<StateEvolution>(prm.get("State evolution"),
                                            {{"aging", StateEvolution::aging},
                                             {"slip", StateEvolution::slip}},
                                            path + "/State evolution");
          read(direct_effect, "Direct effect a");
          read(evolution_effect, "Evolution effect b");
          read(reference_coefficient, "Reference coefficient f0");
          read(reference_slip_rate, "Reference slip rate V0");
          read(initial_state, "Initial state");
          // V_i sets theta_0 only for Initial state = steady.
          if (split_and_trim(initial_state, ';') ==
              std::vector<std::string>{"steady"})
            read(initial_slip_rate, "Initial slip rate");
          else
            prm.explain_unread("Initial slip rate",
                               "Initial state is given (not steady)");
        }
      if (kind == Kind::time_weakening)
        {
          read(rupture_speed, "Rupture speed");
          read(nucleation_point, "Nucleation point");
          read(weakening_time, "Weakening time");
        }
    }



    void
    FrictionLaw::parse(ParameterHandler      &prm,
                       const std::string     &parent,
                       const ParameterSource &source)
    {
      path = parent + "/Friction law";
      prm.enter_subsection("Friction law");
      kind = parse_selection<Kind>(prm.get("Law"), law_names, path + "/Law");
      read_law_entries(prm);
      root_scan_points  = prm.get_integer("Root scan points");
      rupture_slip_rate = prm.get_double("Rupture slip rate");
      stop_time         = prm.get_double("Stop after arrest");
      std::tie(regularization_length, automatic_length) =
        number_or_auto(prm.get("Normal stress regularization length"),
                       path + "/Normal stress regularization length",
                       source);
      std::tie(regularization_velocity, automatic_velocity) =
        number_or_auto(prm.get("Normal stress regularization velocity"),
                       path + "/Normal stress regularization velocity",
                       source);
      prm.leave_subsection();
      check_normal_stress_regularization(*this, parent, source);
      if (!(rupture_slip_rate > 0) || !std::isfinite(rupture_slip_rate))
        throw_bad_parameter(source,
                            path + "/Rupture slip rate",
                            format_number(rupture_slip_rate),
                            "V_r must be a positive number");
      if (!(stop_time >= 0) || !std::isfinite(stop_time))
        throw_bad_parameter(source,
                            path + "/Stop after arrest",
                            format_number(stop_time),
                            "t_a must be a number >= 0 (0: never)");
      // Numbers are checked now, expressions where they are evaluated.
      const std::string problem =
        FrictionLawField<1>::problem_of_numbers(*this, source);
      if (!problem.empty())
        throw InputError(problem);
    }



    void
    FrictionLaw::resolve_automatic_regularization(
      const bool   applies,
      const double contact_cell_size,
      const double shear_wave_speed)
    {
      if (automatic_length)
        regularization_length =
          applies ? automatic_length_per_cell * contact_cell_size : 0.;
      if (automatic_velocity)
        regularization_velocity =
          applies && automatic_length ?
            automatic_velocity_per_wave_speed * shear_wave_speed :
            0.;
    }



    bool
    FrictionLaw::has_state() const
    {
      return kind == Kind::slip_weakening || kind == Kind::rate_and_state ||
             kind == Kind::time_weakening;
    }



    std::string
    FrictionLaw::name() const
    {
      for (const auto &choice : law_names)
        if (choice.second == kind)
          return choice.first +
                 (kind == Kind::rate_and_state ?
                    std::string(state_evolution == StateEvolution::aging ?
                                  " (aging law)" :
                                  " (slip law)") :
                    std::string());
      return "";
    }
  } // namespace Parameters



  namespace
  {
    FrictionCoefficient::Law
    instantaneous_law(const FrictionLaw::Kind kind)
    {
      switch (kind)
        {
          case FrictionLaw::Kind::fig2:
            return FrictionCoefficient::Law::fig2;
          case FrictionLaw::Kind::exponential:
            return FrictionCoefficient::Law::exponential;
          case FrictionLaw::Kind::rational:
            return FrictionCoefficient::Law::rational;
          default:
            return FrictionCoefficient::Law::constant;
        }
    }



    FrictionLaw::Kind
    kind_of(const FrictionCoefficient &coefficient)
    {
      switch (coefficient.kind())
        {
          case FrictionCoefficient::Law::fig2:
            return FrictionLaw::Kind::fig2;
          case FrictionCoefficient::Law::exponential:
            return FrictionLaw::Kind::exponential;
          case FrictionCoefficient::Law::rational:
            return FrictionLaw::Kind::rational;
          default:
            return FrictionLaw::Kind::constant;
        }
    }



    /**
     * (1 - exp(-x))/x and g(x)/x^2 = (1 - (1 + x) exp(-x))/x^2 for x >= 0,
     * by their series near 0 (where the differences cancel).
     */
    std::pair<double, double>
    relaxation_factors(const double x)
    {
      if (x < 1e-4)
        return {1 - x / 2 + x * x / 6, 0.5 - x / 3 + x * x / 8};
      const double e = std::exp(-x);
      return {-std::expm1(-x) / x, (-std::expm1(-x) - x * e) / (x * x)};
    }
  } // namespace



  FrictionLaw::FrictionLaw(const FrictionCoefficient &coefficient)
    : kind_of_law(kind_of(coefficient))
    , evolution(StateEvolution::aging)
    , coefficient(coefficient)
  {
    c.static_coefficient  = coefficient.maximum();
    c.dynamic_coefficient = coefficient.minimum();
  }



  FrictionLaw::FrictionLaw(const Kind           kind,
                           const StateEvolution evolution,
                           const Coefficients  &coefficients)
    : kind_of_law(kind)
    , evolution(evolution)
    , coefficient(instantaneous_law(kind),
                  coefficients.static_coefficient,
                  coefficients.dynamic_coefficient,
                  coefficients.critical_slip_velocity)
    , c(coefficients)
  {}



  FrictionLaw::Kind
  FrictionLaw::kind() const
  {
    return kind_of_law;
  }



  bool
  FrictionLaw::has_state() const
  {
    return kind_of_law == Kind::slip_weakening ||
           kind_of_law == Kind::rate_and_state ||
           kind_of_law == Kind::time_weakening;
  }



  double
  FrictionLaw::slip_weakening_value(const double slip) const
  {
    const double drop = c.static_coefficient - c.dynamic_coefficient;
    return slip >= c.critical_slip_distance ?
             c.dynamic_coefficient :
             c.static_coefficient - drop * slip / c.critical_slip_distance;
  }



  std::array<double, 3>
  FrictionLaw::rate_state(const double slip_rate, const double theta) const
  {
    // mu = a asinh(V/w), w = 2 V_0 exp(-psi/a): dmu/dV = a/sqrt(V^2 + w^2),
    // dmu/dpsi = V/sqrt(V^2 + w^2). Where w underflows, asinh(V/w) is its
    // asymptote ln(2V/w) = ln(V/V_0) + psi/a (relative error (w/V)^2/4).
    const double a = c.direct_effect;
    const double psi =
      c.reference_coefficient +
      c.evolution_effect *
        std::log(c.reference_slip_rate * theta / c.critical_slip_distance);
    const double w = 2 * c.reference_slip_rate * std::exp(-psi / a);
    if (slip_rate == 0)
      return {{0., a / w, 0.}};
    if (w == 0 || !std::isfinite(slip_rate / w))
      return {{a * std::log(slip_rate / c.reference_slip_rate) + psi,
               a / slip_rate,
               1.}};
    const double h = std::hypot(slip_rate, w);
    return {{a * std::asinh(slip_rate / w), a / h, slip_rate / h}};
  }



  double
  FrictionLaw::log_state_after(const double theta,
                               const double slip_rate,
                               const double dt) const
  {
    const double x = slip_rate * dt / c.critical_slip_distance;
    if (evolution == StateEvolution::aging)
      // theta e^{-x} + (D_c/V)(1 - e^{-x}): the aging law at constant V.
      return std::log(theta * std::exp(-x) + dt * relaxation_factors(x).first);
    // The slip law at constant V: ln(V theta/D_c) decays as e^{-x}.
    if (slip_rate == 0)
      return std::log(theta);
    return std::log(theta) * std::exp(-x) +
           std::log(c.critical_slip_distance / slip_rate) * -std::expm1(-x);
  }



  double
  FrictionLaw::value(const double slip_rate, const double state) const
  {
    switch (kind_of_law)
      {
        case Kind::slip_weakening:
          return slip_weakening_value(state);
        case Kind::rate_and_state:
          return rate_state(slip_rate, state)[0];
        case Kind::time_weakening:
          {
            const double drop = c.static_coefficient - c.dynamic_coefficient;
            return state <= 0 ?
                     c.static_coefficient :
                   state >= c.weakening_time ?
                     c.dynamic_coefficient :
                     c.static_coefficient - drop * state / c.weakening_time;
          }
        default:
          return coefficient.value(slip_rate);
      }
  }



  double
  FrictionLaw::derivative(const double slip_rate, const double state) const
  {
    switch (kind_of_law)
      {
        case Kind::slip_weakening:
        case Kind::time_weakening:
          return 0.;
        case Kind::rate_and_state:
          return rate_state(slip_rate, state)[1];
        default:
          return coefficient.derivative(slip_rate);
      }
  }



  double
  FrictionLaw::evolve(const double state,
                      const double slip_rate,
                      const double dt) const
  {
    switch (kind_of_law)
      {
        case Kind::slip_weakening:
          {
            // dD/dt = V - D/t_h at constant V, exactly.
            if (c.healing_time > 0)
              {
                const double fraction = -std::expm1(-dt / c.healing_time);
                return state * (1 - fraction) +
                       slip_rate * c.healing_time * fraction;
              }
            return state + slip_rate * dt;
          }
        case Kind::rate_and_state:
          return std::exp(log_state_after(state, slip_rate, dt));
        case Kind::time_weakening:
          return state + dt;
        default:
          return state;
      }
  }



  double
  FrictionLaw::steady_state(const double slip_rate) const
  {
    const double infinity = std::numeric_limits<double>::infinity();
    switch (kind_of_law)
      {
        case Kind::slip_weakening:
          return c.healing_time > 0 ? slip_rate * c.healing_time : infinity;
        case Kind::rate_and_state:
          return slip_rate > 0 ? c.critical_slip_distance / slip_rate :
                                 infinity;
        case Kind::time_weakening:
          return infinity;
        default:
          return 0.;
      }
  }



  double
  FrictionLaw::steady_value(const double slip_rate) const
  {
    if (kind_of_law == Kind::rate_and_state && slip_rate == 0)
      return 0.;
    return value(slip_rate, steady_state(slip_rate));
  }



  double
  FrictionLaw::initial_state(const double t0) const
  {
    switch (kind_of_law)
      {
        case Kind::rate_and_state:
          return c.initial_state;
        case Kind::time_weakening:
          return t0 - c.arrival_time;
        default:
          return 0.;
      }
  }



  double
  FrictionLaw::strength(const double state) const
  {
    if (kind_of_law == Kind::rate_and_state)
      return value(c.critical_slip_distance / state, state);
    return value(0., state);
  }



  StepFriction
  FrictionLaw::step(const double state, const double dt) const
  {
    return StepFriction(*this, state, dt);
  }



  const FrictionCoefficient &
  FrictionLaw::instantaneous() const
  {
    return coefficient;
  }



  const FrictionLaw::Coefficients &
  FrictionLaw::coefficients() const
  {
    return c;
  }



  std::string
  FrictionLaw::description() const
  {
    const auto number = [](const std::string &name, const double value) {
      return ", " + name + " = " + format_number(value);
    };
    switch (kind_of_law)
      {
        case Kind::slip_weakening:
          return "slip-weakening" + number("mu_s", c.static_coefficient) +
                 number("mu_d", c.dynamic_coefficient) +
                 number("D_c", c.critical_slip_distance) +
                 (c.healing_time > 0 ? number("t_h", c.healing_time) : "");
        case Kind::rate_and_state:
          return std::string("rate-and-state (") +
                 (evolution == StateEvolution::aging ? "aging" : "slip") +
                 " law)" + number("a", c.direct_effect) +
                 number("b", c.evolution_effect) +
                 number("D_c", c.critical_slip_distance) +
                 number("f_0", c.reference_coefficient) +
                 number("V_0", c.reference_slip_rate);
        case Kind::time_weakening:
          return "time-weakening" + number("mu_s", c.static_coefficient) +
                 number("mu_d", c.dynamic_coefficient) +
                 number("t_w", c.weakening_time);
        default:
          return coefficient.description();
      }
  }



  StepFriction::StepFriction(const FrictionLaw &law,
                             const double       state,
                             const double       dt)
    : law(law)
    , state(state)
    , dt(dt)
    , base(state)
    , gain(dt)
  {
    const double healing = law.c.healing_time;
    if (law.kind_of_law == FrictionLaw::Kind::slip_weakening && healing > 0)
      {
        // D^{n+1} = D^n e^{-dt/t_h} + sigma t_h (1 - e^{-dt/t_h}).
        const double fraction = -std::expm1(-dt / healing);
        base                  = state * (1 - fraction);
        gain                  = healing * fraction;
      }
  }



  double
  StepFriction::value(const double sigma) const
  {
    switch (law.kind_of_law)
      {
        case FrictionLaw::Kind::slip_weakening:
          return law.slip_weakening_value(base + gain * sigma);
        case FrictionLaw::Kind::rate_and_state:
          return law.rate_state(sigma, law.evolve(state, sigma, dt))[0];
        case FrictionLaw::Kind::time_weakening:
          return law.value(sigma, state + dt);
        default:
          return law.coefficient.value(sigma);
      }
  }



  double
  StepFriction::derivative(const double sigma) const
  {
    const auto &c = law.c;
    switch (law.kind_of_law)
      {
        case FrictionLaw::Kind::slip_weakening:
          return base + gain * sigma < c.critical_slip_distance ?
                   -(c.static_coefficient - c.dynamic_coefficient) * gain /
                     c.critical_slip_distance :
                   0.;
        case FrictionLaw::Kind::rate_and_state:
          {
            // mu~' = dmu/dV + dmu/dpsi b dln(theta)/dV, theta the state
            // after the step at the rate sigma (doc/theory.md §8.3).
            const double theta = law.evolve(state, sigma, dt);
            const auto   mu    = law.rate_state(sigma, theta);
            if (mu[2] == 0 || dt == 0)
              return mu[1];
            const double x      = sigma * dt / c.critical_slip_distance;
            const auto [g1, g2] = relaxation_factors(x);
            double log_slope;
            if (law.evolution == FrictionLaw::StateEvolution::aging)
              log_slope = -dt / c.critical_slip_distance *
                          (state * std::exp(-x) + dt * g2) / theta;
            else
              log_slope =
                -dt / c.critical_slip_distance *
                (g1 + std::exp(-x) *
                        std::log(state * sigma / c.critical_slip_distance));
            return mu[1] + mu[2] * c.evolution_effect * log_slope;
          }
        case FrictionLaw::Kind::time_weakening:
          return 0.;
        default:
          return law.coefficient.derivative(sigma);
      }
  }



  double
  StepFriction::lipschitz_constant() const
  {
    const auto &c = law.c;
    switch (law.kind_of_law)
      {
        case FrictionLaw::Kind::slip_weakening:
          return base < c.critical_slip_distance ?
                   (c.static_coefficient - c.dynamic_coefficient) * gain /
                     c.critical_slip_distance :
                   0.;
        case FrictionLaw::Kind::rate_and_state:
          {
            // doc/theory.md §8.3: -mu~' <= b dt/D_c (aging), and
            // b dt/D_c (1 + max e^{-x} ln x + ln+(theta/dt)) (slip), where
            // max e^{-x} ln x = 0.0973 (at x ln x = 1).
            const double bound =
              c.evolution_effect * dt / c.critical_slip_distance;
            if (law.evolution == FrictionLaw::StateEvolution::aging || dt == 0)
              return bound;
            return bound * (1.1 + std::max(0., std::log(state / dt)));
          }
        case FrictionLaw::Kind::time_weakening:
          return 0.;
        default:
          return law.coefficient.lipschitz_constant();
      }
  }



  double
  StepFriction::maximum() const
  {
    switch (law.kind_of_law)
      {
        case FrictionLaw::Kind::slip_weakening:
          return law.slip_weakening_value(base);
        case FrictionLaw::Kind::rate_and_state:
          return std::numeric_limits<double>::infinity();
        case FrictionLaw::Kind::time_weakening:
          return value(0.);
        default:
          return law.coefficient.maximum();
      }
  }



  double
  StepFriction::minimum() const
  {
    switch (law.kind_of_law)
      {
        case FrictionLaw::Kind::slip_weakening:
          return gain > 0 ? law.c.dynamic_coefficient :
                            law.slip_weakening_value(base);
        case FrictionLaw::Kind::rate_and_state:
          return 0.;
        case FrictionLaw::Kind::time_weakening:
          return value(0.);
        default:
          return law.coefficient.minimum();
      }
  }



  NormalStressRegularization::NormalStressRegularization(const double length,
                                                         const double velocity)
    : length(length)
    , velocity(velocity)
  {}



  bool
  NormalStressRegularization::active() const
  {
    return length > 0;
  }



  double
  NormalStressRegularization::slip_length() const
  {
    return length;
  }



  double
  NormalStressRegularization::velocity_scale() const
  {
    return velocity;
  }



  double
  NormalStressRegularization::evolve(const double effective,
                                     const double pressure,
                                     const double slip_rate,
                                     const double dt) const
  {
    if (!active())
      return pressure;
    return pressure +
           (effective - pressure) *
             std::exp(-(std::abs(slip_rate) + velocity) * dt / length);
  }
} // namespace stickslip
