#ifndef stickslip_base_exit_status_h
#define stickslip_base_exit_status_h

#include <base/global.h>

#include <string>

namespace stickslip
{
  /**
   * How a run ended when an exception stopped it: the message for standard
   * error, the exit status, and whether every rank threw it alike (an
   * InputError, RunError or Interrupted: rank 0 prints it and all ranks
   * return together) or possibly this rank alone (out of memory, an
   * unexpected exception: it prints it with its rank and aborts the
   * others).
   */
  struct Failure
  {
    std::string message;
    /** 1 bad input or unexpected error, 2 run failed, 3 interrupted. */
    int  status;
    bool collective;
  };

  /** The Failure of the exception being handled (call in a catch block). */
  Failure
  current_failure(const MPI_Comm comm);
} // namespace stickslip

#endif
