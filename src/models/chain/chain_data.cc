#include <base/expressions.h>
#include <models/chain/chain_data.h>

#include <cmath>
#include <limits>

namespace stickslip
{
  IndexTimeExpression::IndexTimeExpression(const std::string     &text,
                                           const std::string     &path,
                                           const ParameterSource &source)
    : path(path)
    , text(text)
    , non_finite_data(nullptr)
    , index_variable(0)
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
    double result = constant_value;
    if (!constant)
      {
        index_variable = i;
        time_variable  = t;
        result         = parser.Eval();
      }
    if (non_finite_data != nullptr && !std::isfinite(result))
      non_finite_data->note(path, text, t, result, [i]() {
        return "i = " + format_number(i);
      });
    return result;
  }



  void
  IndexTimeExpression::note_non_finite_values_in(NonFiniteData *check)
  {
    non_finite_data = check;
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
    /** Split at commas outside parentheses ("1, 2" is a list, "min(i,2)" not).
     */
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
      Coefficients(const std::string     &text,
                   const std::string     &path,
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
          throw_bad_parameter(source,
                              path,
                              text,
                              "a list must hold " + std::to_string(expected) +
                                " values (indices " + std::to_string(first) +
                                ".." + std::to_string(last) + "), found " +
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



    /**
     * Check the masses and thresholds of the 1-based indices [begin + 1,
     * end + 1) of this rank (collective).
     */
    void
    check_masses_and_thresholds(const Coefficients    &mass,
                                const Coefficients    &alpha,
                                const long             begin,
                                const long             end,
                                const ParameterSource &source,
                                const MPI_Comm         comm)
    {
      const auto check = [&](const std::string  &path,
                             const Coefficients &value,
                             const std::string  &name,
                             const std::string  &allowed) {
        const long i = first_bad_index(
          begin + 1,
          end + 1,
          [&](long j) { return !(value(j) >= 0) || !std::isfinite(value(j)); },
          comm);
        if (i >= 0)
          throw_bad_parameter(source,
                              path,
                              name + "_" + std::to_string(i) + " = " +
                                format_number(value(i)),
                              allowed);
      };
      check("Chain/Masses",
            mass,
            "m",
            "masses must be finite and non-negative");
      check("Chain/Thresholds",
            alpha,
            "alpha",
            "thresholds of the St-Venant elements must be finite and "
            "non-negative");
    }



    /**
     * k_0..k_{n-1} > 0 (k_0 is checked by the owner of mass 1), k_n >= 0,
     * and > 0 with a free right end (collective).
     */
    void
    check_stiffnesses(const Coefficients    &k,
                      const ChainParameters &parameters,
                      const long             begin,
                      const long             end,
                      const ParameterSource &source,
                      const MPI_Comm         comm)
    {
      const long n = parameters.n_masses;
      const long b = begin == 0 ? 0 : begin + 1;
      const long i = first_bad_index(
        b,
        std::min(end + 1, n),
        [&](long j) { return !(k(j) > 0) || !std::isfinite(k(j)); },
        comm);
      if (i >= 0)
        throw_bad_parameter(
          source,
          "Chain/Stiffnesses",
          "k_" + std::to_string(i) + " = " + format_number(k(i)),
          "k_0..k_{n-1} must be positive: the stiffness "
          "matrix K must be positive definite (Bastien & Lamarque 2009, eqs. "
          "(3.26), (3.46), (3.61), Lemma B.1)");
      const double k_n = k(n);
      if (!(k_n >= 0) || !std::isfinite(k_n))
        throw_bad_parameter(source,
                            "Chain/Stiffnesses",
                            "k_" + std::to_string(n) + " = " +
                              format_number(k_n),
                            "k_n must be non-negative");
      if (parameters.right_end != ChainRightEnd::clamped && !(k_n > 0))
        throw_bad_parameter(source,
                            "Chain/Stiffnesses",
                            "k_" + std::to_string(n) + " = " +
                              format_number(k_n),
                            "with a free right end (Chain/Right end = " +
                              parameters.right_end_name() +
                              ") the last spring k_n must be positive "
                              "(x = v_n - F_{n+1}/k_n, (3.13), (3.64))");
    }



    /** The masses of this rank match Chain/Regime (collective). */
    void
    check_regime(const Coefficients    &mass,
                 const ChainParameters &parameters,
                 const long             begin,
                 const long             end,
                 const ParameterSource &source,
                 const MPI_Comm         comm)
    {
      const long        n                  = parameters.n_masses;
      const ChainRegime regime             = parameters.regime;
      const auto        should_be_positive = [&](long i) {
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
          "Chain/Regime = " + parameters.regime_name() + " needs " +
            (regime == ChainRegime::dynamical ? "every m_i > 0" :
             regime == ChainRegime::semi_dynamical ?
                                                "m_1..m_{n-1} = 0 and m_n > 0" :
                                                "every m_i = 0") +
            " (Bastien & Lamarque 2009, §3); change the masses or the regime");
    }
  } // namespace



  ChainData::ChainData(const ChainParameters &parameters,
                       const ParameterSource &source,
                       const MPI_Comm         comm)
    : n_masses(parameters.n_masses)
    , regime(parameters.regime)
    , right_end(parameters.right_end)
    , history_masses(parameters.history_masses)
  {
    const long n = n_masses;

    // Contiguous row blocks, as even as possible.
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const long         begin   = (n * rank) / n_ranks;
    const long         end     = (n * (rank + 1)) / n_ranks;
    owned.set_size(n);
    owned.add_range(begin, end);

    const Coefficients mass(parameters.masses, "Chain/Masses", source, 1, n);
    const Coefficients k(
      parameters.stiffnesses, "Chain/Stiffnesses", source, 0, n);
    const Coefficients alpha(
      parameters.thresholds, "Chain/Thresholds", source, 1, n);
    check_masses_and_thresholds(mass, alpha, begin, end, source, comm);
    check_stiffnesses(k, parameters, begin, end, source, comm);
    check_regime(mass, parameters, begin, end, source, comm);

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

    const auto expression = [&](const std::string &text,
                                const std::string &name) {
      return std::make_unique<IndexTimeExpression>(text,
                                                   "Chain/" + name,
                                                   source);
    };
    forces    = expression(parameters.forces, "Forces");
    end_force = expression(parameters.end_force, "Right end force");
    end_displacement =
      expression(parameters.end_displacement, "Right end displacement");
    initial_displacement =
      expression(parameters.initial_displacements, "Initial displacements");
    initial_velocity =
      expression(parameters.initial_velocities, "Initial velocities");
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
           right_end == ChainRightEnd::force ? "clamped-free (F_{n+1} given)" :
                                               "clamped-free (x given)";
  }
} // namespace stickslip
