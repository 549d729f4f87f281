#ifndef stickslip_models_string_field_reference_h
#define stickslip_models_string_field_reference_h

#include <deal.II/base/function.h>
#include <deal.II/base/point.h>

#include <models/common/reference_solution.h>

#include <vector>

namespace stickslip
{
  /**
   * The exact solution of a field model at its nodes (the owned support
   * points); errors in a discrete L2 norm weighted by the nodal weights
   * w_i, the multiplier's only where there is friction.
   */
  template <int dim>
  class FieldReference : public ReferenceSolution
  {
  public:
    /**
     * Every argument is kept by reference: the model that owns them owns
     * this object too.
     */
    FieldReference(const std::vector<Point<dim>> &points,
                   Function<dim>                 &u,
                   Function<dim>                 &v,
                   Function<dim>                 *lambda,
                   const DistributedVector       &weights,
                   const DistributedVector       &frictional);

    void
    values(const double       t,
           DistributedVector &displacement,
           DistributedVector &velocity) const override;

    bool
    has_multiplier() const override;

    /** By the midpoint rule on 8 sub-intervals of (@p t_a, @p t_b). */
    double
    multiplier_error_squared(const double             t_a,
                             const double             t_b,
                             const DistributedVector &lambda_h) const override;

  private:
    const std::vector<Point<dim>> &points;
    Function<dim>                 &u;
    Function<dim>                 &v;
    Function<dim>                 *lambda;
    const DistributedVector       &weights;
    const DistributedVector       &frictional;
  };
} // namespace stickslip

#endif
