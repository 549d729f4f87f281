#include <deal.II/lac/solver_cg.h>
#include <deal.II/lac/solver_control.h>

#include <base/input_error.h>
#include <base/local_values.h>
#include <models/chain/static_increment_solver.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** x -> mask (K (mask x)) + (1 - mask) x: SPD, identity off S. */
    class MaskedStiffness
    {
    public:
      MaskedStiffness(const DistributedMatrix &stiffness,
                      const DistributedVector &mask,
                      DistributedVector &      scratch)
        : stiffness(stiffness)
        , mask(mask)
        , scratch(scratch)
      {}

      void
      vmult(DistributedVector &dst, const DistributedVector &src) const
      {
        scratch = src;
        scratch.scale(mask);
        stiffness.vmult(dst, scratch);
        ConstLocalValues m(mask);
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = m[k] > 0 ? y[k] : x[k];
      }

    private:
      const DistributedMatrix &stiffness;
      const DistributedVector &mask;
      DistributedVector &      scratch;
    };



    /**
     * Exact solve with the owned diagonal block of the masked K (block
     * Jacobi over ranks) by the Thomas algorithm, stable for SPD
     * tridiagonal matrices.
     */
    class LocalTridiagonalSolve
    {
    public:
      LocalTridiagonalSolve(const std::vector<double> &diagonal,
                            const std::vector<double> &upper,
                            const DistributedVector &  mask)
        : n(diagonal.size())
        , modified_upper(n)
        , inverse_pivot(n)
      {
        // Factorize once per mask.
        ConstLocalValues m(mask);
        for (std::size_t r = 0; r < n; ++r)
          {
            const bool   in_r  = m[r] > 0;
            const double d     = in_r ? diagonal[r] : 1.;
            const double lower = (r > 0 && in_r && m[r - 1] > 0) ? upper[r - 1] : 0.;
            const double u = (r + 1 < n && in_r && m[r + 1] > 0) ? upper[r] : 0.;
            const double pivot =
              d - (r > 0 ? lower * modified_upper[r - 1] : 0.);
            inverse_pivot[r]  = 1. / pivot;
            modified_upper[r] = u * inverse_pivot[r];
            lower_entry.push_back(lower);
          }
      }

      void
      vmult(DistributedVector &dst, const DistributedVector &src) const
      {
        if (n == 0)
          return;
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t r = 0; r < n; ++r)
          y[r] = (x[r] - (r > 0 ? lower_entry[r] * y[r - 1] : 0.)) *
                 inverse_pivot[r];
        for (std::size_t r = n - 1; r-- > 0;)
          y[r] -= modified_upper[r] * y[r + 1];
      }

    private:
      const std::size_t   n;
      std::vector<double> modified_upper, inverse_pivot, lower_entry;
    };
  } // namespace



  StaticIncrementSolver::StaticIncrementSolver(
    const DistributedMatrix &  stiffness,
    const std::vector<double> &diagonal,
    const std::vector<double> &upper,
    const DistributedVector &  thresholds,
    const std::vector<unsigned char> &is_static,
    const double               linear_tolerance,
    const unsigned int         max_iterations)
    : stiffness(stiffness)
    , diagonal(diagonal)
    , upper(upper)
    , thresholds(thresholds)
    , comm(thresholds.get_mpi_communicator())
    , linear_tolerance(linear_tolerance)
    , max_iterations(max_iterations)
    , states(is_static.size())
    , mask(thresholds.locally_owned_elements(), comm)
    , rhs(mask)
    , residual(mask)
    , scratch(mask)
    , linear_iterations(0)
  {
    ConstLocalValues alpha(thresholds);
    for (std::size_t k = 0; k < states.size(); ++k)
      states[k] = !is_static[k]    ? State::fixed :
                  alpha[k] > 0     ? State::stick :
                                     State::free;
    initial_states = states;
  }



  void
  StaticIncrementSolver::solve_masked(const DistributedVector &right_hand_side,
                                      DistributedVector &      w)
  {
    const double norm = right_hand_side.l2_norm();
    w                 = 0;
    if (norm == 0)
      return;
    const MaskedStiffness       op(stiffness, mask, scratch);
    const LocalTridiagonalSolve preconditioner(diagonal, upper, mask);
    SolverControl               control(1000, linear_tolerance * norm);
    SolverCG<DistributedVector> cg(control);
    cg.solve(op, w, right_hand_side, preconditioner);
    linear_iterations += control.last_step();
    w.scale(mask);
  }



  unsigned int
  StaticIncrementSolver::solve(const DistributedVector &b,
                               DistributedVector &      increment,
                               DistributedVector &      lambda)
  {
    // Initial sets from the multiplier of the previous step.
    {
      ConstLocalValues start(lambda);
      for (std::size_t k = 0; k < states.size(); ++k)
        if (initial_states[k] == State::stick)
          states[k] = start[k] >= 1.  ? State::slip_positive :
                      start[k] <= -1. ? State::slip_negative :
                                        State::stick;
    }

    for (unsigned int iteration = 1; iteration <= max_iterations; ++iteration)
      {
        {
          ConstLocalValues b_values(b);
          ConstLocalValues alpha(thresholds);
          LocalValues      r(rhs);
          LocalValues      m(mask);
          for (std::size_t k = 0; k < states.size(); ++k)
            {
              const double sign = states[k] == State::slip_positive ? 1. :
                                  states[k] == State::slip_negative ? -1. :
                                                                      0.;
              const bool unstuck = states[k] == State::free ||
                                   states[k] == State::slip_positive ||
                                   states[k] == State::slip_negative;
              m[k] = unstuck ? 1. : 0.;
              r[k] = unstuck ? b_values[k] - alpha[k] * sign : 0.;
            }
        }
        solve_masked(rhs, increment);

        // lambda on the stuck rows from the residual; new sets, with the
        // same small hysteresis as the core's semismooth Newton.
        stiffness.vmult(residual, increment);
        residual.sadd(-1., 1., b);
        constexpr double set_tolerance = 1e-10;
        unsigned int     n_changed     = 0;
        {
          ConstLocalValues r(residual);
          ConstLocalValues alpha(thresholds);
          ConstLocalValues w(increment);
          LocalValues      multiplier(lambda);
          for (std::size_t k = 0; k < states.size(); ++k)
            {
              State next = states[k];
              switch (states[k])
                {
                  case State::fixed:
                    break;
                  case State::free:
                    multiplier[k] = 0;
                    break;
                  case State::stick:
                    {
                      const double value = r[k] / alpha[k];
                      multiplier[k]      = std::min(1., std::max(-1., value));
                      if (value > 1. + set_tolerance)
                        next = State::slip_positive;
                      else if (value < -1. - set_tolerance)
                        next = State::slip_negative;
                      break;
                    }
                  case State::slip_positive:
                  case State::slip_negative:
                    {
                      const double sign =
                        states[k] == State::slip_positive ? 1. : -1.;
                      multiplier[k] = sign;
                      if (sign * diagonal[k] * w[k] / alpha[k] < -set_tolerance)
                        next = State::stick;
                      break;
                    }
                }
              if (next != states[k])
                {
                  ++n_changed;
                  states[k] = next;
                }
            }
        }
        if (Utilities::MPI::sum(n_changed, comm) == 0)
          return iteration;
      }
    std::ostringstream message;
    message << "the active-set solver of the massless masses did not find "
               "stable stick/slip sets in 'Friction/Maximum iterations' = "
            << max_iterations << " iterations";
    throw RunError(message.str());
  }



  unsigned long
  StaticIncrementSolver::n_linear_iterations() const
  {
    return linear_iterations;
  }
} // namespace stickslip
