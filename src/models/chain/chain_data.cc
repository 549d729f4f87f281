#include <base/expressions.h>
#include <models/chain/chain_data.h>

#include <cmath>
#include <limits>

namespace stickslip
{
  IndexTimeExpression::IndexTimeExpression(const std::string &    text,
                                           const std::string &    path,
                                           const ParameterSource &source)
    : index_variable(0)
    , time_variable(0)
    , constant(false)
    , uniform(false)
    , constant_value(0)
  {
    if (is_blank(text))
      throw_bad_parameter(source, path, text, "an expression must be given");
    try
      {
        parser.DefineVar("i", &index_variable);
        parser.DefineVar("t", &time_variable);
        for (const auto &c : expression_constants())
          parser.DefineConst(c.first, c.second);
        parser.SetExpr(text);
        parser.Eval();
        const auto &used = parser.GetUsedVar();
        uniform          = used.find("i") == used.end();
        constant         = uniform && used.find("t") == used.end();
        if (constant)
          constant_value = parser.Eval();
      }
    catch (mu::Parser::exception_type &e)
      {
        throw_bad_parameter(source,
                            path,
                            text,
                            "it is not a valid muParser expression of the "
                            "mass index i and the time t: " +
                              e.GetMsg());
      }
  }



  double
  IndexTimeExpression::value(const double i, const double t) const
  {
    if (constant)
      return constant_value;
    index_variable = i;
    time_variable  = t;
    return parser.Eval();
  }



  bool
  IndexTimeExpression::is_constant() const
  {
    return constant;
  }



  bool
  IndexTimeExpression::is_uniform() const
  {
    return uniform;
  }



  namespace
  {
    /** Split at commas outside parentheses ("1, 2" is a list, "min(i,2)" not). */
    std::vector<std::string>
    split_top_level(const std::string &text)
    {
      std::vector<std::string> pieces(1);
      int                      depth = 0;
      for (const char c : text)
        {
          if (c == '(')
            ++depth;
          else if (c == ')')
            --depth;
          if (c == ',' && depth == 0)
            pieces.emplace_back();
          else
            pieces.back() += c;
        }
      return pieces;
    }



    /**
     * A coefficient per index given as one expression in i (a constant is
     * one) or as a list of constants, one per index first..last.
     */
    class Coefficients
    {
    public:
      Coefficients(const std::string &    text,
                   const std::string &    path,
                   const ParameterSource &source,
                   const long             first,
                   const long             last)
        : first(first)
      {
        const auto pieces = split_top_level(text);
        if (pieces.size() == 1)
          {
            expression =
              std::make_unique<IndexTimeExpression>(text, path, source);
            return;
          }
        const long expected = last - first + 1;
        if (static_cast<long>(pieces.size()) != expected)
          throw_bad_parameter(
            source,
            path,
            text,
            "a list must hold " + std::to_string(expected) +
              " values (indices " + std::to_string(first) + ".." +
              std::to_string(last) + "), found " +
              std::to_string(pieces.size()) +
              "; or give one value or one expression in i");
        list = parse_number_list(text, path, source);
      }

      double
      operator()(const long i) const
      {
        return expression ? expression->value(i, 0.) : list[i - first];
      }

    private:
      long                                 first;
      std::unique_ptr<IndexTimeExpression> expression;
      std::vector<double>                  list;
    };



    /**
     * The smallest index in [begin, end) where @p bad is true, over all
     * ranks; -1 if none (collective).
     */
    template <typename Predicate>
    long
    first_bad_index(const long      begin,
                    const long      end,
                    const Predicate bad,
                    const MPI_Comm  comm)
    {
      long first = std::numeric_limits<long>::max();
      for (long i = begin; i < end; ++i)
        if (bad(i))
          {
            first = i;
            break;
          }
      first = Utilities::MPI::min(first, comm);
      return first == std::numeric_limits<long>::max() ? -1 : first;
    }
  } // namespace



