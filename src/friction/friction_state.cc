#include <friction/friction_state.h>

namespace stickslip
{
  void
  FrictionState::reinit(const IndexSet &owned, const MPI_Comm comm)
  {
    displacement.reinit(owned, comm);
    velocity.reinit(owned, comm);
    multiplier.reinit(owned, comm);
    stick.reinit(owned, comm);
  }
} // namespace stickslip
