#ifndef stickslip_base_signals_h
#define stickslip_base_signals_h

#include <base/global.h>

#include <csignal>
#include <stdexcept>
#include <string>

namespace stickslip
{
  /**
   * SIGTERM and SIGINT, what schedulers send at the end of a job's time,
   * only set a flag; the driver looks at it after every step, writes a
   * snapshot and stops with an Interrupted exception. Only runs that take
   * snapshots install this: any other run keeps the default, so that the
   * signal stops it at once. A second SIGINT also stops a run at once; a
   * repeated SIGTERM (from the scheduler and again from mpirun) does not.
   */
  void
  install_termination_handlers();

  /** Back to the default: the next SIGTERM or SIGINT ends the process. */
  void
  restore_default_termination_handlers();

  /** The signal received so far on any rank of @p comm (0: none; collective).
   */
  int
  termination_signal(const MPI_Comm comm);

  /**
   * Between two runs of a batch (collective): the default handlers back,
   * then the signal received so far on any rank (0: none), which is then
   * forgotten, so that the next run starts as a lone run does. A signal
   * after the handlers are restored ends the process, as for a lone run
   * without snapshots; none is lost in between.
   */
  int
  take_termination_signal(const MPI_Comm comm);

  /** Thrown after a final snapshot when a termination signal arrived. */
  class Interrupted : public std::runtime_error
  {
  public:
    explicit Interrupted(const std::string &what)
      : std::runtime_error(what)
    {}
  };
} // namespace stickslip

#endif
