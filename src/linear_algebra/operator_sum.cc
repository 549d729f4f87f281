#include <base/local_values.h>
#include <linear_algebra/matrix_rows.h>
#include <linear_algebra/operator_sum.h>
#include <linear_algebra/spd_solver.h>

#include <cmath>

namespace stickslip
{
  OperatorSum::OperatorSum(const IndexSet &locally_owned, const MPI_Comm comm)
    : sum_of_diagonals(locally_owned, comm)
    , sum_of_row_bounds(locally_owned, comm)
  {}



  void
  OperatorSum::add(const double factor, const DistributedMatrix &matrix)
  {
    Assert(factor >= 0, ExcMessage("the terms' factors must be >= 0"));
    if (factor == 0)
      return;
    terms.push_back(Term{factor, &matrix, nullptr});
    const IndexSet   &owned = sum_of_diagonals.locally_owned_elements();
    const MPI_Comm    comm  = sum_of_diagonals.get_mpi_communicator();
    DistributedVector matrix_diagonal(owned, comm), row_sums(owned, comm);
    extract_diagonal(matrix, matrix_diagonal, comm);
    {
      // sum_j |b_ij| from the stored entries: exact, not only a bound.
      const auto  first = matrix.local_range().first;
      LocalValues sums(row_sums);
      for (std::size_t k = 0; k < sums.size(); ++k)
        sums[k] = 0;
      for_each_local_entry(matrix,
                           [&](const auto row, const auto, const double value) {
                             sums[row - first] += std::abs(value);
                           });
    }
    accumulate(factor, matrix_diagonal, row_sums);
  }



  void
  OperatorSum::add(const double factor, const OperatorAction &action)
  {
    Assert(factor >= 0, ExcMessage("the terms' factors must be >= 0"));
    if (factor == 0)
      return;
    terms.push_back(Term{factor, nullptr, &action});
    accumulate(factor, action.diagonal(), action.row_sum_bound());
  }



  void
  OperatorSum::accumulate(const double             factor,
                          const DistributedVector &term_diagonal,
                          const DistributedVector &term_row_sums)
  {
    if (terms.size() == 1)
      {
        sum_of_diagonals  = 0;
        sum_of_row_bounds = 0;
      }
    sum_of_diagonals.add(factor, term_diagonal);
    sum_of_row_bounds.add(factor, term_row_sums);
  }



  void
  OperatorSum::vmult(DistributedVector       &product,
                     const DistributedVector &x) const
  {
    Assert(!terms.empty(), ExcMessage("an operator sum without terms"));
    // B_0 x into the product, then B_k x through one work vector, added in
    // the order of the terms: M x + alpha dt^2 (A x), as the elastic steps
    // of the split schemes sum the same operator.
    const auto apply = [](const Term              &term,
                          DistributedVector       &out,
                          const DistributedVector &in) {
      if (term.matrix != nullptr)
        term.matrix->vmult(out, in);
      else
        term.action->vmult(out, in);
    };
    apply(terms[0], product, x);
    if (terms[0].factor != 1.)
      product *= terms[0].factor;
    if (terms.size() > 1 && term_product.size() != product.size())
      term_product.reinit(product.locally_owned_elements(),
                          product.get_mpi_communicator());
    for (std::size_t k = 1; k < terms.size(); ++k)
      {
        apply(terms[k], term_product, x);
        product.add(terms[k].factor, term_product);
      }
  }



  const DistributedVector &
  OperatorSum::diagonal() const
  {
    return sum_of_diagonals;
  }



  const DistributedVector &
  OperatorSum::row_sum_bound() const
  {
    return sum_of_row_bounds;
  }



  std::string
  OperatorSum::chosen_by() const
  {
    std::string settings;
    for (const Term &term : terms)
      if (term.action != nullptr)
        settings +=
          (settings.empty() ? "" : " and ") + term.action->chosen_by();
    return settings;
  }



  std::size_t
  OperatorSum::memory_consumption() const
  {
    // The terms belong to their owners; this holds three vectors at most.
    const std::size_t n_owned = sum_of_diagonals.locally_owned_size();
    return (2 + (term_product.size() > 0 ? 1 : 0)) * n_owned * sizeof(double);
  }
} // namespace stickslip
