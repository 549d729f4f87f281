#include <models/common/model.h>

namespace stickslip
{
  const DistributedVector *
  Model::error_weights() const
  {
    return nullptr;
  }



  std::pair<double, double>
  Model::energies(const double, const FrictionState &state) const
  {
    const FrictionSystem &friction = system();
    DistributedVector     product(friction.locally_owned, friction.comm);
    friction.mass.vmult(product, state.velocity);
    const double kinetic = 0.5 * (product * state.velocity);
    double       elastic = 0;
    if (friction.has_stiffness)
      {
        friction.stiffness.vmult(product, state.displacement);
        elastic = 0.5 * (product * state.displacement);
      }
    return {kinetic, elastic};
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
