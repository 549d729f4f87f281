#ifndef stickslip_models_common_step_failure_h
#define stickslip_models_common_step_failure_h

#include <base/input_error.h>

#include <string>

namespace stickslip
{
  /**
   * A RunError of Evolution::advance() thrown before the evolution changed
   * its state: it still holds the state at the start of the failed step, so
   * the run loop writes that state as the last row of history.csv (when no
   * row holds it yet) before it ends the run.
   */
  class StepFailedStateKept : public RunError
  {
  public:
    explicit StepFailedStateKept(const std::string &message)
      : RunError(message)
    {}
  };
} // namespace stickslip

#endif
