#include <base/local_values.h>
#include <models/string/field_reference.h>

namespace stickslip
{
  template <int dim>
  FieldReference<dim>::FieldReference(const std::vector<Point<dim>> &points,
                                      Function<dim>                 &u,
                                      Function<dim>                 &v,
                                      Function<dim>                 *lambda,
                                      const DistributedVector       &weights,
                                      const DistributedVector       &frictional)
    : points(points)
    , u(u)
    , v(v)
    , lambda(lambda)
    , weights(weights)
    , frictional(frictional)
  {}



  template <int dim>
  void
  FieldReference<dim>::values(const double       t,
                              DistributedVector &displacement,
                              DistributedVector &velocity) const
  {
    u.set_time(t);
    v.set_time(t);
    LocalValues x(displacement);
    LocalValues xv(velocity);
    for (std::size_t k = 0; k < points.size(); ++k)
      {
        x[k]  = u.value(points[k]);
        xv[k] = v.value(points[k]);
      }
  }



  template <int dim>
  bool
  FieldReference<dim>::has_multiplier() const
  {
    return lambda != nullptr;
  }



  template <int dim>
  double
  FieldReference<dim>::multiplier_error_squared(
    const double             t_a,
    const double             t_b,
    const DistributedVector &lambda_h) const
  {
    constexpr unsigned int n_points = 8;
    const double           h        = (t_b - t_a) / n_points;
    ConstLocalValues       l(lambda_h);
    ConstLocalValues       w(weights);
    ConstLocalValues       c(frictional);
    double                 sum = 0;
    for (unsigned int q = 0; q < n_points; ++q)
      {
        lambda->set_time(t_a + (q + 0.5) * h);
        for (std::size_t k = 0; k < points.size(); ++k)
          if (c[k] > 0)
            {
              const double e = l[k] - lambda->value(points[k]);
              sum += h * w[k] * e * e;
            }
      }
    return sum;
  }



  template class FieldReference<1>;
  template class FieldReference<2>;
} // namespace stickslip
