#ifndef stickslip_friction_friction_state_h
#define stickslip_friction_friction_state_h

#include <base/global.h>

namespace stickslip
{
  /**
   * The state of a friction system at a time level: displacement,
   * velocity, and the multiplier of the step that led there (the average
   * over its friction sub-steps, Glowinski et al. 2006, eq. (37)).
   */
  struct FrictionState
  {
    DistributedVector displacement;
    DistributedVector velocity;
    DistributedVector multiplier;
    /**
     * 1 where the friction step kept the component exactly at rest in every
     * sub-step of the last time step (|lambda_i| <= 1, w_i = 0), else 0.
     */
    DistributedVector stick;

    void
    reinit(const IndexSet &owned, const MPI_Comm comm);
  };
} // namespace stickslip

#endif
