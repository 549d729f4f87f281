#ifndef stickslip_time_generalized_alpha_h
#define stickslip_time_generalized_alpha_h

namespace stickslip
{
  /**
   * The generalized-alpha method of Chung and Hulbert 1993 for M a + K u =
   * F (doc/theory.md §7.14): the equation of motion at the intermediate
   * levels,
   *
   *   M a_{n+1-alpha_m} + K u_{n+1-alpha_f} = F_{n+1-alpha_f},
   *   x_{n+1-alpha} = (1 - alpha) x_{n+1} + alpha x_n,
   *
   * with Newmark's updates
   *
   *   u_{n+1} = u_n + dt v_n + dt^2 ((1/2 - beta) a_n + beta a_{n+1}),
   *   v_{n+1} = v_n + dt ((1 - gamma) a_n + gamma a_{n+1}).
   *
   * One parameter, the spectral radius rho_inf in [0, 1] of the step's
   * amplification matrix for omega dt -> infinity, fixes the four
   * coefficients so that the scheme is second order, unconditionally
   * stable and dissipates the high frequencies most for the least
   * dissipation of the low ones:
   *
   *   alpha_m = (2 rho_inf - 1)/(rho_inf + 1), alpha_f = rho_inf/(rho_inf + 1),
   *   gamma = 1/2 - alpha_m + alpha_f, beta = (1 - alpha_m + alpha_f)^2/4.
   *
   * rho_inf = 1 (alpha_m = alpha_f = 1/2) gives the same displacements as
   * Newmark's average acceleration (beta = 1/4, gamma = 1/2, alpha_m =
   * alpha_f = 0) on a linear problem; average_acceleration() is that scheme
   * as written by Newmark 1959.
   */
  struct GeneralizedAlpha
  {
    double alpha_m = 0;
    double alpha_f = 0;
    double beta    = 0.25;
    double gamma   = 0.5;

    /** Newmark's average acceleration (the trapezoidal rule). */
    static GeneralizedAlpha
    average_acceleration();

    /** Chung and Hulbert's coefficients for @p rho_infinity in [0, 1]. */
    static GeneralizedAlpha
    from_spectral_radius(const double rho_infinity);

    /**
     * c0 of the step's matrix K + c0 M (the equation divided by
     * 1 - alpha_f): (1 - alpha_m)/((1 - alpha_f) beta dt^2).
     */
    double
    inertia_coefficient(const double dt) const;

    /** a_{n+1} from the step's displacement increment @p du. */
    double
    acceleration(const double du,
                 const double velocity,
                 const double acceleration,
                 const double dt) const;

    /** v_{n+1} from v_n, a_n and a_{n+1}. */
    double
    velocity(const double velocity,
             const double acceleration,
             const double new_acceleration,
             const double dt) const;

    /**
     * The coefficient of M a_n in the step's right-hand side (before the
     * division by 1 - alpha_f): (1 - alpha_m)(1/2 - beta)/beta - alpha_m.
     */
    double
    old_acceleration_weight() const;
  };
} // namespace stickslip

#endif
