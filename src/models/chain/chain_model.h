#ifndef stickslip_models_chain_chain_model_h
#define stickslip_models_chain_chain_model_h

#include <deal.II/base/data_out_base.h>

#include <models/chain/chain_data.h>
#include <models/chain/chain_inclusion.h>
#include <models/chain/chain_parameters.h>
#include <models/common/model.h>
#include <time/time_parameters.h>

#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * A chain of n masses linked by springs k_0..k_n, each held by a
   * St-Venant element of threshold alpha_i (Bastien & Lamarque 2009,
   * doc/theory.md §5), left end clamped, right end clamped, loaded by a force
   * or driven by a displacement. The tridiagonal stiffness K ((3.4): K(n), or
   * K_cf of (3.11c) with a force at the free end) and M = diag(m_i), C =
   * diag(alpha_i) are assembled on the owned row blocks of the ranks, so a
   * dynamical chain is the friction system of the core (every Time/Scheme
   * applies), and the three regimes also have the form (A.7) for the
   * implicit Euler scheme (ChainInclusion).
   *
   * history.csv: t, then x_i, v_i, lambda_i, g_i (friction force -alpha_i
   * lambda_i) of the masses of Chain/History masses, then reaction_left =
   * F_0 = -k_0 v_1, reaction_right = F_{n+1} = k_n (v_n - x),
   * end_displacement = x (given, or v_n - F_{n+1}/k_n), energy (kinetic of
   * the masses plus elastic of every spring), dissipated_energy, iterations.
   */
  class ChainModel : public Model
  {
  public:
    /**
     * The chain of @p parameters on @p comm, from the initial time of
     * @p time; only the dynamical chain is integrated by a scheme other than
     * Time/Scheme = implicit euler (an InputError otherwise).
     */
    ChainModel(const ChainParameters  &parameters,
               const Parameters::Time &time,
               const ParameterSource  &source,
               const MPI_Comm          comm);

    const FrictionSystem &
    system() const override;

    const ReferenceSolution *
    exact_reference() const override;

    std::vector<std::string>
    history_columns() const override;

    std::pair<double, double>
    energies(const double t, const FrictionState &state) const override;

    std::vector<double>
    history_row(const double         t,
                const FrictionState &state,
                const double         dissipated_energy,
                const unsigned long  iterations) const override;

    bool
    has_field_output() const override;

    /** Unknown i is mass i on any number of ranks. */
    bool
    numbering_independent_of_partition() const override;

    std::string
    write_fields(const double         t,
                 const FrictionState &state,
                 const unsigned int   index,
                 const FieldFiles    &files) const override;

    std::string
    description() const override;

    /** The chain's form (A.7) of Bastien & Lamarque 2009 (ChainInclusion). */
    const InclusionForm *
    inclusion_form() const override;

  private:
    /**
     * The fields at owned point @p r: displacement, velocity, friction
     * force, multiplier, stick, subdomain.
     */
    std::vector<double>
    point_values(const FrictionState &state, const std::size_t r) const;

    /**
     * The VTU patch of the owned masses, joined to @p next_first (the
     * fields at the first mass of the next rank that has masses; empty if
     * none).
     */
    DataOutBase::Patch<1, 1>
    line_patch(const FrictionState       &state,
               const std::vector<double> &next_first) const;

    /** K, M, C on the owned rows; the local tridiagonal coefficients. */
    void
    assemble();

    /** F_eff(t): F_i(t), and -F_{n+1}(t) or k_n x(t) on the last row. */
    void
    load(const double t, DistributedVector &out) const;

    /** Initial data, and the check that they lie in D(dphi). */
    void
    set_initial_data(const double t0, const ParameterSource &source);

    /** Entries of @p vector at the global rows @p rows, on every rank. */
    std::vector<double>
    gather(const DistributedVector                    &vector,
           const std::vector<types::global_dof_index> &rows) const;

    const MPI_Comm                  comm;
    ChainData                       data;
    std::vector<double>             diagonal, upper;
    FrictionSystem                  friction_system;
    std::unique_ptr<ChainInclusion> inclusion;
    mutable DistributedVector       scratch;
  };
} // namespace stickslip

#endif
