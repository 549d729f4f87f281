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
    }
  } // namespace



  void
  install_termination_handlers()
  {
    std::signal(SIGTERM, remember_signal);
    std::signal(SIGINT, remember_signal);
  }



  int
  termination_signal(const MPI_Comm comm)
  {
    return Utilities::MPI::max(static_cast<int>(received_signal), comm);
  }
} // namespace stickslip
