#include <base/expressions.h>
#include <base/input_error.h>
#include <models/spring_slider/spring_slider_ode.h>

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** CVODE's name of a return flag (the string is CVODE's to free). */
    std::string
    flag_name(const int flag)
    {
      char             *text = CVodeGetReturnFlagName(flag);
      const std::string name(text != nullptr ? text : "unknown");
      free(text);
      return name;
    }



    /** A setup call of CVODE that must succeed. */
    void
    check(const int flag, const char *call)
    {
      if (flag < 0)
        throw RunError(std::string("CVODE's ") + call + " failed (" +
                       flag_name(flag) + ")");
    }
  } // namespace



  double
  SpringSliderOde::velocity_of(const double q) const
  {
    return 2 * velocity_scale * std::sinh(q);
  }



  SpringSliderOde::State
  SpringSliderOde::unknowns_of(const State &state) const
  {
    State u     = state;
    u[velocity] = std::asinh(state[velocity] / (2 * velocity_scale));
    return u;
  }



  SpringSliderOde::State
  SpringSliderOde::state_of(const N_Vector u) const
  {
    State state;
    for (unsigned int i = 0; i < n_unknowns; ++i)
      state[i] = NV_Ith_S(u, i);
    state[velocity] = velocity_of(state[velocity]);
    return state;
  }



  std::string
  SpringSliderOde::name(const EventKind kind)
  {
    switch (kind)
      {
        case EventKind::slip_onset:
          return "slip_onset";
        case EventKind::arrest:
          return "arrest";
        default:
          return "slip_rate_maximum";
      }
  }



  SpringSliderOde::SpringSliderOde(const SpringSliderParameters &parameters,
                                   const FrictionLaw            &law)
    : parameters(parameters)
    , law(law)
    , aging(parameters.friction.state_evolution ==
            Parameters::FrictionLaw::StateEvolution::aging)
    , velocity_scale(1e-20 * law.coefficients().reference_slip_rate)
    , context(nullptr)
    , y(nullptr)
    , tolerances(nullptr)
    , matrix(nullptr)
    , linear_solver(nullptr)
    , memory(nullptr)
    , output_time(std::numeric_limits<double>::quiet_NaN())
    , steps(0)
    , error_failures(0)
    , newton_iterations(0)
  {
    check(SUNContext_Create(nullptr, &context), "SUNContext_Create");
    y          = N_VNew_Serial(n_unknowns, context);
    tolerances = N_VNew_Serial(n_unknowns, context);
    // The absolute tolerance in the scale of each unknown.
    const FrictionLaw::Coefficients &c      = law.coefficients();
    const double                     length = c.critical_slip_distance,
                 energy                     = parameters.normal_force * length;
    const State scales = {{length, 1., 1., length, energy, energy}};
    for (unsigned int i = 0; i < n_unknowns; ++i)
      NV_Ith_S(tolerances, i) = parameters.absolute_tolerance * scales[i];
    matrix        = SUNDenseMatrix(n_unknowns, n_unknowns, context);
    linear_solver = SUNLinSol_Dense(y, matrix, context);
  }



  SpringSliderOde::~SpringSliderOde()
  {
    if (memory != nullptr)
      CVodeFree(&memory);
    SUNLinSolFree(linear_solver);
    SUNMatDestroy(matrix);
    N_VDestroy(tolerances);
    N_VDestroy(y);
    SUNContext_Free(&context);
  }



  void
  SpringSliderOde::reinit(const double t, const State &state)
  {
    const State u = unknowns_of(state);
    for (unsigned int i = 0; i < n_unknowns; ++i)
      NV_Ith_S(y, i) = u[i];
    if (memory != nullptr)
      {
        accumulate_counters();
        CVodeFree(&memory);
      }
    // BDF with Newton on the dense Jacobian (difference quotients).
    memory = CVodeCreate(CV_BDF, context);
    if (memory == nullptr)
      throw RunError("CVODE's CVodeCreate failed");
    check(CVodeInit(memory, &cvode_rhs, t, y), "CVodeInit");
    check(CVodeSetUserData(memory, this), "CVodeSetUserData");
    check(CVodeSetErrHandlerFn(memory, &cvode_error, this),
          "CVodeSetErrHandlerFn");
    check(CVodeSVtolerances(memory, parameters.relative_tolerance, tolerances),
          "CVodeSVtolerances");
    check(CVodeSetLinearSolver(memory, linear_solver, matrix),
          "CVodeSetLinearSolver");
    // Steps within one call (one step of the run loop): many only if the
    // law forces tiny steps, which the failure message then explains.
    check(CVodeSetMaxNumSteps(memory, 100000), "CVodeSetMaxNumSteps");
    check(CVodeRootInit(memory, 2, &cvode_roots), "CVodeRootInit");
    // v - V_r both ways (onset, arrest); the maxima downwards only.
    int directions[2] = {0, -1};
    check(CVodeSetRootDirection(memory, directions), "CVodeSetRootDirection");
    check(CVodeSetNoInactiveRootWarn(memory), "CVodeSetNoInactiveRootWarn");
    // BDF 1 and 2 only, the A-stable ones: while the block slips fast the
    // friction hardly damps it, and its oscillation sqrt(k/m) lies near the
    // imaginary axis, where BDF 3 to 5 are unstable (measured: with orders
    // up to 5, or 3, the error test failed repeatedly on the velocity
    // within 1900-2950 s of the example at the tolerances 1e-5 to 1e-8
    // tried; CVODE's stability limit detection did not avoid it).
    check(CVodeSetMaxOrd(memory, 2), "CVodeSetMaxOrd");
    output_time = t;
  }



  double
  SpringSliderOde::time() const
  {
    return output_time;
  }



  SpringSliderOde::State
  SpringSliderOde::advance_to(const double t_end, std::vector<Event> &events)
  {
    bool restarted = false;
    while (true)
      {
        sunrealtype t    = output_time;
        const int   flag = CVode(memory, t_end, y, &t, CV_NORMAL);
        if (flag == CV_ILL_INPUT && !restarted)
          {
            // CVODE refuses to go on when an event function is zero at the
            // last root and just after it (a flat v' at a peak, at a loose
            // tolerance): restart at that root (y still holds its state),
            // which starts the event functions afresh.
            restarted = true;
            accumulate_counters();
            check(CVodeReInit(memory, output_time, y), "CVodeReInit");
            continue;
          }
        if (flag < 0)
          throw RunError(failure_message(flag, t));
        output_time = t;
        if (flag != CV_ROOT_RETURN)
          break;
        int found[2] = {0, 0};
        check(CVodeGetRootInfo(memory, found), "CVodeGetRootInfo");
        const State state = state_of(y);
        if (found[0] != 0)
          events.push_back(
            {found[0] > 0 ? EventKind::slip_onset : EventKind::arrest,
             t,
             state});
        if (found[1] != 0)
          events.push_back({EventKind::slip_rate_maximum, t, state});
        if (t >= t_end)
          {
            // The root is at the end itself: take the end's state.
            check(CVodeGetDky(memory, t_end, 0, y), "CVodeGetDky");
            output_time = t_end;
            break;
          }
      }
    return state_of(y);
  }



  double
  SpringSliderOde::friction_coefficient(const State &state) const
  {
    return law.value(std::abs(state[velocity]), std::exp(state[log_state]));
  }



  double
  SpringSliderOde::log_state_rate(const double slip_rate,
                                  const double log_theta) const
  {
    const double d_c = law.coefficients().critical_slip_distance;
    // Aging law (Dieterich 1979): theta' = 1 - V theta/D_c.
    if (aging)
      return std::exp(-log_theta) - slip_rate / d_c;
    // Slip law (Ruina 1983): theta' = -(V theta/D_c) ln(V theta/D_c).
    if (slip_rate == 0)
      return 0;
    return -(slip_rate / d_c) * (std::log(slip_rate / d_c) + log_theta);
  }



  bool
  SpringSliderOde::right_hand_side(const double  t,
                                   const double *u,
                                   double       *dudt) const
  {
    const double m = parameters.mass, k = parameters.stiffness,
                 N = parameters.normal_force, V = parameters.load_velocity;
    const double v = velocity_of(u[velocity]), rate = std::abs(v);
    const double mu     = law.value(rate, std::exp(u[log_state]));
    const double spring = k * (V * t - u[displacement]);
    // mu(0, theta) = 0 and mu is odd in v: the force is smooth through 0.
    const double force = -N * mu * (v < 0 ? -1. : 1.);

    dudt[displacement] = v;
    // d asinh(v/(2 V_s))/dt = v'/sqrt(v^2 + 4 V_s^2).
    dudt[velocity]  = (spring + force) / m / std::hypot(v, 2 * velocity_scale);
    dudt[log_state] = log_state_rate(rate, u[log_state]);
    dudt[slip]      = rate;
    dudt[friction_work] = N * mu * rate;
    dudt[load_work]     = spring * V;
    for (unsigned int i = 0; i < n_unknowns; ++i)
      if (!std::isfinite(dudt[i]))
        return false;
    return true;
  }



  void
  SpringSliderOde::event_functions(const double  t,
                                   const double *u,
                                   double       *g) const
  {
    double dudt[n_unknowns];
    right_hand_side(t, u, dudt);
    const double rupture = parameters.friction.rupture_slip_rate;
    g[0] = u[velocity] - std::asinh(rupture / (2 * velocity_scale));
    // The maxima of slip events only: below V_r, where v' is the small
    // difference of the spring and friction forces, its sign from a dense
    // output within the tolerance is noise. The jump to -1 at V_r crosses
    // upwards, which the root direction (-1) ignores.
    g[1] = g[0] > 0 ? dudt[velocity] : -1.;
  }



  int
  SpringSliderOde::cvode_rhs(sunrealtype t,
                             N_Vector    y,
                             N_Vector    ydot,
                             void       *user_data)
  {
    const auto *ode = static_cast<const SpringSliderOde *>(user_data);
    // A value that is not finite: recoverable, CVODE retries a smaller step.
    return ode->right_hand_side(t, NV_DATA_S(y), NV_DATA_S(ydot)) ? 0 : 1;
  }



  int
  SpringSliderOde::cvode_roots(sunrealtype  t,
                               N_Vector     y,
                               sunrealtype *g,
                               void        *user_data)
  {
    static_cast<const SpringSliderOde *>(user_data)->event_functions(
      t, NV_DATA_S(y), g);
    return 0;
  }



  void
  SpringSliderOde::cvode_error(int,
                               const char *,
                               const char *function,
                               char       *message,
                               void       *user_data)
  {
    // Kept for the RunError (CVODE would print it to stderr).
    static_cast<SpringSliderOde *>(user_data)->last_error =
      std::string(function) + ": " + message;
  }



  std::string
  SpringSliderOde::failure_message(const int flag, const double t) const
  {
    // The two fast time scales of the law at the last state: the state's
    // relaxation over D_c/|v| and the friction's damping m/(N dmu/dV).
    const double v     = std::abs(velocity_of(NV_Ith_S(y, velocity))),
                 theta = std::exp(NV_Ith_S(y, log_state));
    const double d_c   = law.coefficients().critical_slip_distance;
    const double damping =
      parameters.mass / (parameters.normal_force * law.derivative(v, theta));
    sunrealtype step = 0;
    CVodeGetCurrentStep(memory, &step);
    // The unknown whose error estimate the weights judge largest.
    std::string worst  = "";
    N_Vector    errors = N_VClone(y), weights = N_VClone(y);
    if (CVodeGetEstLocalErrors(memory, errors) == CV_SUCCESS &&
        CVodeGetErrWeights(memory, weights) == CV_SUCCESS)
      {
        const char *names[n_unknowns] = {"displacement",
                                         "velocity",
                                         "ln(state)",
                                         "slip",
                                         "friction work",
                                         "load work"};
        double      largest           = -1;
        for (unsigned int i = 0; i < n_unknowns; ++i)
          {
            const double e =
              std::abs(NV_Ith_S(errors, i) * NV_Ith_S(weights, i));
            if (e > largest && e > 0)
              {
                largest = e;
                worst   = std::string("; the largest error estimate is the ") +
                        names[i] + "'s, " + format_number(e) +
                        " times its tolerance";
              }
          }
      }
    N_VDestroy(errors);
    N_VDestroy(weights);
    std::ostringstream text;
    text << "the adaptive integrator of the spring-slider (CVODE) could not "
         << "meet Spring slider/Relative tolerance = "
         << format_number(parameters.relative_tolerance)
         << " and Absolute tolerance = "
         << format_number(parameters.absolute_tolerance)
         << " beyond t = " << format_number(t) << " (" << flag_name(flag)
         << ": " << last_error << "; last step " << format_number(step) << " s"
         << worst << "). At v = " << format_number(v)
         << " m/s the state relaxes over D_c/v = " << format_number(d_c / v)
         << " s and friction damps the block over "
         << "m/(N dmu/dV) = " << format_number(damping)
         << " s: a time scale far below the step means the law's parameters "
         << "(Spring slider/Friction law/Critical slip distance, Direct effect "
         << "a) are out of the range the model resolves; otherwise loosen the "
         << "tolerances";
    return text.str();
  }



  void
  SpringSliderOde::accumulate_counters()
  {
    long value = 0;
    if (CVodeGetNumSteps(memory, &value) == CV_SUCCESS)
      steps += value;
    if (CVodeGetNumErrTestFails(memory, &value) == CV_SUCCESS)
      error_failures += value;
    if (CVodeGetNumNonlinSolvIters(memory, &value) == CV_SUCCESS)
      newton_iterations += value;
  }



  std::string
  SpringSliderOde::statistics() const
  {
    long now_steps = 0, now_failures = 0, now_newton = 0;
    if (memory != nullptr)
      {
        CVodeGetNumSteps(memory, &now_steps);
        CVodeGetNumErrTestFails(memory, &now_failures);
        CVodeGetNumNonlinSolvIters(memory, &now_newton);
      }
    std::ostringstream text;
    text << "CVODE (BDF2, relative tolerance "
         << format_number(parameters.relative_tolerance)
         << "): " << steps + now_steps << " steps, "
         << error_failures + now_failures << " rejected by the error test, "
         << newton_iterations + now_newton << " Newton iterations";
    return text.str();
  }
} // namespace stickslip
