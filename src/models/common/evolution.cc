#include <models/common/evolution.h>

namespace stickslip
{
  std::string
  Evolution::stop_reason() const
  {
    return "";
  }



  std::string
  Evolution::discretization_key() const
  {
    return "";
  }
} // namespace stickslip
