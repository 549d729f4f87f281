#include <base/local_values.h>
#include <linear_algebra/masked_preconditioner.h>
#include <models/chain/static_increment_solver.h>

#include <memory>

namespace stickslip
{
  namespace
  {
    /** @p values (one per owned row) as a vector laid out like @p layout. */
    DistributedVector
    owned_vector(const std::vector<double> &values,
                 const DistributedVector   &layout)
    {
      DistributedVector vector(layout.locally_owned_elements(),
                               layout.get_mpi_communicator());
      LocalValues       entries(vector);
      for (std::size_t r = 0; r < entries.size(); ++r)
        entries[r] = values[r];
      return vector;
    }



    /** The rows that are not in the inclusion: no increment, no multiplier. */
    std::vector<unsigned char>
    fixed_rows(const std::vector<unsigned char> &is_static)
    {
      std::vector<unsigned char> fixed(is_static.size());
      for (std::size_t k = 0; k < fixed.size(); ++k)
        fixed[k] = is_static[k] ? 0 : 1;
      return fixed;
    }



    SemismoothNewtonSolver::AdditionalData
    static_increment_data(const double       linear_tolerance,
                          const unsigned int max_iterations)
    {
      SemismoothNewtonSolver::AdditionalData data;
      data.max_iterations   = max_iterations;
      data.linear_tolerance = linear_tolerance;
      // The preconditioner is exact on each rank, so a start from the
      // previous iterate would save next to nothing.
      data.zero_initial_guess = true;
      data.description        = "the active-set solver of the massless masses";
      data.advice             = "Raise the limit";
      return data;
    }
  } // namespace



  StaticIncrementSolver::StaticIncrementSolver(
    const DistributedMatrix          &stiffness,
    const std::vector<double>        &diagonal,
    const std::vector<double>        &upper,
    const DistributedVector          &thresholds,
    const std::vector<unsigned char> &is_static,
    const double                      linear_tolerance,
    const unsigned int                max_iterations)
    : stiffness_diagonal(owned_vector(diagonal, thresholds))
    , solver([matrix = &stiffness](
               DistributedVector       &y,
               const DistributedVector &x) { matrix->vmult(y, x); },
             stiffness_diagonal,
             std::make_unique<TridiagonalBlockPreconditioner>(diagonal, upper),
             fixed_rows(is_static),
             thresholds,
             static_increment_data(linear_tolerance, max_iterations))
  {}



  unsigned int
  StaticIncrementSolver::solve(const DistributedVector &b,
                               DistributedVector       &increment,
                               DistributedVector       &lambda)
  {
    // The multiplier of the previous step is the warm start.
    return solver.solve(b, increment, lambda, lambda);
  }



  unsigned long
  StaticIncrementSolver::n_linear_iterations() const
  {
    return solver.n_linear_iterations();
  }
} // namespace stickslip
