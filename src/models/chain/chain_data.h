#ifndef stickslip_models_chain_chain_data_h
#define stickslip_models_chain_chain_data_h

#include <base/expressions.h>
#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <models/chain/chain_parameters.h>

#include <muParser.h>

#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * A muParser expression in the mass index i and the time t, evaluated
   * without deal.II's per-call overhead (10^6 masses per step). Constant
   * expressions are recognized once and not evaluated again.
   */
  class IndexTimeExpression
  {
  public:
    /** Throws an InputError naming @p path if @p text does not parse. */
    IndexTimeExpression(const std::string     &text,
                        const std::string     &path,
                        const ParameterSource &source);

    double
    value(const double i, const double t) const;

    /** Whether the expression uses neither i nor t. */
    bool
    is_constant() const;

    /** Whether the expression does not use i (only t). */
    bool
    is_uniform() const;

    /** Note every non-finite value of value() in @p check (shared check). */
    void
    note_non_finite_values_in(NonFiniteData *check);

  private:
    std::string        path, text;
    NonFiniteData     *non_finite_data;
    mutable mu::Parser parser;
    mutable double     index_variable, time_variable;
    bool               constant, uniform;
    double             constant_value;
  };



  /**
   * The data of a chain (Bastien & Lamarque 2009, §2, doc/theory.md §5.1)
   * evaluated from its ChainParameters on the rows of this rank and checked
   * against the assumptions of Bastien & Lamarque 2009 ((3.26), (3.46), (3.61),
   * Lemma B.1: K positive definite; m_i, alpha_i non-negative; masses matching
   * the regime). Only the rows owned by this rank are stored; every check is
   * collective and names the parameter and the first offending index.
   */
  class ChainData
  {
  public:
    ChainData(const ChainParameters &parameters,
              const ParameterSource &source,
              const MPI_Comm         comm);

    /** Number of masses n. */
    types::global_dof_index n_masses;
    ChainRegime             regime;
    ChainRightEnd           right_end;

    /** Contiguous block of masses owned by this rank (0-based rows). */
    IndexSet owned;

    /** m_i, alpha_i of the owned masses. */
    std::vector<double> masses, thresholds;
    /**
     * k_{i-1} and k_i of the owned masses (springs left and right of mass
     * i, 1-based i); k_n is the spring to the right end.
     */
    std::vector<double> left_stiffness, right_stiffness;
    /** k_0 and k_n, known on every rank (reactions, end displacement). */
    double first_stiffness, last_stiffness;

    /** F_i(t) of every mass, F_{n+1}(t) or x(t) of the right end. */
    std::unique_ptr<IndexTimeExpression> forces, end_force, end_displacement;
    /** v_i(t0) and v_i'(t0). */
    std::unique_ptr<IndexTimeExpression> initial_displacement, initial_velocity;

    /** 1-based indices of the masses written to history.csv. */
    std::vector<types::global_dof_index> history_masses;

    std::string
    regime_name() const;

    std::string
    right_end_name() const;
  };
} // namespace stickslip

#endif
