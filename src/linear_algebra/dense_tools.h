#ifndef stickslip_linear_algebra_dense_tools_h
#define stickslip_linear_algebra_dense_tools_h

#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <base/global.h>
#include <linear_algebra/replicated_vector.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <list>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * Small-system helpers: replicate a distributed matrix or vector on every
   * rank (for the dense penalty/Newton solver and exact eigenvalues of small
   * systems) and copy a replicated vector back into the owned entries.
   * Replication is exact (a sum with zeros) and gives every rank the same
   * numbers, so replicated computations are rank-independent.
   */
  FullMatrix<double>
  replicate(const DistributedMatrix &matrix, const MPI_Comm comm);

  dealii::Vector<double>
  replicate(const DistributedVector &vector, const MPI_Comm comm);

  /** As above, into @p all (resized; no allocation when its size fits). */
  void
  replicate(const DistributedVector &vector,
            const MPI_Comm           comm,
            dealii::Vector<double>  &all);

  void
  copy_owned(const dealii::Vector<double> &replicated,
             DistributedVector            &vector);

  /**
   * The Cholesky factorization L L^T of a small SPD matrix on plain arrays,
   * for systems solved many times per time step (a few to a few hundred
   * unknowns): no library call, no allocation per solve, and the same
   * operations in the same order on every rank.
   *
   * Only the band of the matrix is stored and worked on: with b the largest
   * |i - j| of a non-zero entry, L has no entry farther than b below the
   * diagonal (no fill), so the factorization costs O(n b^2) and a solve
   * O(n b) instead of O(n^3) and O(n^2) (a chain's tridiagonal matrix: b =
   * 1). The skipped products are exact zeros, so the result is the dense
   * factorization's bit for bit (but for the sign of a zero).
   */
  class DenseCholesky
  {
  public:
    /** Factorize @p matrix (symmetric positive definite; throws if not). */
    void
    factorize(const FullMatrix<double> &matrix);

    /**
     * Factorize the symmetric positive definite @p n x @p n matrix whose
     * entry (i, j) is @p entry(i, j) for j <= i, i - j <= @p band, and zero
     * farther from the diagonal.
     */
    template <typename Entry>
    void
    factorize_band(const unsigned int n,
                   const unsigned int band,
                   const Entry       &entry);

    /** x = matrix^{-1} x, for the size() entries at @p x. */
    void
    solve(double *x) const;

    /** The number of unknowns (0 before factorize()). */
    unsigned int
    size() const;

    /** The half-bandwidth b of the factorized matrix. */
    unsigned int
    bandwidth() const;

  private:
    /** Factor entry L(i, j), i - band <= j <= i. */
    double &
    at(const unsigned int i, const unsigned int j)
    {
      return factor[i * (band + 1) + band + j - i];
    }

    double
    at(const unsigned int i, const unsigned int j) const
    {
      return factor[i * (band + 1) + band + j - i];
    }

    /** Throws the error of a matrix that is not positive definite. */
    [[noreturn]] static void
    not_positive_definite();

    unsigned int        n    = 0;
    unsigned int        band = 0;
    std::vector<double> factor; ///< the band of L, row by row
  };



  /**
   * The half-bandwidth of a square matrix: the largest |i - j| of a
   * non-zero entry (0 for a diagonal matrix).
   */
  unsigned int
  bandwidth(const FullMatrix<double> &matrix);



  /**
   * A small matrix replicated on every rank, stored by rows of its non-zero
   * entries (columns ascending) for products on plain arrays: y_i = sum_j
   * a_ij x_j in the column order, from zero, as PETSc's AIJ product sums a
   * row.
   */
  class ReplicatedSparseMatrix
  {
  public:
    ReplicatedSparseMatrix() = default;

    /** The non-zero entries of @p matrix. */
    explicit ReplicatedSparseMatrix(const FullMatrix<double> &matrix);

    /** y = A x, @p x and @p y of size() entries (not the same array). */
    void
    vmult(double *y, const double *x) const
    {
      for (unsigned int i = 0; i + 1 < row_start.size(); ++i)
        {
          double sum = 0;
          for (unsigned int k = row_start[i]; k < row_start[i + 1]; ++k)
            sum += values[k] * x[columns[k]];
          y[i] = sum;
        }
    }

    unsigned int
    size() const;

    /** Whether no entry lies off the diagonal. */
    bool
    is_diagonal() const;

  private:
    std::vector<unsigned int> row_start;
    std::vector<unsigned int> columns;
    std::vector<double>       values;
  };



  /**
   * The Cholesky factors of a small SPD matrix K, replicated on every rank,
   * restricted to the rows S of a mask: the masked solves K_SS w_S = rhs_S
   * of a semismooth Newton iteration (the unstuck rows). The sets of each
   * friction sub-step change slowly from one time step to the next, so the
   * factors of the last max_kept masks are kept, most recently used first,
   * and a factorization is done only for a mask not among them. Removing
   * rows and columns brings no entry farther from the diagonal: each factor
   * is banded with K_SS's own half-bandwidth, found within K's.
   */
  class MaskedCholeskyFactors
  {
  public:
    /** The largest number of factors kept. */
    static constexpr unsigned int max_kept = 24;

    MaskedCholeskyFactors() = default;

    /** For @p matrix (symmetric positive definite), no factor yet. */
    explicit MaskedCholeskyFactors(const FullMatrix<double> &matrix);

    /**
     * @p x = K_SS^{-1} @p rhs on the rows S where @p mask is non-zero, 0
     * elsewhere (all size() entries; @p x may be @p rhs).
     */
    void
    solve(const std::vector<unsigned char> &mask, const double *rhs, double *x);

    /** The number of rows of K (0 without a matrix). */
    unsigned int
    size() const;

  private:
    struct Factor
    {
      std::vector<unsigned char> mask;
      std::vector<unsigned int>  rows; ///< S
      DenseCholesky              cholesky;
    };

    /** The factor of @p mask, from the kept ones or new. */
    const Factor &
    factor_of(const std::vector<unsigned char> &mask);

    FullMatrix<double>  matrix;
    unsigned int        band = 0;
    std::list<Factor>   factors;
    std::vector<double> restricted;
  };



  /**
   * Solves with a small SPD matrix K replicated on every rank, on
   * ReplicatedVectors: by its Cholesky factor (banded when K is), or by
   * products with the inverse of a diagonal K; and products with K by its
   * non-zero entries. The replicated counterpart of SpdSolver for the step
   * kernels of tiny systems.
   */
  class ReplicatedSpdSolver
  {
  public:
    /** Factorize @p matrix (or invert its diagonal). */
    void
    initialize(const FullMatrix<double> &matrix);

    /** @p x = K^{-1} @p b. */
    void
    solve(ReplicatedVector &x, const ReplicatedVector &b) const;

    /** @p y = K @p x. */
    void
    vmult(ReplicatedVector &y, const ReplicatedVector &x) const;

    /** "diagonal" or "dense Cholesky" (for the log). */
    std::string
    description() const;

  private:
    ReplicatedSparseMatrix rows;
    DenseCholesky          factor;
    /** 1/k_ii of a diagonal K, else empty. */
    std::vector<double> inverse_diagonal;
  };



  template <typename Entry>
  void
  DenseCholesky::factorize_band(const unsigned int new_n,
                                const unsigned int new_band,
                                const Entry       &entry)
  {
    n    = new_n;
    band = new_n > 0 ? std::min(new_band, new_n - 1) : 0;
    factor.assign(std::size_t(n) * (band + 1), 0.);
    // Row i from the rows above it (the Cholesky-Banachiewicz order), in
    // the band: L(i, k) L(j, k) vanishes for k < i - band.
    for (unsigned int i = 0; i < n; ++i)
      {
        const unsigned int first = i > band ? i - band : 0;
        for (unsigned int j = first; j <= i; ++j)
          {
            double sum = entry(i, j);
            for (unsigned int k = first; k < j; ++k)
              sum -= at(i, k) * at(j, k);
            if (i == j)
              {
                if (!(sum > 0))
                  not_positive_definite();
                at(i, i) = std::sqrt(sum);
              }
            else
              at(i, j) = sum / at(j, j);
          }
      }
  }



  /**
   * Largest lambda with K x = lambda M x, for symmetric K and SPD M given
   * densely (LAPACK).
   */
  double
  largest_generalized_eigenvalue(const FullMatrix<double> &K,
                                 const FullMatrix<double> &M);

  /**
   * Largest lambda with K x = lambda M x for distributed operators, by the
   * power iteration on M^{-1} K (Rayleigh quotients converge from below;
   * iterates until the relative change is below 1e-10 or 2000 iterations).
   * Every function maps (source, destination).
   */
  double
  power_iteration_generalized(
    const std::function<void(const DistributedVector &, DistributedVector &)>
      &apply_K,
    const std::function<void(const DistributedVector &, DistributedVector &)>
      &apply_M,
    const std::function<void(const DistributedVector &, DistributedVector &)>
                   &solve_M,
    const IndexSet &owned,
    const MPI_Comm  comm);
} // namespace stickslip

#endif
