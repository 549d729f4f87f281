#include <base/signals.h>

#include <signal.h>

#include <array>

namespace stickslip
{
  namespace
  {
    volatile std::sig_atomic_t received_signal = 0;

    /**
     * The signals that stop a run cleanly: SIGINT (Ctrl-C), SIGTERM (what
     * schedulers and kill send), SIGHUP (the terminal or the ssh session
     * closed) and SIGUSR1 (Slurm's --signal default, sent a while before a
     * job's time limit). Each ended the process at once by default.
     */
    constexpr std::array<int, 4> handled = {SIGINT, SIGTERM, SIGHUP, SIGUSR1};

    /**
     * The dispositions of the handled signals the process started with:
     * the default, or SIG_IGN inherited from a shell that runs it in the
     * background (POSIX shells ignore SIGINT there) or from nohup (SIGHUP).
     * An ignored signal stays ignored, and "back to the default" means back
     * to these.
     */
    struct Inherited
    {
      bool                             known = false;
      std::array<bool, handled.size()> ignored{};
    } inherited;

    void
    remember_dispositions()
    {
      if (inherited.known)
        return;
      for (std::size_t i = 0; i < handled.size(); ++i)
        {
          struct sigaction action;
          if (sigaction(handled[i], nullptr, &action) == 0)
            inherited.ignored[i] = action.sa_handler == SIG_IGN;
        }
      inherited.known = true;
    }

    extern "C" void
    remember_signal(int signal)
    {
      received_signal = signal;
      // A second Ctrl-C (an impatient user) ends the process without
      // waiting for the end of the step (and the snapshot). A repeated
      // SIGTERM does not: a scheduler signals every process of the job and
      // mpirun forwards the signal too, so a rank may get it twice (the
      // scheduler's follow-up is SIGKILL).
      if (signal == SIGINT)
        std::signal(signal, SIG_DFL);
    }
  } // namespace



  void
  remember_inherited_dispositions()
  {
    remember_dispositions();
  }



  void
  install_termination_handlers()
  {
    remember_dispositions();
    // An ignored signal is ignored again: a library started since may
    // have set its own handler (SIGHUP inherited ignored from nohup was
    // found handled by the time of the run).
    for (std::size_t i = 0; i < handled.size(); ++i)
      std::signal(handled[i], inherited.ignored[i] ? SIG_IGN : remember_signal);
  }



  void
  restore_default_termination_handlers()
  {
    remember_dispositions();
    for (std::size_t i = 0; i < handled.size(); ++i)
      std::signal(handled[i], inherited.ignored[i] ? SIG_IGN : SIG_DFL);
  }



  int
  termination_signal(const MPI_Comm comm)
  {
    // One rank: no reduction (runs without snapshots look every step).
    if (Utilities::MPI::n_mpi_processes(comm) == 1)
      return received_signal;
    return Utilities::MPI::max(static_cast<int>(received_signal), comm);
  }



  int
  take_termination_signal(const MPI_Comm comm)
  {
    restore_default_termination_handlers();
    const int signal = termination_signal(comm);
    received_signal  = 0;
    return signal;
  }



  std::string
  signal_name(const int signal)
  {
    switch (signal)
      {
        case SIGINT:
          return "SIGINT";
        case SIGTERM:
          return "SIGTERM";
        case SIGHUP:
          return "SIGHUP";
        case SIGUSR1:
          return "SIGUSR1";
        default:
          return "signal " + std::to_string(signal);
      }
  }
} // namespace stickslip
