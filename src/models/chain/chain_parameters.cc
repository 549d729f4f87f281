#include <base/expressions.h>
#include <base/selection.h>
#include <models/chain/chain_parameters.h>

#include <cmath>

namespace stickslip
{
  namespace
  {
    /** The values of Chain/Regime. */
    std::vector<std::pair<std::string, ChainRegime>>
    regimes()
    {
      return {{"dynamical", ChainRegime::dynamical},
              {"semi-dynamical", ChainRegime::semi_dynamical},
              {"quasistatic", ChainRegime::quasistatic}};
    }



    /** The values of Chain/Right end. */
    std::vector<std::pair<std::string, ChainRightEnd>>
    right_ends()
    {
      return {{"clamped", ChainRightEnd::clamped},
              {"force", ChainRightEnd::force},
              {"displacement", ChainRightEnd::displacement}};
    }

    /** The name of @p value among @p choices. */
    template <typename Enum>
    std::string
    name_of(const Enum                                       value,
            const std::vector<std::pair<std::string, Enum>> &choices)
    {
      for (const auto &choice : choices)
        if (choice.second == value)
          return choice.first;
      Assert(false, ExcInternalError());
      return "";
    }
  } // namespace



  void
  ChainParameters::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Chain");
    prm.declare_entry("Number of masses",
                      "3",
                      Patterns::Integer(1),
                      "Number n of masses of the chain; it has springs "
                      "k_0..k_n and St-Venant (friction) elements "
                      "alpha_1..alpha_n (Bastien & Lamarque 2009, §2).");
    prm.declare_entry(
      "Regime",
      "dynamical",
      Patterns::Selection("dynamical|semi-dynamical|quasistatic"),
      "Which masses have inertia. dynamical: every m_i > 0 "
      "(Bastien & Lamarque 2009, eqs. (3.6), (3.12)); semi-dynamical: m_1..m_{n-1} "
      "= 0 and m_n > 0, n >= 2 ((3.29)-(3.41)); quasistatic: "
      "every m_i = 0 ((3.48), (3.53), (3.62)). The Masses must"
      " match.");
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
                      "Masses m_1..m_n >= 0 [kg]: one value, a comma-separated"
                      " list of n values, or a muParser expression of the "
                      "index i.");
    prm.declare_entry(
      "Stiffnesses",
      "1",
      Patterns::Anything(),
      "Spring stiffnesses k_0..k_n [N/m]: one value, a list of"
      " n+1 values, or an expression of i = 0..n. k_0..k_{n-1}"
      " > 0 (so that the stiffness matrix is positive "
      "definite, Bastien & Lamarque 2009, Lemma B.1); k_n >= 0 with a clamped "
      "right end, k_n > 0 with a free one.");
    prm.declare_entry("Thresholds",
                      "1",
                      Patterns::Anything(),
                      "Slip thresholds alpha_1..alpha_n >= 0 [N] of the St-"
                      "Venant elements (the friction force that makes mass i "
                      "slide): one value, a list of n values, or an expression"
                      " of i.");
    prm.declare_entry("Forces",
                      "0",
                      Patterns::Anything(),
                      "External force F_i(t) [N] on mass i: a muParser "
                      "expression of i and t. The semi-dynamical and "
                      "quasistatic forms use its increments F(t_{n+1}) - "
                      "F(t_n) (doc/theory.md §6.2).");
    prm.declare_entry("Right end force",
                      "0",
                      Patterns::Anything(),
                      "Force F_{n+1}(t) [N] of the last spring when Right end "
                      "= force. Positive toward -x, so the load applied at the"
                      " free end in the +x direction is -F_{n+1} "
                      "(doc/theory.md §5.1).");
    prm.declare_entry("Right end displacement",
                      "0",
                      Patterns::Anything(),
                      "Prescribed displacement x(t) [m] of the right end of "
                      "spring k_n when Right end = displacement.");
    prm.declare_entry("Initial displacements",
                      "0",
                      Patterns::Anything(),
                      "Initial displacement v_i(t0) [m] of mass i, an "
                      "expression of i. With massless masses the initial "
                      "friction forces g = K V - F must lie in [-alpha_i, "
                      "alpha_i] (Bastien & Lamarque 2009, App. A).");
    prm.declare_entry(
      "Initial velocities",
      "0",
      Patterns::Anything(),
      "Initial velocity v_i'(t0) [m/s] of mass i, an "
      "expression of i; used for the masses with m_i > 0 only.");
    prm.declare_entry("History masses",
                      "",
                      Patterns::Anything(),
                      "Comma-separated 1-based indices of the masses written "
                      "to history.csv. Empty: all masses if n <= 100, else "
                      "11 evenly spaced masses 1, ..., n.");
    prm.leave_subsection();
  }



  void
  ChainParameters::parse(ParameterHandler &prm, const ParameterSource &source)
  {
    prm.enter_subsection("Chain");
    n_masses = prm.get_integer("Number of masses");
    regime   = parse_selection(prm.get("Regime"), regimes(), "Chain/Regime");
    right_end =
      parse_selection(prm.get("Right end"), right_ends(), "Chain/Right end");
    masses                         = prm.get("Masses");
    stiffnesses                    = prm.get("Stiffnesses");
    thresholds                     = prm.get("Thresholds");
    forces                         = prm.get("Forces");
    end_force                      = prm.get("Right end force");
    end_displacement               = prm.get("Right end displacement");
    initial_displacements          = prm.get("Initial displacements");
    initial_velocities             = prm.get("Initial velocities");
    const std::string history_text = prm.get("History masses");
    prm.leave_subsection();

    if (regime == ChainRegime::semi_dynamical && n_masses < 2)
      throw_bad_parameter(source,
                          "Chain/Regime",
                          regime_name(),
                          "the semi-dynamical chain needs n >= 2 masses "
                          "(Chain/Number of masses = 1)");
    parse_history_masses(history_text, source);
  }



  void
  ChainParameters::parse_history_masses(const std::string     &text,
                                        const ParameterSource &source)
  {
    const long n = n_masses;
    history_masses.clear();
    if (is_blank(text))
      {
        if (n <= 100)
          for (long i = 1; i <= n; ++i)
            history_masses.push_back(i);
        else
          for (long j = 0; j <= 10; ++j)
            history_masses.push_back(1 + ((n - 1) * j) / 10);
        return;
      }
    for (const double value :
         parse_number_list(text, "Chain/History masses", source))
      {
        if (value != std::floor(value) || value < 1 || value > n)
          throw_bad_parameter(source,
                              "Chain/History masses",
                              text,
                              "indices are integers in 1.." +
                                std::to_string(n));
        history_masses.push_back(static_cast<long>(value));
      }
  }



  std::string
  ChainParameters::regime_name() const
  {
    return name_of(regime, regimes());
  }



  std::string
  ChainParameters::right_end_name() const
  {
    return name_of(right_end, right_ends());
  }
} // namespace stickslip
