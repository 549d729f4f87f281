#ifndef stickslip_linear_algebra_spd_solver_h
#define stickslip_linear_algebra_spd_solver_h

#include <deal.II/lac/solver_control.h>

#include <base/global.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/linear_solver_parameters.h>

#include <functional>
#include <memory>

#ifdef STICKSLIP_USE_PETSC_LA
#  include <petscksp.h>
#else
#  include <deal.II/lac/trilinos_solver.h>
#endif

namespace stickslip
{
  /**
   * Solves with one fixed symmetric positive definite matrix (M, or M +
   * alpha tau^2 A) many times. A diagonal matrix is inverted entrywise (no
   * communication); a tiny system (at most dense_size_limit unknowns, where
   * the setup and messages of a distributed sparse solver cost more than
   * the arithmetic) is factorized densely on every rank, which also makes
   * its solves bitwise identical for any number of ranks; otherwise a
   * sparse Cholesky factorization is computed
   * once (PETSc's own on one rank, MUMPS on several, or Trilinos/Amesos)
   * or conjugate gradients with algebraic multigrid are used, as
   * Parameters::LinearSolver says.
   */
  class SpdSolver
  {
  public:
    SpdSolver(const Parameters::LinearSolver &parameters, const MPI_Comm comm);
    ~SpdSolver();

    SpdSolver(const SpdSolver &) = delete;
    SpdSolver &
    operator=(const SpdSolver &) = delete;

    /** Set up (and factorize) for @p matrix, which must outlive the solver. */
    void
    initialize(const DistributedMatrix &matrix);

    /**
     * Set up for an operator known only by its action y = K x
     * (@p product) and its @p diagonal: conjugate gradients with the
     * Jacobi preconditioner, to Linear solver/Tolerance (a matrix-free K
     * has no entries for a factorization or algebraic multigrid).
     */
    void
    initialize(std::function<void(DistributedVector &,
                                  const DistributedVector &)> product,
               const DistributedVector                       &diagonal);

    /** x = matrix^{-1} b. */
    void
    solve(DistributedVector &x, const DistributedVector &b) const;

    /** Whether the matrix is diagonal (solves are entrywise divisions). */
    bool
    is_diagonal() const;

    /** Short description for the log: "diagonal", "direct (MUMPS)", "cg+amg".
     */
    std::string
    description() const;

    /**
     * Systems up to this size are solved by the replicated dense Cholesky,
     * far cheaper than a MUMPS solve there (BENCHMARKS.md, "Measurements
     * behind design choices in the code").
     */
    static constexpr unsigned int dense_size_limit = 128;

  private:
    enum class Method
    {
      diagonal,
      dense,
      direct,
      cg,
      cg_jacobi ///< matrix-free: product and inverse_diagonal
    };

    const Parameters::LinearSolver parameters;
    const MPI_Comm                 comm;
    const DistributedMatrix       *matrix;
    Method                         method;
    DistributedVector              inverse_diagonal;
    /** The action of a matrix-free operator (Method::cg_jacobi). */
    std::function<void(DistributedVector &, const DistributedVector &)> product;
    /** Replicated Cholesky factor for tiny systems (Method::dense). */
    DenseCholesky dense_factor;
    /** The replicated right-hand side and solution of a dense solve. */
    mutable dealii::Vector<double> dense_values;

#ifdef STICKSLIP_USE_PETSC_LA
    /** Set up the direct solver of Method::direct (PETSc). */
    void
    factorize_with_petsc();

    KSP direct_solver;
    /**
     * One rank: the factorization is of the sequential matrix, and these
     * sequential vectors wrap the arrays of b and x in solve().
     */
    Vec sequential_rhs, sequential_solution;
#else
    mutable SolverControl                           direct_control;
    std::unique_ptr<TrilinosWrappers::SolverDirect> direct_solver;
#endif
    std::unique_ptr<LA::MPI::PreconditionAMG> amg;
  };



  /**
   * True if @p matrix has no nonzero entry off its diagonal (collective).
   * Fills @p diagonal with its diagonal (owned entries).
   */
  bool
  extract_diagonal(const DistributedMatrix &matrix,
                   DistributedVector       &diagonal,
                   const MPI_Comm           comm);

  /**
   * Algebraic multigrid set up on the symmetric positive definite
   * @p matrix: BoomerAMG (PETSc, symmetric_operator) or ML (Trilinos,
   * elliptic), deal.II's defaults otherwise (collective).
   */
  std::unique_ptr<LA::MPI::PreconditionAMG>
  make_spd_amg(const DistributedMatrix &matrix);
} // namespace stickslip

#endif
