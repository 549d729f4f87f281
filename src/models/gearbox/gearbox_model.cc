#include <deal.II/lac/full_matrix.h>

#include <base/expressions.h>
#include <base/local_values.h>
#include <friction/gamma_law.h>
#include <models/common/system_builder.h>
#include <models/gearbox/gearbox_model.h>

#include <muParser.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  void
  GearboxModel::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Gear box");
    prm.declare_entry("Mass", "1", Patterns::Double(), "m > 0.");
    prm.declare_entry("Friction coefficient",
                      "0.5",
                      Patterns::Double(),
                      "c >= 0 of the bearing friction.");
    prm.declare_entry("Gamma",
                      "piecewise linear",
                      Patterns::Selection("none|smooth|piecewise linear"),
                      "gamma of the bearing friction (seed 000 (2) or (3)).");
    prm.declare_entry("Gamma beta", "0.3", Patterns::Double(), "beta in (0, 1).");
    prm.declare_entry("Gamma epsilon", "0.1", Patterns::Double(), "eps > 0.");
    prm.declare_entry("Delta",
                      "1",
                      Patterns::Double(),
                      "delta, the gear parameter of seed 000 (54).");
    prm.declare_entry("Gear force",
                      "2*tanh(delta)",
                      Patterns::Anything(),
                      "k(delta) as a muParser expression of delta: odd, "
                      "increasing, Lipschitz, k(0) = 0.");
    prm.declare_entry("a", "0.8", Patterns::Double(), "0 < a < b.");
    prm.declare_entry("b", "1.2", Patterns::Double(), "b > a.");
    prm.declare_entry("Gamma ab",
                      "smooth",
                      Patterns::Selection("none|smooth|piecewise linear"),
                      "gamma_ab of g (same families as gamma).");
    prm.declare_entry("Gamma ab beta", "0.5", Patterns::Double(), "in (0, 1).");
    prm.declare_entry("Gamma ab epsilon", "0.1", Patterns::Double(), "> 0.");
    prm.declare_entry("Forcing",
                      "0",
                      Patterns::Anything(),
                      "f(t), a muParser expression of t.");
    prm.declare_entry("Initial velocity", "0", Patterns::Double(), "w(t0).");
    prm.leave_subsection();
  }



  GearboxModel::GearboxModel(ParameterHandler &     prm,
                             const ParameterSource &source,
                             const MPI_Comm         comm)
    : FiniteDofModel(comm)
  {
    prm.enter_subsection("Gear box");
    const double      m           = prm.get_double("Mass");
    const double      c           = prm.get_double("Friction coefficient");
    const auto        gamma       = GammaLaw::parse_type(prm.get("Gamma"));
    const double      beta        = prm.get_double("Gamma beta");
    const double      epsilon     = prm.get_double("Gamma epsilon");
    const double      delta       = prm.get_double("Delta");
    const std::string k_text      = prm.get("Gear force");
    const double      a           = prm.get_double("a");
    const double      b           = prm.get_double("b");
    const auto        gamma_ab    = GammaLaw::parse_type(prm.get("Gamma ab"));
    const double      beta_ab     = prm.get_double("Gamma ab beta");
    const double      epsilon_ab  = prm.get_double("Gamma ab epsilon");
    const std::string f_text      = prm.get("Forcing");
    const double      w0          = prm.get_double("Initial velocity");
    prm.leave_subsection();

    if (!(m > 0))
      throw_bad_parameter(source, "Gear box/Mass", format_number(m), "m must be positive");
    if (!(c >= 0))
      throw_bad_parameter(source,
                          "Gear box/Friction coefficient",
                          format_number(c),
                          "c must be >= 0");
    if (gamma != GammaLaw::Type::none && !(beta > 0 && beta < 1))
      throw_bad_parameter(source,
                          "Gear box/Gamma beta",
                          format_number(beta),
                          "beta must lie in (0, 1)");
    if (gamma != GammaLaw::Type::none && !(epsilon > 0))
      throw_bad_parameter(source,
                          "Gear box/Gamma epsilon",
                          format_number(epsilon),
                          "eps must be positive");
    if (!(a > 0 && b > a))
      throw_bad_parameter(source,
                          "Gear box/a",
                          format_number(a),
                          "seed 000 (54) needs 0 < a < b (b = " + format_number(b) + ")");
    if (gamma_ab != GammaLaw::Type::none && !(beta_ab > 0 && beta_ab < 1))
      throw_bad_parameter(source,
                          "Gear box/Gamma ab beta",
                          format_number(beta_ab),
                          "beta must lie in (0, 1)");
    if (gamma_ab != GammaLaw::Type::none && !(epsilon_ab > 0))
      throw_bad_parameter(source,
                          "Gear box/Gamma ab epsilon",
                          format_number(epsilon_ab),
                          "eps must be positive");

    // k(delta) and k(-delta): k must be odd.
    double k = 0;
    try
      {
        mu::Parser parser;
        double     delta_variable = delta;
        parser.DefineVar("delta", &delta_variable);
        for (const auto &constant : expression_constants())
          parser.DefineConst(constant.first, constant.second);
        parser.SetExpr(k_text);
        k                 = parser.Eval();
        delta_variable    = -delta;
        const double k_minus = parser.Eval();
        delta_variable    = 0;
        const double k_zero = parser.Eval();
        if (!std::isfinite(k) || std::abs(k + k_minus) > 1e-12 * (1 + std::abs(k)) ||
            std::abs(k_zero) > 1e-14 || k * delta < 0)
          throw_bad_parameter(source,
                              "Gear box/Gear force",
                              k_text,
                              "k must be odd and increasing with k(0) = 0 "
                              "(here k(delta) = " +
                                format_number(k) + ", k(-delta) = " + format_number(k_minus) +
                                ", k(0) = " + format_number(k_zero) + ")");
      }
    catch (mu::Parser::exception_type &e)
      {
        throw_bad_parameter(source,
                            "Gear box/Gear force",
                            k_text,
                            "it is not a muParser expression of delta (" +
                              e.GetMsg() + ")");
      }

    effective_friction = c + 0.5 * (b - a) * std::abs(k);
    FullMatrix<double> M(1, 1), A(1, 1);
    M(0, 0) = m;
    build_small_system(M, A, {effective_friction}, friction_system);
    set_owned_values({0.}, friction_system.initial_displacement);
    set_owned_values({w0}, friction_system.initial_velocity);

    forcing = std::make_unique<TimeFunction>(f_text, 1, "Gear box/Forcing", source);
    const TimeFunction *f = forcing.get();
    friction_system.forcing = [f](const double t, DistributedVector &out) {
      LocalValues values(out);
      for (std::size_t k = 0; k < values.size(); ++k)
        values[k] = f->value(t, 0);
    };
    // g(t, w) = c gamma(w) - k (a+b)/2 + k (b-a)/2 gamma_ab(delta w)
    friction_system.extra_force =
      [=](const double, const DistributedVector &w, DistributedVector &out) {
        ConstLocalValues velocity(w);
        LocalValues      values(out);
        for (std::size_t j = 0; j < values.size(); ++j)
          values[j] +=
            c * GammaLaw::value(gamma, beta, epsilon, velocity[j]) -
            k * 0.5 * (a + b) +
            k * 0.5 * (b - a) *
              GammaLaw::value(gamma_ab, beta_ab, epsilon_ab, delta * velocity[j]);
      };
    friction_system.finalize();
  }



  std::string
  GearboxModel::description() const
  {
    return "gear box model (seed 000 (54)), c_eff = " +
           format_number(effective_friction);
  }
} // namespace stickslip
