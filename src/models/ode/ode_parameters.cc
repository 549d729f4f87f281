#include <base/expressions.h>
#include <models/common/system_builder.h>
#include <models/ode/ode_parameters.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** @p matrix as it is written in the parameter file, for messages. */
    std::string
    matrix_text(const FullMatrix<double> &matrix)
    {
      std::ostringstream out;
      for (unsigned int i = 0; i < matrix.m(); ++i)
        for (unsigned int j = 0; j < matrix.n(); ++j)
          out << (j == 0 ? (i == 0 ? "" : "; ") : ", ") << matrix(i, j);
      return out.str();
    }
  } // namespace



  void
  OdeParameters::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("ODE");
    prm.declare_entry("Mass matrix",
                      "1",
                      Patterns::Anything(),
                      "Mass matrix M, symmetric positive definite, row by row:"
                      " rows separated by ';', entries by ',' (e.g. '2, 1; 1, "
                      "2'). Entries may be constant expressions such as 1/3.");
    prm.declare_entry("Stiffness matrix",
                      "0",
                      Patterns::Anything(),
                      "Stiffness matrix A, symmetric positive semidefinite, "
                      "same format and size as the Mass matrix.");
    prm.declare_entry(
      "Friction coefficients",
      "1",
      Patterns::Anything(),
      "Friction coefficients c_i >= 0 (the diagonal of C), "
      "comma-separated, one per component. c_i = 0 makes "
      "component i frictionless (lambda_i = 0, Glowinski & Kearsley 1995, eq. "
      "(1.11)).");
    prm.declare_entry(
      "Gamma",
      "none",
      Patterns::Selection(gamma_law_names()),
      "Velocity weakening gamma: none (pure Coulomb), smooth "
      "beta v/sqrt(eps^2 + v^2) (Glowinski et al. 2006, eq. (2)), piecewise "
      "linear beta clamp(v/eps, -1, 1) (Glowinski et al. 2006, eq. (3)).");
    prm.declare_entry("Gamma beta",
                      "",
                      Patterns::Anything(),
                      "Weakening amounts beta_i in (0, 1) of Gamma, one per "
                      "component (comma-separated).");
    prm.declare_entry("Gamma epsilon",
                      "",
                      Patterns::Anything(),
                      "Velocity scales eps_i > 0 of Gamma, one per component "
                      "(comma-separated).");
    prm.declare_entry("Initial displacement",
                      "0",
                      Patterns::Anything(),
                      "Initial displacement X(t0), comma-separated, one per "
                      "component.");
    prm.declare_entry("Initial velocity",
                      "0",
                      Patterns::Anything(),
                      "Initial velocity X'(t0), comma-separated, one per "
                      "component.");
    prm.declare_entry("Forcing",
                      "0",
                      Patterns::Anything(),
                      "f(t): one muParser expression of t per component, "
                      "separated by ';'. Piecewise data: 't<1 ? a : b'. The "
                      "constant pi is defined to full double precision.");
    prm.declare_entry("Exact displacement",
                      "",
                      Patterns::Anything(),
                      "Optional exact x(t), same format as Forcing; with "
                      "Exact velocity it enables errors.csv.");
    prm.declare_entry("Exact velocity",
                      "",
                      Patterns::Anything(),
                      "Optional exact v(t) = x'(t).");
    prm.declare_entry("Exact multiplier",
                      "",
                      Patterns::Anything(),
                      "Optional exact friction multiplier lambda(t), same "
                      "format as Forcing (errors.csv then has its error).");
    prm.leave_subsection();
  }



  void
  OdeParameters::parse(ParameterHandler &prm, const ParameterSource &source)
  {
    prm.enter_subsection("ODE");
    mass = parse_matrix(prm.get("Mass matrix"), "ODE/Mass matrix", source);
    stiffness =
      parse_matrix(prm.get("Stiffness matrix"), "ODE/Stiffness matrix", source);
    check_matrices(source);
    const unsigned int d  = n_components();
    friction_coefficients = parse_component_values(
      prm.get("Friction coefficients"), d, "ODE/Friction coefficients", source);
    initial_displacement = parse_component_values(
      prm.get("Initial displacement"), d, "ODE/Initial displacement", source);
    initial_velocity = parse_component_values(prm.get("Initial velocity"),
                                              d,
                                              "ODE/Initial velocity",
                                              source);
    gamma            = parse_gamma_law(prm.get("Gamma"), "ODE/Gamma");
    if (gamma != GammaLaw::Type::none)
      {
        gamma_beta    = parse_component_values(prm.get("Gamma beta"),
                                            d,
                                            "ODE/Gamma beta",
                                            source);
        gamma_epsilon = parse_component_values(prm.get("Gamma epsilon"),
                                               d,
                                               "ODE/Gamma epsilon",
                                               source);
      }
    else
      {
        gamma_beta.assign(d, 0.);
        gamma_epsilon.assign(d, 1.);
      }
    forcing            = prm.get("Forcing");
    exact_displacement = prm.get("Exact displacement");
    exact_velocity     = prm.get("Exact velocity");
    exact_multiplier   = prm.get("Exact multiplier");
    prm.leave_subsection();

    for (unsigned int i = 0; i < d; ++i)
      if (!(friction_coefficients[i] >= 0))
        throw_bad_parameter(source,
                            "ODE/Friction coefficients",
                            format_number(friction_coefficients[i]),
                            "every c_i must be >= 0 (component " +
                              std::to_string(i + 1) + ")");
    check_gamma_law(gamma,
                    gamma_beta,
                    gamma_epsilon,
                    "ODE/Gamma beta",
                    "ODE/Gamma epsilon",
                    source);
    if (is_blank(exact_displacement) != is_blank(exact_velocity))
      throw_bad_parameter(source,
                          is_blank(exact_displacement) ?
                            "ODE/Exact displacement" :
                            "ODE/Exact velocity",
                          "",
                          "an exact solution needs both Exact displacement "
                          "and Exact velocity");
  }



  unsigned int
  OdeParameters::n_components() const
  {
    return mass.m();
  }



  void
  OdeParameters::check_matrices(const ParameterSource &source) const
  {
    const unsigned int d = mass.m();
    if (mass.m() != mass.n())
      throw_bad_parameter(source,
                          "ODE/Mass matrix",
                          matrix_text(mass),
                          "M must be square (it has " +
                            std::to_string(mass.m()) + " rows and " +
                            std::to_string(mass.n()) + " columns)");
    if (relative_asymmetry(mass) > 1e-14)
      throw_bad_parameter(source,
                          "ODE/Mass matrix",
                          matrix_text(mass),
                          "M must be symmetric positive definite, and it is "
                          "not symmetric");
    if (!is_positive_definite(mass))
      throw_bad_parameter(source,
                          "ODE/Mass matrix",
                          matrix_text(mass),
                          "M must be symmetric positive definite, and it is "
                          "not positive definite (its Cholesky factorization "
                          "fails)");

    if (stiffness.m() != d || stiffness.n() != d)
      throw_bad_parameter(source,
                          "ODE/Stiffness matrix",
                          matrix_text(stiffness),
                          "A must be " + std::to_string(d) + " x " +
                            std::to_string(d) + " like M");
    if (relative_asymmetry(stiffness) > 1e-14)
      throw_bad_parameter(source,
                          "ODE/Stiffness matrix",
                          matrix_text(stiffness),
                          "A must be symmetric positive semidefinite, and it "
                          "is not symmetric");
    double largest = 0;
    for (unsigned int i = 0; i < d; ++i)
      for (unsigned int j = 0; j < d; ++j)
        largest = std::max(largest, std::abs(stiffness(i, j)));
    const double lowest = smallest_eigenvalue(stiffness);
    if (lowest < -1e-12 * largest)
      throw_bad_parameter(source,
                          "ODE/Stiffness matrix",
                          matrix_text(stiffness),
                          "A must be positive semidefinite, and it has the "
                          "eigenvalue " +
                            format_number(lowest));
  }
} // namespace stickslip
