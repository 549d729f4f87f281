#ifndef stickslip_linear_algebra_compressed_rows_h
#define stickslip_linear_algebra_compressed_rows_h

#include <base/global.h>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscmat.h>
#endif

#include <cstddef>
#include <memory>
#include <vector>

namespace stickslip
{
  /**
   * The owned rows of a sparse matrix in compressed-row (CSR) form: owned
   * row k (global index first_row + k) holds the global columns
   * columns[row_start[k]], ..., columns[row_start[k + 1] - 1], in
   * increasing order; the values of a matrix with these rows are an array
   * in the same order. A model that knows its sparsity (the 1D string:
   * StringAssembler) fills them directly, without deal.II's
   * DynamicSparsityPattern (a std::vector per row, then a copy into PETSc's
   * arrays: most of the set-up of a 10^7-unknown string), and several
   * matrices of one pattern share one structure.
   */
  struct CompressedRows
  {
    /** The index type of the backend's CSR arrays (PETSc's PetscInt). */
#ifdef STICKSLIP_USE_PETSC_LA
    using Index = PetscInt;
#else
    using Index = types::global_dof_index;
#endif

    types::global_dof_index first_row = 0;
    std::vector<Index>      row_start{0};
    std::vector<Index>      columns;

    /** Number of owned rows. */
    std::size_t
    n_rows() const;

    /** Number of stored entries of the owned rows. */
    std::size_t
    n_entries() const;

    /**
     * The index in `columns` (and in a value array) of the entry
     * (@p row, @p column): @p row local (0 = first_row), @p column global
     * and stored in that row (checked in debug mode). A linear search:
     * the rows this is meant for hold a few entries.
     */
    std::size_t
    position(const std::size_t row, const types::global_dof_index column) const;

    /** The diagonal pattern of the owned rows @p owned (one entry per row). */
    static CompressedRows
    diagonal(const IndexSet &owned);
  };



  /**
   * Make @p matrix the square matrix of the owned rows @p rows with @p values
   * (one per entry of @p rows), rows and columns distributed as @p owned
   * (collective). With PETSc on one rank the matrix keeps @p rows and
   * @p values as its own arrays (a sequential AIJ matrix made from them, no
   * copy; several matrices may share @p rows), on several ranks PETSc
   * copies them into a parallel AIJ matrix; with Trilinos the rows are
   * inserted one by one. Entries are stored even where their value is zero,
   * as deal.II's matrices from a sparsity pattern do.
   */
  void
  make_matrix(std::shared_ptr<const CompressedRows> rows,
              std::vector<double>                 &&values,
              const IndexSet                       &owned,
              const MPI_Comm                        comm,
              DistributedMatrix                    &matrix);
} // namespace stickslip

#endif
