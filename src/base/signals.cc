#include <base/signals.h>

namespace stickslip
{
  namespace
  {
    volatile std::sig_atomic_t received_signal = 0;

    extern "C" void
    remember_signal(int signal)
    {
      received_signal = signal;
      // A second Ctrl-C (an impatient user) ends the process without
      // waiting for the snapshot. A repeated SIGTERM does not: a scheduler
      // signals every process of the job and mpirun forwards the signal
      // too, so a rank may get it twice (the scheduler's follow-up is
      // SIGKILL).
      if (signal == SIGINT)
        std::signal(signal, SIG_DFL);
    }
  } // namespace



  void
  install_termination_handlers()
  {
    std::signal(SIGTERM, remember_signal);
    std::signal(SIGINT, remember_signal);
  }



  void
  restore_default_termination_handlers()
  {
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
  }



  int
  termination_signal(const MPI_Comm comm)
  {
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
