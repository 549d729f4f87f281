#include <friction/stick_slip_sets.h>

#include <sstream>

namespace stickslip
{
  namespace StickSlipSets
  {
    RunError
    not_settled(const std::string &description,
                const unsigned int max_iterations,
                const unsigned int last_changed,
                const std::string &advice)
    {
      std::ostringstream message;
      message << description
              << " did not find stable stick/slip sets in 'Friction/Maximum "
                 "iterations' = "
              << max_iterations
              << " iterations (unknowns moved between stick and slip by the "
                 "last one: "
              << last_changed << "). " << advice;
      return RunError(message.str());
    }
  } // namespace StickSlipSets
} // namespace stickslip
