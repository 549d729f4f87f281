#ifndef stickslip_friction_friction_parameters_h
#define stickslip_friction_friction_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>

namespace stickslip
{
  namespace Parameters
  {
    /** Solvers of the friction sub-step M W + tau C lambda = b (Glowinski et
     * al. 2006, eq. (38)). */
    enum class FrictionSolverType
    {
      closed_form,    ///< componentwise, diagonal M (Glowinski et al. 2006, eq.
                      ///< (53))
      projection,     ///< Glowinski et al. 2006, eqs. (39)-(41)
      penalty_newton, ///< Glowinski et al. 2006, eqs. (67)-(74)
      semismooth_newton ///< primal-dual active set on the W form (38)
    };

    /** Subsection Friction: the friction-step solver and its settings. */
    struct Friction
    {
      FrictionSolverType solver;
      double             tolerance;
      unsigned int       max_iterations;
      double             projection_rho; ///< 0: automatic
      double             penalty_epsilon;
      double             regularization_eta;
      double             arkode_tolerance;
      /**
       * Relative residual tolerance of the CG solve of each semismooth
       * Newton step; 0 stands for "forcing" (the default): the tolerance
       * follows the KKT residual and Friction/Tolerance (inexact Newton).
       */
      double newton_cg_tolerance;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };
  } // namespace Parameters
} // namespace stickslip

#endif
