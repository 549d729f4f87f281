#ifndef stickslip_time_stability_h
#define stickslip_time_stability_h

#include <friction/friction_system.h>
#include <linear_algebra/linear_solver_parameters.h>

namespace stickslip
{
  /**
   * nu_d = lambda_max(M^{-1} A), which bounds the step of the centered
   * schemes with alpha < 1/4 (Glowinski et al. 2006, §4, Glowinski & Kearsley
   * 1995, Remark 2.1): exact (LAPACK) for up to 1000 unknowns, a Gershgorin
   * bound for a larger diagonal M, otherwise the power iteration with a 1%
   * margin.
   */
  double
  largest_frequency_squared(const FrictionSystem           &system,
                            const Parameters::LinearSolver &linear_solver);
} // namespace stickslip

#endif
