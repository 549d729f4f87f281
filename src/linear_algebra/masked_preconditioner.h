#ifndef stickslip_linear_algebra_masked_preconditioner_h
#define stickslip_linear_algebra_masked_preconditioner_h

#include <base/global.h>
#include <base/local_values.h>

#include <vector>

namespace stickslip
{
  /**
   * A preconditioner of a masked SPD operator mask A mask + (1 - mask),
   * where mask is a 0/1 vector: the matrix of the linear solves of an
   * active-set method, which act on the unknowns of one set only and are
   * the identity elsewhere (SemismoothNewtonSolver).
   */
  class MaskedPreconditioner
  {
  public:
    virtual ~MaskedPreconditioner() = default;

    /**
     * Prepare for the masked operator of @p mask (1 on the unknowns of the
     * next solves, 0 elsewhere). Called before each solve; @p mask stays
     * alive and unchanged until the next call.
     */
    virtual void
    initialize(const DistributedVector &mask) = 0;

    /** dst = P^{-1} src; the identity where the mask is 0. */
    virtual void
    vmult(DistributedVector &dst, const DistributedVector &src) const = 0;

    /**
     * For P = diag(A) restricted to the mask (Jacobi), the inverse of that
     * diagonal (owned entries): a conjugate gradient method may then apply
     * P^{-1} inside its own vector loops instead of calling vmult() (one
     * pass over the vectors less per iteration). nullptr for any other
     * preconditioner.
     */
    virtual const DistributedVector *
    jacobi_inverse_diagonal() const
    {
      return nullptr;
    }
  };



  /**
   * Exact solves with each rank's diagonal block of a masked SPD tridiagonal
   * matrix (block Jacobi over the ranks) by the Thomas algorithm, stable
   * without pivoting for such matrices. Preconditioning CG with it leaves
   * the identity plus a perturbation of rank at most 2 (ranks - 1), so CG
   * needs a handful of iterations however many rows (Jacobi would need
   * O(n)).
   */
  class TridiagonalBlockPreconditioner : public MaskedPreconditioner
  {
  public:
    /**
     * @p diagonal and @p upper: the owned rows of the tridiagonal matrix,
     * rows distributed in contiguous blocks (upper[r] couples owned row r
     * to the next global row, 0 for the last row); both must outlive the
     * preconditioner.
     */
    TridiagonalBlockPreconditioner(const std::vector<double> &diagonal,
                                   const std::vector<double> &upper);

    /** Factorize the owned block of the masked matrix. */
    void
    initialize(const DistributedVector &mask) override;

    void
    vmult(DistributedVector &dst, const DistributedVector &src) const override;

  private:
    const std::vector<double> &diagonal;
    const std::vector<double> &upper;
    std::vector<double>        lower, modified_upper, inverse_pivot;
  };



  inline TridiagonalBlockPreconditioner::TridiagonalBlockPreconditioner(
    const std::vector<double> &diagonal,
    const std::vector<double> &upper)
    : diagonal(diagonal)
    , upper(upper)
    , lower(diagonal.size())
    , modified_upper(diagonal.size())
    , inverse_pivot(diagonal.size())
  {}



  inline void
  TridiagonalBlockPreconditioner::initialize(const DistributedVector &mask)
  {
    // Rows off the mask are identity rows, decoupled from their neighbours.
    const std::size_t n = diagonal.size();
    ConstLocalValues  m(mask);
    for (std::size_t r = 0; r < n; ++r)
      {
        const bool   in_r = m[r] > 0;
        const double d    = in_r ? diagonal[r] : 1.;
        lower[r]          = (r > 0 && in_r && m[r - 1] > 0) ? upper[r - 1] : 0.;
        const double u    = (r + 1 < n && in_r && m[r + 1] > 0) ? upper[r] : 0.;
        const double pivot =
          d - (r > 0 ? lower[r] * modified_upper[r - 1] : 0.);
        inverse_pivot[r]  = 1. / pivot;
        modified_upper[r] = u * inverse_pivot[r];
      }
  }



  inline void
  TridiagonalBlockPreconditioner::vmult(DistributedVector       &dst,
                                        const DistributedVector &src) const
  {
    const std::size_t n = diagonal.size();
    if (n == 0)
      return;
    ConstLocalValues x(src);
    LocalValues      y(dst);
    for (std::size_t r = 0; r < n; ++r)
      y[r] = (x[r] - (r > 0 ? lower[r] * y[r - 1] : 0.)) * inverse_pivot[r];
    for (std::size_t r = n - 1; r-- > 0;)
      y[r] -= modified_upper[r] * y[r + 1];
  }
} // namespace stickslip

#endif