  void
  ChainData::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Chain");
    prm.declare_entry("Number of masses",
                      "3",
                      Patterns::Integer(1),
                      "n: masses m_1..m_n, springs k_0..k_n, St-Venant "
                      "elements alpha_1..alpha_n (seed 004 §2).");
    prm.declare_entry("Regime",
                      "dynamical",
                      Patterns::Selection(
                        "dynamical|semi-dynamical|quasistatic"),
                      "dynamical: every m_i > 0 (seed 004 (3.6), (3.12)); "
                      "semi-dynamical: m_1..m_{n-1} = 0 and m_n > 0 (n >= "
                      "2, (3.29)-(3.41)); quasistatic: every m_i = 0 "
                      "((3.48), (3.53), (3.62)). The masses must match.");
    prm.declare_entry("Right end",
                      "clamped",
                      Patterns::Selection("clamped|force|displacement"),
                      "The left end is clamped (xi = 0). Right end: "
                      "clamped (x = 0), or free: force (F_{n+1}(t) given, "
                      "the force-displacement variant (3.10)/(3.56)) or "
                      "displacement (x(t) given, the displacement-force "
                      "variant (3.51)).");
    prm.declare_entry("Masses",
                      "1",
                      Patterns::Anything(),
                      "m_1..m_n >= 0: one value, a comma-separated list of "
                      "n values, or a muParser expression of the index i.");
    prm.declare_entry("Stiffnesses",
                      "1",
                      Patterns::Anything(),
                      "k_0..k_n: one value, a list of n+1 values, or an "
                      "expression of i = 0..n. k_0..k_{n-1} > 0 (K positive "
                      "definite, Lemma B.1); k_n >= 0 with a clamped right "
                      "end, k_n > 0 with a free one.");
    prm.declare_entry("Thresholds",
                      "1",
                      Patterns::Anything(),
                      "alpha_1..alpha_n >= 0 of the St-Venant elements: one "
                      "value, a list of n values, or an expression of i.");
    prm.declare_entry("Forces",
                      "0",
                      Patterns::Anything(),
                      "F_i(t) on mass i: a muParser expression of i and t. "
                      "The semi-dynamical and quasistatic forms use its "
                      "increments F(t_{n+1}) - F(t_n) (MODELS.md §6.2).");
    prm.declare_entry("Right end force",
                      "0",
                      Patterns::Anything(),
                      "F_{n+1}(t) (Right end = force): the force of the last "
                      "spring, positive toward -x, so the load applied at "
                      "the free end in the +x direction is -F_{n+1} "
                      "(MODELS.md §5.1).");
    prm.declare_entry("Right end displacement",
                      "0",
                      Patterns::Anything(),
                      "x(t) (Right end = displacement): the prescribed "
                      "displacement of the right end of spring k_n.");
    prm.declare_entry("Initial displacements",
                      "0",
                      Patterns::Anything(),
                      "v_i(t0), an expression of i. With massless masses "
                      "the initial friction forces g = K V - F must lie in "
                      "[-alpha_i, alpha_i] (D(dphi), seed 004 App. A).");
    prm.declare_entry("Initial velocities",
                      "0",
                      Patterns::Anything(),
                      "v_i'(t0), an expression of i; used for the masses "
                      "with m_i > 0 only.");
    prm.declare_entry("History masses",
                      "",
                      Patterns::Anything(),
                      "Comma-separated 1-based indices of the masses written "
                      "to history.csv. Empty: all masses if n <= 100, else "
                      "11 evenly spaced masses 1, ..., n.");
    prm.leave_subsection();
  }



  ChainData::ChainData(ParameterHandler &     prm,
                       const ParameterSource &source,
                       const MPI_Comm         comm)
  {
    prm.enter_subsection("Chain");
    n_masses                       = prm.get_integer("Number of masses");
    const std::string regime_text  = prm.get("Regime");
    const std::string end_text     = prm.get("Right end");
    const std::string masses_text  = prm.get("Masses");
    const std::string k_text       = prm.get("Stiffnesses");
    const std::string alpha_text   = prm.get("Thresholds");
    const std::string forces_text  = prm.get("Forces");
    const std::string end_f_text   = prm.get("Right end force");
    const std::string end_x_text   = prm.get("Right end displacement");
    const std::string x0_text      = prm.get("Initial displacements");
    const std::string v0_text      = prm.get("Initial velocities");
    const std::string history_text = prm.get("History masses");
    prm.leave_subsection();

    regime = regime_text == "dynamical"      ? ChainRegime::dynamical :
             regime_text == "semi-dynamical" ? ChainRegime::semi_dynamical :
                                               ChainRegime::quasistatic;
    right_end = end_text == "clamped" ? ChainRightEnd::clamped :
                end_text == "force"   ? ChainRightEnd::force :
                                        ChainRightEnd::displacement;
    const long n = n_masses;

    // Contiguous row blocks, as even as possible.
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const long         begin   = (n * rank) / n_ranks;
    const long         end     = (n * (rank + 1)) / n_ranks;
    owned.set_size(n);
    owned.add_range(begin, end);

    const Coefficients mass(masses_text, "Chain/Masses", source, 1, n);
    const Coefficients k(k_text, "Chain/Stiffnesses", source, 0, n);
    const Coefficients alpha(alpha_text, "Chain/Thresholds", source, 1, n);

    // Checks on 1-based indices i of this rank's block [begin+1, end+1).
    const auto check = [&](const std::string &path,
                           const long         first,
                           const long         last,
                           const auto &       value,
                           const auto &       bad,
                           const std::string &name,
                           const std::string &allowed) {
      const long b = std::max(first, begin + 1), e = std::min(last + 1, end + 1);
      const long i = first_bad_index(b, e, bad, comm);
      if (i >= 0)
        throw_bad_parameter(source,
                            path,
                            name + "_" + std::to_string(i) + " = " +
                              format_number(value(i)),
                            allowed);
    };
    check(
      "Chain/Masses",
      1,
      n,
      mass,
      [&](long i) { return !(mass(i) >= 0) || !std::isfinite(mass(i)); },
      "m",
      "masses must be finite and non-negative");
    check(
      "Chain/Thresholds",
      1,
      n,
      alpha,
      [&](long i) { return !(alpha(i) >= 0) || !std::isfinite(alpha(i)); },
      "alpha",
      "thresholds of the St-Venant elements must be finite and "
      "non-negative");
    // k_0 is checked by the owner of mass 1, k_n by the owner of mass n.
    {
      const long b = begin == 0 ? 0 : begin + 1;
      const long i = first_bad_index(
        b,
        std::min(end + 1, n),
        [&](long j) { return !(k(j) > 0) || !std::isfinite(k(j)); },
        comm);
      if (i >= 0)
        throw_bad_parameter(source,
                            "Chain/Stiffnesses",
                            "k_" + std::to_string(i) + " = " +
                              format_number(k(i)),
                            "k_0..k_{n-1} must be positive: the stiffness "
                            "matrix K must be positive definite (seed 004 "
                            "(3.26), (3.46), (3.61), Lemma B.1)");
      const double k_n = k(n);
      if (!(k_n >= 0) || !std::isfinite(k_n))
        throw_bad_parameter(source,
                            "Chain/Stiffnesses",
                            "k_" + std::to_string(n) + " = " +
                              format_number(k_n),
                            "k_n must be non-negative");
      if (right_end != ChainRightEnd::clamped && !(k_n > 0))
        throw_bad_parameter(source,
                            "Chain/Stiffnesses",
                            "k_" + std::to_string(n) + " = " +
                              format_number(k_n),
                            "with a free right end (Chain/Right end = " +
                              end_text +
                              ") the last spring k_n must be positive "
                              "(x = v_n - F_{n+1}/k_n, (3.13), (3.64))");
    }

    // The masses must match the regime.
    if (regime == ChainRegime::semi_dynamical && n < 2)
      throw_bad_parameter(source,
                          "Chain/Regime",
                          regime_text,
                          "the semi-dynamical chain needs n >= 2 masses "
                          "(Chain/Number of masses = 1)");
    {
      const auto should_be_positive = [&](long i) {
        return regime == ChainRegime::dynamical ||
               (regime == ChainRegime::semi_dynamical && i == n);
      };
      const long i = first_bad_index(
        begin + 1,
        end + 1,
        [&](long j) { return should_be_positive(j) != (mass(j) > 0); },
        comm);
      if (i >= 0)
        throw_bad_parameter(
          source,
          "Chain/Masses",
          "m_" + std::to_string(i) + " = " + format_number(mass(i)),
          "Chain/Regime = " + regime_text + " needs " +
            (regime == ChainRegime::dynamical ?
               "every m_i > 0" :
               regime == ChainRegime::semi_dynamical ?
               "m_1..m_{n-1} = 0 and m_n > 0" :
               "every m_i = 0") +
            " (seed 004 §3); change the masses or the regime");
    }

    const unsigned int n_owned = end - begin;
    masses.resize(n_owned);
    thresholds.resize(n_owned);
    left_stiffness.resize(n_owned);
    right_stiffness.resize(n_owned);
    for (unsigned int r = 0; r < n_owned; ++r)
      {
        const long i       = begin + r + 1;
        masses[r]          = mass(i);
        thresholds[r]      = alpha(i);
        left_stiffness[r]  = k(i - 1);
        right_stiffness[r] = k(i);
      }
    first_stiffness = k(0);
    last_stiffness  = k(n);

    forces = std::make_unique<IndexTimeExpression>(forces_text,
                                                   "Chain/Forces",
                                                   source);
    end_force = std::make_unique<IndexTimeExpression>(end_f_text,
                                                      "Chain/Right end force",
                                                      source);
    end_displacement =
      std::make_unique<IndexTimeExpression>(end_x_text,
                                            "Chain/Right end displacement",
                                            source);
    initial_displacement =
      std::make_unique<IndexTimeExpression>(x0_text,
                                            "Chain/Initial displacements",
                                            source);
    initial_velocity =
      std::make_unique<IndexTimeExpression>(v0_text,
                                            "Chain/Initial velocities",
                                            source);

    if (is_blank(history_text))
      {
        if (n <= 100)
          for (long i = 1; i <= n; ++i)
            history_masses.push_back(i);
        else
          for (long j = 0; j <= 10; ++j)
            history_masses.push_back(1 + ((n - 1) * j) / 10);
      }
    else
      for (const double value :
           parse_number_list(history_text, "Chain/History masses", source))
        {
          if (value != std::floor(value) || value < 1 || value > n)
            throw_bad_parameter(source,
                                "Chain/History masses",
                                history_text,
                                "indices are integers in 1.." +
                                  std::to_string(n));
          history_masses.push_back(static_cast<long>(value));
        }
  }



  std::string
  ChainData::regime_name() const
  {
    return regime == ChainRegime::dynamical      ? "dynamical" :
           regime == ChainRegime::semi_dynamical ? "semi-dynamical" :
                                                   "quasistatic";
  }



  std::string
  ChainData::right_end_name() const
  {
    return right_end == ChainRightEnd::clamped ? "clamped-clamped" :
           right_end == ChainRightEnd::force ?
                                                 "clamped-free (F_{n+1} given)" :
                                                 "clamped-free (x given)";
  }
} // namespace stickslip
