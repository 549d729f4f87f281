#include <base/expressions.h>
#include <friction/friction_law.h>

#include <cmath>
#include <map>
#include <optional>

namespace stickslip
{
  namespace
  {
    using Kind = Parameters::FrictionLaw::Kind;

    /** Whether rate and state starts from steady sliding at V_i. */
    bool
    steady_start(const Parameters::FrictionLaw &p)
    {
      return split_and_trim(p.initial_state, ';') ==
             std::vector<std::string>{"steady"};
    }



    /** The entries of @p p that its law uses, with their texts. */
    std::vector<std::pair<std::string, std::string>>
    used_entries(const Parameters::FrictionLaw &p)
    {
      switch (p.kind)
        {
          case Kind::constant:
            return {{"Static friction coefficient", p.static_coefficient}};
          case Kind::slip_weakening:
            return {{"Static friction coefficient", p.static_coefficient},
                    {"Dynamic friction coefficient", p.dynamic_coefficient},
                    {"Critical slip distance", p.critical_slip_distance},
                    {"Healing time", p.healing_time}};
          case Kind::rate_and_state:
            return {{"Direct effect a", p.direct_effect},
                    {"Evolution effect b", p.evolution_effect},
                    {"Critical slip distance", p.critical_slip_distance},
                    {"Reference coefficient f0", p.reference_coefficient},
                    {"Reference slip rate V0", p.reference_slip_rate},
                    steady_start(p) ?
                      std::make_pair(std::string("Initial slip rate"),
                                     p.initial_slip_rate) :
                      std::make_pair(std::string("Initial state"),
                                     p.initial_state)};
          case Kind::time_weakening:
            return {{"Static friction coefficient", p.static_coefficient},
                    {"Dynamic friction coefficient", p.dynamic_coefficient},
                    {"Rupture speed", p.rupture_speed},
                    {"Weakening time", p.weakening_time}};
          default:
            return {{"Static friction coefficient", p.static_coefficient},
                    {"Dynamic friction coefficient", p.dynamic_coefficient},
                    {"Critical slip velocity", p.critical_slip_velocity}};
        }
    }



    /**
     * The coefficients from the values of the used entries, @p values by
     * name, and the message of the first that is not allowed in
     * @p problem (@p where: " at x = .." for an expression's value).
     */
    FrictionLaw::Coefficients
    checked_coefficients(const Parameters::FrictionLaw       &p,
                         const std::map<std::string, double> &values,
                         const ParameterSource               &source,
                         const std::string                   &where,
                         std::string                         &problem)
    {
      const auto get = [&](const std::string &name, const double fallback) {
        const auto found = values.find(name);
        return found == values.end() ? fallback : found->second;
      };
      const auto require = [&](const bool         condition,
                               const std::string &name,
                               const std::string &allowed) {
        if (!condition && problem.empty())
          problem = bad_parameter_message(source,
                                          p.path + "/" + name,
                                          format_number(get(name, 0.)) + where,
                                          allowed);
      };
      const auto positive = [&](const std::string &name,
                                const std::string &symbol) {
        const double value = get(name, 1.);
        require(value > 0 && std::isfinite(value),
                name,
                symbol + " must be a positive number");
        return value;
      };
      FrictionLaw::Coefficients c;
      c.static_coefficient  = get("Static friction coefficient", 0.);
      c.dynamic_coefficient = get("Dynamic friction coefficient", 0.);
      require(c.static_coefficient >= 0 && std::isfinite(c.static_coefficient),
              "Static friction coefficient",
              "mu_s must be a number >= 0");
      if (p.kind == Kind::rate_and_state)
        {
          c.direct_effect          = positive("Direct effect a", "a");
          c.evolution_effect       = get("Evolution effect b", 0.);
          c.critical_slip_distance = positive("Critical slip distance", "D_c");
          c.reference_coefficient  = get("Reference coefficient f0", 0.);
          c.reference_slip_rate    = positive("Reference slip rate V0", "V_0");
          require(c.evolution_effect >= 0 && std::isfinite(c.evolution_effect),
                  "Evolution effect b",
                  "b must be a number >= 0");
          require(std::isfinite(c.reference_coefficient),
                  "Reference coefficient f0",
                  "f_0 must be a finite number");
          c.initial_state =
            steady_start(p) ?
              c.critical_slip_distance / positive("Initial slip rate", "V_i") :
              positive("Initial state", "theta_0");
          return c;
        }
      if (p.kind == Kind::constant)
        return c;
      require(c.dynamic_coefficient >= 0 &&
                std::isfinite(c.dynamic_coefficient),
              "Dynamic friction coefficient",
              "mu_d must be a number >= 0");
      require(c.dynamic_coefficient <= c.static_coefficient,
              "Dynamic friction coefficient",
              "the decreasing laws need mu_d <= mu_s = " +
                format_number(c.static_coefficient));
      if (p.kind == Kind::slip_weakening)
        {
          c.critical_slip_distance = positive("Critical slip distance", "D_c");
          c.healing_time           = get("Healing time", 0.);
          require(c.healing_time >= 0 && std::isfinite(c.healing_time),
                  "Healing time",
                  "t_h must be a number >= 0 (0: no healing)");
        }
      else if (p.kind == Kind::time_weakening)
        {
          positive("Rupture speed", "v_r");
          c.weakening_time = positive("Weakening time", "t_w");
        }
      else
        c.critical_slip_velocity = positive("Critical slip velocity", "v_c");
      return c;
    }
  } // namespace



