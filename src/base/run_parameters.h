#ifndef stickslip_base_run_parameters_h
#define stickslip_base_run_parameters_h

#include <deal.II/base/parameter_handler.h>

#include <base/global.h>
#include <base/input_error.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The cross-cutting parameters of every run (DESIGN.md §4): one struct per
   * subsection, each with a static declare_parameters() and a parse() that
   * checks ranges and throws an InputError naming the parameter.
   */
  namespace Parameters
  {
    /** Time-integration schemes of the finite-dof friction system. */
    enum class Scheme
    {
      lie,               ///< seed 000 (9)-(13)
      strang,            ///< seed 000 (16)-(22)
      regularized_arkode, ///< seed 000 (5) integrated by SUNDIALS ARKode
      centered,           ///< seed 002 (1.1)-(1.6), multiplier by (1.12)-(1.19)
      implicit_euler      ///< seed 004 (5.1)-(5.3), models with an (A.7) form
    };

    /** How the centered scheme finds its multiplier lambda^n. */
    enum class CenteredMultiplierSolver
    {
      fixed_point,    ///< seed 002 (1.12)-(1.15), optionally (1.19)
      friction_solver ///< the core's Friction/Solver on the W form (38)
    };

    /** Solvers of the friction sub-step M W + tau C lambda = b (seed 000 (38)). */
    enum class FrictionSolverType
    {
      closed_form,      ///< componentwise, diagonal M (seed 000 (53))
      projection,       ///< seed 000 (39)-(41)
      penalty_newton,   ///< seed 000 (67)-(74)
      semismooth_newton ///< primal-dual active set on the W form (38)
    };

    /** How linear systems with M or M + alpha tau^2 A are solved. */
    enum class LinearSolverType
    {
      automatic, ///< direct below a size limit, CG above
      direct,    ///< PETSc/MUMPS Cholesky (Trilinos: Amesos), factorized once
      cg         ///< preconditioned conjugate gradients
    };

    struct Time
    {
      double              initial_time;
      double              final_time;
      double              time_step;
      std::vector<double> convergence_time_steps;
      double              reference_time_step;
      Scheme              scheme;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);

      /** The time steps of this invocation: the study list, or the one step. */
      std::vector<double>
      time_steps() const;

      /** Number of steps of size @p dt; an InputError if dt does not divide. */
      unsigned int
      n_steps(const double dt, const ParameterSource &source) const;
    };

    struct Splitting
    {
      unsigned int friction_substeps; ///< P of seed 000 (25)
      unsigned int elastic_substeps;  ///< Q of seed 000 (55)
      double       alpha;             ///< alpha of seed 000 (56)

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };

    struct Friction
    {
      FrictionSolverType solver;
      double             tolerance;
      unsigned int       max_iterations;
      double             projection_rho; ///< 0: automatic
      double             penalty_epsilon;
      double             regularization_eta;
      double             arkode_tolerance;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };

    /** The centered multiplier scheme of seed 002 (Time/Scheme = centered). */
    struct Centered
    {
      CenteredMultiplierSolver multiplier_solver;
      bool                     regularization;
      /** epsilon of (1.19) as an expression in dt (default dt^(6/5)). */
      std::string epsilon_expression;
      double      r; ///< 0: 2/(delta dt), the paper's choice
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

    struct LinearSolver
    {
      LinearSolverType type;
      double           tolerance;
      unsigned int     direct_size_limit;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };

    struct Output
    {
      std::string  directory;
      double       interval;
      bool         overwrite;
      bool         quiet;
      double       progress_interval;
      bool         field_output;
      double       checkpoint_interval;      ///< simulated time; 0: off
      double       checkpoint_wall_interval; ///< seconds; 0: off

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };

    /** All cross-cutting parameters of a run. */
    struct Run
    {
      std::string  model;
      unsigned int dimension;
      Time         time;
      Splitting    splitting;
      Friction     friction;
      Centered     centered;
      LinearSolver linear_solver;
      Output       output;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };
  } // namespace Parameters
} // namespace stickslip

#endif
