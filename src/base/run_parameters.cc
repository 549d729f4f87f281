#include <base/expressions.h>
#include <base/run_parameters.h>

#include <cmath>
#include <sstream>

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
      prm.declare_entry("Scheme",
                        "lie",
                        Patterns::Selection(
                          "lie|strang|regularized arkode|centered|implicit euler"),
                        "Time scheme: Lie splitting seed 000 (9)-(13), Strang "
                        "splitting (16)-(22), the regularized multiplier "
                        "lambda_eta of seed 000 (5) integrated by SUNDIALS "
                        "ARKode with adaptive steps (a reference route), "
                        "the centered multiplier scheme of seed 002 "
                        "(1.1)-(1.6) (see subsection Centered scheme), or "
                        "the implicit Euler scheme of seed 004 (5.1)-(5.3) "
                        "for models written as X' + M dphi(X) contains "
                        "G(t, X) (A.7): the chain.");
      prm.leave_subsection();
    }



    void
    Time::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Time");
      initial_time        = prm.get_double("Initial time");
      final_time          = prm.get_double("Final time");
      time_step           = prm.get_double("Time step");
      reference_time_step = prm.get_double("Reference time step");
      convergence_time_steps =
        parse_number_list(prm.get("Convergence time steps"),
                          "Time/Convergence time steps",
                          source);
      const std::string scheme_name = prm.get("Scheme");
      scheme = scheme_name == "lie"            ? Scheme::lie :
               scheme_name == "strang"         ? Scheme::strang :
               scheme_name == "centered"       ? Scheme::centered :
               scheme_name == "implicit euler" ? Scheme::implicit_euler :
                                                 Scheme::regularized_arkode;
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
                                    format_number(dt) + " is " + format_number(ratio) +
                                    " times it)");
          }
    }



    std::vector<double>
    Time::time_steps() const
    {
      if (!convergence_time_steps.empty())
        return convergence_time_steps;
      return {time_step};
    }



    unsigned int
    Time::n_steps(const double dt, const ParameterSource &source) const
    {
      const double ratio   = (final_time - initial_time) / dt;
      const double rounded = std::round(ratio);
      const std::string path = convergence_time_steps.empty() ?
                                 "Time/Time step" :
                                 "Time/Convergence time steps";
      if (rounded < 1 || std::abs(ratio - rounded) > 1e-9 * ratio)
        throw_bad_parameter(
          source,
          path,
          format_number(dt),
          "the time step must divide the time interval T - t0 = " +
            format_number(final_time - initial_time) + " into equal steps (" +
            format_number(ratio) + " steps); stickslip never shortens or "
            "stretches the last step. Choose dt = (T - t0)/N, e.g. " +
            format_number((final_time - initial_time) /
                      std::max(1.0, std::ceil(ratio))));
      if (rounded > 4e9)
        throw_bad_parameter(source, path, format_number(dt), "too many steps");
      return static_cast<unsigned int>(rounded);
    }



    void
    Splitting::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Splitting");
      prm.declare_entry("Friction substeps",
                        "10",
                        Patterns::Integer(1, 100000),
                        "P: implicit-explicit sub-steps of the friction step, "
                        "seed 000 (25)-(26), tau_1 = dt/P.");
      prm.declare_entry("Elastic substeps",
                        "2",
                        Patterns::Integer(1, 100000),
                        "Q: centered sub-steps of the elastic step, seed 000 "
                        "(55)-(57), tau_2 = dt/Q.");
      prm.declare_entry("Alpha",
                        "0.25",
                        Patterns::Double(0, 0.5),
                        "alpha in [0, 1/2] of the centered elastic step "
                        "(56). alpha >= 1/4 is unconditionally stable; for "
                        "alpha < 1/4 the condition tau_2 < 1/sqrt((1/4 - "
                        "alpha) nu_d) is checked before the run.");
      prm.leave_subsection();
    }



    void
    Splitting::parse(ParameterHandler &prm, const ParameterSource &)
    {
      prm.enter_subsection("Splitting");
      friction_substeps = prm.get_integer("Friction substeps");
      elastic_substeps  = prm.get_integer("Elastic substeps");
      alpha             = prm.get_double("Alpha");
      prm.leave_subsection();
    }



    void
    Friction::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Friction");
      prm.declare_entry(
        "Solver",
        "semismooth newton",
        Patterns::Selection(
          "closed form|projection|penalty newton|semismooth newton"),
        "Solver of the friction sub-step M W + tau C lambda = b, lambda in "
        "Sgn(W) (seed 000 (38)): closed form (diagonal M only, seed 000 "
        "(53)), projection (39)-(41), penalty newton (67)-(74; dense, small "
        "systems), semismooth newton (primal-dual active set, one linear "
        "solve with M per iteration).");
      prm.declare_entry("Tolerance",
                        "1e-12",
                        Patterns::Double(0),
                        "Stopping tolerance of the iterative friction "
                        "solvers: max-norm change of the multiplier "
                        "(projection), max-norm Newton step (penalty "
                        "newton).");
      prm.declare_entry("Maximum iterations",
                        "10000",
                        Patterns::Integer(1),
                        "Iteration limit of the iterative friction solvers; "
                        "reaching it is an error.");
      prm.declare_entry("Projection rho",
                        "0",
                        Patterns::Double(0),
                        "rho of the projection algorithm (41). 0 chooses "
                        "rho = 1/(tau_1 beta_d), the middle of the "
                        "convergence range (43) 0 < rho < 2/(tau_1 beta_d); "
                        "a given rho outside (43) is an error.");
      prm.declare_entry("Penalty epsilon",
                        "1e-4",
                        Patterns::Double(0),
                        "epsilon > 0 of the penalty functional (67).");
      prm.declare_entry("Regularization eta",
                        "1e-3",
                        Patterns::Double(0),
                        "eta > 0 of the regularized multiplier lambda_eta = "
                        "v/sqrt(eta^2 + v^2), seed 000 (5) (Scheme = "
                        "regularized arkode).");
      prm.declare_entry("ARKode tolerance",
                        "1e-8",
                        Patterns::Double(0),
                        "Relative and absolute error tolerance of the "
                        "adaptive ARKode integration.");
      prm.leave_subsection();
    }



    void
    Friction::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Friction");
      const std::string name = prm.get("Solver");
      solver = name == "closed form" ? FrictionSolverType::closed_form :
               name == "projection"  ? FrictionSolverType::projection :
               name == "penalty newton" ?
                                        FrictionSolverType::penalty_newton :
                                        FrictionSolverType::semismooth_newton;
      tolerance          = prm.get_double("Tolerance");
      max_iterations     = prm.get_integer("Maximum iterations");
      projection_rho     = prm.get_double("Projection rho");
      penalty_epsilon    = prm.get_double("Penalty epsilon");
      regularization_eta = prm.get_double("Regularization eta");
      arkode_tolerance   = prm.get_double("ARKode tolerance");
      prm.leave_subsection();

      if (!(tolerance > 0))
        throw_bad_parameter(source,
                            "Friction/Tolerance",
                            format_number(tolerance),
                            "the tolerance must be positive");
      if (!(penalty_epsilon > 0))
        throw_bad_parameter(source,
                            "Friction/Penalty epsilon",
                            format_number(penalty_epsilon),
                            "epsilon of seed 000 (67) must be positive");
      if (!(regularization_eta > 0))
        throw_bad_parameter(source,
                            "Friction/Regularization eta",
                            format_number(regularization_eta),
                            "eta of seed 000 (5) must be positive");
      if (!(arkode_tolerance > 0))
        throw_bad_parameter(source,
                            "Friction/ARKode tolerance",
                            format_number(arkode_tolerance),
                            "the tolerance must be positive");
    }



    void
    Centered::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Centered scheme");
      prm.declare_entry("Multiplier solver",
                        "fixed point",
                        Patterns::Selection("fixed point|friction solver"),
                        "How lambda^n of seed 002 (1.1)-(1.3) is found: the "
                        "paper's fixed-point iteration (1.12)-(1.15), or the "
                        "core's Friction/Solver applied to the equivalent "
                        "friction step (M + alpha dt^2 A) W + dt/2 C lambda "
                        "= b, W = (x^{n+1} - x^{n-1})/(2 dt) (seed 000 (38); "
                        "exact, no regularization).");
      prm.declare_entry("Regularization",
                        "false",
                        Patterns::Bool(),
                        "Use the regularized multiplier update (1.19) "
                        "instead of (1.14) (fixed point only).");
      prm.declare_entry("Regularization epsilon",
                        "dt^(6/5)",
                        Patterns::Anything(),
                        "epsilon >= 0 of (1.17)-(1.19), a muParser "
                        "expression in the time step dt (seed 002 §4 uses "
                        "dt^(6/5); epsilon/dt must tend to 0).");
      prm.declare_entry("r",
                        "0",
                        Patterns::Double(),
                        "r of the multiplier update (1.14). 0 chooses r = "
                        "2/(delta dt), delta = lambda_max((M + alpha dt^2 "
                        "A)^{-1} C^2); a given r must lie in (0, 4/(delta "
                        "dt)).");
      prm.declare_entry("Tolerance",
                        "1.5e-8",
                        Patterns::Double(),
                        "eta of the stopping test (1.15): ||x^{n+1,k} - "
                        "x^{n+1,k-1}||_2 / (||x^{n+1,k-1}||_2 + 1) <= eta.");
      prm.declare_entry("Maximum iterations",
                        "100000",
                        Patterns::Integer(1),
                        "Limit of fixed-point iterations per time step; "
                        "reaching it is an error.");
      prm.declare_entry("Warm start",
                        "true",
                        Patterns::Bool(),
                        "Start the iteration from lambda^{n,0} = "
                        "lambda^{n-1} (1.12); false starts from 0.");
      prm.leave_subsection();
    }



    void
    Centered::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Centered scheme");
      multiplier_solver = prm.get("Multiplier solver") == "fixed point" ?
                            CenteredMultiplierSolver::fixed_point :
                            CenteredMultiplierSolver::friction_solver;
      regularization     = prm.get_bool("Regularization");
      epsilon_expression = prm.get("Regularization epsilon");
      r                  = prm.get_double("r");
      tolerance          = prm.get_double("Tolerance");
      max_iterations     = prm.get_integer("Maximum iterations");
      warm_start         = prm.get_bool("Warm start");
      prm.leave_subsection();

      if (r < 0 || !std::isfinite(r))
        throw_bad_parameter(source,
                            "Centered scheme/r",
                            format_number(r),
                            "r of seed 002 (1.10) must be positive (or 0 for "
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
    LinearSolver::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Linear solver");
      prm.declare_entry("Type",
                        "auto",
                        Patterns::Selection("auto|direct|cg"),
                        "Linear solves with M and M + alpha tau^2 A: direct "
                        "(sparse Cholesky, factorized once per run), cg "
                        "(conjugate gradients with algebraic multigrid), or "
                        "auto (direct up to the size limit, cg above). "
                        "Diagonal matrices are always inverted directly.");
      prm.declare_entry("Tolerance",
                        "1e-13",
                        Patterns::Double(0),
                        "Relative residual tolerance of cg.");
      prm.declare_entry("Direct size limit",
                        "20000",
                        Patterns::Integer(1),
                        "Largest system solved directly when Type = auto.");
      prm.leave_subsection();
    }



    void
    LinearSolver::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Linear solver");
      const std::string name = prm.get("Type");
      type = name == "auto"   ? LinearSolverType::automatic :
             name == "direct" ? LinearSolverType::direct :
                                LinearSolverType::cg;
      tolerance         = prm.get_double("Tolerance");
      direct_size_limit = prm.get_integer("Direct size limit");
      prm.leave_subsection();
      if (!(tolerance > 0))
        throw_bad_parameter(source,
                            "Linear solver/Tolerance",
                            format_number(tolerance),
                            "the tolerance must be positive");
    }



    void
    Output::declare_parameters(ParameterHandler &prm)
    {
      prm.enter_subsection("Output");
      prm.declare_entry("Directory",
                        "output",
                        Patterns::Anything(),
                        "Directory of parameters.prm, history.csv and "
                        "errors.csv (created if missing).");
      prm.declare_entry("Interval",
                        "0",
                        Patterns::Double(0),
                        "Simulated time between rows of history.csv; 0 "
                        "writes every time step.");
      prm.declare_entry("Overwrite",
                        "false",
                        Patterns::Bool(),
                        "Allow writing into a directory that holds the "
                        "results of a previous run.");
      prm.declare_entry("Quiet",
                        "false",
                        Patterns::Bool(),
                        "Print only errors and the final summary (no "
                        "progress lines).");
      prm.declare_entry("Field output",
                        "true",
                        Patterns::Bool(),
                        "Write solution.pvd with the .pvtu/.vtu fields of the "
                        "string and membrane every Interval (false: history "
                        "only, e.g. for benchmarks).");
      prm.declare_entry("Progress interval",
                        "5",
                        Patterns::Double(0),
                        "Wall-clock seconds between progress lines.");
      prm.declare_entry("Checkpoint interval",
                        "0",
                        Patterns::Double(0),
                        "Simulated time between restart snapshots in "
                        "Directory/checkpoints (0: none). Resume with "
                        "stickslip FILE.prm --resume DIRECTORY. A control "
                        "search has no simulated time: any value > 0 "
                        "takes a snapshot of the search after every "
                        "iteration.");
      prm.declare_entry("Checkpoint wall interval",
                        "0",
                        Patterns::Double(0),
                        "Wall-clock seconds between restart snapshots (0: "
                        "none), e.g. a little less than a job's time limit "
                        "divided by a few; a control search takes its "
                        "snapshot at the next iteration boundary.");
      prm.leave_subsection();
    }



    void
    Output::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      prm.enter_subsection("Output");
      directory         = prm.get("Directory");
      interval          = prm.get_double("Interval");
      overwrite         = prm.get_bool("Overwrite");
      quiet             = prm.get_bool("Quiet");
      progress_interval = prm.get_double("Progress interval");
      field_output      = prm.get_bool("Field output");
      checkpoint_interval      = prm.get_double("Checkpoint interval");
      checkpoint_wall_interval = prm.get_double("Checkpoint wall interval");
      prm.leave_subsection();
      if (directory.find_first_not_of(" \t") == std::string::npos)
        throw_bad_parameter(source,
                            "Output/Directory",
                            directory,
                            "an output directory must be named");
    }



    void
    Run::declare_parameters(ParameterHandler &prm)
    {
      prm.declare_entry("Model",
                        "ode",
                        Patterns::Selection("ode|gearbox|string|chain|slab"),
                        "The model: ode (finite-dof friction system written "
                        "in the parameter file, seeds 000/001), gearbox "
                        "(gear box efficiency problem, seed 000 (54)), string "
                        "(frictional wave string, dim 1, or membrane, dim 2; "
                        "seed 000 (23)), chain (masses, springs and "
                        "St-Venant elements, seed 004), slab (Renard's "
                        "elastic slab, seed 003).");
      prm.declare_entry("Dimension",
                        "1",
                        Patterns::Integer(1, 2),
                        "Space dimension of the string model: 1 (string) or "
                        "2 (membrane).");
      Time::declare_parameters(prm);
      Splitting::declare_parameters(prm);
      Friction::declare_parameters(prm);
      Centered::declare_parameters(prm);
      LinearSolver::declare_parameters(prm);
      Output::declare_parameters(prm);
    }



    void
    Run::parse(ParameterHandler &prm, const ParameterSource &source)
    {
      model     = prm.get("Model");
      dimension = prm.get_integer("Dimension");
      time.parse(prm, source);
      splitting.parse(prm, source);
      friction.parse(prm, source);
      centered.parse(prm, source);
      linear_solver.parse(prm, source);
      output.parse(prm, source);
    }
  } // namespace Parameters
} // namespace stickslip
