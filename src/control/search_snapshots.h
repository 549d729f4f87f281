#ifndef stickslip_control_search_snapshots_h
#define stickslip_control_search_snapshots_h

#include <base/checkpoint.h>
#include <base/checkpoint_schedule.h>
#include <base/output_files.h>
#include <base/output_parameters.h>
#include <control/control_penalty.h>
#include <control/parallel_direct_search.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * Snapshots of a control search, taken between two iterations: the
   * simplex with the outcomes of its vertices, the simplex and simulation
   * counts, the penalty's state (v^c, dynamic rho) and the rows of
   * optimization.csv. The state is the same on every rank, so rank 0
   * writes it as one file of a replicated CheckpointStore in
   * OUTPUT/checkpoints (the controlled run afterwards takes no snapshots of
   * its own: it costs one simulation), and any number of ranks resumes
   * from it.
   *
   * A search has no simulated time: Output/Checkpoint interval > 0 means a
   * snapshot after every iteration, Output/Checkpoint wall interval one at
   * the first iteration boundary after that many seconds.
   */
  class SearchSnapshots
  {
  public:
    SearchSnapshots(const Parameters::Output &output,
                    const std::string        &directory,
                    const MPI_Comm            world);

    /** Either checkpoint parameter is set. */
    bool
    enabled() const;

    /**
     * A snapshot is due after the iteration just completed: after every
     * one with a checkpoint interval, else by the wall-clock part of the
     * CheckpointSchedule (collective).
     */
    bool
    due();

    /** Write a snapshot of the search after @p state (collective). */
    void
    write(const ParallelDirectSearch::State &state,
          ControlPenalty                    &penalty,
          const unsigned long                simulation_iterations,
          const CsvTable                    &table) const;

    /**
     * Read the newest good snapshot (collective); fills @p penalty,
     * @p simulation_iterations and the rows of @p table, and adds a warning
     * for every snapshot skipped as corrupt.
     */
    ParallelDirectSearch::State
    read(const unsigned int        n_controls,
         ControlPenalty           &penalty,
         unsigned long            &simulation_iterations,
         CsvTable                 &table,
         std::vector<std::string> &warnings) const;

    /** Remove the snapshots of an earlier run in the directory (collective). */
    void
    clear() const;

    std::string
    folder() const;

  private:
    /** Everything a snapshot holds, registered in a fixed order. */
    static CheckpointArchive
    archive(ParallelDirectSearch::State &state,
            ControlPenalty              &penalty,
            unsigned long               &simulation_iterations,
            unsigned long               &n_rows,
            std::vector<double>         &rows);

    const bool            every_iteration;
    CheckpointSchedule    schedule;
    const CheckpointStore store;
  };
} // namespace stickslip

#endif
