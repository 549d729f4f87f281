#ifndef stickslip_base_global_h
#define stickslip_base_global_h

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/index_set.h>
#include <deal.II/base/mpi.h>

#include <deal.II/lac/generic_linear_algebra.h>

/**
 * Everything of stickslip lives in this namespace; deal.II's names are
 * visible inside it only (never at global scope in a header).
 */
namespace stickslip
{
  using namespace dealii;

  /**
   * The linear-algebra backend, chosen once at compile time in the manner of
   * deal.II's step-40: PETSc by default, Trilinos with
   * -DSTICKSLIP_USE_TRILINOS=ON. Everything else writes LA::MPI::Vector and
   * LA::MPI::SparseMatrix.
   */
  namespace LA
  {
#ifdef STICKSLIP_USE_TRILINOS
    using namespace dealii::LinearAlgebraTrilinos;
#else
    using namespace dealii::LinearAlgebraPETSc;
#  define STICKSLIP_USE_PETSC_LA
#endif
  } // namespace LA

  /** The distributed vector type of every state, right-hand side and
   * multiplier. */
  using DistributedVector = LA::MPI::Vector;

  /** The distributed sparse matrix type of M, A and the elastic operator. */
  using DistributedMatrix = LA::MPI::SparseMatrix;
} // namespace stickslip

#endif
