#include <deal.II/lac/dynamic_sparsity_pattern.h>

#include <linear_algebra/compressed_rows.h>

#include <limits>
#include <utility>

namespace stickslip
{
  std::size_t
  CompressedRows::n_rows() const
  {
    return row_start.size() - 1;
  }



  std::size_t
  CompressedRows::n_entries() const
  {
    return static_cast<std::size_t>(row_start.back());
  }



  std::size_t
  CompressedRows::position(const std::size_t             row,
                           const types::global_dof_index column) const
  {
    std::size_t k = row_start[row];
    while (static_cast<types::global_dof_index>(columns[k]) != column)
      ++k;
    Assert(k < static_cast<std::size_t>(row_start[row + 1]),
           ExcMessage("the entry is not in the row"));
    return k;
  }



  CompressedRows
  CompressedRows::diagonal(const IndexSet &owned)
  {
    CompressedRows    rows;
    const std::size_t n = owned.n_elements();
    rows.first_row      = n > 0 ? *owned.begin() : 0;
    rows.row_start.resize(n + 1);
    rows.columns.resize(n);
    for (std::size_t k = 0; k < n; ++k)
      {
        rows.row_start[k] = static_cast<Index>(k);
        rows.columns[k]   = static_cast<Index>(rows.first_row + k);
      }
    rows.row_start[n] = static_cast<Index>(n);
    return rows;
  }



#ifdef STICKSLIP_USE_PETSC_LA
  namespace
  {
    /** The arrays a sequential matrix is made of, freed with it. */
    struct MatrixArrays
    {
      std::shared_ptr<const CompressedRows> rows;
      std::vector<PetscScalar>              values;
    };



    PetscErrorCode
    free_matrix_arrays(void *arrays)
    {
      delete static_cast<MatrixArrays *>(arrays);
      return 0;
    }



    void
    check(const PetscErrorCode error, const char *call)
    {
      AssertThrow(error == 0,
                  ExcMessage(std::string("PETSc's ") + call + " failed"));
    }



    /**
     * One rank: a MATSEQAIJ matrix on the arrays themselves (no copy);
     * they are attached to it and freed when PETSc destroys it.
     */
    Mat
    sequential_matrix(std::shared_ptr<const CompressedRows> rows,
                      std::vector<double>                 &&values,
                      const types::global_dof_index         n_columns,
                      const MPI_Comm                        comm)
    {
      auto arrays    = std::make_unique<MatrixArrays>();
      arrays->rows   = std::move(rows);
      arrays->values = std::move(values);
      // PETSc's prototype takes non-const arrays; it never writes the
      // structure of an assembled matrix.
      auto *row_start = const_cast<PetscInt *>(arrays->rows->row_start.data());
      auto *columns   = const_cast<PetscInt *>(arrays->rows->columns.data());
      Mat   matrix    = nullptr;
      check(MatCreateSeqAIJWithArrays(comm,
                                      static_cast<PetscInt>(
                                        arrays->rows->n_rows()),
                                      static_cast<PetscInt>(n_columns),
                                      row_start,
                                      columns,
                                      arrays->values.data(),
                                      &matrix),
            "MatCreateSeqAIJWithArrays");
      PetscContainer container = nullptr;
      check(PetscContainerCreate(comm, &container), "PetscContainerCreate");
      check(PetscContainerSetPointer(container, arrays.get()),
            "PetscContainerSetPointer");
      check(PetscContainerSetUserDestroy(container, free_matrix_arrays),
            "PetscContainerSetUserDestroy");
      arrays.release(); // the container owns them now
      check(PetscObjectCompose(reinterpret_cast<PetscObject>(matrix),
                               "stickslip_csr_arrays",
                               reinterpret_cast<PetscObject>(container)),
            "PetscObjectCompose");
      check(PetscContainerDestroy(&container), "PetscContainerDestroy");
      return matrix;
    }



