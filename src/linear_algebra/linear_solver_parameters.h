#ifndef stickslip_linear_algebra_linear_solver_parameters_h
#define stickslip_linear_algebra_linear_solver_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>

namespace stickslip
{
  namespace Parameters
  {
    /** How linear systems with M or M + alpha tau^2 A are solved. */
    enum class LinearSolverType
    {
      automatic, ///< direct on one rank below a size limit, CG otherwise
      direct,    ///< sparse Cholesky (PETSc's on one rank, MUMPS on several;
                 ///< Trilinos: Amesos), factorized once
      cg         ///< preconditioned conjugate gradients
    };

    /** Subsection Linear solver. */
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
  } // namespace Parameters
} // namespace stickslip

#endif
