#include <deal.II/base/mpi.h>
#include <deal.II/base/numbers.h>
#include <deal.II/base/point.h>

#include <base/expressions.h>

#include <muParser.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

namespace stickslip
{
  std::map<std::string, double>
  expression_constants()
  {
    return {{"pi", numbers::PI}};
  }



  bool
  is_blank(const std::string &text)
  {
    return text.find_first_not_of(" \t") == std::string::npos;
  }



  std::string
  format_number(const double value)
  {
    // The text of an ostream with precision 12 ("%.12g"), without the
    // stream: the time loop names its stage with it at every history row.
    char       buffer[64];
    const auto result = std::to_chars(
      buffer, buffer + sizeof(buffer), value, std::chars_format::general, 12);
    return std::string(buffer, result.ptr);
  }



  std::vector<std::string>
  split_and_trim(const std::string &text, const char separator)
  {
    std::vector<std::string> pieces;
    std::string              piece;
    std::istringstream       in(text);
    while (std::getline(in, piece, separator))
      {
        const auto first = piece.find_first_not_of(" \t\r\n");
        const auto last  = piece.find_last_not_of(" \t\r\n");
        pieces.push_back(first == std::string::npos ?
                           std::string() :
                           piece.substr(first, last - first + 1));
      }
    if (!text.empty() && text.back() == separator)
      pieces.emplace_back();
    return pieces;
  }



