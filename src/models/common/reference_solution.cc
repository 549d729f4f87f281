#include <base/local_values.h>
#include <models/common/reference_solution.h>

#include <cmath>

namespace stickslip
{
  ExactReference::ExactReference(const ExactSolution &exact,
                                 const IndexSet      &owned)
    : exact(exact)
    , owned(owned)
  {}



  void
  ExactReference::values(const double       t,
                         DistributedVector &displacement,
                         DistributedVector &velocity) const
  {
    LocalValues x(displacement);
    LocalValues v(velocity);
    std::size_t k = 0;
    for (const auto i : owned)
      {
        x[k] = exact.displacement(t, i);
        v[k] = exact.velocity(t, i);
        ++k;
      }
  }



  bool
  ExactReference::has_multiplier() const
  {
    return exact.has_multiplier();
  }



  double
  ExactReference::multiplier_error_squared(
    const double             t_a,
    const double             t_b,
    const DistributedVector &lambda_h) const
  {
    constexpr unsigned int n_points = 32;
    const double           h        = (t_b - t_a) / n_points;
    ConstLocalValues       lambda(lambda_h);
    double                 sum = 0;
    for (unsigned int q = 0; q < n_points; ++q)
      {
        const double t = t_a + (q + 0.5) * h;
        std::size_t  k = 0;
        for (const auto i : owned)
          {
            const double difference = lambda[k++] - exact.multiplier(t, i);
            sum += h * difference * difference;
          }
      }
    return sum;
  }



  RecordedReference::RecordedReference(const double t0, const double dt)
    : t0(t0)
    , dt(dt)
  {}



  void
  RecordedReference::record(const DistributedVector &displacement,
                            const DistributedVector &velocity,
                            const DistributedVector &multiplier)
  {
    const auto copy = [](const DistributedVector &vector) {
      ConstLocalValues    values(vector);
      std::vector<double> result(values.size());
      for (std::size_t k = 0; k < values.size(); ++k)
        result[k] = values[k];
      return result;
    };
    x.push_back(copy(displacement));
    v.push_back(copy(velocity));
    lambda.push_back(copy(multiplier));
  }



  std::size_t
  RecordedReference::index(const double t) const
  {
    const double position = (t - t0) / dt;
    const auto   n        = static_cast<std::size_t>(std::llround(position));
    AssertThrow(std::abs(position - n) < 1e-6 && n < x.size(),
                ExcMessage("time not on the reference grid"));
    return n;
  }



  void
  RecordedReference::values(const double       t,
                            DistributedVector &displacement,
                            DistributedVector &velocity) const
  {
    const std::size_t n = index(t);
    LocalValues       xv(displacement);
    LocalValues       vv(velocity);
    for (std::size_t k = 0; k < xv.size(); ++k)
      {
        xv[k] = x[n][k];
        vv[k] = v[n][k];
      }
  }



  bool
  RecordedReference::has_multiplier() const
  {
    return true;
  }



  double
  RecordedReference::multiplier_error_squared(
    const double             t_a,
    const double             t_b,
    const DistributedVector &lambda_h) const
  {
    // Entry n of lambda is the multiplier of the fine step (t_{n-1}, t_n).
    const std::size_t first = index(t_a) + 1;
    const std::size_t last  = index(t_b);
    ConstLocalValues  coarse(lambda_h);
    double            sum = 0;
    for (std::size_t n = first; n <= last; ++n)
      for (std::size_t k = 0; k < coarse.size(); ++k)
        {
          const double difference = coarse[k] - lambda[n][k];
          sum += dt * difference * difference;
        }
    return sum;
  }
} // namespace stickslip
