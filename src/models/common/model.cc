#include <models/common/model.h>

namespace stickslip
{
  const DistributedVector *
  Model::error_weights() const
  {
    return nullptr;
  }



  void
  Model::complete_state(const double, FrictionState &) const
  {}



  bool
  Model::has_field_output() const
  {
    return false;
  }



  std::string
  Model::write_fields(const double,
                      const FrictionState &,
                      const unsigned int,
                      const FieldFiles &) const
  {
    return "";
  }



  const InclusionForm *
  Model::inclusion_form() const
  {
    return nullptr;
  }


  bool
  Model::numbering_independent_of_partition() const
  {
    return false;
  }



  void
  Model::describe_unknown_locations(CheckpointArchive &) const
  {}
} // namespace stickslip
