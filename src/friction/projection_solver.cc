#include <base/local_values.h>
#include <friction/projection_solver.h>
#include <linear_algebra/dense_tools.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /**
     * min_i (m_ii - sum_{j != i} |m_ij|), a lower bound of lambda_min(M),
     * from M's entries or, for a matrix-free M, from its diagonal and its
     * row-sum bound (2 m_ii - bound <= the same difference).
     */
    double
    mass_lower_bound(const FrictionSystem &system)
    {
      double lowest = std::numeric_limits<double>::max();
      if (!system.mass_is_assembled())
        {
          ConstLocalValues m(system.mass_action->diagonal());
          ConstLocalValues sums(system.mass_action->row_sum_bound());
          for (std::size_t k = 0; k < m.size(); ++k)
            lowest = std::min(lowest, 2 * m[k] - sums[k]);
          return Utilities::MPI::min(lowest, system.comm);
        }
      const DistributedMatrix &matrix = system.mass_matrix();
      const auto               range  = matrix.local_range();
      for (auto row = range.first; row < range.second; ++row)
        {
          double value = 0;
          for (auto entry = matrix.begin(row); entry != matrix.end(row);
               ++entry)
            value += entry->column() == row ? entry->value() :
                                              -std::abs(entry->value());
          lowest = std::min(lowest, value);
        }
      return Utilities::MPI::min(lowest, system.comm);
    }
  } // namespace



  ProjectionSolver::ProjectionSolver(
    const FrictionSystem           &system,
    const Parameters::Friction     &parameters,
    const Parameters::LinearSolver &linear_solver,
    const ParameterSource          &source)
    : system(system)
    , parameters(parameters)
    , source(source)
    , mass_solver(linear_solver, system.comm)
    , largest_eigenvalue(0)
    , tau(0)
    , rho(0)
    , rhs(system.locally_owned, system.comm)
  {
    // Its fixed point stalls at the noise of inexact solves (with CG on a
    // matrix-free M above the default target: BENCHMARKS.md, "Measurements
    // behind design choices in the code"), and it solves with M at each of
    // its many iterations.
    system.require_assembled_mass(
      source,
      "Friction/Solver",
      "projection",
      "the projection iteration (Glowinski et al. 2006, eqs. "
      "(39)-(41)) needs exact solves with M at "
      "every iteration (a factorization; "
      "semismooth newton works with either "
      "mass)");
    system.initialize_mass_solver(mass_solver);
    largest_c = system.friction_weights.linfty_norm();
    {
      ConstLocalValues m(system.mass_diagonal());
      double           local_min = std::numeric_limits<double>::max();
      for (std::size_t k = 0; k < m.size(); ++k)
        local_min = std::min(local_min, m[k]);
      smallest_mass_diagonal = Utilities::MPI::min(local_min, system.comm);
    }

    // beta_d of (43): exact for a diagonal M, dense for small systems, the
    // power iteration otherwise.
    if (system.mass_is_diagonal())
      {
        ConstLocalValues c(system.friction_weights);
        ConstLocalValues m(system.mass_diagonal());
        double           local_max = 0;
        for (std::size_t k = 0; k < c.size(); ++k)
          local_max = std::max(local_max, c[k] * c[k] / m[k]);
        largest_eigenvalue = Utilities::MPI::max(local_max, system.comm);
      }
    else if (system.size() <= 1000)
      {
        const FullMatrix<double>     M = system.replicated_mass();
        const dealii::Vector<double> c =
          replicate(system.friction_weights, system.comm);
        FullMatrix<double> C2(M.m(), M.m());
        for (unsigned int i = 0; i < M.m(); ++i)
          C2(i, i) = c[i] * c[i];
        largest_eigenvalue = largest_generalized_eigenvalue(C2, M);
      }
    else if (const double lowest = mass_lower_bound(system); lowest > 0)
      {
        // Large, diagonally dominant M (a consistent FE mass): beta_d <=
        // max c_i^2 / lambda_min(M) <= max c_i^2 / (Gershgorin bound), an
        // upper bound that keeps the automatic rho inside (43) with no
        // eigenvalue iteration.
        const double c_max = system.friction_weights.linfty_norm();
        largest_eigenvalue = c_max * c_max / lowest;
      }
    else
      {
        const auto apply_C2 = [&](const DistributedVector &x,
                                  DistributedVector       &y) {
          y = x;
          y.scale(system.friction_weights);
          y.scale(system.friction_weights);
        };
        const auto apply_M = [&](const DistributedVector &x,
                                 DistributedVector       &y) {
          system.apply_mass(y, x);
        };
        const auto solve_M = [&](const DistributedVector &x,
                                 DistributedVector       &y) {
          mass_solver.solve(y, x);
        };
        // The power iteration approaches from below: a 1% margin keeps the
        // automatic rho inside (43).
        largest_eigenvalue =
          1.01 * power_iteration_generalized(apply_C2,
                                             apply_M,
                                             solve_M,
                                             system.locally_owned,
                                             system.comm);
      }
  }



  void
  ProjectionSolver::set_substep(const double new_tau)
  {
    tau                = new_tau;
    const double limit = 2. / (tau * largest_eigenvalue);
    if (parameters.projection_rho == 0)
      rho = 1. / (tau * largest_eigenvalue);
    else
      {
        rho = parameters.projection_rho;
        if (!(rho < limit))
          {
            std::ostringstream allowed;
            allowed.precision(6);
            allowed << "the projection algorithm converges only for 0 < rho "
                       "< 2/(tau_1 beta_d) = "
                    << limit
                    << " (Glowinski et al. 2006, eq. (43); tau_1 = " << tau
                    << ", beta_d = lambda_max(M^{-1} C^2) = "
                    << largest_eigenvalue
                    << "). Set 'Friction/Projection rho = 0' to choose "
                       "rho = 1/(tau_1 beta_d) automatically";
            std::ostringstream value;
            value << rho;
            throw_bad_parameter(source,
                                "Friction/Projection rho",
                                value.str(),
                                allowed.str());
          }
      }
  }



  unsigned int
  ProjectionSolver::solve(const DistributedVector &b,
                          DistributedVector       &w,
                          DistributedVector       &lambda,
                          DistributedVector       &warm_start)
  {
    lambda             = warm_start;
    double noise_floor = 0;
    double change      = 0;
    for (unsigned int iteration = 1; iteration <= parameters.max_iterations;
         ++iteration)
      {
        // (40): M W^k = b - tau C lambda^k
        rhs = lambda;
        rhs.scale(system.friction_weights);
        rhs.sadd(-tau, 1., b);
        mass_solver.solve(w, rhs);

        // (41): lambda^{k+1} = P_Lambda(lambda^k + rho C W^k)
        change = 0;
        {
          ConstLocalValues velocity(w);
          ConstLocalValues c(system.friction_weights);
          LocalValues      multiplier(lambda);
          for (std::size_t k = 0; k < velocity.size(); ++k)
            {
              const double updated =
                c[k] > 0 ?
                  std::min(1.,
                           std::max(-1.,
                                    multiplier[k] + rho * c[k] * velocity[k])) :
                  0.;
              change = std::max(change, std::abs(updated - multiplier[k]));
              multiplier[k] = updated;
            }
        }
        change = Utilities::MPI::max(change, system.comm);
        // Below round-off in W, amplified by rho c, lambda cannot settle:
        // never ask for less than that floor.
        if (iteration == 1)
          noise_floor = 16 * std::numeric_limits<double>::epsilon() * rho *
                        largest_c *
                        std::max(w.linfty_norm(),
                                 rhs.linfty_norm() / smallest_mass_diagonal);
        if (change <= std::max(parameters.tolerance, noise_floor))
          {
            warm_start = lambda;
            return iteration;
          }
      }
    std::ostringstream message;
    message
      << "the projection algorithm (Glowinski et al. 2006, eqs. (39)-(41)) did not reach "
         "'Friction/Tolerance' = "
      << parameters.tolerance
      << " in 'Friction/Maximum iterations' = " << parameters.max_iterations
      << " iterations (last change of the multiplier " << change
      << ", rho = " << rho << ", tau_1 = " << tau
      << "). Raise the limit, or use Friction/Solver = semismooth newton";
    throw RunError(message.str());
  }



  std::string
  ProjectionSolver::name() const
  {
    return "projection";
  }



  double
  ProjectionSolver::beta_d() const
  {
    return largest_eigenvalue;
  }
} // namespace stickslip
