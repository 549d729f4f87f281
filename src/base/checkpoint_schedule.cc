#include <base/checkpoint_schedule.h>
#include <base/time_grid.h>

namespace stickslip
{
  CheckpointSchedule::CheckpointSchedule(const Parameters::Output &output,
                                         const MPI_Comm            comm,
                                         const double              t0,
                                         const double              dt)
    : interval(output.checkpoint_interval)
    , wall_interval(output.checkpoint_wall_interval)
    , comm(comm)
    , t0(t0)
    , dt(dt)
    , next_time(t0 + output.checkpoint_interval)
    , last_wall_snapshot(std::chrono::steady_clock::now())
  {}



  bool
  CheckpointSchedule::enabled() const
  {
    return interval > 0 || wall_interval > 0;
  }



  bool
  CheckpointSchedule::due_at(const double t)
  {
    bool due = false;
    if (interval > 0 && t >= next_time - 1e-9 * dt)
      {
        due       = true;
        next_time = next_multiple(t0, interval, t, dt);
      }
    // Both parts are looked at every step (the wall-clock part is
    // collective).
    if (due_by_wall_clock())
      due = true;
    return due;
  }



  bool
  CheckpointSchedule::due_by_wall_clock()
  {
    if (wall_interval <= 0)
      return false;
    const auto   now = std::chrono::steady_clock::now();
    const double seconds =
      std::chrono::duration<double>(now - last_wall_snapshot).count();
    // rank 0's clock decides for all
    const bool late =
      Utilities::MPI::this_mpi_process(comm) == 0 && seconds >= wall_interval;
    if (Utilities::MPI::max(late ? 1 : 0, comm) == 0)
      return false;
    last_wall_snapshot = now;
    return true;
  }



  void
  CheckpointSchedule::register_state(CheckpointArchive &archive)
  {
    archive.add(next_time);
  }
} // namespace stickslip
