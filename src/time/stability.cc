#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/matrix_rows.h>
#include <linear_algebra/spd_solver.h>
#include <time/stability.h>

#include <cmath>
#include <vector>

namespace stickslip
{
  namespace
  {
    /**
     * sum_j |A_ij| for the owned rows: from the matrix's entries, or the
     * matrix-free operator's own bound (from its element matrices).
     */
    std::vector<double>
    stiffness_row_sums(const FrictionSystem &system)
    {
      if (!system.stiffness_is_assembled())
        {
          ConstLocalValues    bound(system.stiffness_action->row_sum_bound());
          std::vector<double> row_sum(bound.size());
          for (std::size_t k = 0; k < row_sum.size(); ++k)
            row_sum[k] = bound[k];
          return row_sum;
        }
      const auto          first = system.stiffness.local_range().first;
      std::vector<double> row_sum(system.locally_owned.n_elements(), 0.);
      for_each_local_entry(system.stiffness,
                           [&](const auto row, const auto, const double value) {
                             row_sum[row - first] += std::abs(value);
                           });
      return row_sum;
    }
  } // namespace



  double
  largest_frequency_squared(const FrictionSystem           &system,
                            const Parameters::LinearSolver &linear_solver)
  {
    if (!system.has_stiffness)
      return 0;
    if (system.size() <= 1000)
      return largest_generalized_eigenvalue(system.replicated_stiffness(),
                                            system.replicated_mass());
    if (system.mass_is_diagonal())
      {
        // Gershgorin: nu_d <= max_i sum_j |A_ij| / m_i. Rigorous, no
        // iteration, and sharp for the lumped wave operator (4c^2/h^2 for
        // P1 against the exact 4c^2/h^2 sin^2(pi/2 (1 - h))).
        const std::vector<double> row_sum = stiffness_row_sums(system);
        ConstLocalValues          m(system.mass_diagonal());
        double                    bound = 0;
        for (std::size_t k = 0; k < row_sum.size(); ++k)
          bound = std::max(bound, row_sum[k] / m[k]);
        return Utilities::MPI::max(bound, system.comm);
      }
    // The model's own bound (an element-by-element one): a power iteration
    // on 10^6 unknowns took hundreds of solves with M.
    if (system.frequency_bound > 0)
      return system.frequency_bound;
    SpdSolver mass_solver(linear_solver, system.comm);
    system.initialize_mass_solver(mass_solver);
    return 1.01 * power_iteration_generalized(
                    [&](const DistributedVector &x, DistributedVector &y) {
                      system.apply_stiffness(y, x);
                    },
                    [&](const DistributedVector &x, DistributedVector &y) {
                      system.apply_mass(y, x);
                    },
                    [&](const DistributedVector &x, DistributedVector &y) {
                      mass_solver.solve(y, x);
                    },
                    system.locally_owned,
                    system.comm);
  }
} // namespace stickslip
