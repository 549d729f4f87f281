#ifndef stickslip_models_common_finite_dof_model_h
#define stickslip_models_common_finite_dof_model_h

#include <deal.II/lac/full_matrix.h>

#include <base/expressions.h>
#include <base/input_error.h>
#include <models/common/exact_solution.h>
#include <models/common/model.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * A model whose unknowns are a handful of named components (ode,
   * gearbox): history.csv holds x1..xd, v1..vd, lambda1..lambdad, energy,
   * iterations; errors use the Euclidean norm. Derived classes hand their
   * replicated data to set_up_system(), add what is theirs (extra forces),
   * call friction_system.finalize() and, optionally, set_exact_solution().
   */
  class FiniteDofModel : public Model
  {
  public:
    explicit FiniteDofModel(const MPI_Comm comm);

    const FrictionSystem &
    system() const override;

    const ReferenceSolution *
    exact_reference() const override;

    std::vector<std::string>
    history_columns() const override;

    std::vector<double>
    history_row(const double         t,
                const FrictionState &state,
                const double         dissipated_energy,
                const unsigned long  iterations) const override;

    /** The unknowns are the model's components: rank-independent. */
    bool
    numbering_independent_of_partition() const override;

    /**
     * Model::energies() with a kept work vector instead of one per call
     * (a history row at every step calls it): the same numbers.
     */
    std::pair<double, double>
    energies(const double t, const FrictionState &state) const override;

    /**
     * Add the constant force @p force (replicated, one entry per unknown) to
     * f(t): the control term B v of Glowinski & Kearsley 1995, eq. (2.1).
     * Replaces the previous control force.
     */
    void
    set_control_force(const std::vector<double> &force);

  protected:
    /**
     * The data of a system M X'' + A X + C (lambda - gamma(X')) = f(t) of a
     * few components, replicated on every rank (checked by the model's
     * parameters).
     */
    struct SystemData
    {
      FullMatrix<double>  mass;
      FullMatrix<double>  stiffness;
      std::vector<double> friction_weights; ///< diagonal of C
      GammaLaw::Type      gamma;
      std::vector<double> gamma_beta;    ///< one per component
      std::vector<double> gamma_epsilon; ///< one per component
      std::vector<double> initial_displacement;
      std::vector<double> initial_velocity;
    };

    /**
     * Fill friction_system from @p data (the rows of this rank) and set f(t)
     * to the expressions of t @p forcing_text of the parameter
     * @p forcing_path, one per component (an InputError naming it if they
     * do not parse).
     */
    void
    set_up_system(const SystemData      &data,
                  const std::string     &forcing_text,
                  const std::string     &forcing_path,
                  const ParameterSource &source);

    /** Call at the end of the derived constructor. */
    void
    set_exact_solution(std::unique_ptr<ExactSolution> solution);

    FrictionSystem friction_system;

  private:
    /** f(t) of the model (set_up_system()). */
    std::unique_ptr<TimeFunction> forcing;
    /** f(t) of the model itself, before a control force was added. */
    std::function<void(const double, DistributedVector &)> uncontrolled_forcing;
    DistributedVector                                      control_force;
    /** The same for every unknown (FrictionSystem::replicated_forcing). */
    std::function<void(const double, double *)> uncontrolled_replicated_forcing;
    std::vector<double>                         replicated_control_force;
    std::unique_ptr<ExactSolution>              exact;
    std::unique_ptr<ExactReference>             reference;
    /** The work vector of energies(), sized on first use. */
    mutable DistributedVector energy_product;
  };
} // namespace stickslip

#endif
