#ifndef stickslip_models_slab_slab_simulation_h
#define stickslip_models_slab_slab_simulation_h

#include <deal.II/base/function_parser.h>
#include <deal.II/base/parameter_handler.h>

#include <base/global.h>
#include <base/input_error.h>
#include <base/output_files.h>
#include <base/run_parameters.h>
#include <models/slab/characteristic_transport.h>
#include <models/slab/contact_boundary.h>
#include <models/slab/slab_parameters.h>

#include <memory>
#include <string>
#include <vector>

namespace stickslip
{
  namespace Slab
  {
    /**
     * Renard's elastic slab (seed 003, MODELS.md §4) as a complete run:
     * the characteristic transport in the interior (CharacteristicTransport,
     * distributed over the ranks), the contact/friction node at z = 0
     * (ContactBoundary, on the rank that owns it), and the outputs
     * (history.csv, VTU profiles, refinement.csv). The slab does not fit the
     * FrictionSystem interface of the other models (its interior is a
     * transport, its friction lives on one node), so it has this driver of
     * its own; it reuses the Time and Output parameters, OutputDirectory,
     * CsvTable and ProgressReporter.
     */
    class SlabSimulation
    {
    public:
      /** Parse and check every parameter (collective; InputError if bad). */
      SlabSimulation(ParameterHandler &        prm,
                     const ParameterSource &   source,
                     const MPI_Comm            comm,
                     const ConditionalOStream &pcout);

      /** Run the single run or the refinement study. */
      void
      run();

      /**
       * Continue a single run from the newest complete snapshot in its
       * output directory (--resume) instead of starting it afresh.
       */
      void
      resume_from_snapshot();

      static void
      declare_parameters(ParameterHandler &prm);

    private:
      /** The discretization of one run. */
      struct Discretization
      {
        unsigned int n_cells;
        double       time_step;
        unsigned int n_steps;
      };

      /** Boundary quantities at every step of a run (for refinement.csv). */
      struct BoundarySeries
      {
        std::vector<double> time, gap, pressure, slip_1, slip_2;
      };

      Discretization
      discretization(const unsigned int n_cells) const;

      /** Check u^0, u^1 at z = 0 and H; sets gap_tolerance. */
      void
      check_initial_data();

      /**
       * One run; writes history.csv and fields when @p write_outputs, and
       * records the boundary series when @p series is not null.
       */
      void
      simulate(const Discretization &discretization,
               const bool            write_outputs,
               BoundarySeries *      series);

      void
      write_refinement_table(const std::vector<Discretization> &runs,
                             const std::vector<BoundarySeries> &series) const;

      /** u^0, u^0_,3 or u^1 at z, component k. */
      double
      initial_displacement(const double z, const unsigned int k) const;
      double
      initial_gradient(const double z, const unsigned int k) const;
      double
      initial_velocity(const double z, const unsigned int k) const;

      ParameterHandler &        prm;
      const ParameterSource &   source;
      const MPI_Comm            comm;
      const ConditionalOStream &pcout;
      Slab::Parameters          parameters;
      ::stickslip::Parameters::Output output_parameters;
      double                    initial_time;
      double                    final_time;
      double                    time_step;
      double                    gap_tolerance; ///< |u^0_3(0)| below: contact
      std::unique_ptr<FunctionParser<1>> displacement_function;
      std::unique_ptr<FunctionParser<1>> velocity_function;
      OutputDirectory                    output;
      std::vector<Discretization>        runs;
      bool                               resume = false;
    };
  } // namespace Slab
} // namespace stickslip

#endif
