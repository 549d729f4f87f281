#include <deal.II/lac/lapack_full_matrix.h>

#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>

#include <cmath>

namespace stickslip
{
  FullMatrix<double>
  replicate(const DistributedMatrix &matrix, const MPI_Comm comm)
  {
    FullMatrix<double> local(matrix.m(), matrix.n());
    const auto         range = matrix.local_range();
    for (auto row = range.first; row < range.second; ++row)
      for (auto entry = matrix.begin(row); entry != matrix.end(row); ++entry)
        local(row, entry->column()) = entry->value();
    FullMatrix<double> all(matrix.m(), matrix.n());
    Utilities::MPI::sum(local, comm, all);
    return all;
  }



  dealii::Vector<double>
  replicate(const DistributedVector &vector, const MPI_Comm comm)
  {
    dealii::Vector<double> all(vector.size());
    replicate(vector, comm, all);
    return all;
  }



  void
  replicate(const DistributedVector &vector,
            const MPI_Comm           comm,
            dealii::Vector<double>  &all)
  {
    all.reinit(vector.size(), true);
    if (Utilities::MPI::n_mpi_processes(comm) == 1)
      {
        // One rank owns every entry in order: a copy, no message (tiny
        // systems call this several times per time step).
        ConstLocalValues values(vector);
        for (std::size_t k = 0; k < values.size(); ++k)
          all[k] = values[k];
        return;
      }
    dealii::Vector<double> local(vector.size());
    const IndexSet         owned = vector.locally_owned_elements();
    {
      ConstLocalValues values(vector);
      std::size_t      k = 0;
      for (const auto i : owned)
        local[i] = values[k++];
    }
    Utilities::MPI::sum(local, comm, all);
  }



  void
  copy_owned(const dealii::Vector<double> &replicated,
             DistributedVector            &vector)
  {
    LocalValues values(vector);
    if (values.size() == replicated.size())
      {
        for (std::size_t k = 0; k < values.size(); ++k)
          values[k] = replicated[k];
        return;
      }
    const IndexSet owned = vector.locally_owned_elements();
    std::size_t    k     = 0;
    for (const auto i : owned)
      values[k++] = replicated[i];
  }



  unsigned int
  bandwidth(const FullMatrix<double> &matrix)
  {
    unsigned int band = 0;
    for (unsigned int i = 0; i < matrix.m(); ++i)
      for (unsigned int j = 0; j < matrix.n(); ++j)
        if (matrix(i, j) != 0.)
          band = std::max(band, i > j ? i - j : j - i);
    return band;
  }



  void
  DenseCholesky::factorize(const FullMatrix<double> &matrix)
  {
    factorize_band(matrix.m(),
                   stickslip::bandwidth(matrix),
                   [&matrix](const unsigned int i, const unsigned int j) {
                     return matrix(i, j);
                   });
  }



  void
  DenseCholesky::not_positive_definite()
  {
    AssertThrow(false,
                ExcMessage("a matrix that should be positive definite is "
                           "not (dense Cholesky)"));
    std::abort();
  }



  void
  DenseCholesky::solve(double *x) const
  {
    if (band == 1)
      {
        // Tridiagonal (a chain): the loops below with their one inner
        // term written out, the same operations without the loop set-up
        // per row.
        const double *l = factor.data(); // row i: L(i, i-1), L(i, i)
        for (unsigned int i = 0; i < n; ++i)
          x[i] = (i > 0 ? x[i] - l[2 * i] * x[i - 1] : x[i]) / l[2 * i + 1];
        for (unsigned int i = n; i-- > 0;)
          x[i] =
            (i + 1 < n ? x[i] - l[2 * i + 2] * x[i + 1] : x[i]) / l[2 * i + 1];
        return;
      }
    for (unsigned int i = 0; i < n; ++i) // L y = b
      {
        double sum = x[i];
        for (unsigned int k = i > band ? i - band : 0; k < i; ++k)
          sum -= at(i, k) * x[k];
        x[i] = sum / at(i, i);
      }
    for (unsigned int i = n; i-- > 0;) // L^T x = y
      {
        double             sum  = x[i];
        const unsigned int last = std::min(n - 1, i + band);
        for (unsigned int k = i + 1; k <= last; ++k)
          sum -= at(k, i) * x[k];
        x[i] = sum / at(i, i);
      }
  }



  unsigned int
  DenseCholesky::size() const
  {
    return n;
  }



  unsigned int
  DenseCholesky::bandwidth() const
  {
    return band;
  }



  ReplicatedSparseMatrix::ReplicatedSparseMatrix(
    const FullMatrix<double> &matrix)
  {
    row_start.push_back(0);
    for (unsigned int i = 0; i < matrix.m(); ++i)
      {
        for (unsigned int j = 0; j < matrix.n(); ++j)
          if (matrix(i, j) != 0.)
            {
              columns.push_back(j);
              values.push_back(matrix(i, j));
            }
        row_start.push_back(columns.size());
      }
  }



  unsigned int
  ReplicatedSparseMatrix::size() const
  {
    return row_start.size() - 1;
  }



  bool
  ReplicatedSparseMatrix::is_diagonal() const
  {
    for (unsigned int i = 0; i + 1 < row_start.size(); ++i)
      for (unsigned int k = row_start[i]; k < row_start[i + 1]; ++k)
        if (columns[k] != i)
          return false;
    return true;
  }



  MaskedCholeskyFactors::MaskedCholeskyFactors(const FullMatrix<double> &matrix)
    : matrix(matrix)
    , band(stickslip::bandwidth(matrix))
  {}



