#include <deal.II/lac/solver_cg.h>

#include <deal.II/lac/lapack_full_matrix.h>

#include <base/local_values.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/spd_solver.h>
#include <friction/semismooth_newton_solver.h>

#include <cmath>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** x -> mask (M (mask x)) + (1 - mask) x: SPD, identity on stuck rows. */
    class MaskedMass
    {
    public:
      MaskedMass(const DistributedMatrix &mass,
                 const DistributedVector &mask,
                 DistributedVector &      scratch)
        : mass(mass)
        , mask(mask)
        , scratch(scratch)
      {}

      void
      vmult(DistributedVector &dst, const DistributedVector &src) const
      {
        scratch = src;
        scratch.scale(mask);
        mass.vmult(dst, scratch);
        ConstLocalValues m(mask);
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = m[k] > 0 ? y[k] : x[k];
      }

    private:
      const DistributedMatrix &mass;
      const DistributedVector &mask;
      DistributedVector &      scratch;
    };

    /** Jacobi preconditioner of MaskedMass. */
    class MaskedJacobi
    {
    public:
      MaskedJacobi(const DistributedVector &diagonal, const DistributedVector &mask)
        : diagonal(diagonal)
        , mask(mask)
      {}

      void
      vmult(DistributedVector &dst, const DistributedVector &src) const
      {
        ConstLocalValues d(diagonal);
        ConstLocalValues m(mask);
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = m[k] > 0 ? x[k] / d[k] : x[k];
      }

    private:
      const DistributedVector &diagonal;
      const DistributedVector &mask;
    };
  } // namespace



  SemismoothNewtonSolver::SemismoothNewtonSolver(
    const FrictionSystem &          system,
    const Parameters::Friction &    parameters,
    const Parameters::LinearSolver &linear_solver)
    : system(system)
    , parameters(parameters)
    , linear_solver(linear_solver)
    , tau(0)
    , states(system.locally_owned.n_elements(), State::stick)
    , mask(system.locally_owned, system.comm)
    , rhs(system.locally_owned, system.comm)
    , residual(system.locally_owned, system.comm)
    , scratch(system.locally_owned, system.comm)
    , linear_iterations(0)
  {
    if (!system.mass_is_diagonal() &&
        system.size() <= SpdSolver::dense_size_limit)
      replicated_mass = replicate(system.mass, system.comm);
  }



  void
  SemismoothNewtonSolver::set_substep(const double new_tau)
  {
    tau = new_tau;
  }



  void
  SemismoothNewtonSolver::solve_masked(const DistributedVector &right_hand_side,
                                       DistributedVector &      w)
  {
    if (system.mass_is_diagonal())
      {
        ConstLocalValues r(right_hand_side);
        ConstLocalValues d(system.mass_diagonal());
        ConstLocalValues m(mask);
        LocalValues      x(w);
        for (std::size_t k = 0; k < x.size(); ++k)
          x[k] = m[k] > 0 ? r[k] / d[k] : 0.;
        return;
      }
    if (replicated_mass.m() > 0)
      {
        // Tiny system: the masked M densely, identical on every rank.
        const dealii::Vector<double> m = replicate(mask, system.comm);
        const unsigned int           n = m.size();
        LAPACKFullMatrix<double>     masked(n);
        // Cholesky needs the matrix marked symmetric (asserted in debug).
        masked.set_property(LAPACKSupport::symmetric);
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int j = 0; j < n; ++j)
            masked(i, j) = m[i] * m[j] * replicated_mass(i, j) +
                           (i == j ? 1. - m[i] : 0.);
        masked.compute_cholesky_factorization();
        dealii::Vector<double> values = replicate(right_hand_side, system.comm);
        masked.solve(values);
        copy_owned(values, w);
        ++linear_iterations;
        w.scale(mask);
        return;
      }
    const double norm = right_hand_side.l2_norm();
    if (norm == 0)
      {
        w = 0;
        return;
      }
    const MaskedMass   op(system.mass, mask, scratch);
    const MaskedJacobi preconditioner(system.mass_diagonal(), mask);
    SolverControl      control(std::max<unsigned int>(1000, 10 * system.size()),
                          linear_solver.tolerance * norm);
    SolverCG<DistributedVector> cg(control);
    // Start from the current w restricted to the unstuck set.
    w.scale(mask);
    cg.solve(op, w, right_hand_side, preconditioner);
    linear_iterations += control.last_step();
    // Stuck components are exactly at rest, not at round-off.
    w.scale(mask);
  }



  unsigned int
  SemismoothNewtonSolver::solve(const DistributedVector &b,
                                DistributedVector &      w,
                                DistributedVector &      lambda,
                                DistributedVector &      warm_start)
  {
    // Initial sets from the warm-start multiplier.
    {
      ConstLocalValues start(warm_start);
      ConstLocalValues c(system.friction_weights);
      for (std::size_t k = 0; k < states.size(); ++k)
        states[k] = !(c[k] > 0)         ? State::free :
                    start[k] >= 1.      ? State::slip_positive :
                    start[k] <= -1.     ? State::slip_negative :
                                          State::stick;
    }

    unsigned int last_changed = 0;
    for (unsigned int iteration = 1; iteration <= parameters.max_iterations;
         ++iteration)
      {
        // Right-hand side of the slipping rows, mask of the unstuck rows.
        {
          ConstLocalValues b_values(b);
          ConstLocalValues c(system.friction_weights);
          LocalValues      r(rhs);
          LocalValues      m(mask);
          for (std::size_t k = 0; k < states.size(); ++k)
            {
              const double sign = states[k] == State::slip_positive ? 1. :
                                  states[k] == State::slip_negative ? -1. :
                                                                      0.;
              m[k] = states[k] == State::stick ? 0. : 1.;
              r[k] = states[k] == State::stick ? 0. :
                                                 b_values[k] - tau * c[k] * sign;
            }
        }
        solve_masked(rhs, w);

        // Multiplier from the residual on the stuck rows; new sets.
        system.mass.vmult(residual, w);
        residual.sadd(-1., 1., b);
        // At a degenerate point (|lambda_i| = 1 and w_i = 0, e.g. P5a at
        // t = 0) round-off alone would flip a component between stick and
        // slip forever; a small hysteresis keeps the decision.
        constexpr double set_tolerance = 1e-10;
        unsigned int     n_changed     = 0;
        {
          ConstLocalValues r(residual);
          ConstLocalValues c(system.friction_weights);
          ConstLocalValues d(system.mass_diagonal());
          LocalValues      x(w);
          LocalValues      multiplier(lambda);
          for (std::size_t k = 0; k < states.size(); ++k)
            {
              State next = states[k];
              switch (states[k])
                {
                  case State::free:
                    multiplier[k] = 0;
                    break;
                  case State::stick:
                    {
                      const double value = r[k] / (tau * c[k]);
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
                      const double z = sign + d[k] * x[k] / (tau * c[k]);
                      // Keep slipping unless the new velocity clearly
                      // points against the multiplier; then stick first.
                      // Reversing straight to the opposite slip would trust
                      // the diagonal scaling rho_i, which a non-diagonal M
                      // (P5a) can defeat: + and - then alternate forever.
                      if (sign * z < 1. - set_tolerance)
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
        last_changed = Utilities::MPI::sum(n_changed, system.comm);
        if (last_changed == 0)
          {
            warm_start = lambda;
            return iteration;
          }
      }
    std::ostringstream message;
    message << "the semismooth Newton friction solver did not find stable "
               "stick/slip sets in 'Friction/Maximum iterations' = "
            << parameters.max_iterations
            << " iterations (unknowns moved between stick and slip by the "
               "last one: "
            << last_changed << "). Raise the limit or use "
               "Friction/Solver = projection";
    throw RunError(message.str());
  }



  std::string
  SemismoothNewtonSolver::name() const
  {
    return "semismooth newton";
  }



  unsigned long
  SemismoothNewtonSolver::n_linear_iterations() const
  {
    return linear_iterations;
  }
} // namespace stickslip
