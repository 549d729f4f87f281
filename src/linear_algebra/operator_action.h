#ifndef stickslip_linear_algebra_operator_action_h
#define stickslip_linear_algebra_operator_action_h

#include <base/global.h>

#include <cstddef>
#include <string>

namespace stickslip
{
  /**
   * The action x -> B x of an operator of the friction system (the
   * stiffness A or the consistent mass M) that is not stored as a matrix: a
   * matrix-free cell loop, deal.II's step-48 pattern. It stands in for the
   * matrix wherever the schemes only multiply by B: the elastic steps (an
   * implicit one, or an explicit one with a consistent mass, solves with
   * M + alpha tau^2 A by conjugate gradients preconditioned by its
   * diagonal), the friction step's semismooth Newton, the energies, the
   * stability bound, the centered scheme's M + alpha dt^2 A (an
   * OperatorSum). What needs B's entries for a factorization (the
   * projection solver) refuses it.
   */
  class OperatorAction
  {
  public:
    virtual ~OperatorAction() = default;

    /** @p product = B @p x on the owned rows (collective). */
    virtual void
    vmult(DistributedVector &product, const DistributedVector &x) const = 0;

    /** The diagonal B_ii of the owned rows (Jacobi preconditioning). */
    virtual const DistributedVector &
    diagonal() const = 0;

    /**
     * An upper bound of sum_j |B_ij| for each owned row i (Gershgorin's
     * bounds: the largest eigenvalue of M^{-1} A for a diagonal M, the
     * smallest eigenvalue of M).
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
