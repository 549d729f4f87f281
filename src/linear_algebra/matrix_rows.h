#ifndef stickslip_linear_algebra_matrix_rows_h
#define stickslip_linear_algebra_matrix_rows_h

#include <deal.II/base/exceptions.h>

#include <base/global.h>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscmat.h>

#  include <cstring>
#endif

namespace stickslip
{
#ifdef STICKSLIP_USE_PETSC_LA
  namespace internal
  {
    /**
     * The CSR arrays of a sequential AIJ matrix, read in place (PETSc's
     * MatGetRowIJ and MatSeqAIJGetArrayRead: no copy), released on
     * destruction.
     */
    class SequentialRows
    {
    public:
      explicit SequentialRows(const Mat matrix)
        : matrix(matrix)
      {
        PetscBool done = PETSC_FALSE;
        AssertThrow(MatGetRowIJ(matrix,
                                0,
                                PETSC_FALSE,
                                PETSC_FALSE,
                                &n_rows,
                                &row_start,
                                &columns,
                                &done) == 0 &&
                      done == PETSC_TRUE &&
                      MatSeqAIJGetArrayRead(matrix, &values) == 0,
                    dealii::ExcMessage("PETSc's MatGetRowIJ failed"));
      }

      ~SequentialRows()
      {
        PetscBool done = PETSC_FALSE;
        MatSeqAIJRestoreArrayRead(matrix, &values);
        MatRestoreRowIJ(matrix,
                        0,
                        PETSC_FALSE,
                        PETSC_FALSE,
                        &n_rows,
                        &row_start,
                        &columns,
                        &done);
      }

      SequentialRows(const SequentialRows &) = delete;
      SequentialRows &
      operator=(const SequentialRows &) = delete;

      const Mat          matrix;
      PetscInt           n_rows    = 0;
      const PetscInt    *row_start = nullptr;
      const PetscInt    *columns   = nullptr;
      const PetscScalar *values    = nullptr;
    };
  } // namespace internal
#endif



  /**
   * Calls visit(row, column, value) for every stored entry of the locally
   * owned rows of @p matrix, row after row, each row's columns in
   * increasing order. With PETSc's AIJ matrices the CSR arrays are read in
   * place (a parallel matrix's diagonal and off-diagonal blocks merged by
   * column): MatGetRow, called once per row, was most of the diagonal and
   * CFL scans of the set-up of a 10^7-unknown string, and deal.II's row
   * iterators fetch a row several times and allocate.
   */
  template <typename Visitor>
  void
  for_each_local_entry(const DistributedMatrix &matrix, Visitor &&visit)
  {
    const auto range = matrix.local_range();
    using Row        = decltype(range.first);
#ifdef STICKSLIP_USE_PETSC_LA
    const Mat petsc_matrix = static_cast<Mat>(matrix);
    MatType   type;
    AssertThrow(MatGetType(petsc_matrix, &type) == 0,
                dealii::ExcMessage("PETSc's MatGetType failed"));
    if (std::strcmp(type, MATSEQAIJ) == 0)
      {
        const internal::SequentialRows rows(petsc_matrix);
        for (PetscInt k = 0; k < rows.n_rows; ++k)
          for (PetscInt e = rows.row_start[k]; e < rows.row_start[k + 1]; ++e)
            visit(range.first + k,
                  range.first + static_cast<Row>(rows.columns[e]),
                  static_cast<double>(PetscRealPart(rows.values[e])));
        return;
      }
    if (std::strcmp(type, MATMPIAIJ) == 0)
      {
        // Columns of the off-diagonal block B are indices into `global`
        // (increasing), all outside the owned range: a row is B's columns
        // below the owned range, the diagonal block's, then B's above it.
        Mat             diagonal_block, off_diagonal_block;
        const PetscInt *global = nullptr;
        AssertThrow(MatMPIAIJGetSeqAIJ(petsc_matrix,
                                       &diagonal_block,
                                       &off_diagonal_block,
                                       &global) == 0,
                    dealii::ExcMessage("PETSc's MatMPIAIJGetSeqAIJ failed"));
        const internal::SequentialRows own(diagonal_block);
        const internal::SequentialRows other(off_diagonal_block);
        for (PetscInt k = 0; k < own.n_rows; ++k)
          {
            const Row      row       = range.first + k;
            PetscInt       e         = other.row_start[k];
            const PetscInt other_end = other.row_start[k + 1];
            for (; e < other_end &&
                   static_cast<Row>(global[other.columns[e]]) < range.first;
                 ++e)
              visit(row,
                    static_cast<Row>(global[other.columns[e]]),
                    static_cast<double>(PetscRealPart(other.values[e])));
            for (PetscInt d = own.row_start[k]; d < own.row_start[k + 1]; ++d)
              visit(row,
                    range.first + static_cast<Row>(own.columns[d]),
                    static_cast<double>(PetscRealPart(own.values[d])));
            for (; e < other_end; ++e)
              visit(row,
                    static_cast<Row>(global[other.columns[e]]),
                    static_cast<double>(PetscRealPart(other.values[e])));
          }
        return;
      }
    // Another type: one MatGetRow per row.
    for (auto row = range.first; row < range.second; ++row)
      {
        PetscInt           n_entries = 0;
        const PetscInt    *columns   = nullptr;
        const PetscScalar *values    = nullptr;
        const PetscInt     petsc_row = static_cast<PetscInt>(row);
        AssertThrow(
          MatGetRow(petsc_matrix, petsc_row, &n_entries, &columns, &values) ==
            0,
          dealii::ExcMessage("PETSc's MatGetRow failed"));
        for (PetscInt k = 0; k < n_entries; ++k)
          visit(row,
                static_cast<Row>(columns[k]),
                static_cast<double>(PetscRealPart(values[k])));
        AssertThrow(MatRestoreRow(
                      petsc_matrix, petsc_row, &n_entries, &columns, &values) ==
                      0,
                    dealii::ExcMessage("PETSc's MatRestoreRow failed"));
      }
#else
    for (auto row = range.first; row < range.second; ++row)
      for (auto entry = matrix.begin(row); entry != matrix.end(row); ++entry)
        visit(row,
              static_cast<Row>(entry->column()),
              static_cast<double>(entry->value()));
#endif
  }
} // namespace stickslip

#endif
