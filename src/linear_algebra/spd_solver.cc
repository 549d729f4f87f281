#include <deal.II/lac/solver_cg.h>

#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/matrix_rows.h>
#include <linear_algebra/spd_solver.h>

#include <string>

namespace stickslip
{
  bool
  extract_diagonal(const DistributedMatrix &matrix,
                   DistributedVector       &diagonal,
                   const MPI_Comm           comm)
  {
    const auto   first          = matrix.local_range().first;
    unsigned int n_off_diagonal = 0;
    {
      LocalValues values(diagonal);
      for (std::size_t k = 0; k < values.size(); ++k)
        values[k] = 0;
      for_each_local_entry(
        matrix, [&](const auto row, const auto column, const double value) {
          if (column == row)
            values[row - first] = value;
          else if (value != 0.)
            ++n_off_diagonal;
        });
    }
    return Utilities::MPI::sum(n_off_diagonal, comm) == 0;
  }



  SpdSolver::SpdSolver(const Parameters::LinearSolver &parameters,
                       const MPI_Comm                  comm)
    : parameters(parameters)
    , comm(comm)
    , matrix(nullptr)
    , method(Method::cg)
#ifdef STICKSLIP_USE_PETSC_LA
    , direct_solver(nullptr)
    , sequential_rhs(nullptr)
    , sequential_solution(nullptr)
#endif
  {}



  SpdSolver::~SpdSolver()
  {
#ifdef STICKSLIP_USE_PETSC_LA
    if (direct_solver != nullptr)
      KSPDestroy(&direct_solver);
    if (sequential_rhs != nullptr)
      VecDestroy(&sequential_rhs);
    if (sequential_solution != nullptr)
      VecDestroy(&sequential_solution);
#endif
  }



#ifdef STICKSLIP_USE_PETSC_LA
  void
  SpdSolver::factorize_with_petsc()
  {
    if (direct_solver != nullptr)
      KSPDestroy(&direct_solver);
    Mat petsc_matrix = static_cast<Mat>(*matrix);
    MatSetOption(petsc_matrix, MAT_SYMMETRIC, PETSC_TRUE);
    // One rank: PETSc's own sparse Cholesky of the sequential matrix, in a
    // nested-dissection ordering. Its solves are two sparse triangular
    // sweeps; MUMPS spends milliseconds of set-up in every solve even at
    // 10^3 unknowns (bench/sections/35_implicit_step.sh). Several ranks:
    // MUMPS, the parallel factorization PETSc has.
    const bool serial      = Utilities::MPI::n_mpi_processes(comm) == 1;
    MPI_Comm   solver_comm = comm;
    if (serial)
      {
        MatType type;
        MatGetType(petsc_matrix, &type);
        // deal.II makes an MPIAIJ matrix even on one rank: its diagonal
        // block is then the whole matrix.
        if (std::string(type) == MATMPIAIJ)
          MatMPIAIJGetSeqAIJ(petsc_matrix, &petsc_matrix, nullptr, nullptr);
        solver_comm = PETSC_COMM_SELF;
        PetscInt n_rows, n_columns;
        MatGetSize(petsc_matrix, &n_rows, &n_columns);
        for (Vec *v : {&sequential_rhs, &sequential_solution})
          {
            if (*v != nullptr)
              VecDestroy(v);
            VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n_rows, nullptr, v);
          }
      }
    KSPCreate(solver_comm, &direct_solver);
    KSPSetOperators(direct_solver, petsc_matrix, petsc_matrix);
    KSPSetType(direct_solver, KSPPREONLY);
    PC preconditioner;
    KSPGetPC(direct_solver, &preconditioner);
    PCSetType(preconditioner, PCCHOLESKY);
    if (serial)
      {
        PCFactorSetMatSolverType(preconditioner, MATSOLVERPETSC);
        PCFactorSetMatOrderingType(preconditioner, MATORDERINGND);
      }
    else
      PCFactorSetMatSolverType(preconditioner, MATSOLVERMUMPS);
    const PetscErrorCode error = KSPSetUp(direct_solver);
    AssertThrow(error == 0,
                ExcMessage("the sparse Cholesky factorization failed: is "
                           "the matrix positive definite?"));
  }
