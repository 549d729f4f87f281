#include <base/expressions.h>
#include <base/selection.h>
#include <control/control_parameters.h>

#include <algorithm>
#include <cmath>

namespace stickslip
{
  namespace
  {
    /**
     * The penalty and the direct search of the control problem (inside
     * subsection Control).
     */
    void
    declare_search(ParameterHandler &prm)
    {
      prm.declare_entry(
        "Penalty",
        "P",
        Patterns::Selection("P|Pi"),
        "How a missed target is penalized. P: the exact penalty "
        "with rho_1 = rho_2 (Glowinski & Kearsley 1995, eq. (3.1)); Pi: the penalty "
        "Pi_K whose norm K adapts to the constraint violation "
        "(Glowinski & Kearsley 1995, eqs. (3.4)-(3.8)).");
      prm.declare_entry(
        "Penalty parameters",
        "constant",
        Patterns::Selection("constant|dynamic"),
        "constant: every penalty weight equals Penalty "
        "parameter; dynamic: the weights are raised after each "
        "simplex from Initial dynamic rho up to Penalty "
        "parameter (Glowinski & Kearsley 1995, eqs. (3.2)-(3.3), rho_3 by (3.8)).");
      prm.declare_entry(
        "Penalty parameter",
        "1e6",
        Patterns::Double(),
        "Weight rho > 0 of the penalty on missing the "
        "target: the search minimizes the control cost plus "
        "rho times the distance of x(T) (and x'(T)) from "
        "the target (Glowinski & Kearsley 1995, eq. (3.1), which uses 1e6); with "
        "dynamic Penalty parameters the cap of rho_1, rho_2.");
      prm.declare_alias("Penalty parameter", "rho", true);
      prm.declare_entry(
        "Initial dynamic rho",
        "1e5",
        Patterns::Double(),
        "Starting penalty weight rho_1 = rho_2 (> 0) of dynamic "
        "Penalty parameters. The paper does not give it; its "
        "Tables 2 and 4 show the same simplex counts for "
        "constant and dynamic rho, so it must start close to the"
        " cap. Too small a start lets the search contract around"
        " an infeasible point before rho has grown.");
      prm.declare_entry("Search scheme",
                        "-1, -2, 0.5",
                        Patterns::Anything(),
                        "The PDS template: factors s of the trial simplexes "
                        "{v0 + s (v_i - v0)} evaluated together in each "
                        "iteration. -1 reflects, -2 expands, 0.5 contracts "
                        "(Torczon's multidirectional search); more factors "
                        "(e.g. -4, 0.25, -0.5) search deeper per iteration "
                        "and keep more ranks busy. Must contain 0.5.");
      prm.declare_entry(
        "Tolerance",
        "1e-10",
        Patterns::Double(),
        "Stopping tolerance (> 0) of the direct search: it stops"
        " when the largest simplex edge max_i |v_i - v0| is "
        "below it (Glowinski & Kearsley 1995 uses 1e-10).");
      prm.declare_entry("Maximum simplexes",
                        "1000",
                        Patterns::Integer(1),
                        "Limit of PDS iterations; reaching it is an error.");
      prm.declare_entry("Ranks per simulation",
                        "1",
                        Patterns::Integer(1),
                        "MPI ranks that run one simulation together. The "
                        "world is split into size/this groups, and each "
                        "group evaluates its share of the trial points; the "
                        "number of ranks must be a multiple of it.");
    }
  } // namespace