  unsigned int
  MaskedCholeskyFactors::size() const
  {
    return matrix.m();
  }



  const MaskedCholeskyFactors::Factor &
  MaskedCholeskyFactors::factor_of(const std::vector<unsigned char> &mask)
  {
    auto cached = std::find_if(factors.begin(),
                               factors.end(),
                               [&mask](const Factor &factor) {
                                 return factor.mask == mask;
                               });
    if (cached != factors.end())
      {
        if (cached != factors.begin())
          factors.splice(factors.begin(), factors, cached);
        return factors.front();
      }
    if (factors.size() == max_kept)
      factors.pop_back(); // the least recently used
    factors.emplace_front();
    Factor &factor = factors.front();
    factor.mask    = mask;
    for (unsigned int i = 0; i < mask.size(); ++i)
      if (mask[i])
        factor.rows.push_back(i);
    const std::vector<unsigned int> &rows = factor.rows;
    const unsigned int               s    = rows.size();
    // K_SS's half-bandwidth: the largest distance of a non-zero entry
    // (what a dense factorization of it would find), within K's band.
    unsigned int restricted_band = 0;
    for (unsigned int a = 0; a < s; ++a)
      for (unsigned int c = a > band ? a - band : 0; c < a; ++c)
        if (matrix(rows[a], rows[c]) != 0.)
          {
            restricted_band = std::max(restricted_band, a - c);
            break;
          }
    factor.cholesky.factorize_band(
      s, restricted_band, [&](const unsigned int i, const unsigned int j) {
        return matrix(rows[i], rows[j]);
      });
    return factor;
  }



  void
  MaskedCholeskyFactors::solve(const std::vector<unsigned char> &mask,
                               const double                     *rhs,
                               double                           *x)
  {
    const Factor      &factor = factor_of(mask);
    const unsigned int s      = factor.rows.size();
    restricted.resize(s);
    for (unsigned int a = 0; a < s; ++a)
      restricted[a] = rhs[factor.rows[a]];
    factor.cholesky.solve(restricted.data());
    std::fill(x, x + matrix.m(), 0.);
    for (unsigned int a = 0; a < s; ++a)
      x[factor.rows[a]] = restricted[a];
  }



  void
  ReplicatedSpdSolver::initialize(const FullMatrix<double> &matrix)
  {
    rows = ReplicatedSparseMatrix(matrix);
    inverse_diagonal.clear();
    if (stickslip::bandwidth(matrix) == 0)
      for (unsigned int i = 0; i < matrix.m(); ++i)
        inverse_diagonal.push_back(1. / matrix(i, i));
    else
      factor.factorize(matrix);
  }



  void
  ReplicatedSpdSolver::solve(ReplicatedVector       &x,
                             const ReplicatedVector &b) const
  {
    x = b;
    if (inverse_diagonal.empty())
      factor.solve(x.data());
    else
      for (std::size_t k = 0; k < x.size(); ++k)
        x[k] = inverse_diagonal[k] * x[k];
  }



  std::string
  ReplicatedSpdSolver::description() const
  {
    return inverse_diagonal.empty() ? "dense Cholesky" : "diagonal";
  }



  void
  ReplicatedSpdSolver::vmult(ReplicatedVector       &y,
                             const ReplicatedVector &x) const
  {
    rows.vmult(y.data(), x.data());
  }



  double
  largest_generalized_eigenvalue(const FullMatrix<double> &K,
                                 const FullMatrix<double> &M)
  {
    // M^{-1} K is similar to the symmetric M^{-1/2} K M^{-1/2}: its
    // eigenvalues are real. The systems are small, so invert densely.
    LAPACKFullMatrix<double> inverse(M.m());
    inverse = M;
    inverse.invert();
    FullMatrix<double> inverse_full(M.m()), product(M.m());
    for (unsigned int i = 0; i < M.m(); ++i)
      for (unsigned int j = 0; j < M.m(); ++j)
        inverse_full(i, j) = inverse(i, j);
    inverse_full.mmult(product, K);
    LAPACKFullMatrix<double> eigenproblem(M.m());
    eigenproblem = product;
    eigenproblem.compute_eigenvalues();
    double largest = 0;
    for (unsigned int i = 0; i < M.m(); ++i)
      largest = std::max(largest, eigenproblem.eigenvalue(i).real());
    return largest;
  }



  double
  power_iteration_generalized(
    const std::function<void(const DistributedVector &, DistributedVector &)>
      &apply_K,
    const std::function<void(const DistributedVector &, DistributedVector &)>
      &apply_M,
    const std::function<void(const DistributedVector &, DistributedVector &)>
                   &solve_M,
    const IndexSet &owned,
    const MPI_Comm  comm)
  {
    DistributedVector x(owned, comm), Kx(owned, comm), Mx(owned, comm);
    {
      // A deterministic start with all modes present, independent of ranks.
      LocalValues values(x);
      std::size_t k = 0;
      for (const auto i : owned)
        values[k++] = 1. + 0.37 * std::sin(1.3 * i + 0.7);
    }
    double estimate = 0;
    for (unsigned int iteration = 0; iteration < 2000; ++iteration)
      {
        apply_K(x, Kx);
        apply_M(x, Mx);
        const double quotient = (x * Kx) / (x * Mx);
        if (iteration > 5 &&
            std::abs(quotient - estimate) <= 1e-10 * std::abs(quotient))
          return quotient;
        estimate = quotient;
        solve_M(Kx, x); // x = M^{-1} K x
        const double norm = x.l2_norm();
        if (norm == 0)
          return 0;
        x /= norm;
      }
    return estimate;
  }
} // namespace stickslip
