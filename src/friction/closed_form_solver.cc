#include <base/local_values.h>
#include <friction/closed_form_solver.h>

#include <cmath>

namespace stickslip
{
  ClosedFormSolver::ClosedFormSolver(const FrictionSystem &system)
    : system(system)
    , tau(0)
  {}



  void
  ClosedFormSolver::set_substep(const double new_tau)
  {
    tau = new_tau;
  }



  unsigned int
  ClosedFormSolver::solve(const DistributedVector &b,
                          DistributedVector       &w,
                          DistributedVector       &lambda,
                          DistributedVector &)
  {
    ConstLocalValues rhs(b);
    ConstLocalValues mass(system.mass_diagonal());
    ConstLocalValues c(system.friction_weights);
    LocalValues      velocity(w);
    LocalValues      multiplier(lambda);
    for (std::size_t k = 0; k < rhs.size(); ++k)
      solve_component(rhs[k], mass[k], c[k] * tau, velocity[k], multiplier[k]);
    return 0;
  }



  std::string
  ClosedFormSolver::name() const
  {
    return "closed form";
  }



  bool
  ClosedFormSolver::closed_form() const
  {
    return true;
  }
} // namespace stickslip
