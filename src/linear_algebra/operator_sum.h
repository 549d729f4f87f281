#ifndef stickslip_linear_algebra_operator_sum_h
#define stickslip_linear_algebra_operator_sum_h

#include <base/global.h>
#include <linear_algebra/operator_action.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * B = sum_k factor_k B_k, each B_k a matrix or an OperatorAction, applied
   * term by term and never assembled: the centered scheme's M + alpha dt^2 A
   * (doc/theory.md §3.2) when M or A is matrix-free. It is an
   * OperatorAction itself, so the solvers that take M as an action (the
   * semismooth Newton's masked CG, SpdSolver's conjugate gradients with the
   * diagonal) take B in its place.
   *
   * Its diagonal and row-sum bound are the sums of the terms' (factors
   * >= 0; a zero factor adds no term): exact for the diagonal, an upper
   * bound for the row sums. The terms are referenced, not copied: they
   * must outlive the sum.
   */
  class OperatorSum : public OperatorAction
  {
  public:
    OperatorSum(const IndexSet &locally_owned, const MPI_Comm comm);

    /** Add @p factor times an assembled @p matrix (factor >= 0). */
    void
    add(const double factor, const DistributedMatrix &matrix);

    /** Add @p factor times a matrix-free @p action (factor >= 0). */
    void
    add(const double factor, const OperatorAction &action);

    void
    vmult(DistributedVector       &product,
          const DistributedVector &x) const override;

    const DistributedVector &
    diagonal() const override;

    const DistributedVector &
    row_sum_bound() const override;

    /** The settings of the matrix-free terms, joined by " and ". */
    std::string
    chosen_by() const override;

    std::size_t
    memory_consumption() const override;

  private:
    struct Term
    {
      double                   factor;
      const DistributedMatrix *matrix; ///< nullptr for an action
      const OperatorAction    *action; ///< nullptr for a matrix
    };

    /** diag += factor d, row sums += factor s for a new term. */
    void
    accumulate(const double             factor,
               const DistributedVector &term_diagonal,
               const DistributedVector &term_row_sums);

    std::vector<Term>         terms;
    DistributedVector         sum_of_diagonals;
    DistributedVector         sum_of_row_bounds;
    mutable DistributedVector term_product; ///< B_k x of the terms k >= 1
  };
} // namespace stickslip

#endif
