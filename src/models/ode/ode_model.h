#ifndef stickslip_models_ode_ode_model_h
#define stickslip_models_ode_ode_model_h

#include <base/input_error.h>
#include <models/common/finite_dof_model.h>
#include <models/ode/ode_parameters.h>

namespace stickslip
{
  /**
   * The `ode` model: the finite-dof friction system of Glowinski et al. 2006,
   * 2005, M X'' + A X + C (lambda - gamma(X')) = f(t), with M, A, C, gamma, f,
   * the initial data and optionally the exact solution written in the parameter
   * file (subsection "ODE", OdeParameters).
   */
  class OdeModel : public FiniteDofModel
  {
  public:
    /**
     * Build the system of @p parameters on @p comm; the expressions are
     * parsed here, and every error names its parameter (@p source).
     */
    OdeModel(const OdeParameters   &parameters,
             const ParameterSource &source,
             const MPI_Comm         comm);

    std::string
    description() const override;
  };
} // namespace stickslip

#endif
