#ifndef stickslip_base_output_parameters_h
#define stickslip_base_output_parameters_h

#include <deal.II/base/parameter_handler.h>

#include <base/global.h>
#include <base/input_error.h>

#include <string>

namespace stickslip
{
  namespace Parameters
  {
    /** Subsection Output: where and how often a run writes its results. */
    struct Output
    {
      std::string directory;
      double      interval;
      bool        overwrite;
      bool        quiet;
      double      progress_interval;
      bool        field_output;
      double      checkpoint_interval;      ///< simulated time; 0: off
      double      checkpoint_wall_interval; ///< seconds; 0: off

      /** Either checkpoint interval is set. */
      bool
      checkpoints_enabled() const;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };
  } // namespace Parameters
} // namespace stickslip

#endif
