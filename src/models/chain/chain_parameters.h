#ifndef stickslip_models_chain_chain_parameters_h
#define stickslip_models_chain_chain_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>

#include <string>
#include <vector>

namespace stickslip
{
  /** The three regimes of Bastien & Lamarque 2009, §3 (doc/theory.md §5.2-5.4).
   */
  enum class ChainRegime
  {
    dynamical,      ///< all m_i > 0, (3.6)/(3.12)
    semi_dynamical, ///< m_1..m_{n-1} = 0, m_n > 0, (3.29)-(3.41)
    quasistatic     ///< all m_i = 0, (3.48)/(3.53)/(3.62)
  };

  /** The right end of the chain (the left end is always clamped, xi = 0). */
  enum class ChainRightEnd
  {
    clamped,     ///< x = 0, reaction F_{n+1} = k_n v_n (3.3), (3.7)
    force,       ///< clamped-free, F_{n+1}(t) given, x unknown (3.10), (3.56)
    displacement ///< clamped-free, x(t) given, F_{n+1} unknown (3.51)
  };



  /**
   * The subsection `Chain`: a chain of masses, springs and St-Venant
   * elements (Bastien & Lamarque 2009, §2, doc/theory.md §5.1). parse() reads
   * the selections, the number of masses and the masses written to history.csv,
   * and keeps the coefficients and loads as the text of their parameters: a
   * chain of 10^6 masses is evaluated and checked by ChainData on the rows of
   * each rank only.
   */
  struct ChainParameters
  {
    types::global_dof_index n_masses; ///< n
    ChainRegime             regime;
    ChainRightEnd           right_end;

    /**
     * m_1..m_n, k_0..k_n and alpha_1..alpha_n: one value, a list of one
     * value per index, or a muParser expression of the index i.
     */
    std::string masses, stiffnesses, thresholds;
    /** F_i(t), F_{n+1}(t), x(t): muParser expressions of i and t. */
    std::string forces, end_force, end_displacement;
    /** v_i(t0), v_i'(t0): muParser expressions of i (and t). */
    std::string initial_displacements, initial_velocities;

    /** 1-based indices of the masses written to history.csv. */
    std::vector<types::global_dof_index> history_masses;

    static void
    declare_parameters(ParameterHandler &prm);
    void
    parse(ParameterHandler &prm, const ParameterSource &source);

    /** The value of Chain/Regime. */
    std::string
    regime_name() const;

    /** The value of Chain/Right end. */
    std::string
    right_end_name() const;

  private:
    /** history_masses from the text of Chain/History masses. */
    void
    parse_history_masses(const std::string     &text,
                         const ParameterSource &source);
  };
} // namespace stickslip

#endif
