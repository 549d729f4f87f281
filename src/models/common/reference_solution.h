#ifndef stickslip_models_common_reference_solution_h
#define stickslip_models_common_reference_solution_h

#include <base/global.h>
#include <models/common/exact_solution.h>

#include <vector>

namespace stickslip
{
  /**
   * What errors are measured against: the exact solution of the parameter
   * file, or a recorded fine-step run. All quantities are the locally owned
   * components; the caller sums over ranks.
   */
  class ReferenceSolution
  {
  public:
    virtual ~ReferenceSolution() = default;

    /** x and v at time @p t (owned entries). */
    virtual void
    values(const double       t,
           DistributedVector &displacement,
           DistributedVector &velocity) const = 0;

    virtual bool
    has_multiplier() const = 0;

    /**
     * Owned part of the integral over (t_a, t_b) of |lambda_h - lambda(t)|^2,
     * lambda_h the constant multiplier of that step.
     */
    virtual double
    multiplier_error_squared(const double             t_a,
                             const double             t_b,
                             const DistributedVector &lambda_h) const = 0;
  };



  /** The exact solution of the parameter file. */
  class ExactReference : public ReferenceSolution
  {
  public:
    ExactReference(const ExactSolution &exact, const IndexSet &owned);

    void
    values(const double       t,
           DistributedVector &displacement,
           DistributedVector &velocity) const override;

    bool
    has_multiplier() const override;

    /**
     * The exact multiplier jumps, so Gauss rules do not help: the integral
     * is taken by the composite midpoint rule with 32 points per step (the
     * relative error of the measured norm is below 1% for the papers'
     * problems).
     */
    double
    multiplier_error_squared(const double             t_a,
                             const double             t_b,
                             const DistributedVector &lambda_h) const override;

  private:
    const ExactSolution &exact;
    const IndexSet       owned;
  };



  /** A fine-step run, recorded at every one of its steps. */
  class RecordedReference : public ReferenceSolution
  {
  public:
    RecordedReference(const double t0, const double dt);

    /** Record the state at step @p n (x, v at t0 + n dt and the multiplier of
     * step n). */
    void
    record(const DistributedVector &displacement,
           const DistributedVector &velocity,
           const DistributedVector &multiplier);

    void
    values(const double       t,
           DistributedVector &displacement,
           DistributedVector &velocity) const override;

    bool
    has_multiplier() const override;

    double
    multiplier_error_squared(const double             t_a,
                             const double             t_b,
                             const DistributedVector &lambda_h) const override;

  private:
    std::size_t
    index(const double t) const;

    const double                     t0;
    const double                     dt;
    std::vector<std::vector<double>> x, v, lambda;
  };
} // namespace stickslip

#endif
