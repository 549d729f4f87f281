#ifndef stickslip_models_slab_slab_evolution_h
#define stickslip_models_slab_slab_evolution_h

#include <friction/friction_law.h>
#include <models/common/evolution.h>
#include <models/slab/characteristic_transport.h>
#include <models/slab/contact_boundary.h>
#include <models/slab/slab_output.h>
#include <models/slab/slab_problem.h>

#include <memory>

namespace stickslip
{
  namespace Slab
  {
    /**
     * One run of the slab as an Evolution of the run loop: the
     * characteristic transport of the interior (CharacteristicTransport,
     * distributed over the ranks) and the contact/friction node at z = 0
     * (ContactBoundary, on the rank that owns it), with the slab's
     * history.csv columns, VTU profiles and profile CSV files.
     */
    class SlabEvolution : public Evolution
    {
    public:
      SlabEvolution(const SlabProblem    &problem,
                    const Discretization &discretization,
                    const MPI_Comm        comm);

      std::string
      description() const override;

      void
      initialize(const double t0) override;

      void
      advance(const TimeStep &step) override;

      void
      register_state(CheckpointArchive &archive) override;

      /** b+- are stored by global node: any number of ranks reads them. */
      bool
      numbering_independent_of_partition() const override;

      /**
       * history.csv: the contact node; the VTU profiles (solution.pvd);
       * with Slab/Write profiles, profile-initial.csv and profile-final.csv.
       */
      OutputSeries
      output_series() override;

      /** The number of cells: a snapshot of another grid is refused. */
      std::string
      discretization_key() const override;

      std::string
      summary(const RunStatistics &statistics) const override;

      /** Friction law/Stop after arrest: why the run ends now, or "". */
      std::string
      stop_reason() const override;

      /** The state of the contact node (meaningful on rank 0). */
      const BoundaryState &
      boundary_state() const;

      /** The foundation velocity v_* (the slip is u_T,t - v_*). */
      double
      foundation_velocity() const;

    private:
      std::vector<std::string>
      history_columns() const;

      std::vector<double>
      history_row(const double t) const;

      /** The VTU profile of the state at @p t as output @p index. */
      std::string
      write_fields(const double       t,
                   const unsigned int index,
                   const FieldFiles  &files);

      /** The profile of the current state as the CSV file @p file_name. */
      void
      write_profile(const std::string     &file_name,
                    const OutputDirectory &directory);

      /** Why the contact node's solve of @p step failed (its owner). */
      std::string
      boundary_failure(const TimeStep &step) const;

      const SlabProblem      &problem;
      const SlabParameters   &parameters;
      const Discretization    discretization;
      const MPI_Comm          comm;
      CharacteristicTransport transport;
      const ContactBoundary   boundary;
      const FrictionLaw       mu;
      BoundaryState           state;
      /** Made at the first field output. */
      std::unique_ptr<ProfileWriter> writer;
      /** Slip-speed iterations, and steps where (52) had several solutions. */
      unsigned long iterations, multiple;
      double        max_pressure;
      /**
       * The last time the node slipped faster than Friction law/Rupture
       * slip rate (-infinity: never) and the time of the state (Stop after
       * arrest only).
       */
      double last_slip_time, current_time;
    };
  } // namespace Slab
} // namespace stickslip

#endif
