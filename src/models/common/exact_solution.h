#ifndef stickslip_models_common_exact_solution_h
#define stickslip_models_common_exact_solution_h

#include <base/expressions.h>

#include <memory>

namespace stickslip
{
  /**
   * A closed-form solution (x(t), v(t), and optionally lambda(t)) of a
   * finite-dof friction system, given as muParser expressions.
   */
  class ExactSolution
  {
  public:
    ExactSolution(std::unique_ptr<TimeFunction> displacement,
                  std::unique_ptr<TimeFunction> velocity,
                  std::unique_ptr<TimeFunction> multiplier);

    double
    displacement(const double t, const unsigned int component) const;

    double
    velocity(const double t, const unsigned int component) const;

    bool
    has_multiplier() const;

    double
    multiplier(const double t, const unsigned int component) const;

  private:
    std::unique_ptr<TimeFunction> x, v, lambda;
  };
} // namespace stickslip

#endif
