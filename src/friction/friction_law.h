#ifndef stickslip_friction_friction_law_h
#define stickslip_friction_friction_law_h

#include <deal.II/base/function_parser.h>
#include <deal.II/base/point.h>

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <friction/friction_coefficient.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  namespace Parameters
  {
    /**
     * The subsection `Friction law` of `Slab` and of `Body/Contact`: the
     * friction coefficient of the interface (doc/theory.md §8). One struct
     * and one declaration for both models; their old entries (`Slab/Friction
     * law`, `Slab/Static friction coefficient`, ..., and the same in
     * `Body/Contact`) are declared as deprecated old names of these entries
     * and give the same runs.
     *
     * Every coefficient is an expression of the position on the interface
     * (the coordinates of the model: x, y (, z) for the body, x for the
     * slab's single node at x = 0), so that a velocity-weakening patch can sit
     * in velocity-strengthening surroundings.
     */
    struct FrictionLaw
    {
      /** The laws offered. */
      enum class Kind
      {
        constant,       ///< mu = mu_s
        fig2,           ///< Renard 2001, Fig. 2 (our reading), mu(V)
        exponential,    ///< mu_d + (mu_s - mu_d) exp(-V/v_c)
        rational,       ///< mu_d + (mu_s - mu_d)/(1 + V/v_c)
        slip_weakening, ///< Ida 1972, Andrews 1976: mu(D), D the slip
        rate_and_state, ///< Dieterich 1979, Ruina 1983: mu(V, theta)
        time_weakening  ///< Andrews 1985: mu(t - r/v_r)
      };

      /** The evolution of the state theta of the rate-and-state law. */
      enum class StateEvolution
      {
        aging, ///< d theta/dt = 1 - V theta/D_c (Dieterich 1979)
        slip   ///< d theta/dt = -(V theta/D_c) ln(V theta/D_c) (Ruina 1983)
      };

      /**
       * The defaults of the model that declares the subsection (the slab and
       * the body keep those of their old entries) and where it sits.
       */
      struct Defaults
      {
        std::string  parent; ///< "Slab" or "Body/Contact"
        std::string  law;
        std::string  static_coefficient;
        std::string  dynamic_coefficient;
        unsigned int root_scan_points;
        /**
         * Whether the parent had the friction entries before the
         * subsection (Slab, Body/Contact): they stay accepted as
         * deprecated old names. A new model (Spring slider) has none.
         */
        bool old_names = true;
      };

      Kind           kind;
      StateEvolution state_evolution;

      /** Expressions of the position (plain numbers are read exactly). */
      std::string static_coefficient;     ///< mu_s
      std::string dynamic_coefficient;    ///< mu_d
      std::string critical_slip_velocity; ///< v_c [m/s]
      std::string critical_slip_distance; ///< D_c [m]
      std::string healing_time;           ///< t_h [s], 0: no healing
      std::string direct_effect;          ///< a
      std::string evolution_effect;       ///< b
      std::string reference_coefficient;  ///< f_0
      std::string reference_slip_rate;    ///< V_0 [m/s]
      std::string initial_slip_rate;      ///< V_i [m/s]
      std::string initial_state;          ///< theta_0 [s] or "steady"
      std::string rupture_speed;          ///< v_r [m/s]
      std::string weakening_time;         ///< t_w [s]
      std::string nucleation_point;       ///< x_0: numbers, "0": the origin

      unsigned int root_scan_points;
      double       rupture_slip_rate; ///< V_r: the rupture time's threshold
      double       stop_time;         ///< quiet time that ends a run; 0: never
      /**
       * The normal-stress regularization of Prakash and Clifton 1993
       * (NormalStressRegularization): its slip length L [m] (0: off, the
       * friction bound uses the normal stress itself) and its velocity
       * scale V* [m/s]. Used by the body's contact only.
       */
      double regularization_length;
      double regularization_velocity;
      /**
       * Normal stress regularization length = auto: the body resolves L
       * from its mesh (resolve_automatic_regularization()); 0 until then
       * and in every other model.
       */
      bool automatic_length = false;
      /** ... velocity = auto: c_s/500 with an automatic L, else 0. */
      bool automatic_velocity = false;

      /** The automatic L = h_C/50, h_C the size of the contact cells. */
      static constexpr double automatic_length_per_cell = 1. / 50;
      /** The automatic V* = c_s/500, c_s the body's shear-wave speed. */
      static constexpr double automatic_velocity_per_wave_speed = 1. / 500;

      std::string path; ///< "Slab/Friction law" (for messages)

      /**
       * Enter the subsection `Friction law` of the current subsection
       * (@p defaults.parent) and declare its entries; declare the old
       * entries of the parent as their deprecated old names.
       */
      static void
      declare_parameters(ParameterHandler &prm, const Defaults &defaults);

      /**
       * In subsection `Friction law`, after Law: the entries of the chosen
       * law, those of the others left unread (with the reason, for the
       * report of the entries a run does not use).
       */
      void
      read_law_entries(ParameterHandler &prm);

      /**
       * Read the subsection `Friction law` of the current subsection,
       * whose path is @p parent, and check every value that is a number
       * (expressions of the position are checked where they are evaluated,
       * FrictionLawField).
       */
      void
      parse(ParameterHandler      &prm,
            const std::string     &parent,
            const ParameterSource &source);

      /**
       * Resolve `auto` of the normal stress regularization (doc/theory.md
       * §8.8): where it @p applies (the body's explicit step against the
       * rigid plane with unilateral contact), L = h_C/50 with the size
       * @p contact_cell_size of the contact cells and, if the velocity is
       * auto too, V* = c_s/500 with the shear-wave speed
       * @p shear_wave_speed; elsewhere L = 0 (off) and an automatic V* = 0.
       * Values given as numbers stay.
       */
      void
      resolve_automatic_regularization(const bool   applies,
                                       const double contact_cell_size,
                                       const double shear_wave_speed);

      /** Whether the law carries a state per point (slip, theta, time). */
      bool
      has_state() const;

      /** "rate-and-state (aging)", for descriptions. */
      std::string
      name() const;
    };
  } // namespace Parameters



  class StepFriction;

  /**
   * A friction law at one point of the interface, with its parameters as
   * numbers: the friction coefficient mu(V, psi) as a function of the slip
   * rate V >= 0 and of a state psi (doc/theory.md §8):
   * - the instantaneous laws (constant, fig2, exponential, rational,
   *   FrictionCoefficient) have no state: mu(V);
   * - linear slip weakening (Ida 1972, Andrews 1976): psi = D the slip,
   *   mu = mu_s - (mu_s - mu_d) min(D/D_c, 1), dD/dt = V - D/t_h (t_h the
   *   healing time; no healing: dD/dt = V);
   * - rate and state in the regularized form of Rice and Ben-Zion 1996 and
   *   Lapusta et al. 2000, psi = theta [s]:
   *   mu = a asinh[V/(2 V_0) exp((f_0 + b ln(V_0 theta/D_c))/a)], with the
   *   aging law d theta/dt = 1 - V theta/D_c (Dieterich 1979) or the slip
   *   law d theta/dt = -(V theta/D_c) ln(V theta/D_c) (Ruina 1983);
   * - time weakening (Andrews 1985): psi = t - r/v_r, the time since the
   *   forced rupture front passed the point (r its distance from the
   *   nucleation point), mu = mu_s - (mu_s - mu_d) min(max(psi, 0)/t_w, 1).
   *
   * Every state evolution is integrated exactly at a constant V over a step
   * (evolve()); the nodal friction step of the contact nodes uses the
   * coefficient of the step, mu(V, evolve(psi, V, dt)) (step()).
   */
  class FrictionLaw
  {
  public:
    using Kind           = Parameters::FrictionLaw::Kind;
    using StateEvolution = Parameters::FrictionLaw::StateEvolution;

    /** The numbers of a law at one point (those it does not use are 0). */
    struct Coefficients
    {
      double static_coefficient     = 0; ///< mu_s
      double dynamic_coefficient    = 0; ///< mu_d
      double critical_slip_velocity = 1; ///< v_c [m/s]
      double critical_slip_distance = 1; ///< D_c [m]
      double healing_time           = 0; ///< t_h [s] (0: none)
      double direct_effect          = 0; ///< a
      double evolution_effect       = 0; ///< b
      double reference_coefficient  = 0; ///< f_0
      double reference_slip_rate    = 1; ///< V_0 [m/s]
      double initial_state          = 0; ///< theta_0 [s]
      double arrival_time           = 0; ///< r/v_r [s] (time weakening)
      double weakening_time         = 1; ///< t_w [s]
    };

    /** One of the instantaneous laws (no state). */
    FrictionLaw(const FrictionCoefficient &coefficient);

    FrictionLaw(const Kind           kind,
                const StateEvolution evolution,
                const Coefficients  &coefficients);

    Kind
    kind() const;

    /** Whether mu depends on a state. */
    bool
    has_state() const;

    /** mu(V, psi), V >= 0. */
    double
    value(const double slip_rate, const double state) const;

    /** d mu/dV at a fixed state (the right derivative at V = 0). */
    double
    derivative(const double slip_rate, const double state) const;

    /**
     * The state after a step of length @p dt at the constant slip rate
     * @p slip_rate from @p state: the exact solution of the state's
     * evolution equation (for the aging law the update of Kaneko, Lapusta
     * and Ampuero 2008; time weakening: psi + dt).
     */
    double
    evolve(const double state, const double slip_rate, const double dt) const;

    /** The state of steady sliding at @p slip_rate (D_c/V for theta). */
    double
    steady_state(const double slip_rate) const;

    /** mu_ss(V) = mu(V, steady_state(V)). */
    double
    steady_value(const double slip_rate) const;

    /** The state at @p t0 (0 slip; theta_0; t0 - r/v_r). */
    double
    initial_state(const double t0) const;

    /**
     * The friction coefficient that a point at rest with the state
     * @p state resists with: mu(0, psi), and for rate and state, whose
     * mu(0, theta) = 0, the steady-state value at the rate D_c/theta for
     * which theta is steady (the strength of an initial state).
     */
    double
    strength(const double state) const;

    /** The friction coefficient of one step from @p state over @p dt. */
    StepFriction
    step(const double state, const double dt) const;

    /** The instantaneous law (constant, fig2, exponential, rational). */
    const FrictionCoefficient &
    instantaneous() const;

    const Coefficients &
    coefficients() const;

    /** "rational, mu_s = 0.8, mu_d = 0.5, v_c = 0.1" */
    std::string
    description() const;

  private:
    friend class StepFriction;

    /** mu of the slip-weakening law at slip @p slip. */
    double
    slip_weakening_value(const double slip) const;

    /** The asinh law at V and psi = f_0 + b ln(V_0 theta/D_c): mu, dmu/dV,
     * dmu/dpsi. */
    std::array<double, 3>
    rate_state(const double slip_rate, const double theta) const;

    /** ln of the state after a step at constant V (rate and state). */
    double
    log_state_after(const double theta,
                    const double slip_rate,
                    const double dt) const;

    Kind                kind_of_law;
    StateEvolution      evolution;
    FrictionCoefficient coefficient;
    Coefficients        c;
  };



  /**
   * The friction coefficient of one nodal step as a function of the step's
   * slip rate sigma: mu~(sigma) = mu(sigma, evolve(psi^n, sigma, dt)), the
   * law at the step's slip rate with the state consistent with it (the
   * state integrated exactly at that constant rate over the step). The
   * contact node solves a sigma + S mu~(sigma) = |r| with it
   * (solve_isotropic_inclusion()); the interface is that of
   * FrictionCoefficient, and for the instantaneous laws every value is
   * FrictionCoefficient's, operation for operation.
   *
   * lipschitz_constant() bounds the decrease of mu~: mu~(y) - mu~(x) >=
   * -L (y - x) for y > x >= 0, so that phi = a sigma + S mu~ increases
   * strictly, and the step has exactly one solution, when a > S L
   * (doc/theory.md §8.3):
   * - instantaneous laws: L_mu = |mu'(0)|;
   * - slip weakening: (mu_s - mu_d) h/D_c while the slip is below D_c,
   *   h = dt (t_h (1 - exp(-dt/t_h)) with healing), 0 beyond;
   * - rate and state, aging law: b dt/D_c, whatever the state; slip law:
   *   b dt/D_c (1.1 + max(0, ln(theta^n/dt)));
   * - time weakening: 0 (mu~ does not depend on sigma).
   */
  class StepFriction
  {
  public:
    StepFriction(const FrictionLaw &law, const double state, const double dt);

    /** mu~(sigma), sigma >= 0. */
    double
    value(const double sigma) const;

    /** dmu~/dsigma (right derivative). */
    double
    derivative(const double sigma) const;

    /** The bound L of the decrease of mu~ (see the class documentation). */
    double
    lipschitz_constant() const;

    /** sup mu~ over sigma >= 0 (infinite for rate and state). */
    double
    maximum() const;

    /** inf mu~ over sigma >= 0. */
    double
    minimum() const;

  private:
    const FrictionLaw &law;
    const double       state;
    const double       dt;
    /** Slip weakening: the slip at sigma = 0 after the step and dD/dsigma. */
    double base, gain;
  };



  /**
   * The effective normal stress of Prakash and Clifton 1993 in the form of
   * Cochard and Rice 2000 (doc/theory.md §8.8): the friction strength of a
   * point is mu S' with S' following the normal stress S over the slip
   * length L,
   *   dS'/dt = -(|V| + V*) (S' - S)/L,
   * V* the velocity scale, instead of mu S. Where an elastic body slides
   * on a dissimilar (here: rigid) foundation, slip changes the normal
   * stress, and Coulomb friction that responds at once to it is ill-posed
   * (Renardy 1992, Adams 1995, Ranjith and Rice 2001); this response makes
   * the problem well-posed (Cochard and Rice 2000). L = 0: off, S' = S.
   */
  class NormalStressRegularization
  {
  public:
    NormalStressRegularization(const double length, const double velocity);

    /** Whether S' differs from S (L > 0). */
    bool
    active() const;

    /**
     * S' at the end of a step of length @p dt from @p effective, at the
     * constant slip rate @p slip_rate and the constant normal stress
     * @p pressure over the step: the exact solution of the linear
     * evolution, S + (S'^n - S) exp(-(V + V*) dt/L); @p pressure itself
     * when inactive.
     */
    double
    evolve(const double effective,
           const double pressure,
           const double slip_rate,
           const double dt) const;

    /** L [m]. */
    double
    slip_length() const;

    /** V* [m/s]. */
    double
    velocity_scale() const;

  private:
    const double length;
    const double velocity;
  };



  /**
   * The friction law of Parameters::FrictionLaw along an interface: its
   * expressions parsed once and evaluated at the points of the interface,
   * with every value checked there (an InputError naming the parameter, the
   * point and what is allowed).
   */
  template <int dim>
  class FrictionLawField
  {
  public:
    /**
     * @p coordinates: the names of the dim coordinates ("x,y"); parse
     * errors are InputErrors naming the parameter.
     */
    FrictionLawField(const Parameters::FrictionLaw &parameters,
                     const std::string             &coordinates,
                     const ParameterSource         &source);

    ~FrictionLawField();

    /**
     * Whether the law is the same at every point: its coefficients are
     * numbers and it is not time weakening (whose arrival time depends on
     * the point).
     */
    bool
    uniform() const;

    /**
     * The message of the first bad value among the coefficients of
     * @p parameters that are plain numbers ("" if none), so that they are
     * refused when the parameters are read.
     */
    static std::string
    problem_of_numbers(const Parameters::FrictionLaw &parameters,
                       const ParameterSource         &source);

    /**
     * The law at @p point; "" if its values are allowed, else the message
     * of the bad value in @p problem (not thrown: the caller throws it on
     * every rank together).
     */
    FrictionLaw
    at(const Point<dim> &point, std::string &problem) const;

    /**
     * The law of every point if uniform() (its values checked when the
     * parameters were read), else a stand-in (constant 0).
     */
    FrictionLaw
    common_law() const;

    /** The law's description, or its name if it varies from point to point. */
    std::string
    description() const;

  private:
    class Expressions;

    const Parameters::FrictionLaw parameters;
    const ParameterSource         source;
    const std::string             coordinates;
    std::unique_ptr<Expressions>  expressions;
    Point<dim>                    nucleation_point;
  };
} // namespace stickslip

#endif
