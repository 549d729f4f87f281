#ifndef stickslip_drivers_run_parameters_h
#define stickslip_drivers_run_parameters_h

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/parameter_handler.h>

#include <base/global.h>
#include <base/input_error.h>
#include <base/output_parameters.h>
#include <time/time_parameters.h>

#include <ostream>
#include <string>
#include <vector>

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
    /** The models of the top-level entry Model. */
    enum class ModelKind
    {
      ode,     ///< a finite-dof friction system written in the file
      gearbox, ///< the gear box of Glowinski et al. 2006, eq. (54)
      string,  ///< the frictional string (dim 1) or membrane (dim 2)
      chain,   ///< masses, springs and St-Venant elements (Bastien & Lamarque
               ///< 2009)
      slab,    ///< Renard's elastic slab (Renard 2001)
      body, ///< an elastic body in frictional contact (doc/theory.md §7), dim
            ///< 2 or 3
      spring_slider ///< a block pulled through a spring (doc/theory.md §8.5)
    };

    /** All cross-cutting parameters of a run. */
    struct Run : Numerics
    {
      ModelKind    model;
      unsigned int dimension;
      Output       output;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);

      /**
       * The defaults that depend on the model, set in @p prm where the user
       * did not set them: for Model = string with String/Mass = lumped, the
       * explicit scheme of the string and membrane examples (Splitting/
       * Friction substeps = Elastic substeps = 1, Elastic implicitness =
       * 0, Friction/Solver = closed form).
       */
      static void
      apply_model_defaults(ParameterHandler      &prm,
                           const ParameterSource &source);

      /**
       * The subsections a run of this Model reads: the one table of which
       * model uses which subsection. A --set in another subsection is an
       * error, a file's subsection outside it a warning.
       */
      std::vector<std::string>
      subsections_read() const;

      /**
       * Refuse a --set of a subsection this Model does not read, and warn
       * on @p out about the file's subsections it ignores.
       */
      void
      check_subsections_used(const ParameterSource    &source,
                             const ConditionalOStream &out) const;
    };
  } // namespace Parameters
} // namespace stickslip

#endif
