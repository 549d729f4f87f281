#include <models/common/model.h>

#include <iomanip>
#include <sstream>

namespace stickslip
{
  SetupClock::SetupClock()
    : last(std::chrono::steady_clock::now())
  {}



  void
  SetupClock::lap(const std::string &name)
  {
    const auto now = std::chrono::steady_clock::now();
    stages.emplace_back(name,
                        std::chrono::duration<double>(now - last).count());
    last = now;
  }



  std::string
  SetupClock::summary(const MPI_Comm comm) const
  {
    std::ostringstream out;
    out << std::fixed << std::setprecision(2);
    for (std::size_t i = 0; i < stages.size(); ++i)
      out << (i > 0 ? ", " : "") << stages[i].first << ' '
          << Utilities::MPI::max(stages[i].second, comm) << " s";
    return out.str();
  }



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
    friction.apply_mass(product, state.velocity);
    const double kinetic = 0.5 * (product * state.velocity);
    double       elastic = 0;
    if (friction.has_stiffness)
      {
        friction.apply_stiffness(product, state.displacement);
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
