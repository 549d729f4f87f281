#ifndef stickslip_base_expressions_h
#define stickslip_base_expressions_h

#include <deal.II/base/function_parser.h>
#include <deal.II/base/point.h>

#include <deal.II/lac/full_matrix.h>

#include <base/global.h>
#include <base/input_error.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The constants every expression of a parameter file may use. muParser's
   * own _pi has only 13 digits, so `pi` is defined here.
   */
  std::map<std::string, double>
  expression_constants();

  /**
   * Evaluate a comma-separated list of constant expressions ("1, 1/3, 2*pi").
   * Errors name @p path and where it was set.
   */
  std::vector<double>
  parse_number_list(const std::string     &text,
                    const std::string     &path,
                    const ParameterSource &source);

  /**
   * Evaluate a matrix written row by row: rows separated by ';', entries by
   * ','. All rows must have the same length.
   */
  FullMatrix<double>
  parse_matrix(const std::string     &text,
               const std::string     &path,
               const ParameterSource &source);

  /**
   * The value of @p text if it is a plain finite decimal number ("2",
   * "-1.5e3"), read by strtod without a parser; nullopt for anything else
   * (an expression, a constant name such as pi, blanks around the number).
   */
  std::optional<double>
  plain_number(const std::string &text);

  /**
   * A FunctionParser<dim> of the parameter @p path, whose value @p text holds
   * @p n_components muParser expressions separated by ';', in the
   * comma-separated @p variables: the dim coordinates ("x,y", "z", or "t"
   * for a function of time alone), followed by "t" if the function also
   * depends on time (then @p variables has dim + 1 names and set_time()
   * gives t). The constants of expression_constants() are defined.
   * @p derivative_step is the step of the function's finite-difference
   * gradient.
   *
   * Every expression is checked with muParser first, because deal.II's
   * FunctionParser prints parser errors to stderr on every rank before it
   * throws: a wrong number of expressions, an empty one or one muParser
   * cannot read is an InputError naming @p path and where it was set.
   */
  template <int dim>
  std::unique_ptr<FunctionParser<dim>>
  parse_function(const std::string     &text,
                 const std::string     &variables,
                 const std::string     &path,
                 const ParameterSource &source,
                 const unsigned int     n_components    = 1,
                 const double           derivative_step = 1e-8);

  /**
   * A vector-valued function of time given by muParser expressions, one per
   * component, separated by ';'. The variable is `t`; piecewise data use
   * `t<1 ? a : b`. Wraps deal.II's FunctionParser (parse_function()).
   *
   * Evaluation is cheap for the callers that ask for every component at one
   * time after the other (a forcing at each sub-step, an exact solution at
   * each quadrature point): the components that do not use `t` are
   * evaluated once, here; the others all together, once per new time (one
   * look-up of the parser's per-thread data instead of one per component),
   * and kept until a different time is asked for. The values are those
   * FunctionParser gives, bit for bit. Not for concurrent use by several
   * threads (the kept values are shared).
   */
  class TimeFunction
  {
  public:
    /**
     * Parse @p text as @p n_components expressions. Throws an InputError
     * naming @p path when the text does not parse or has the wrong number
     * of components.
     */
    TimeFunction(const std::string     &text,
                 const unsigned int     n_components,
                 const std::string     &path,
                 const ParameterSource &source);

    ~TimeFunction();

    /** Value of component @p component at time @p t. */
    double
    value(const double t, const unsigned int component) const;

    /** Every component at time @p t (valid until the next call). */
    const std::vector<double> &
    values(const double t) const;

    unsigned int
    n_components() const;

    /** Whether some component uses the variable t. */
    bool
    depends_on_time() const;

  private:
    /** A FunctionParser<1> that evaluates all its components at once. */
    class Parser;

    /** The components that use t, or null if none does. */
    std::unique_ptr<Parser> time_dependent_parser;
    /** Their component numbers, in order. */
    std::vector<unsigned int> time_dependent;
    /** Every component at last_time (the constant ones at any time). */
    mutable std::vector<double> last_values;
    mutable double              last_time;
    /** The values of the time-dependent components. */
    mutable std::vector<double> parsed;
  };

  /**
   * Whether any of the ';'-separated muParser expressions of @p text (in
   * the comma-separated @p variables, which must parse) uses the variable
   * @p name: e.g. whether data depend on the time "t", so that their
   * vector can be assembled once instead of at every step.
   */
  bool
  expression_uses_variable(const std::string &text,
                           const std::string &variables,
                           const std::string &name);

  /**
   * Whether every ';'-separated expression of @p text is the number 0
   * (data that are identically zero need no work at all).
   */
  bool
  is_zero_expression(const std::string &text);

  /**
   * @p text with the single expression "0" written out as @p n_components
   * zeros ("0; 0; 0"): "0" stands for the zero vector of any dimension, so
   * that one default serves 2D and 3D. Any other text is returned as is.
   */
  std::string
  expand_zero_vector(const std::string &text, const unsigned int n_components);

  /** Whether @p text is empty or only blanks (an optional entry not given). */
  bool
  is_blank(const std::string &text);

  /** A number for messages: up to 12 significant digits. */
  std::string
  format_number(const double value);

  /** Split @p text at @p separator and trim each piece. */
  std::vector<std::string>
  split_and_trim(const std::string &text, const char separator);

  /**
   * "x = 0.5, y = 0.25": @p point in the comma-separated coordinate names
   * of @p variables (the first dim of them), for messages.
   */
  template <int dim>
  std::string
  describe_point(const Point<dim> &point, const std::string &variables);



  /**
   * The check that data given as expressions (initial and boundary values,
   * forces, coefficient fields) are finite where they are evaluated, shared
   * by every model: the model notes each value it evaluates (note() is
   * cheap and local, no communication), and throw_if_found() reports the
   * first non-finite one collectively. At the initial time this is bad
   * input (an InputError before anything is written: exit 1); later the
   * data became non-finite during the run (a RunError: exit 2). Either way
   * the message names the parameter, where it was set, its text, the time,
   * the point and the value, instead of a divergence of the solution a step
   * later that names no parameter.
   */
  class NonFiniteData
  {
  public:
    /** Where the parameters were set, for the messages. */
    void
    set_source(const ParameterSource &source);

    /**
     * Note @p value of the parameter @p path (whose text is @p text) at time
     * @p t, at the point that @p point() describes (called only for a value
     * that is not finite). Only the first non-finite value is kept.
     */
    template <typename Describe>
    void
    note(const std::string &path,
         const std::string &text,
         const double       t,
         const double       value,
         const Describe    &point)
    {
      if (!std::isfinite(value) && message.empty())
        record(path, text, t, value, point());
    }

    /**
     * Collective: if a rank noted a value, throw for the lowest such rank's
     * first one: an InputError if @p initial (the data at t0, checked
     * before the run), else a RunError. Nothing noted: nothing happens.
     */
    void
    throw_if_found(const MPI_Comm comm, const bool initial) const;

    /** Whether this rank has noted a value that is not finite. */
    bool
    found_here() const
    {
      return !message.empty();
    }

  private:
    void
    record(const std::string &path,
           const std::string &text,
           const double       t,
           const double       value,
           const std::string &point);

    ParameterSource source;
    std::string     message;
    std::string     run_message;
  };
} // namespace stickslip

#endif
