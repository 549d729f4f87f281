#ifndef stickslip_drivers_slab_study_h
#define stickslip_drivers_slab_study_h

#include <deal.II/base/timer.h>

#include <drivers/model_registry.h>
#include <drivers/run_loop.h>
#include <drivers/run_parameters.h>
#include <drivers/study.h>
#include <models/slab/slab_problem.h>

#include <vector>

namespace stickslip
{
  /**
   * Renard's slab (Renard 2001) run once, or in a refinement study over the
   * grids of Slab/Convergence cells at a constant dt/dz: every run goes
   * through the RunLoop as a Slab::SlabEvolution; the finest writes
   * history.csv and the profiles, and the study writes refinement.csv with
   * the differences of the boundary quantities between successive grids.
   */
  class SlabStudy : public Study
  {
  public:
    /** Check every parameter (collective; InputError if bad). */
    SlabStudy(const Parameters::Run      &parameters,
              const Slab::SlabParameters &slab,
              const ParameterSource      &source,
              const MPI_Comm              comm,
              const ConditionalOStream   &pcout,
              TimerOutput                &timer);

    void
    run(RunDirectory &directory, const bool resume) override;

  private:
    /** Boundary quantities at every step of a run (for refinement.csv). */
    struct BoundarySeries
    {
      std::vector<double> time, gap, pressure, slip_1, slip_2;
    };

    class SeriesObserver;

    void
    write_refinement_table(const std::vector<BoundarySeries> &series,
                           const OutputDirectory             &directory) const;

    const Parameters::Run     parameters;
    const MPI_Comm            comm;
    const ConditionalOStream &pcout;
    TimerOutput              &timer;
    const Slab::SlabProblem   problem;
  };



  /** The entry of Renard's slab in the model registry (model_registry.cc). */
  ModelEntry
  slab_model();
} // namespace stickslip

#endif