  void
  ControlParameters::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Control");
    prm.declare_entry(
      "Enabled",
      "false",
      Patterns::Bool(),
      "Solve the optimal control problem of Glowinski & Kearsley 1995, §2 "
      "(finite-dof models): find the constant control v "
      "minimizing T N v.v with x(T) = x_T (and x'(T) = x'_T) "
      "by parallel direct search, then run the controlled "
      "system.");
    prm.declare_entry(
      "Target displacement",
      "",
      Patterns::Anything(),
      "Target position x_T that the controlled system must "
      "reach at the final time, one value per unknown (Glowinski "
      "& Kearsley 1995, eq. (2.5)).");
    prm.declare_entry(
      "Target velocity",
      "",
      Patterns::Anything(),
      "Target velocity x'_T at the final time, one value per "
      "unknown; empty: no velocity target (Glowinski & Kearsley 1995, eq. (2.6)).");
    prm.declare_entry(
      "Control matrix",
      "1",
      Patterns::Anything(),
      "Diagonal of the matrix B through which the control "
      "acts: the forcing becomes f + B v. One value (B = b I) "
      "or one per unknown (Glowinski & Kearsley 1995, eq. (2.1)).");
    prm.declare_entry("Cost matrix",
                      "1",
                      Patterns::Anything(),
                      "Diagonal of the weight N > 0 of the control cost, the "
                      "integral of N v.v over time: one value or one per "
                      "unknown (Glowinski & Kearsley 1995, eq. (2.4)).");
    prm.declare_entry("Initial control",
                      "0",
                      Patterns::Anything(),
                      "First vertex of the initial simplex: one value or one "
                      "per unknown.");
    prm.declare_entry("Initial simplex size",
                      "1",
                      Patterns::Double(),
                      "Edge length h > 0 of the first simplex of the direct "
                      "search, {v0, v0 + h e_i} around Initial control.");
    declare_search(prm);
    prm.leave_subsection();
  }



  namespace
  {
    /** A list of one value (broadcast) or d values. */
    std::vector<double>
    diagonal_list(const std::string     &text,
                  const std::string     &path,
                  const ParameterSource &source,
                  const unsigned int     d)
    {
      std::vector<double> values = parse_number_list(text, path, source);
      if (values.size() == 1)
        values.assign(d, values.front());
      if (values.size() != d)
        throw_bad_parameter(source,
                            path,
                            text,
                            "one value, or one per unknown (d = " +
                              std::to_string(d) + "), are needed");
      for (const double v : values)
        if (!std::isfinite(v))
          throw_bad_parameter(source, path, text, "the values must be finite");
      return values;
    }
  } // namespace



  bool
  ControlParameters::enabled_in(ParameterHandler &prm)
  {
    prm.enter_subsection("Control");
    const bool enabled = prm.get_bool("Enabled");
    prm.leave_subsection();
    return enabled;
  }



  void
  ControlParameters::parse(ParameterHandler      &prm,
                           const ParameterSource &source,
                           const unsigned int     d,
                           const MPI_Comm         comm)
  {
    prm.enter_subsection("Control");
    enabled                   = prm.get_bool("Enabled");
    const std::string x_text  = prm.get("Target displacement");
    const std::string v_text  = prm.get("Target velocity");
    const std::string b_text  = prm.get("Control matrix");
    const std::string n_text  = prm.get("Cost matrix");
    const std::string v0_text = prm.get("Initial control");
    initial_simplex_size      = prm.get_double("Initial simplex size");
    penalty                   = parse_selection<Penalty>(prm.get("Penalty"),
                                       {{"P", Penalty::exact},
                                                          {"Pi", Penalty::adaptive_k}},
                                       "Control/Penalty");
    dynamic_rho =
      parse_selection<bool>(prm.get("Penalty parameters"),
                            {{"constant", false}, {"dynamic", true}},
                            "Control/Penalty parameters");
    rho                           = prm.get_double("Penalty parameter");
    initial_dynamic_rho           = prm.get_double("Initial dynamic rho");
    const std::string scheme_text = prm.get("Search scheme");
    tolerance                     = prm.get_double("Tolerance");
    max_simplexes                 = prm.get_integer("Maximum simplexes");
    ranks_per_simulation          = prm.get_integer("Ranks per simulation");
    prm.leave_subsection();
    if (!enabled)
      return;
    parse_vectors({x_text, v_text, b_text, n_text, v0_text, scheme_text},
                  d,
                  source);
    check(source, n_text, scheme_text, comm);
  }



  void
  ControlParameters::parse_vectors(const std::vector<std::string> &texts,
                                   const unsigned int              d,
                                   const ParameterSource          &source)
  {
    const std::string &x_text = texts[0], &v_text = texts[1],
                      &b_text = texts[2], &n_text = texts[3],
                      &v0_text = texts[4], &scheme_text = texts[5];

    if (is_blank(x_text))
      throw_bad_parameter(source,
                          "Control/Target displacement",
                          x_text,
                          "the control problem needs x_T (2.5), one value "
                          "per unknown");
    target_displacement =
      parse_number_list(x_text, "Control/Target displacement", source);
    if (target_displacement.size() != d)
      throw_bad_parameter(source,
                          "Control/Target displacement",
                          x_text,
                          "one value per unknown (d = " + std::to_string(d) +
                            ") is needed, not " +
                            std::to_string(target_displacement.size()));
    if (!is_blank(v_text))
      {
        target_velocity =
          parse_number_list(v_text, "Control/Target velocity", source);
        if (target_velocity.size() != d)
          throw_bad_parameter(source,
                              "Control/Target velocity",
                              v_text,
                              "one value per unknown (d = " +
                                std::to_string(d) + ") is needed, not " +
                                std::to_string(target_velocity.size()));
      }
    control_matrix = diagonal_list(b_text, "Control/Control matrix", source, d);
    cost_matrix    = diagonal_list(n_text, "Control/Cost matrix", source, d);
    initial_control =
      diagonal_list(v0_text, "Control/Initial control", source, d);
    search_scales =
      parse_number_list(scheme_text, "Control/Search scheme", source);
  }



  void
  ControlParameters::check(const ParameterSource &source,
                           const std::string     &n_text,
                           const std::string     &scheme_text,
                           const MPI_Comm         comm) const
  {
    for (const double n : cost_matrix)
      if (!(n > 0))
        throw_bad_parameter(source,
                            "Control/Cost matrix",
                            n_text,
                            "N must be positive definite: every diagonal "
                            "entry > 0");
    if (!(initial_simplex_size > 0) || !std::isfinite(initial_simplex_size))
      throw_bad_parameter(source,
                          "Control/Initial simplex size",
                          format_number(initial_simplex_size),
                          "the edge of the initial simplex must be positive");
    if (!(rho > 0) || !std::isfinite(rho))
      throw_bad_parameter(source,
                          "Control/Penalty parameter",
                          format_number(rho),
                          "the penalty parameter must be positive");
    if (!(initial_dynamic_rho > 0) || !std::isfinite(initial_dynamic_rho))
      throw_bad_parameter(source,
                          "Control/Initial dynamic rho",
                          format_number(initial_dynamic_rho),
                          "the penalty parameter must be positive");
    if (!(tolerance > 0) || !std::isfinite(tolerance))
      throw_bad_parameter(source,
                          "Control/Tolerance",
                          format_number(tolerance),
                          "the PDS stopping tolerance on the largest simplex "
                          "edge must be positive");
    if (std::find(search_scales.begin(), search_scales.end(), 0.5) ==
        search_scales.end())
      throw_bad_parameter(source,
                          "Control/Search scheme",
                          scheme_text,
                          "the template must contain the contraction 0.5");
    for (const double s : search_scales)
      if (s == 0 || s == 1 || !std::isfinite(s))
        throw_bad_parameter(source,
                            "Control/Search scheme",
                            scheme_text,
                            "factors 0 and 1 give a degenerate or the same "
                            "simplex");
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    if (n_ranks % ranks_per_simulation != 0)
      throw_bad_parameter(source,
                          "Control/Ranks per simulation",
                          std::to_string(ranks_per_simulation),
                          "the number of MPI ranks (" +
                            std::to_string(n_ranks) +
                            ") must be a multiple of it");
  }
} // namespace stickslip
