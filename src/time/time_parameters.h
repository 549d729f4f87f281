#ifndef stickslip_time_time_parameters_h
#define stickslip_time_time_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/time_grid.h>
#include <base/tracked_parameter_handler.h>
#include <friction/friction_parameters.h>
#include <linear_algebra/linear_solver_parameters.h>

#include <string>
#include <vector>

namespace stickslip
{
  namespace Parameters
  {
    /** Time-integration schemes of the finite-dof friction system. */
    enum class Scheme
    {
      lie,                ///< Glowinski et al. 2006, eqs. (9)-(13)
      strang,             ///< Glowinski et al. 2006, eqs. (16)-(22)
      regularized_arkode, ///< Glowinski et al. 2006, eq. (5) integrated by
                          ///< SUNDIALS ARKode
      centered, ///< Glowinski & Kearsley 1995, eqs. (1.1)-(1.6), multiplier by
                ///< (1.12)-(1.19)
      implicit_euler ///< Bastien & Lamarque 2009, eqs. (5.1)-(5.3), models with
                     ///< an (A.7) form
    };

    /** How the centered scheme finds its multiplier lambda^n. */
    enum class CenteredMultiplierSolver
    {
      fixed_point,    ///< Glowinski & Kearsley 1995, eqs. (1.12)-(1.15),
                      ///< optionally (1.19)
      friction_solver ///< the core's Friction/Solver on the W form (38)
    };

    /** Subsection Time: the time interval, the step(s) and the scheme. */
    struct Time
    {
      double              initial_time;
      double              final_time;
      double              time_step;
      std::vector<double> convergence_time_steps;
      /** The text of Time/Convergence time steps, for messages. */
      std::string convergence_time_steps_text;
      /** Read by parse_scheme() only (0 and lie before). */
      double reference_time_step = 0;
      Scheme scheme              = Scheme::lie;

      static void
      declare_parameters(ParameterHandler &prm);

      /**
       * Read the subsection and check what every model needs (an interval of
       * positive length, positive steps in the list). Whether the steps divide
       * the interval is checked by check_steps(), for the models that take
       * their step from here (the slab may choose its own from a CFL number).
       */
      void
      parse(ParameterHandler &prm, const ParameterSource &source);

      /**
       * Read Scheme and Reference time step: the scheme of the
       * friction-system models (Numerics::parse()). The models with their
       * own time integration (body, slab, spring-slider) do not read them,
       * so that an entry set for them is reported as not used.
       */
      void
      parse_scheme(ParameterHandler &prm);

      /**
       * Every step of time_steps() divides T - t0, and the reference step
       * divides every step (InputErrors naming the parameter).
       */
      void
      check_steps(const ParameterSource &source) const;

      /** The time steps of this invocation: the study list, or the one step. */
      std::vector<double>
      time_steps() const;

      /** Number of steps of size @p dt; an InputError if dt does not divide. */
      unsigned int
      n_steps(const double dt, const ParameterSource &source) const;

      /**
       * The grid of a run with steps of size @p dt from Time/Initial time to
       * Time/Final time (n_steps(): an InputError if dt does not divide).
       */
      TimeGrid
      grid(const double dt, const ParameterSource &source) const;
    };

    /** Subsection Splitting: the sub-steps of the splitting schemes. */
    struct Splitting
    {
      unsigned int friction_substeps; ///< P of Glowinski et al. 2006, eq. (25)
      unsigned int elastic_substeps;  ///< Q of Glowinski et al. 2006, eq. (55)
      double       alpha; ///< alpha of Glowinski et al. 2006, eq. (56)

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };

    /** Subsection Centered scheme (Time/Scheme = centered, Glowinski & Kearsley
     * 1995). */
    struct Centered
    {
      CenteredMultiplierSolver multiplier_solver;
      bool                     regularization;
      /** epsilon of (1.19) as an expression in dt (default dt^(6/5)). */
      std::string  epsilon_expression;
      double       r;         ///< 0: 2/(delta dt), the paper's choice
      double       tolerance; ///< eta of (1.15)
      unsigned int max_iterations;
      bool         warm_start; ///< lambda^{n,0} = lambda^{n-1} (else 0)

      /** epsilon of (1.19) for the step @p dt (an InputError if < 0). */
      double
      epsilon(const double dt, const ParameterSource &source) const;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };

    /**
     * Everything a time integrator of a friction system needs: the time
     * grid and scheme, the splitting, the centered scheme, the friction-step
     * solver and the linear solver, each from its own subsection.
     */
    struct Numerics
    {
      // Value-initialized: a model with its own time integration (body,
      // slab, spring-slider) does not read the subsections of the friction
      // systems' schemes, and copies them all the same.
      Time         time{};
      Splitting    splitting{};
      Friction     friction{};
      Centered     centered{};
      LinearSolver linear_solver{};

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };
  } // namespace Parameters
} // namespace stickslip

#endif
