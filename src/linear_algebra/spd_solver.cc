#include <deal.II/lac/solver_cg.h>

#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/matrix_rows.h>
#include <linear_algebra/spd_solver.h>

namespace stickslip
{
  bool
  extract_diagonal(const DistributedMatrix &matrix,
                   DistributedVector &      diagonal,
                   const MPI_Comm           comm)
  {
    const auto   first          = matrix.local_range().first;
    unsigned int n_off_diagonal = 0;
    {
      LocalValues values(diagonal);
      for (std::size_t k = 0; k < values.size(); ++k)
        values[k] = 0;
      for_each_local_entry(matrix,
                           [&](const auto row, const auto column, const double value) {
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
#endif
  {}



  SpdSolver::~SpdSolver()
  {
#ifdef STICKSLIP_USE_PETSC_LA
    if (direct_solver != nullptr)
      KSPDestroy(&direct_solver);
#endif
  }



  void
  SpdSolver::initialize(const DistributedMatrix &new_matrix)
  {
    matrix = &new_matrix;
    const IndexSet owned = matrix->locally_owned_range_indices();
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

    const bool small = matrix->m() <= parameters.direct_size_limit;
    method = (parameters.type == Parameters::LinearSolverType::direct ||
              (parameters.type == Parameters::LinearSolverType::automatic &&
               small)) ?
               Method::direct :
               Method::cg;

    if (method == Method::direct)
      {
#ifdef STICKSLIP_USE_PETSC_LA
        if (direct_solver != nullptr)
          KSPDestroy(&direct_solver);
        const Mat petsc_matrix = static_cast<Mat>(*matrix);
        MatSetOption(petsc_matrix, MAT_SYMMETRIC, PETSC_TRUE);
        KSPCreate(comm, &direct_solver);
        KSPSetOperators(direct_solver, petsc_matrix, petsc_matrix);
        KSPSetType(direct_solver, KSPPREONLY);
        PC preconditioner;
        KSPGetPC(direct_solver, &preconditioner);
        PCSetType(preconditioner, PCCHOLESKY);
        PCFactorSetMatSolverType(preconditioner, MATSOLVERMUMPS);
        const PetscErrorCode error = KSPSetUp(direct_solver);
        AssertThrow(error == 0,
                    ExcMessage("the sparse Cholesky factorization (MUMPS) "
                               "failed: is the matrix positive definite?"));
#else
        direct_solver = std::make_unique<TrilinosWrappers::SolverDirect>(
          direct_control,
          TrilinosWrappers::SolverDirect::AdditionalData(false, "Amesos_Klu"));
        direct_solver->initialize(*matrix);
#endif
      }
    else
      {
        amg = std::make_unique<LA::MPI::PreconditionAMG>();
        LA::MPI::PreconditionAMG::AdditionalData data;
#ifdef STICKSLIP_USE_PETSC_LA
        data.symmetric_operator = true;
#else
        data.elliptic = true;
#endif
        amg->initialize(*matrix, data);
      }
  }



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
            const PetscErrorCode error =
              KSPSolve(direct_solver,
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
          return "direct (PETSc/MUMPS Cholesky)";
#else
          return "direct (Trilinos/Amesos KLU)";
#endif
        case Method::cg:
          return "cg + algebraic multigrid";
      }
    return "";
  }
} // namespace stickslip
