#ifndef stickslip_base_iteration_guard_h
#define stickslip_base_iteration_guard_h

#include <deal.II/base/timer.h>

#include <base/global.h>
#include <base/signals.h>

#include <string>

namespace stickslip
{
  /**
   * The end of an iteration of a loop that takes snapshots, the time loop
   * (RunLoop) and the control search (ControlDriver) alike: a snapshot when
   * the schedule says one is due or a termination signal arrived on some
   * rank, and after a signal the stop, an Interrupted that says where the
   * snapshot is and how to continue ("--resume"). The one place of the
   * pattern "snapshot or signal, then stop".
   */
  class IterationGuard
  {
  public:
    /**
     * @p what: what a snapshot holds ("this state", "the search"),
     * @p folder: where the snapshots are, @p resume_path: the argument of
     * --resume; the snapshots are timed under @p timer_section of
     * @p timer ("time loop: snapshots": what the timer table says they
     * belong to).
     */
    IterationGuard(const MPI_Comm     comm,
                   TimerOutput       &timer,
                   const std::string &timer_section,
                   const std::string &what,
                   const std::string &folder,
                   const std::string &resume_path);

    /**
     * After an iteration (collective): @p write() a snapshot if @p due or a
     * termination signal arrived, and @p can_write (a loop past its last
     * iteration has nothing to continue); after a signal, throw Interrupted
     * "SIGTERM <where()>: a snapshot of <what> is in <folder>; continue
     * with --resume <path>". @p where() is called only then.
     */
    template <typename Write, typename Where>
    void
    after_iteration(const bool   due,
                    const bool   can_write,
                    const Write &write,
                    const Where &where) const
    {
      const int signal = termination_signal(comm);
      if ((due || signal != 0) && can_write)
        {
          TimerOutput::Scope scope(timer, timer_section);
          write();
        }
      if (signal != 0)
        interrupt(signal, where());
    }

  private:
    /** Throw the Interrupted of @p signal after the iteration @p where. */
    [[noreturn]] void
    interrupt(const int signal, const std::string &where) const;

    const MPI_Comm    comm;
    TimerOutput      &timer;
    const std::string timer_section;
    const std::string what;
    const std::string folder;
    const std::string resume_path;
  };
} // namespace stickslip

#endif
