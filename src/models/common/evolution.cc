#include <models/common/evolution.h>

namespace stickslip
{
  bool
  Evolution::has_fields() const
  {
    return false;
  }



  std::string
  Evolution::write_fields(const double, const unsigned int, const FieldFiles &)
  {
    return "";
  }



  std::vector<Evolution::FieldSeries>
  Evolution::other_field_series() const
  {
    return {};
  }



  std::string
  Evolution::write_other_fields(const std::string &,
                                const double,
                                const unsigned int,
                                const FieldFiles &)
  {
    AssertThrow(false, ExcInternalError());
    return "";
  }



  unsigned int
  Evolution::rows_per_field_output() const
  {
    return 1;
  }



  std::string
  Evolution::stop_reason() const
  {
    return "";
  }



  void
  Evolution::write_initial_outputs(const OutputDirectory &)
  {}



  void
  Evolution::write_final_outputs(const OutputDirectory &)
  {}



  std::string
  Evolution::discretization_key() const
  {
    return "";
  }
} // namespace stickslip
