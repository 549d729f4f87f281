#ifndef stickslip_models_spring_slider_spring_slider_ode_h
#define stickslip_models_spring_slider_spring_slider_ode_h

#include <friction/friction_law.h>
#include <models/spring_slider/spring_slider_parameters.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <array>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The spring-slider on rate-and-state friction as an ODE (doc/theory.md
   * §8.5), integrated with error control by SUNDIALS' CVODE (BDF of orders
   * 1 and 2, the A-stable ones, with Newton on a dense Jacobian: the
   * friction's viscous damping N (dmu/dV)/m reaches 1e7 s^-1 while the
   * block creeps, so an explicit pair would be held to tiny steps, and the
   * block's lightly damped oscillation during slip rules out BDF 3-5),
   *
   *   x' = v,   m v' = k (V_load t - x) - N mu(|v|, theta) sgn(v),
   *   (ln theta)' = (d theta/dt)/theta  (aging or slip law),
   *
   * with the slip, the friction work and the load point's work as three
   * further unknowns (their integrands |v|, N mu |v| and k (V_load t - x)
   * V_load), so that the energy balance holds to the tolerance. The
   * regularized law of Rice and Ben-Zion 1996 is odd and smooth in v, so the
   * right-hand side is smooth through v = 0 and no stick branch is needed.
   *
   * The unknowns ln theta and q = asinh(v/(2 V_s)) (V_s = 1e-20 V_0: q is
   * ln(v/V_s) for every v that matters, and smooth through 0) keep one
   * scale while theta and v span many decades over a slip event: the
   * friction is nearly linear in q, and an absolute tolerance on q bounds
   * the relative error of v. CVODE's root finding on its dense output
   * locates the events: v crossing the rupture slip rate V_r upwards (slip
   * onset) and downwards (arrest), and v' crossing zero downwards while v >
   * V_r (the peak of a slip event).
   */
  class SpringSliderOde
  {
  public:
    /** The unknowns, in CVODE's vector. */
    enum Unknown : unsigned int
    {
      displacement,
      velocity,  ///< asinh(v/(2 V_s)) inside, v [m/s] in a State
      log_state, ///< ln(theta/1 s)
      slip,
      friction_work,
      load_work,
      n_unknowns
    };
    using State = std::array<double, n_unknowns>;

    enum class EventKind
    {
      slip_onset,
      arrest,
      slip_rate_maximum
    };

    struct Event
    {
      EventKind kind;
      double    time;
      State     state;
    };

    /** The name of @p kind in events.csv ("slip_onset", ...). */
    static std::string
    name(const EventKind kind);

    /**
     * @p law: rate and state (the caller checks); the tolerances are those
     * of the parameters (relative; absolute in the scales of the unknowns:
     * D_c, 1, 1, D_c, N D_c, N D_c).
     */
    SpringSliderOde(const SpringSliderParameters &parameters,
                    const FrictionLaw            &law);

    ~SpringSliderOde();

    SpringSliderOde(const SpringSliderOde &) = delete;
    SpringSliderOde &
    operator=(const SpringSliderOde &) = delete;

    /** Start (or restart) the integration at @p t from @p state. */
    void
    reinit(const double t, const State &state);

    /** The time the integrator's output is at (NaN before reinit()). */
    double
    time() const;

    /**
     * Integrate to @p t_end and return the state there (dense output);
     * the events on the way are appended to @p events. A RunError says why
     * if CVODE cannot meet the tolerance.
     */
    State
    advance_to(const double t_end, std::vector<Event> &events);

    /** mu(|v|, theta) >= 0 at @p state. */
    double
    friction_coefficient(const State &state) const;

    /** One line of work counters for the run's summary. */
    std::string
    statistics() const;

  private:
    /** y' = f(t, y); false if a value is not finite. */
    bool
    right_hand_side(const double t, const double *y, double *ydot) const;

    /** The event functions: v - V_r and v'. */
    void
    event_functions(const double t, const double *y, double *g) const;

    /** v of the unknown q = asinh(v/(2 V_s)). */
    double
    velocity_of(const double q) const;

    /** The unknowns of a @p state (v replaced by q). */
    State
    unknowns_of(const State &state) const;

    /** The state of CVODE's vector @p u. */
    State
    state_of(const N_Vector u) const;

    /** d ln theta/dt at the slip rate @p slip_rate (Dieterich, Ruina). */
    double
    log_state_rate(const double slip_rate, const double log_theta) const;

    /** The message of a failed integration at @p t (CVODE's @p flag). */
    std::string
    failure_message(const int flag, const double t) const;

    /** Add CVODE's counters to the totals (before a reinit). */
    void
    accumulate_counters();

    static int
    cvode_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

    static int
    cvode_roots(sunrealtype t, N_Vector y, sunrealtype *g, void *user_data);

    static void
    cvode_error(int         error_code,
                const char *module,
                const char *function,
                char       *message,
                void       *user_data);

    const SpringSliderParameters parameters;
    const FrictionLaw            law;
    const bool                   aging;
    /** V_s = 1e-20 V_0: below it q = asinh(v/(2 V_s)) is linear in v. */
    const double    velocity_scale;
    SUNContext      context;
    N_Vector        y;
    N_Vector        tolerances;
    SUNMatrix       matrix;
    SUNLinearSolver linear_solver;
    void           *memory; ///< CVODE's
    double          output_time;
    std::string     last_error;
    long            steps, error_failures, newton_iterations;
  };
} // namespace stickslip

#endif
