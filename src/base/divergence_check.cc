#include <base/divergence_check.h>
#include <base/expressions.h>
#include <base/input_error.h>

#include <sstream>

namespace stickslip
{
  void
  diverged(const double       size,
           const TimeStep    &step,
           const char        *limit_meaning,
           const std::string &likely_causes)
  {
    std::ostringstream message;
    message << "the run diverged at step " << step.index
            << " (t = " << step.next_time << ", dt = " << step.size
            << "): the displacement or velocity "
            << (std::isfinite(size) ?
                  "ran away (max norm " + format_number(size) + ", " +
                    limit_meaning + ")" :
                  std::string("is not finite"))
            << ". Likely causes: " << likely_causes;
    throw RunError(message.str());
  }
} // namespace stickslip
