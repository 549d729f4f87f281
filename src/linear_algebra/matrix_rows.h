#ifndef stickslip_linear_algebra_matrix_rows_h
#define stickslip_linear_algebra_matrix_rows_h

#include <deal.II/base/exceptions.h>

#include <base/global.h>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscmat.h>
#endif

namespace stickslip
{
  /**
   * Calls visit(row, column, value) for every stored entry of the locally
   * owned rows of @p matrix, row after row. With PETSc each row is fetched
   * once by MatGetRow: deal.II's row iterators fetch a row several times
   * and allocate, which made the diagonal and CFL scans a quarter of the
   * setup of a 10^6-unknown string.
   */
  template <typename Visitor>
  void
  for_each_local_entry(const DistributedMatrix &matrix, Visitor &&visit)
  {
    const auto range = matrix.local_range();
#ifdef STICKSLIP_USE_PETSC_LA
    const Mat petsc_matrix = static_cast<Mat>(matrix);
    for (auto row = range.first; row < range.second; ++row)
      {
        PetscInt           n_entries = 0;
        const PetscInt *   columns   = nullptr;
        const PetscScalar *values    = nullptr;
        const PetscInt     petsc_row = static_cast<PetscInt>(row);
        AssertThrow(MatGetRow(petsc_matrix, petsc_row, &n_entries, &columns,
                              &values) == 0,
                    dealii::ExcMessage("PETSc's MatGetRow failed"));
        for (PetscInt k = 0; k < n_entries; ++k)
          visit(row,
                static_cast<decltype(row)>(columns[k]),
                static_cast<double>(PetscRealPart(values[k])));
        AssertThrow(MatRestoreRow(petsc_matrix, petsc_row, &n_entries,
                                  &columns, &values) == 0,
                    dealii::ExcMessage("PETSc's MatRestoreRow failed"));
      }
#else
    for (auto row = range.first; row < range.second; ++row)
      for (auto entry = matrix.begin(row); entry != matrix.end(row); ++entry)
        visit(row,
              static_cast<decltype(row)>(entry->column()),
              static_cast<double>(entry->value()));
#endif
  }
} // namespace stickslip

#endif
