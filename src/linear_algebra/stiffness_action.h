#ifndef stickslip_linear_algebra_stiffness_action_h
#define stickslip_linear_algebra_stiffness_action_h

#include <base/global.h>

#include <cstddef>
#include <string>

namespace stickslip
{
  /**
   * The action x -> A x of a stiffness operator that is not stored as a
   * matrix (a matrix-free cell loop, deal.II's step-48 pattern). It stands
   * in for FrictionSystem::stiffness wherever the schemes only multiply by
   * A: the elastic steps (an implicit one solves M + alpha tau^2 A by
   * conjugate gradients with its diagonal), the energies, the stability
   * bound. What needs A's entries (the centered scheme's implicit operator)
   * refuses it.
   */
  class StiffnessAction
  {
  public:
    virtual ~StiffnessAction() = default;

    /** @p product = A @p x on the owned rows (collective). */
    virtual void
    vmult(DistributedVector &product, const DistributedVector &x) const = 0;

    /** The diagonal A_ii of the owned rows (Jacobi preconditioning). */
    virtual const DistributedVector &
    diagonal() const = 0;

    /**
     * An upper bound of sum_j |A_ij| for each owned row i (Gershgorin's
     * bound of the largest eigenvalue of M^{-1} A for a diagonal M).
     */
    virtual const DistributedVector &
    row_sum_bound() const = 0;

    /**
     * The setting that chose this operator, for messages, e.g.
     * "String/Stiffness operator = matrix-free".
     */
    virtual std::string
    chosen_by() const = 0;

    /** Bytes this rank holds for the operator. */
    virtual std::size_t
    memory_consumption() const = 0;
  };
} // namespace stickslip

#endif
