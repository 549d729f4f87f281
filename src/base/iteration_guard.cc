#include <base/iteration_guard.h>

namespace stickslip
{
  IterationGuard::IterationGuard(const MPI_Comm     comm,
                                 TimerOutput       &timer,
                                 const std::string &timer_section,
                                 const std::string &what,
                                 const std::string &folder,
                                 const std::string &resume_path)
    : comm(comm)
    , timer(timer)
    , timer_section(timer_section)
    , what(what)
    , folder(folder)
    , resume_path(resume_path)
  {}



  void
  IterationGuard::interrupt(const int signal, const std::string &where) const
  {
    throw Interrupted(signal_name(signal) + " " + where + ": a snapshot of " +
                      what + " is in " + folder + "; continue with --resume " +
                      resume_path);
  }
} // namespace stickslip