  template <int dim>
  class FrictionLawField<dim>::Expressions
  {
  public:
    /** The used entries: a number, or the parsed expression. */
    struct Entry
    {
      std::optional<double>                number;
      std::unique_ptr<FunctionParser<dim>> function;
    };

    std::map<std::string, Entry> entries;

    /** The values of every used entry at @p point. */
    std::map<std::string, double>
    values(const Point<dim> &point) const
    {
      std::map<std::string, double> result;
      for (const auto &[name, entry] : entries)
        result[name] =
          entry.number ? *entry.number : entry.function->value(point);
      return result;
    }
  };



  template <int dim>
  FrictionLawField<dim>::FrictionLawField(
    const Parameters::FrictionLaw &parameters,
    const std::string             &coordinates,
    const ParameterSource         &source)
    : parameters(parameters)
    , source(source)
    , coordinates(coordinates)
    , expressions(std::make_unique<Expressions>())
  {
    for (const auto &[name, text] : used_entries(parameters))
      {
        typename Expressions::Entry entry;
        entry.number = plain_number(text);
        if (!entry.number)
          entry.function = parse_function<dim>(text,
                                               coordinates,
                                               parameters.path + "/" + name,
                                               source);
        expressions->entries[name] = std::move(entry);
      }
    if (parameters.kind == Kind::time_weakening)
      {
        const std::string         path = parameters.path + "/Nucleation point";
        const std::vector<double> x0 =
          parse_number_list(parameters.nucleation_point, path, source);
        const bool origin = x0.size() == 1 && x0[0] == 0;
        if (!origin && x0.size() != dim)
          throw_bad_parameter(source,
                              path,
                              parameters.nucleation_point,
                              std::to_string(dim) +
                                " comma-separated coordinates, or 0");
        for (unsigned int d = 0; d < dim && !origin; ++d)
          nucleation_point[d] = x0[d];
      }
  }



  template <int dim>
  FrictionLawField<dim>::~FrictionLawField() = default;



  template <int dim>
  bool
  FrictionLawField<dim>::uniform() const
  {
    for (const auto &entry : expressions->entries)
      if (!entry.second.number)
        return false;
    return parameters.kind != Kind::time_weakening;
  }



  template <int dim>
  FrictionLaw
  FrictionLawField<dim>::at(const Point<dim> &point, std::string &problem) const
  {
    problem.clear();
    const std::map<std::string, double> values = expressions->values(point);
    const std::string                   where =
      uniform() ? "" : " at " + describe_point(point, coordinates);
    FrictionLaw::Coefficients c =
      checked_coefficients(parameters, values, source, where, problem);
    if (parameters.kind == Kind::time_weakening && problem.empty())
      c.arrival_time =
        point.distance(nucleation_point) / values.at("Rupture speed");
    // The instantaneous laws get exactly their FrictionCoefficient.
    return FrictionLaw(parameters.kind, parameters.state_evolution, c);
  }



  template <int dim>
  FrictionLaw
  FrictionLawField<dim>::common_law() const
  {
    if (!uniform())
      return FrictionLaw(
        FrictionCoefficient(FrictionCoefficient::Law::constant, 0., 0., 1.));
    std::string problem;
    return at(Point<dim>(), problem);
  }



  template <int dim>
  std::string
  FrictionLawField<dim>::description() const
  {
    if (uniform())
      return common_law().description();
    return parameters.name() + " (coefficients varying along the interface)";
  }



  template <int dim>
  std::string
  FrictionLawField<dim>::problem_of_numbers(
    const Parameters::FrictionLaw &parameters,
    const ParameterSource         &source)
  {
    std::map<std::string, double> values;
    for (const auto &[name, text] : used_entries(parameters))
      {
        const std::optional<double> number = plain_number(text);
        if (!number)
          return "";
        values[name] = *number;
      }
    std::string problem;
    checked_coefficients(parameters, values, source, "", problem);
    return problem;
  }



  template class FrictionLawField<1>;
  template class FrictionLawField<2>;
  template class FrictionLawField<3>;
} // namespace stickslip