#endif



  void
  SpdSolver::initialize(const DistributedMatrix &new_matrix)
  {
    matrix                  = &new_matrix;
    const IndexSet    owned = matrix->locally_owned_range_indices();
    DistributedVector diagonal(owned, comm);
    if (extract_diagonal(*matrix, diagonal, comm))
      {
        method = Method::diagonal;
        inverse_diagonal.reinit(owned, comm);
        ConstLocalValues d(diagonal);
        LocalValues      inverse(inverse_diagonal);
        for (std::size_t k = 0; k < d.size(); ++k)
          {
            AssertThrow(d[k] > 0,
                        ExcMessage("a diagonal matrix that should be "
                                   "positive definite has a non-positive "
                                   "diagonal entry"));
            inverse[k] = 1. / d[k];
          }
        return;
      }

    if (matrix->m() <= dense_size_limit &&
        parameters.type != Parameters::LinearSolverType::cg)
      {
        method = Method::dense;
        dense_factor.factorize(replicate(*matrix, comm));
        return;
      }

    // auto: direct on one rank up to the size limit, where PETSc's own
    // Cholesky solves the string's K faster than CG with AMG; on several
    // ranks CG, because MUMPS's per-solve cost exceeds CG's (BENCHMARKS.md,
    // "Measurements behind design choices in the code").
    const bool small  = matrix->m() <= parameters.direct_size_limit;
    const bool serial = Utilities::MPI::n_mpi_processes(comm) == 1;
    method = (parameters.type == Parameters::LinearSolverType::direct ||
              (parameters.type == Parameters::LinearSolverType::automatic &&
               small && serial)) ?
               Method::direct :
               Method::cg;

    if (method == Method::direct)
      {
#ifdef STICKSLIP_USE_PETSC_LA
        factorize_with_petsc();
#else
        direct_solver = std::make_unique<TrilinosWrappers::SolverDirect>(
          direct_control,
          TrilinosWrappers::SolverDirect::AdditionalData(false, "Amesos_Klu"));
        direct_solver->initialize(*matrix);
#endif
      }
    else
      {
        amg = make_spd_amg(*matrix);
      }
  }



  void
  SpdSolver::initialize(
    std::function<void(DistributedVector &, const DistributedVector &)> action,
    const DistributedVector &diagonal)
  {
    method  = Method::cg_jacobi;
    matrix  = nullptr;
    product = std::move(action);
    inverse_diagonal.reinit(diagonal.locally_owned_elements(), comm);
    ConstLocalValues d(diagonal);
    LocalValues      inverse(inverse_diagonal);
    for (std::size_t k = 0; k < d.size(); ++k)
      {
        AssertThrow(d[k] > 0,
                    ExcMessage("an operator that should be positive definite "
                               "has a non-positive diagonal entry"));
        inverse[k] = 1. / d[k];
      }
  }



  namespace
  {
    /** y = K x by a function, for deal.II's SolverCG. */
    struct ActionOperator
    {
      const std::function<void(DistributedVector &, const DistributedVector &)>
        &product;

      void
      vmult(DistributedVector &y, const DistributedVector &x) const
      {
        product(y, x);
      }
    };

    /** y = D^{-1} x, the Jacobi preconditioner. */
    struct JacobiPreconditioner
    {
      const DistributedVector &inverse_diagonal;

      void
      vmult(DistributedVector &y, const DistributedVector &x) const
      {
        ConstLocalValues in(x);
        ConstLocalValues inverse(inverse_diagonal);
        LocalValues      out(y);
        for (std::size_t k = 0; k < out.size(); ++k)
          out[k] = inverse[k] * in[k];
      }
    };
  } // namespace



  void
  SpdSolver::solve(DistributedVector &x, const DistributedVector &b) const
  {
    switch (method)
      {
        case Method::diagonal:
          {
            ConstLocalValues rhs(b);
            ConstLocalValues inverse(inverse_diagonal);
            LocalValues      solution(x);
            for (std::size_t k = 0; k < rhs.size(); ++k)
              solution[k] = inverse[k] * rhs[k];
            return;
          }
        case Method::dense:
          {
            replicate(b, comm, dense_values);
            dense_factor.solve(dense_values.data());
            copy_owned(dense_values, x);
            return;
          }
        case Method::direct:
          {
#ifdef STICKSLIP_USE_PETSC_LA
            PetscErrorCode error;
            if (sequential_rhs != nullptr)
              {
                // One rank: the sequential solver works in b's and x's
                // own arrays.
                const PetscScalar *b_values;
                PetscScalar       *x_values;
                VecGetArrayRead(static_cast<const Vec &>(b), &b_values);
                VecGetArray(static_cast<const Vec &>(x), &x_values);
                VecPlaceArray(sequential_rhs, b_values);
                VecPlaceArray(sequential_solution, x_values);
                error =
                  KSPSolve(direct_solver, sequential_rhs, sequential_solution);
                VecResetArray(sequential_rhs);
                VecResetArray(sequential_solution);
                VecRestoreArray(static_cast<const Vec &>(x), &x_values);
                VecRestoreArrayRead(static_cast<const Vec &>(b), &b_values);
              }
            else
              error = KSPSolve(direct_solver,
                               static_cast<const Vec &>(b),
                               static_cast<const Vec &>(x));
            AssertThrow(error == 0,
                        ExcMessage("the sparse direct solve failed"));
#else
            direct_solver->solve(x, b);
#endif
            return;
          }
        case Method::cg:
          {
            const double  norm = b.l2_norm();
            SolverControl control(std::max<unsigned int>(1000, matrix->m()),
                                  parameters.tolerance * norm);
            SolverCG<DistributedVector> cg(control);
            if (norm == 0)
              {
                x = 0;
                return;
              }
            cg.solve(*matrix, x, b, *amg);
            return;
          }
        case Method::cg_jacobi:
          {
            const double  norm = b.l2_norm();
            SolverControl control(std::max<types::global_dof_index>(1000,
                                                                    b.size()),
                                  parameters.tolerance * norm);
            SolverCG<DistributedVector> cg(control);
            if (norm == 0)
              {
                x = 0;
                return;
              }
            cg.solve(ActionOperator{product},
                     x,
                     b,
                     JacobiPreconditioner{inverse_diagonal});
            return;
          }
      }
  }



  bool
  SpdSolver::is_diagonal() const
  {
    return method == Method::diagonal;
  }



  std::string
  SpdSolver::description() const
  {
    switch (method)
      {
        case Method::diagonal:
          return "diagonal";
        case Method::dense:
          return "dense Cholesky (tiny system, replicated on every rank)";
        case Method::direct:
#ifdef STICKSLIP_USE_PETSC_LA
          return Utilities::MPI::n_mpi_processes(comm) == 1 ?
                   "direct (PETSc sparse Cholesky, factorized once)" :
                   "direct (PETSc/MUMPS Cholesky, factorized once)";
#else
          return "direct (Trilinos/Amesos KLU)";
#endif
        case Method::cg:
          return "cg + algebraic multigrid";
        case Method::cg_jacobi:
          return "cg + Jacobi (matrix-free operator)";
      }
    return "";
  }



  std::unique_ptr<LA::MPI::PreconditionAMG>
  make_spd_amg(const DistributedMatrix &matrix)
  {
    auto amg = std::make_unique<LA::MPI::PreconditionAMG>();
    LA::MPI::PreconditionAMG::AdditionalData data;
#ifdef STICKSLIP_USE_PETSC_LA
    data.symmetric_operator = true;
#else
    data.elliptic = true;
#endif
    amg->initialize(matrix, data);
    return amg;
  }
} // namespace stickslip
