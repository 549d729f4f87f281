#include <deal.II/base/function_parser.h>

#include <base/expressions.h>
#include <base/selection.h>
#include <time/time_parameters.h>

#include <cmath>

namespace stickslip
{
  namespace Parameters
  {
    void
    Time::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Time");
      prm.declare_entry("Initial time",
                        "0",
                        Patterns::Double(),
                        "Time t0 at which the initial data are given.");
      prm.declare_entry("Final time",
                        "1",
                        Patterns::Double(),
                        "Time at which the run ends (absolute, > t0).");
      prm.declare_entry("Time step",
                        "1e-3",
                        Patterns::Double(),
                        "Time step dt > 0. It must divide (Final time - "
                        "Initial time): the run takes N = (T - t0)/dt equal "
                        "steps and never shortens the last one.");
      prm.declare_entry("Convergence time steps",
                        "",
                        Patterns::Anything(),
                        "Comma-separated list of time steps. When not empty, "
                        "one invocation runs every step size of the list "
                        "(the Time step entry is then ignored) and writes "
                        "errors.csv with the errors and observed orders.");
      prm.declare_entry("Reference time step",
                        "0",
                        Patterns::Double(0),
                        "When > 0, errors are measured against a reference "
                        "run with this (fine) time step instead of the exact "
                        "solution. Every time step of the run must be an "
                        "integer multiple of it.");
      prm.declare_entry(
        "Scheme",
        "lie",
        Patterns::Selection(
          "lie|strang|regularized arkode|centered|implicit euler"),
        "Time scheme: Lie splitting Glowinski et al. 2006, eqs. (9)-(13), Strang "
        "splitting (16)-(22), the regularized multiplier "
        "lambda_eta of Glowinski et al. 2006, eq. (5) integrated by SUNDIALS "
        "ARKode with adaptive steps (a reference route), "
        "the centered multiplier scheme of Glowinski & Kearsley 1995, eqs. "
        "(1.1)-(1.6) (see subsection Centered scheme), or "
        "the implicit Euler scheme of Bastien & Lamarque 2009, eqs. (5.1)-(5.3) "
        "for models written as X' + M dphi(X) contains "
        "G(t, X) (A.7): the chain.");
      prm.leave_subsection();
    }



