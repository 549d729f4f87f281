#ifndef stickslip_drivers_run_parameters_h
#define stickslip_drivers_run_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/output_parameters.h>
#include <base/tracked_parameter_handler.h>
#include <time/time_parameters.h>

#include <string>

namespace stickslip
{
  /**
   * The parameters of a run, one struct per subsection in the manner of
   * deal.II's step-44 and Lethe: each declares its entries with a pattern
   * and a documentation sentence, and its parse() checks ranges and throws
   * an InputError naming the parameter, its file and line. The structs live
   * in the layer that uses them (Output in base/, LinearSolver in
   * linear_algebra/, Friction in friction/, Time, Splitting and Centered in
   * time/); the model subsections have their own structs in models/.
   */
  namespace Parameters
  {
    /**
     * All cross-cutting parameters of a run: Time and the friction-system
     * numerics, Output, the model's name and Dimension. The entries Model
     * and Dimension are declared, and Dimension checked, by the model
     * registry (drivers/model_registry.h), which knows the models.
     */
    struct Run : Numerics
    {
      /** The value of Model. */
      std::string  model;
      unsigned int dimension = 1;
      Output       output;

      /** The subsections of Numerics and Output. */
      static void
      declare_parameters(ParameterHandler &prm);
      /**
       * Time and Output, and with @p friction_system_numerics the rest of
       * Numerics (Time/Scheme, Splitting, ...), which only the
       * friction-system models read (@p model: the value of Model).
       * Dimension is read by the model registry, for the models that
       * have one (else it stays 1).
       */
      void
      parse(ParameterHandler      &prm,
            const ParameterSource &source,
            const std::string     &model,
            const bool             friction_system_numerics);
    };
  } // namespace Parameters
} // namespace stickslip

#endif