  std::optional<double>
  plain_number(const std::string &text)
  {
    // Digits, point, exponent and signs only, as muParser reads numbers.
    if (text.empty() ||
        text.find_first_not_of("0123456789.eE+-") != std::string::npos)
      return std::nullopt;
    char        *end   = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && std::isfinite(value))
      return value;
    return std::nullopt;
  }



  namespace
  {
    double
    evaluate_constant(const std::string     &expression,
                      const std::string     &path,
                      const ParameterSource &source)
    {
      // A plain decimal number (most entries of a large matrix) is read by
      // strtod, without building a parser (parsers cost seconds for a large
      // matrix: BENCHMARKS.md, "Measurements behind design choices in the
      // code").
      if (const std::optional<double> value = plain_number(expression))
        return *value;
      try
        {
          mu::Parser parser;
          for (const auto &constant : expression_constants())
            parser.DefineConst(constant.first, constant.second);
          parser.SetExpr(expression);
          const double value = parser.Eval();
          if (!std::isfinite(value))
            throw_bad_parameter(source,
                                path,
                                expression,
                                "every entry must be a finite number");
          return value;
        }
      catch (mu::Parser::exception_type &e)
        {
          throw_bad_parameter(source,
                              path,
                              expression,
                              "it is not a number or constant expression (" +
                                e.GetMsg() + ")");
        }
    }
  } // namespace



  std::vector<double>
  parse_number_list(const std::string     &text,
                    const std::string     &path,
                    const ParameterSource &source)
  {
    std::vector<double> values;
    if (text.find_first_not_of(" \t") == std::string::npos)
      return values;
    for (const auto &entry : split_and_trim(text, ','))
      {
        if (entry.empty())
          throw_bad_parameter(source,
                              path,
                              text,
                              "the list has an empty entry (write numbers "
                              "separated by commas)");
        values.push_back(evaluate_constant(entry, path, source));
      }
    return values;
  }



  FullMatrix<double>
  parse_matrix(const std::string     &text,
               const std::string     &path,
               const ParameterSource &source)
  {
    std::vector<std::vector<double>> rows;
    for (const auto &row : split_and_trim(text, ';'))
      rows.push_back(parse_number_list(row, path, source));
    if (rows.empty() || rows[0].empty())
      throw_bad_parameter(source,
                          path,
                          text,
                          "a matrix must be given row by row, rows separated "
                          "by ';' and entries by ','");
    FullMatrix<double> matrix(rows.size(), rows[0].size());
    for (unsigned int i = 0; i < rows.size(); ++i)
      {
        if (rows[i].size() != rows[0].size())
          throw_bad_parameter(source,
                              path,
                              text,
                              "every row must have the same number of "
                              "entries (row 1 has " +
                                std::to_string(rows[0].size()) + ", row " +
                                std::to_string(i + 1) + " has " +
                                std::to_string(rows[i].size()) + ")");
        for (unsigned int j = 0; j < rows[i].size(); ++j)
          matrix(i, j) = rows[i][j];
      }
    return matrix;
  }



  namespace
  {
    /**
     * A hint for an expression that names a coordinate this dimension does
     * not have (y or z with Dimension = 1, z with Dimension = 2): often a
     * file of another dimension, or Dimension forgotten.
     */
    template <int dim>
    std::string
    coordinate_hint(const std::string              &token,
                    const std::vector<std::string> &names)
    {
      const std::string axes = "xyz";
      if (names.empty() || names.front() != "x" || token.size() != 1 ||
          axes.find(token) == std::string::npos ||
          std::find(names.begin(), names.end(), token) != names.end())
        return "";
      return "'" + token + "' is a coordinate of " +
             std::to_string(axes.find(token) + 1) +
             "D, but this run has Dimension = " + std::to_string(dim) +
             " (the parameter at the top of the file)";
    }


    /** muParser's @p message, then @p hint as a sentence of its own. */
    std::string
    with_hint(const std::string &message, const std::string &hint)
    {
      if (hint.empty())
        return message;
      return message +
             (!message.empty() && message.back() == '.' ? " " : ". ") + hint;
    }
  } // namespace



  namespace
  {
    /**
     * parse_function() into a FunctionParser<dim> or a class derived from
     * it (@p ParserType).
     */
    template <int dim, typename ParserType>
    std::unique_ptr<ParserType>
    parse_function_as(const std::string     &text,
                      const std::string     &variables,
                      const std::string     &path,
                      const ParameterSource &source,
                      const unsigned int     n_components,
                      const double           derivative_step)
    {
      const auto pieces = split_and_trim(text, ';');
      if (pieces.size() != n_components)
        throw_bad_parameter(source,
                            path,
                            text,
                            "it must hold " + std::to_string(n_components) +
                              " expression(s) separated by ';', one per "
                              "component (found " +
                              std::to_string(pieces.size()) + ")");
      for (const auto &piece : pieces)
        if (piece.empty())
          throw_bad_parameter(source,
                              path,
                              text,
                              "an expression is empty (write one muParser "
                              "expression of " +
                                variables +
                                " per component, separated by ';')");

      const std::vector<std::string> names = split_and_trim(variables, ',');
      AssertThrow(names.size() == dim || names.size() == dim + 1,
                  ExcInternalError());
      for (unsigned int c = 0; c < n_components; ++c)
        try
          {
            mu::Parser          check;
            std::vector<double> values(names.size(), 0.);
            for (unsigned int v = 0; v < names.size(); ++v)
              check.DefineVar(names[v], &values[v]);
            for (const auto &constant : expression_constants())
              check.DefineConst(constant.first, constant.second);
            check.SetExpr(pieces[c]);
            check.Eval();
          }
        catch (mu::Parser::exception_type &e)
          {
            throw_bad_parameter(
              source,
              path,
              text,
              (n_components == 1 ? std::string("it") :
                                   "expression " + std::to_string(c + 1) +
                                     " ('" + pieces[c] + "')") +
                " is not a valid muParser expression of " + variables + ": " +
                with_hint(e.GetMsg(),
                          coordinate_hint<dim>(e.GetToken(), names)));
          }
      auto function =
        std::make_unique<ParserType>(n_components, 0., derivative_step);
      function->initialize(variables,
                           pieces,
                           expression_constants(),
                           names.size() == dim + 1);
      return function;
    }
  } // namespace



  template <int dim>
  std::unique_ptr<FunctionParser<dim>>
  parse_function(const std::string     &text,
                 const std::string     &variables,
                 const std::string     &path,
                 const ParameterSource &source,
                 const unsigned int     n_components,
                 const double           derivative_step)
  {
    return parse_function_as<dim, FunctionParser<dim>>(
      text, variables, path, source, n_components, derivative_step);
  }



  bool
  expression_uses_variable(const std::string &text,
                           const std::string &variables,
                           const std::string &name)
  {
    const std::vector<std::string> names = split_and_trim(variables, ',');
    for (const auto &piece : split_and_trim(text, ';'))
      {
        mu::Parser          parser;
        std::vector<double> values(names.size(), 0.);
        for (unsigned int v = 0; v < names.size(); ++v)
          parser.DefineVar(names[v], &values[v]);
        for (const auto &constant : expression_constants())
          parser.DefineConst(constant.first, constant.second);
        parser.SetExpr(piece);
        const auto used = parser.GetUsedVar();
        if (used.find(name) != used.end())
          return true;
      }
    return false;
  }



  bool
  is_zero_expression(const std::string &text)
  {
    for (const auto &piece : split_and_trim(text, ';'))
      {
        std::size_t end   = 0;
        double      value = 1;
        try
          {
            value = std::stod(piece, &end);
          }
        catch (std::exception &)
          {
            return false;
          }
        if (end != piece.size() || value != 0)
          return false;
      }
    return true;
  }



  std::string
  expand_zero_vector(const std::string &text, const unsigned int n_components)
  {
    if (!(is_zero_expression(text) && split_and_trim(text, ';').size() == 1))
      return text;
    std::string expanded = "0";
    for (unsigned int c = 1; c < n_components; ++c)
      expanded += "; 0";
    return expanded;
  }



  /**
   * deal.II 9.4's FunctionParser asks for the components one by one in
   * vector_value(), each time looking up its per-thread muParser objects
   * (a lock and a map search, about as costly as evaluating a short
   * expression); its own do_all_values() evaluates them all after one
   * look-up, with the same parsers and so the same values.
   */
  class TimeFunction::Parser : public FunctionParser<1>
  {
  public:
    using FunctionParser<1>::FunctionParser;

    /** Every component at @p t into @p values. */
    void
    all_values(const double t, std::vector<double> &values) const
    {
      ArrayView<double> view(values.data(), values.size());
      this->do_all_values(Point<1>(t), this->get_time(), view);
    }
  };



  TimeFunction::TimeFunction(const std::string     &text,
                             const unsigned int     n_components,
                             const std::string     &path,
                             const ParameterSource &source)
    : last_values(n_components)
    , last_time(std::numeric_limits<double>::quiet_NaN())
  {
    // The time is the coordinate of a FunctionParser<1> here. Parsing every
    // component first names the parameter in any error.
    std::unique_ptr<Parser> all =
      parse_function_as<1, Parser>(text, "t", path, source, n_components, 1e-8);
    const std::vector<std::string> pieces = split_and_trim(text, ';');
    std::vector<std::string>       varying;
    for (unsigned int c = 0; c < n_components; ++c)
      if (expression_uses_variable(pieces[c], "t", "t"))
        {
          time_dependent.push_back(c);
          varying.push_back(pieces[c]);
        }
    if (varying.size() < n_components)
      // The constant components, once (their value at any t).
      all->all_values(0., last_values);
    if (varying.size() == n_components)
      time_dependent_parser = std::move(all);
    else if (!varying.empty())
      {
        time_dependent_parser = std::make_unique<Parser>(varying.size());
        time_dependent_parser->initialize("t",
                                          varying,
                                          expression_constants(),
                                          false);
      }
    parsed.resize(varying.size());
  }



  TimeFunction::~TimeFunction() = default;



  const std::vector<double> &
  TimeFunction::values(const double t) const
  {
    // A first call finds last_time = NaN, never equal to t; -0 and +0 are
    // different times to an expression such as 1/t.
    if (time_dependent_parser &&
        !(t == last_time && std::signbit(t) == std::signbit(last_time)))
      {
        time_dependent_parser->all_values(t, parsed);
        for (unsigned int k = 0; k < time_dependent.size(); ++k)
          last_values[time_dependent[k]] = parsed[k];
        last_time = t;
      }
    return last_values;
  }



  double
  TimeFunction::value(const double t, const unsigned int component) const
  {
    return values(t)[component];
  }



  unsigned int
  TimeFunction::n_components() const
  {
    return last_values.size();
  }



  bool
  TimeFunction::depends_on_time() const
  {
    return !time_dependent.empty();
  }



  template <int dim>
  std::string
  describe_point(const Point<dim> &point, const std::string &variables)
  {
    const std::vector<std::string> names = split_and_trim(variables, ',');
    std::string                    text;
    for (unsigned int d = 0; d < dim; ++d)
      text += (d > 0 ? ", " : "") +
              (d < names.size() ? names[d] : "x" + std::to_string(d + 1)) +
              " = " + format_number(point[d]);
    return text;
  }



  void
  NonFiniteData::set_source(const ParameterSource &parameter_source)
  {
    source = parameter_source;
  }



  void
  NonFiniteData::record(const std::string &path,
                        const std::string &text,
                        const double       t,
                        const double       value,
                        const std::string &point)
  {
    const std::string found = format_number(value) + " at " + point +
                              (point.empty() ? "t = " : ", t = ") +
                              format_number(t);
    message     = bad_parameter_message(source,
                                    path,
                                    text,
                                    "it evaluates to " + found +
                                      ": data must be finite numbers "
                                          "wherever they are evaluated");
    run_message = "parameter '" + path + "'" + source.where(path) + " = '" +
                  text + "' became " + found +
                  " during the run: data must stay finite numbers (a "
                  "division by zero or an overflow at that time?)";
  }



  void
  NonFiniteData::throw_if_found(const MPI_Comm comm, const bool initial) const
  {
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const unsigned int first =
      Utilities::MPI::min(message.empty() ? n_ranks : rank, comm);
    if (first == n_ranks)
      return;
    const std::string text =
      Utilities::MPI::broadcast(comm, initial ? message : run_message, first);
    if (initial)
      throw InputError(text);
    throw RunError(text);
  }



  template std::string
  describe_point<1>(const Point<1> &, const std::string &);
  template std::string
  describe_point<2>(const Point<2> &, const std::string &);
  template std::string
  describe_point<3>(const Point<3> &, const std::string &);



  template std::unique_ptr<FunctionParser<1>>
  parse_function<1>(const std::string &,
                    const std::string &,
                    const std::string &,
                    const ParameterSource &,
                    const unsigned int,
                    const double);
  template std::unique_ptr<FunctionParser<2>>
  parse_function<2>(const std::string &,
                    const std::string &,
                    const std::string &,
                    const ParameterSource &,
                    const unsigned int,
                    const double);
  template std::unique_ptr<FunctionParser<3>>
  parse_function<3>(const std::string &,
                    const std::string &,
                    const std::string &,
                    const ParameterSource &,
                    const unsigned int,
                    const double);
} // namespace stickslip
