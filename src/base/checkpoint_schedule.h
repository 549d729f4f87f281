#ifndef stickslip_base_checkpoint_schedule_h
#define stickslip_base_checkpoint_schedule_h

#include <base/checkpoint.h>
#include <base/global.h>
#include <base/output_parameters.h>

#include <chrono>

namespace stickslip
{
  /**
   * When a snapshot is due: every Output/Checkpoint interval of simulated
   * time, and every Output/Checkpoint wall interval of wall-clock time, the
   * latter decided by rank 0's clock for all ranks (their clocks and their
   * progress differ, and every rank must take the snapshot at the same
   * step). The one place where the schedule is kept, for time loops and for
   * the control search.
   */
  class CheckpointSchedule
  {
  public:
    /** @p t0, @p dt: the time grid of a time loop (unused by the search). */
    CheckpointSchedule(const Parameters::Output &output,
                       const MPI_Comm            comm,
                       const double              t0 = 0,
                       const double              dt = 1);

    /** Either checkpoint interval is set. */
    bool
    enabled() const;

    /**
     * A snapshot is due after the step that ended at @p t (collective when
     * a wall interval is set). Moves the schedule on when it is.
     */
    bool
    due_at(const double t);

    /**
     * The wall-clock part only: at least Checkpoint wall interval seconds
     * since the last snapshot, on rank 0's clock (collective).
     */
    bool
    due_by_wall_clock();

    /** The next snapshot time carries over to a resumed run. */
    void
    register_state(CheckpointArchive &archive);

  private:
    const double                          interval;
    const double                          wall_interval;
    const MPI_Comm                        comm;
    const double                          t0;
    const double                          dt;
    double                                next_time;
    std::chrono::steady_clock::time_point last_wall_snapshot;
  };
} // namespace stickslip

#endif
