#ifndef stickslip_base_output_parameters_h
#define stickslip_base_output_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>

#include <string>

namespace stickslip
{
  namespace Parameters
  {
    /** Subsection Output: where and how often a run writes its results. */
    struct Output
    {
      std::string directory;
      double      interval;      ///< 0: every step (see interval_for())
      bool        interval_auto; ///< Interval = auto
      bool        overwrite;
      bool        quiet;
      double      progress_interval;
      bool        field_output;
      /** Output/Field format: the field files as HDF5 + XDMF (else VTU). */
      bool hdf5_fields;
      /** Output/Field precision = single (HDF5 fields). */
      bool single_precision_fields;
      /** The main field series (solution.pvd) at every k-th row. */
      unsigned int field_output_every;
      /** The body's contact surface (contact.pvd) at every k-th row. */
      unsigned int contact_output_every;
      double       checkpoint_interval;      ///< simulated time; 0: off
      double       checkpoint_wall_interval; ///< seconds; 0: off

      /**
       * The simulated time between outputs of a run of @p n_steps steps of
       * size @p dt: Interval, or for Interval = auto the multiple of dt
       * closest to 1/100 of the run (every step for runs of < 150 steps).
       */
      double
      interval_for(const double dt, const unsigned int n_steps) const;

      /**
       * The field series @p series ("solution", "contact") is written at
       * every this-many-th row of history.csv (Output/Field output every,
       * Output/Contact output every). A series without an entry here is an
       * internal error: a new series declares its entry (doc/developers.md).
       */
      unsigned int
      rows_per_output(const std::string &series) const;

      /** Either checkpoint interval is set. */
      bool
      checkpoints_enabled() const;

      /**
       * Output/Interval and Output/Checkpoint interval (if @p checkpoints)
       * against the time step @p dt, given by the parameter @p dt_path: an
       * interval shorter than a step is an InputError; one that is not an
       * integer multiple of it gives a warning (returned) naming both
       * parameters and the nearest multiples, since its outputs then fall
       * on the first step after each multiple of the interval, unevenly
       * spaced.
       */
      std::string
      check_intervals(const double           dt,
                      const std::string     &dt_path,
                      const bool             checkpoints,
                      const ParameterSource &source) const;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };
  } // namespace Parameters
} // namespace stickslip

#endif
