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
   * SIGUSR1 (Slurm's --signal default, a while before the time limit) and
   * SIGHUP (the terminal or ssh session closed) only set a flag; the run
   * loop looks at it after every step, writes a snapshot if the run takes
   * them, and stops with an Interrupted exception that says what is kept
   * (a run without snapshots: its rows and fields so far, and how to make
   * a run resumable) with no file half written. A second SIGINT stops a
   * run at once; a repeated SIGTERM (from the scheduler and again from
   * mpirun) does not. A signal the process inherited as ignored (SIGINT
   * under a background shell, SIGHUP under nohup) stays ignored.
   */
  void
  install_termination_handlers();

  /**
   * Remember which of the handled signals the process inherited as ignored
   * (call first in main(), before MPI and the libraries start: one of them
   * sets SIGHUP's disposition).
   */
  void
  remember_inherited_dispositions();

  /**
   * Back to the dispositions the process started with (the default, or
   * ignored): the next SIGTERM, SIGINT, SIGHUP or SIGUSR1 ends the process.
   */
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

  /** The name of @p signal ("SIGTERM"), for messages. */
  std::string
  signal_name(const int signal);

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
