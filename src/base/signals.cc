#include <base/signals.h>

#include <signal.h>

namespace stickslip
{
  namespace
  {
    volatile std::sig_atomic_t received_signal = 0;

    /**
     * The dispositions of SIGTERM and SIGINT the process started with: the
     * default, or SIG_IGN inherited from a shell that runs it in the
     * background (POSIX shells ignore SIGINT there). An ignored signal stays
     * ignored, and "back to the default" means back to these.
     */
    struct Inherited
    {
      bool known       = false;
      bool ignore_term = false;
      bool ignore_int  = false;
    } inherited;

    void
    remember_inherited_dispositions()
    {
      if (inherited.known)
        return;
      struct sigaction action;
      if (sigaction(SIGTERM, nullptr, &action) == 0)
        inherited.ignore_term = action.sa_handler == SIG_IGN;
      if (sigaction(SIGINT, nullptr, &action) == 0)
        inherited.ignore_int = action.sa_handler == SIG_IGN;
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
  install_termination_handlers()
  {
    remember_inherited_dispositions();
    if (!inherited.ignore_term)
      std::signal(SIGTERM, remember_signal);
    if (!inherited.ignore_int)
      std::signal(SIGINT, remember_signal);
  }



  void
  restore_default_termination_handlers()
  {
    remember_inherited_dispositions();
    std::signal(SIGTERM, inherited.ignore_term ? SIG_IGN : SIG_DFL);
    std::signal(SIGINT, inherited.ignore_int ? SIG_IGN : SIG_DFL);
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
} // namespace stickslip