    void
    Time::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Time");
      initial_time                = prm.get_double("Initial time");
      final_time                  = prm.get_double("Final time");
      time_step                   = prm.get_double("Time step");
      convergence_time_steps_text = prm.get("Convergence time steps");
      convergence_time_steps = parse_number_list(convergence_time_steps_text,
                                                 "Time/Convergence time steps",
                                                 source);
      prm.leave_subsection();
      if (!(final_time > initial_time))
        throw_bad_parameter(source,
                            "Time/Final time",
                            format_number(final_time),
                            "it must be larger than Time/Initial time = " +
                              format_number(initial_time));
      if (convergence_time_steps.empty() && !(time_step > 0))
        throw_bad_parameter(source,
                            "Time/Time step",
                            format_number(time_step),
                            "the time step must be positive");
      for (const double dt : convergence_time_steps)
        if (!(dt > 0))
          throw_bad_parameter(source,
                              "Time/Convergence time steps",
                              format_number(dt),
                              "every time step of the list must be positive");
    }



    void
    Time::parse_scheme(ParameterHandler &prm)
    {
      prm.enter_subsection("Time");
      reference_time_step = prm.get_double("Reference time step");
      scheme =
        parse_selection<Scheme>(prm.get("Scheme"),
                                {{"lie", Scheme::lie},
                                 {"strang", Scheme::strang},
                                 {"regularized arkode",
                                  Scheme::regularized_arkode},
                                 {"centered", Scheme::centered},
                                 {"implicit euler", Scheme::implicit_euler}},
                                "Time/Scheme");
      prm.leave_subsection();
    }



    void
    Time::check_steps(const ParameterSource &source) const
    {
      for (const double dt : time_steps())
        n_steps(dt, source);
      if (reference_time_step > 0)
        for (const double dt : time_steps())
          {
            const double ratio = dt / reference_time_step;
            if (std::abs(ratio - std::round(ratio)) > 1e-9 * ratio ||
                std::round(ratio) < 1)
              throw_bad_parameter(source,
                                  "Time/Reference time step",
                                  format_number(reference_time_step),
                                  "every time step must be an integer "
                                  "multiple of it (dt = " +
                                    format_number(dt) + " is " +
                                    format_number(ratio) + " times it)");
          }
    }



    std::vector<double>
    Time::time_steps() const
    {
      if (!convergence_time_steps.empty())
        return convergence_time_steps;
      return {time_step};
    }



    TimeGrid
    Time::grid(const double dt, const ParameterSource &source) const
    {
      return {initial_time, dt, n_steps(dt, source)};
    }



    unsigned int
    Time::n_steps(const double dt, const ParameterSource &source) const
    {
      const double      ratio   = (final_time - initial_time) / dt;
      const double      rounded = std::round(ratio);
      const std::string path    = convergence_time_steps.empty() ?
                                    "Time/Time step" :
                                    "Time/Convergence time steps";
      if (rounded < 1 || std::abs(ratio - rounded) > 1e-9 * ratio)
        throw_bad_parameter(
          source,
          path,
          format_number(dt),
          "the time step must divide the time interval T - t0 = " +
            format_number(final_time - initial_time) + " into equal steps (" +
            format_number(ratio) +
            " steps); stickslip never shortens or "
            "stretches the last step. Choose dt = (T - t0)/N, e.g. " +
            format_number((final_time - initial_time) /
                          std::max(1.0, std::ceil(ratio))));
      if (rounded > 4e9)
        throw_bad_parameter(source,
                            path,
                            format_number(dt),
                            "it gives " + format_number(rounded) +
                              " steps over T - t0 = " +
                              format_number(final_time - initial_time) +
                              ", more than the limit of 4e9 steps of one "
                              "run; choose dt >= " +
                              format_number((final_time - initial_time) / 4e9));
      return static_cast<unsigned int>(rounded);
    }



    void
    Splitting::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Splitting");
      prm.declare_entry(
        "Friction substeps",
        "10",
        Patterns::Integer(1, 100000),
        "Number P of implicit-explicit sub-steps of the "
        "friction step, tau_1 = dt/P (Glowinski et al. 2006, eqs. (25)-(26)). "
        "Default 10, but 1 for Model = string with "
        "String/Mass = lumped.");
      prm.declare_entry(
        "Elastic substeps",
        "2",
        Patterns::Integer(1, 100000),
        "Number Q of centered sub-steps of the elastic "
        "step, tau_2 = dt/Q (Glowinski et al. 2006, eqs. (55)-(57)). Default 2, "
        "but 1 for Model = string with String/Mass = "
        "lumped.");
      prm.declare_entry(
        "Elastic implicitness",
        "0.25",
        Patterns::Double(0, 0.5),
        "Implicitness alpha in [0, 1/2] of the elastic "
        "step (the Newmark-type centered scheme, Glowinski et al. 2006, eq. "
        "(56)): 0 is explicit, alpha >= 1/4 is "
        "unconditionally stable; for alpha < 1/4 the "
        "condition tau_2 < 1/sqrt((1/4 - alpha) nu_d) is "
        "checked before the run. Default 0.25, but 0 for "
        "Model = string with String/Mass = lumped.");
      prm.declare_alias("Elastic implicitness", "Alpha", true);
      prm.leave_subsection();
    }



    void
    Splitting::parse(ParameterHandler &prm, const ParameterSource &)
    {
      prm.enter_subsection("Splitting");
      friction_substeps = prm.get_integer("Friction substeps");
      elastic_substeps  = prm.get_integer("Elastic substeps");
      alpha             = prm.get_double("Elastic implicitness");
      prm.leave_subsection();
    }



    void
    Centered::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Centered scheme");
      prm.declare_entry(
        "Multiplier solver",
        "fixed point",
        Patterns::Selection("fixed point|friction solver"),
        "How the centered scheme finds the friction multiplier"
        " lambda^n (Glowinski & Kearsley 1995, eqs. (1.1)-(1.3)): fixed point, the "
        "paper's iteration (1.12)-(1.15); or friction solver, "
        "the core's Friction/Solver applied to the equivalent "
        "friction step (M + alpha dt^2 A) W + dt/2 C lambda = "
        "b, W = (x^{n+1} - x^{n-1})/(2 dt) (Glowinski et al. 2006, eq. (38); "
        "exact, no regularization).");
      prm.declare_entry(
        "Regularization",
        "false",
        Patterns::Bool(),
        "Use the regularized multiplier update of Glowinski & Kearsley 1995, eq. "
        "(1.19) instead of (1.14) (Multiplier solver = fixed "
        "point only).");
      prm.declare_entry(
        "Regularization epsilon",
        "dt^(6/5)",
        Patterns::Anything(),
        "Regularization epsilon >= 0 of the multiplier update,"
        " a muParser expression in the time step dt (Glowinski & Kearsley 1995, eqs. "
        "(1.17)-(1.19); §4 uses dt^(6/5); epsilon/dt must tend"
        " to 0).");
      prm.declare_entry(
        "Multiplier relaxation",
        "0",
        Patterns::Double(),
        "Relaxation factor r > 0 of the fixed-point "
        "iteration for the multiplier: lambda is moved by r "
        "times the velocity it produces, then projected "
        "onto [-1, 1] (Glowinski & Kearsley 1995, eq. (1.14)). 0 chooses r = "
        "2/(delta dt), delta = lambda_max((M + alpha dt^2 "
        "A)^{-1} C^2), the middle of the convergence range; "
        "a given r must lie in (0, 4/(delta dt)).");
      prm.declare_alias("Multiplier relaxation", "r", true);
      prm.declare_entry(
        "Tolerance",
        "1.5e-8",
        Patterns::Double(),
        "Stopping tolerance eta > 0 of the fixed-point "
        "iteration: ||x^{n+1,k} - x^{n+1,k-1}||_2 / "
        "(||x^{n+1,k-1}||_2 + 1) <= eta (Glowinski & Kearsley 1995, eq. (1.15)).");
      prm.declare_entry("Maximum iterations",
                        "100000",
                        Patterns::Integer(1),
                        "Limit of fixed-point iterations per time step; "
                        "reaching it is an error.");
      prm.declare_entry(
        "Warm start",
        "true",
        Patterns::Bool(),
        "Start the fixed-point iteration from the previous "
        "step's multiplier, lambda^{n,0} = lambda^{n-1} (Glowinski "
        "& Kearsley 1995, eq. (1.12)); false starts from 0.");
      prm.leave_subsection();
    }



    void
    Centered::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Centered scheme");
      multiplier_solver = parse_selection<CenteredMultiplierSolver>(
        prm.get("Multiplier solver"),
        {{"fixed point", CenteredMultiplierSolver::fixed_point},
         {"friction solver", CenteredMultiplierSolver::friction_solver}},
        "Centered scheme/Multiplier solver");
      regularization     = prm.get_bool("Regularization");
      epsilon_expression = prm.get("Regularization epsilon");
      r                  = prm.get_double("Multiplier relaxation");
      tolerance          = prm.get_double("Tolerance");
      max_iterations     = prm.get_integer("Maximum iterations");
      warm_start         = prm.get_bool("Warm start");
      prm.leave_subsection();

      if (r < 0 || !std::isfinite(r))
        throw_bad_parameter(
          source,
          "Centered scheme/Multiplier relaxation",
          format_number(r),
          "r of Glowinski & Kearsley 1995, eq. (1.10) must be positive (or 0 for "
          "the automatic choice 2/(delta dt))");
      if (!(tolerance > 0) || !std::isfinite(tolerance))
        throw_bad_parameter(source,
                            "Centered scheme/Tolerance",
                            format_number(tolerance),
                            "eta of (1.15) must be positive");
      if (regularization &&
          multiplier_solver == CenteredMultiplierSolver::friction_solver)
        throw_bad_parameter(source,
                            "Centered scheme/Regularization",
                            "true",
                            "the regularized update (1.19) belongs to the "
                            "fixed-point iteration; with Multiplier solver = "
                            "friction solver the step is solved exactly");
      epsilon(1e-3, source); // parse errors now, not in the middle of a run
    }



    double
    Centered::epsilon(const double dt, const ParameterSource &source) const
    {
      FunctionParser<1> parser;
      try
        {
          parser.initialize("dt", epsilon_expression, expression_constants());
        }
      catch (std::exception &e)
        {
          throw_bad_parameter(source,
                              "Centered scheme/Regularization epsilon",
                              epsilon_expression,
                              "a muParser expression in dt, e.g. dt^(6/5)");
        }
      const double value = parser.value(Point<1>(dt));
      if (!(value >= 0) || !std::isfinite(value))
        throw_bad_parameter(source,
                            "Centered scheme/Regularization epsilon",
                            epsilon_expression,
                            "epsilon must be >= 0; at dt = " +
                              format_number(dt) + " it is " +
                              format_number(value));
      return value;
    }



    void
    Numerics::declare_parameters(ParameterHandler &prm)
    {
      Time::declare_parameters(prm);
      Splitting::declare_parameters(prm);
      Friction::declare_parameters(prm);
      Centered::declare_parameters(prm);
      LinearSolver::declare_parameters(prm);
    }



    void
    Numerics::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      time.parse(prm, source);
      time.parse_scheme(prm);
      splitting.parse(prm, source);
      friction.parse(prm, source);
      centered.parse(prm, source);
      linear_solver.parse(prm, source);
    }
  } // namespace Parameters
} // namespace stickslip
