#include <models/common/exact_solution.h>

namespace stickslip
{
  ExactSolution::ExactSolution(std::unique_ptr<TimeFunction> displacement,
                               std::unique_ptr<TimeFunction> velocity,
                               std::unique_ptr<TimeFunction> multiplier)
    : x(std::move(displacement))
    , v(std::move(velocity))
    , lambda(std::move(multiplier))
  {}



  double
  ExactSolution::displacement(const double       t,
                              const unsigned int component) const
  {
    return x->value(t, component);
  }



  double
  ExactSolution::velocity(const double t, const unsigned int component) const
  {
    return v->value(t, component);
  }



  bool
  ExactSolution::has_multiplier() const
  {
    return lambda != nullptr;
  }



  double
  ExactSolution::multiplier(const double t, const unsigned int component) const
  {
    return lambda->value(t, component);
  }
} // namespace stickslip
