#include <base/expressions.h>
#include <base/local_values.h>
#include <models/common/system_builder.h>
#include <models/ode/ode_model.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  void
  OdeModel::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("ODE");
    prm.declare_entry("Mass matrix",
                      "1",
                      Patterns::Anything(),
                      "M, symmetric positive definite, row by row: rows "
                      "separated by ';', entries by ',' (e.g. '2, 1; 1, 2'). "
                      "Entries may be constant expressions such as 1/3.");
    prm.declare_entry("Stiffness matrix",
                      "0",
                      Patterns::Anything(),
                      "A, symmetric positive semidefinite, same format and "
                      "size as M.");
    prm.declare_entry("Friction coefficients",
                      "1",
                      Patterns::Anything(),
                      "Diagonal of C: c_i >= 0, comma-separated. c_i = 0 "
                      "makes component i frictionless (lambda_i = 0, seed "
                      "002 (1.11)).");
    prm.declare_entry("Gamma",
                      "none",
                      Patterns::Selection("none|smooth|piecewise linear"),
                      "Velocity weakening gamma: none (pure Coulomb), smooth "
                      "beta v/sqrt(eps^2 + v^2) (seed 000 (2)), piecewise "
                      "linear beta clamp(v/eps, -1, 1) (seed 000 (3)).");
    prm.declare_entry("Gamma beta",
                      "",
                      Patterns::Anything(),
                      "beta_i in (0, 1), one per component (comma-separated).");
    prm.declare_entry("Gamma epsilon",
                      "",
                      Patterns::Anything(),
                      "eps_i > 0, one per component (comma-separated).");
    prm.declare_entry("Initial displacement",
                      "0",
                      Patterns::Anything(),
                      "X(t0), comma-separated, one per component.");
    prm.declare_entry("Initial velocity",
                      "0",
                      Patterns::Anything(),
                      "X'(t0), comma-separated, one per component.");
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
                      "Optional exact lambda(t).");
    prm.leave_subsection();
  }



  OdeModel::OdeModel(ParameterHandler &     prm,
                     const ParameterSource &source,
                     const MPI_Comm         comm)
    : FiniteDofModel(comm)
  {
    prm.enter_subsection("ODE");
    const FullMatrix<double> M =
      parse_matrix(prm.get("Mass matrix"), "ODE/Mass matrix", source);
    const FullMatrix<double> A = parse_matrix(prm.get("Stiffness matrix"),
                                              "ODE/Stiffness matrix",
                                              source);
    const std::vector<double> c = parse_number_list(
      prm.get("Friction coefficients"), "ODE/Friction coefficients", source);
    const std::string   gamma_name = prm.get("Gamma");
    std::vector<double> beta =
      parse_number_list(prm.get("Gamma beta"), "ODE/Gamma beta", source);
    std::vector<double> epsilon =
      parse_number_list(prm.get("Gamma epsilon"), "ODE/Gamma epsilon", source);
    const std::vector<double> x0 = parse_number_list(
      prm.get("Initial displacement"), "ODE/Initial displacement", source);
    const std::vector<double> v0 = parse_number_list(prm.get("Initial velocity"),
                                                     "ODE/Initial velocity",
                                                     source);
    const std::string forcing_text  = prm.get("Forcing");
    const std::string exact_x_text  = prm.get("Exact displacement");
    const std::string exact_v_text  = prm.get("Exact velocity");
    const std::string exact_l_text  = prm.get("Exact multiplier");
    prm.leave_subsection();

    const unsigned int d = M.m();
    const auto         matrix_text = [&](const FullMatrix<double> &matrix) {
      std::ostringstream out;
      for (unsigned int i = 0; i < matrix.m(); ++i)
        for (unsigned int j = 0; j < matrix.n(); ++j)
          out << (j == 0 ? (i == 0 ? "" : "; ") : ", ") << matrix(i, j);
      return out.str();
    };

    // M: square, symmetric, positive definite.
    if (M.m() != M.n())
      throw_bad_parameter(source,
                          "ODE/Mass matrix",
                          matrix_text(M),
                          "M must be square (it has " + std::to_string(M.m()) +
                            " rows and " + std::to_string(M.n()) + " columns)");
    if (relative_asymmetry(M) > 1e-14)
      throw_bad_parameter(source,
                          "ODE/Mass matrix",
                          matrix_text(M),
                          "M must be symmetric positive definite, and it is "
                          "not symmetric");
    if (!is_positive_definite(M))
      throw_bad_parameter(source,
                          "ODE/Mass matrix",
                          matrix_text(M),
                          "M must be symmetric positive definite, and it is "
                          "not positive definite (its Cholesky factorization "
                          "fails)");

    // A: same size, symmetric, positive semidefinite.
    if (A.m() != d || A.n() != d)
      throw_bad_parameter(source,
                          "ODE/Stiffness matrix",
                          matrix_text(A),
                          "A must be " + std::to_string(d) + " x " +
                            std::to_string(d) + " like M");
    if (relative_asymmetry(A) > 1e-14)
      throw_bad_parameter(source,
                          "ODE/Stiffness matrix",
                          matrix_text(A),
                          "A must be symmetric positive semidefinite, and it "
                          "is not symmetric");
    {
      double largest = 0;
      for (unsigned int i = 0; i < d; ++i)
        for (unsigned int j = 0; j < d; ++j)
          largest = std::max(largest, std::abs(A(i, j)));
      const double lowest = smallest_eigenvalue(A);
      if (lowest < -1e-12 * largest)
        throw_bad_parameter(source,
                            "ODE/Stiffness matrix",
                            matrix_text(A),
                            "A must be positive semidefinite, and it has the "
                            "eigenvalue " +
                              format_number(lowest));
    }

    const auto check_length = [&](const std::vector<double> &values,
                                  const std::string &        path,
                                  const std::string &        text) {
      if (values.size() != d)
        throw_bad_parameter(source,
                            path,
                            text,
                            "it must list " + std::to_string(d) +
                              " values, one per component of M (found " +
                              std::to_string(values.size()) + ")");
    };
    prm.enter_subsection("ODE");
    check_length(c, "ODE/Friction coefficients", prm.get("Friction coefficients"));
    check_length(x0, "ODE/Initial displacement", prm.get("Initial displacement"));
    check_length(v0, "ODE/Initial velocity", prm.get("Initial velocity"));
    const std::string beta_text = prm.get("Gamma beta");
    const std::string epsilon_text = prm.get("Gamma epsilon");
    prm.leave_subsection();

    for (unsigned int i = 0; i < d; ++i)
      if (!(c[i] >= 0))
        throw_bad_parameter(source,
                            "ODE/Friction coefficients",
                            format_number(c[i]),
                            "every c_i must be >= 0 (component " +
                              std::to_string(i + 1) + ")");

    const GammaLaw::Type gamma_type = GammaLaw::parse_type(gamma_name);
    if (gamma_type != GammaLaw::Type::none)
      {
        check_length(beta, "ODE/Gamma beta", beta_text);
        check_length(epsilon, "ODE/Gamma epsilon", epsilon_text);
        for (unsigned int i = 0; i < d; ++i)
          {
            if (!(beta[i] > 0 && beta[i] < 1))
              throw_bad_parameter(source,
                                  "ODE/Gamma beta",
                                  format_number(beta[i]),
                                  "beta_i must lie in the open interval (0, 1) "
                                  "(seed 000 §1: static friction c_i exceeds "
                                  "kinetic friction c_i (1 - beta_i) > 0); "
                                  "component " +
                                    std::to_string(i + 1));
            if (!(epsilon[i] > 0))
              throw_bad_parameter(source,
                                  "ODE/Gamma epsilon",
                                  format_number(epsilon[i]),
                                  "eps_i must be positive (component " +
                                    std::to_string(i + 1) + ")");
          }
      }
    else
      {
        beta.assign(d, 0.);
        epsilon.assign(d, 1.);
      }

    forcing = std::make_unique<TimeFunction>(forcing_text, d, "ODE/Forcing", source);
    if (is_blank(exact_x_text) != is_blank(exact_v_text))
      throw_bad_parameter(source,
                          is_blank(exact_x_text) ? "ODE/Exact displacement" :
                                                   "ODE/Exact velocity",
                          "",
                          "an exact solution needs both Exact displacement "
                          "and Exact velocity");
    std::unique_ptr<ExactSolution> exact;
    if (!is_blank(exact_x_text))
      exact = std::make_unique<ExactSolution>(
        std::make_unique<TimeFunction>(exact_x_text,
                                       d,
                                       "ODE/Exact displacement",
                                       source),
        std::make_unique<TimeFunction>(exact_v_text,
                                       d,
                                       "ODE/Exact velocity",
                                       source),
        is_blank(exact_l_text) ?
          nullptr :
          std::make_unique<TimeFunction>(exact_l_text,
                                         d,
                                         "ODE/Exact multiplier",
                                         source));

    build_small_system(M, A, c, friction_system);
    set_owned_values(x0, friction_system.initial_displacement);
    set_owned_values(v0, friction_system.initial_velocity);
    DistributedVector beta_vector(friction_system.locally_owned, comm);
    DistributedVector epsilon_vector(friction_system.locally_owned, comm);
    set_owned_values(beta, beta_vector);
    set_owned_values(epsilon, epsilon_vector);
    friction_system.gamma.reinit(gamma_type, beta_vector, epsilon_vector);

    const TimeFunction *f     = forcing.get();
    const IndexSet      owned = friction_system.locally_owned;
    friction_system.forcing = [f, owned](const double t, DistributedVector &out) {
      LocalValues values(out);
      std::size_t k = 0;
      for (const auto i : owned)
        values[k++] = f->value(t, i);
    };
    friction_system.finalize();
    set_exact_solution(std::move(exact));
  }



  std::string
  OdeModel::description() const
  {
    return "ode model, d = " + std::to_string(friction_system.size()) +
           (friction_system.mass_is_diagonal() ? ", diagonal M" :
                                                 ", non-diagonal M") +
           (friction_system.has_stiffness ? "" : ", A = 0");
  }
} // namespace stickslip