    /** Several ranks: a MATMPIAIJ matrix that copies the arrays. */
    Mat
    parallel_matrix(const CompressedRows      &rows,
                    const std::vector<double> &values,
                    const IndexSet            &owned,
                    const MPI_Comm             comm)
    {
      Mat matrix = nullptr;
      check(MatCreate(comm, &matrix), "MatCreate");
      check(MatSetSizes(matrix,
                        static_cast<PetscInt>(owned.n_elements()),
                        static_cast<PetscInt>(owned.n_elements()),
                        static_cast<PetscInt>(owned.size()),
                        static_cast<PetscInt>(owned.size())),
            "MatSetSizes");
      check(MatSetType(matrix, MATMPIAIJ), "MatSetType");
      check(MatMPIAIJSetPreallocationCSR(matrix,
                                         rows.row_start.data(),
                                         rows.columns.data(),
                                         values.data()),
            "MatMPIAIJSetPreallocationCSR");
      return matrix;
    }
  } // namespace
#endif



  void
  make_matrix(std::shared_ptr<const CompressedRows> rows,
              std::vector<double>                 &&values,
              const IndexSet                       &owned,
              const MPI_Comm                        comm,
              DistributedMatrix                    &matrix)
  {
    AssertThrow(rows->n_rows() == owned.n_elements() &&
                  values.size() == rows->n_entries(),
                ExcInternalError());
#ifdef STICKSLIP_USE_PETSC_LA
    // PETSc: the arrays' matrix put in the wrapper.
    AssertThrow(owned.size() <= static_cast<types::global_dof_index>(
                                  std::numeric_limits<PetscInt>::max()),
                ExcMessage("the matrix has more rows than PETSc's indices "
                           "can count"));
    // An empty matrix of the right communicator first (the wrapper keeps
    // it), then the one made from the arrays in its place.
    matrix.reinit(IndexSet(0), IndexSet(0), DynamicSparsityPattern(0, 0), comm);
    Mat made = Utilities::MPI::n_mpi_processes(comm) == 1 ?
                 sequential_matrix(std::move(rows),
                                   std::move(values),
                                   owned.size(),
                                   comm) :
                 parallel_matrix(*rows, values, owned, comm);
#  if DEAL_II_VERSION_GTE(9, 5, 0)
    // deal.II 9.5 adopts a Mat: MatrixBase::reinit(Mat) takes a reference
    // of its own and destroys the empty one, so ours is dropped. (Not
    // compiled by the tests: Debian 12 ships deal.II 9.4.)
    matrix.PETScWrappers::MatrixBase::reinit(made);
    check(MatDestroy(&made), "MatDestroy");
#  else
    // deal.II 9.4 has no such function: its public petsc_matrix() is the
    // wrapper's Mat, "to modify the underlying data"; the wrapper keeps
    // nothing else of it (its communicator is the empty matrix's).
    Mat &slot = matrix.petsc_matrix();
    check(MatDestroy(&slot), "MatDestroy");
    slot = made;
#  endif
#else
    // Trilinos: a sparsity pattern, then the values.
    DynamicSparsityPattern pattern(owned.size(), owned.size(), owned);
    std::vector<types::global_dof_index> columns;
    for (std::size_t k = 0; k < rows->n_rows(); ++k)
      {
        columns.assign(rows->columns.begin() + rows->row_start[k],
                       rows->columns.begin() + rows->row_start[k + 1]);
        pattern.add_entries(rows->first_row + k,
                            columns.begin(),
                            columns.end(),
                            true);
      }
    matrix.reinit(owned, owned, pattern, comm);
    for (std::size_t k = 0; k < rows->n_rows(); ++k)
      {
        const auto begin = rows->row_start[k];
        columns.assign(rows->columns.begin() + begin,
                       rows->columns.begin() + rows->row_start[k + 1]);
        matrix.set(rows->first_row + k,
                   columns.size(),
                   columns.data(),
                   values.data() + begin,
                   false);
      }
    matrix.compress(VectorOperation::insert);
#endif
  }
} // namespace stickslip
