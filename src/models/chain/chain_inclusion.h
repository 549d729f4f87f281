#ifndef stickslip_models_chain_chain_inclusion_h
#define stickslip_models_chain_chain_inclusion_h

#include <models/chain/chain_data.h>
#include <time/inclusion_form.h>

#include <functional>
#include <vector>

namespace stickslip
{
  /**
   * The chain in the form X' + M dphi(X) contains G(t, X) of Bastien & Lamarque
   * 2009, eq. (A.7), one class for the three regimes (doc/theory.md §5.5, Table
   * 1). Rows with m_i > 0 carry (v_i, v_i') with M = diag(1, 1/m_i) and phi =
   * alpha_i |v_i'|; massless rows carry the friction force g_i with the block M
   * = K restricted to them and phi = the indicator of [-alpha_i, alpha_i].
   * Implicit Euler (5.2) then splits into the practical cases of Bastien &
   * Lamarque 2009 §5 (doc/theory.md §5.6):
   *  1. massive rows, M diagonal: explicit, a soft threshold per mass;
   *  2. massless rows: the projection of the elastic predictor onto the box
   *     C in the metric of K^{-1}, solved in its dual (incremental) form by
   *     StaticIncrementSolver;
   *  3. the semi-dynamical chain: both, the minimization (5.3) decoupling
   *     into 1 and 2 because M is block diagonal and phi separable.
   * In the state, the displacement is V, the velocity V' (massless rows:
   * the increment over the step divided by h), the multiplier lambda =
   * -g/alpha in [-1, 1] (the friction force g_i = -alpha_i lambda_i).
   */
  class ChainInclusion : public InclusionForm
  {
  public:
    /** F_eff(t): the loads of the rows (with the right-end term). */
    using LoadFunction = std::function<void(const double, DistributedVector &)>;

    ChainInclusion(const ChainData           &data,
                   const DistributedMatrix   &stiffness,
                   const std::vector<double> &diagonal,
                   const std::vector<double> &upper,
                   const DistributedVector   &thresholds,
                   const LoadFunction        &load);

    std::unique_ptr<Stepper>
    create_stepper(const Parameters::Numerics &run,
                   const ParameterSource      &source,
                   const double                dt) const override;

    std::string
    description() const override;

  private:
    class ChainStepper;

    const ChainData           &data;
    const DistributedMatrix   &stiffness;
    const std::vector<double> &diagonal;
    const std::vector<double> &upper;
    const DistributedVector   &thresholds;
    const LoadFunction         load;
  };
} // namespace stickslip

#endif
