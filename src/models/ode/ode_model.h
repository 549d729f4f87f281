#ifndef stickslip_models_ode_ode_model_h
#define stickslip_models_ode_ode_model_h

#include <deal.II/base/parameter_handler.h>

#include <base/input_error.h>
#include <models/common/finite_dof_model.h>

namespace stickslip
{
  /**
   * The `ode` model: the finite-dof friction system of seeds 000/001,
   *   M X'' + A X + C (lambda - gamma(X')) = f(t),
   * with M, A, C, gamma, f, the initial data and optionally the exact
   * solution written in the parameter file (subsection "ODE").
   */
  class OdeModel : public FiniteDofModel
  {
  public:
    static void
    declare_parameters(ParameterHandler &prm);

    /** Read and check the data; every error names its parameter. */
    OdeModel(ParameterHandler &     prm,
             const ParameterSource &source,
             const MPI_Comm         comm);

    std::string
    description() const override;

  private:
    std::unique_ptr<TimeFunction> forcing;
  };
} // namespace stickslip

#endif
