#include <deal.II/lac/solver_cg.h>

#include <base/local_values.h>
#include <friction/semismooth_newton_solver.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/spd_solver.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /** x -> mask (A (mask x)) + (1 - mask) x: SPD, identity on stuck rows. */
    class MaskedOperator
    {
    public:
      MaskedOperator(const DistributedMatrix &matrix,
                     const DistributedVector &mask,
                     DistributedVector       &scratch)
        : matrix(matrix)
        , mask(mask)
        , scratch(scratch)
      {}

      void
      vmult(DistributedVector &dst, const DistributedVector &src) const
      {
        scratch = src;
        scratch.scale(mask);
        matrix.vmult(dst, scratch);
        ConstLocalValues m(mask);
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = m[k] > 0 ? y[k] : x[k];
      }

    private:
      const DistributedMatrix &matrix;
      const DistributedVector &mask;
      DistributedVector       &scratch;
    };



    /** Jacobi preconditioner of the masked operator. */
    class MaskedJacobi : public MaskedPreconditioner
    {
    public:
      explicit MaskedJacobi(const DistributedVector &diagonal)
        : diagonal(diagonal)
        , mask(nullptr)
      {}

      void
      initialize(const DistributedVector &new_mask) override
      {
        mask = &new_mask;
      }

      void
      vmult(DistributedVector &dst, const DistributedVector &src) const override
      {
        ConstLocalValues d(diagonal);
        ConstLocalValues m(*mask);
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = m[k] > 0 ? x[k] / d[k] : x[k];
      }

    private:
      const DistributedVector &diagonal;
      const DistributedVector *mask;
    };



    /** The default configuration's limits and messages. */
    SemismoothNewtonSolver::AdditionalData
    friction_step_data(const Parameters::Friction     &parameters,
                       const Parameters::LinearSolver &linear_solver)
    {
      SemismoothNewtonSolver::AdditionalData data;
      data.max_iterations     = parameters.max_iterations;
      data.linear_tolerance   = linear_solver.tolerance;
      data.zero_initial_guess = false;
      data.description        = "the semismooth Newton friction solver";
      data.advice = "Raise the limit or use Friction/Solver = projection";
      return data;
    }
  } // namespace



  SemismoothNewtonSolver::SemismoothNewtonSolver(
    const FrictionSystem           &system,
    const Parameters::Friction     &parameters,
    const Parameters::LinearSolver &linear_solver)
    : SemismoothNewtonSolver(
        system.mass,
        system.mass_diagonal(),
        std::make_unique<MaskedJacobi>(system.mass_diagonal()),
        std::vector<unsigned char>(system.locally_owned.n_elements(), 0),
        system.friction_weights,
        friction_step_data(parameters, linear_solver))
  {
    // Cheaper exact solves where M allows them.
    diagonal_operator = system.mass_is_diagonal();
    if (!diagonal_operator && system.size() <= dense_size_limit)
      replicated_operator = replicate(system.mass, system.comm);
  }



  SemismoothNewtonSolver::SemismoothNewtonSolver(
    const DistributedMatrix              &matrix,
    const DistributedVector              &diagonal,
    std::unique_ptr<MaskedPreconditioner> preconditioner,
    const std::vector<unsigned char>     &fixed_rows,
    const DistributedVector              &weights,
    const AdditionalData                 &additional_data)
    : matrix(matrix)
    , diagonal(diagonal)
    , weights(weights)
    , preconditioner(std::move(preconditioner))
    , fixed_rows(fixed_rows)
    , additional_data(additional_data)
    , comm(weights.get_mpi_communicator())
    , tau(1.)
    , diagonal_operator(false)
    , states(fixed_rows.size(), State::stick)
    , mask(weights.locally_owned_elements(), comm)
    , rhs(weights.locally_owned_elements(), comm)
    , residual(weights.locally_owned_elements(), comm)
    , scratch(weights.locally_owned_elements(), comm)
    , linear_iterations(0)
  {
    Assert(fixed_rows.size() == weights.locally_owned_size(),
           ExcDimensionMismatch(fixed_rows.size(),
                                weights.locally_owned_size()));
  }



  void
  SemismoothNewtonSolver::set_substep(const double new_tau)
  {
    tau = new_tau;
  }



  void
  SemismoothNewtonSolver::solve_masked(const DistributedVector &right_hand_side,
                                       DistributedVector       &w)
  {
    if (diagonal_operator)
      {
        ConstLocalValues r(right_hand_side);
        ConstLocalValues d(diagonal);
        ConstLocalValues m(mask);
        LocalValues      x(w);
        for (std::size_t k = 0; k < x.size(); ++k)
          x[k] = m[k] > 0 ? r[k] / d[k] : 0.;
        return;
      }
    if (replicated_operator.m() > 0)
      {
        solve_masked_dense(right_hand_side, w);
        return;
      }
    const double norm = right_hand_side.l2_norm();
    if (norm == 0)
      {
        w = 0;
        return;
      }
    preconditioner->initialize(mask);
    const MaskedOperator op(matrix, mask, scratch);
    SolverControl control(std::max<unsigned int>(1000, 10 * weights.size()),
                          additional_data.linear_tolerance * norm);
    SolverCG<DistributedVector> cg(control);
    if (additional_data.zero_initial_guess)
      w = 0;
    else
      // Start from the current w restricted to the unstuck set.
      w.scale(mask);
    cg.solve(op, w, right_hand_side, *preconditioner);
    linear_iterations += control.last_step();
    // Stuck components are exactly at rest, not at round-off.
    w.scale(mask);
  }



  void
  SemismoothNewtonSolver::solve_masked_dense(
    const DistributedVector &right_hand_side,
    DistributedVector       &w)
  {
    // M restricted to the unstuck rows S, identical on every rank (w = 0
    // off S). The sets of each friction sub-step change slowly from one
    // time step to the next: the factors of the last few sets are kept,
    // and one is computed only for a set not among them.
    replicate(mask, comm, replicated_mask);
    auto cached = std::find_if(masked_factors.begin(),
                               masked_factors.end(),
                               [this](const MaskedFactor &factor) {
                                 return factor.mask == replicated_mask;
                               });
    if (cached == masked_factors.end())
      {
        if (masked_factors.size() == max_cached_factors)
          masked_factors.pop_back(); // the least recently used
        masked_factors.emplace_front();
        cached = masked_factors.begin();
        factorize_restricted(*cached);
      }
    else if (cached != masked_factors.begin())
      masked_factors.splice(masked_factors.begin(), masked_factors, cached);
    const MaskedFactor &factor = masked_factors.front();

    replicate(right_hand_side, comm, replicated_rhs);
    restricted_values.resize(factor.unstuck.size());
    for (unsigned int i = 0; i < factor.unstuck.size(); ++i)
      restricted_values[i] = replicated_rhs[factor.unstuck[i]];
    factor.cholesky.solve(restricted_values.data());
    replicated_rhs = 0.;
    for (unsigned int i = 0; i < factor.unstuck.size(); ++i)
      replicated_rhs[factor.unstuck[i]] = restricted_values[i];
    copy_owned(replicated_rhs, w);
    ++linear_iterations;
  }



  void
  SemismoothNewtonSolver::factorize_restricted(MaskedFactor &factor) const
  {
    factor.mask = replicated_mask;
    for (unsigned int i = 0; i < replicated_mask.size(); ++i)
      if (replicated_mask[i] > 0)
        factor.unstuck.push_back(i);
    const unsigned int s = factor.unstuck.size();
    FullMatrix<double> restricted(s, s);
    for (unsigned int i = 0; i < s; ++i)
      for (unsigned int j = 0; j < s; ++j)
        restricted(i, j) =
          replicated_operator(factor.unstuck[i], factor.unstuck[j]);
    factor.cholesky.factorize(restricted);
  }



  unsigned int
  SemismoothNewtonSolver::solve(const DistributedVector &b,
                                DistributedVector       &w,
                                DistributedVector       &lambda,
                                DistributedVector       &warm_start)
  {
    initialize_sets(warm_start);
    unsigned int last_changed = 0;
    for (unsigned int iteration = 1;
         iteration <= additional_data.max_iterations;
         ++iteration)
      {
        set_up_masked_system(b);
        solve_masked(rhs, w);

        // Multiplier from the residual on the stuck rows; new sets.
        matrix.vmult(residual, w);
        residual.sadd(-1., 1., b);
        last_changed = Utilities::MPI::sum(update_sets(w, lambda), comm);
        if (last_changed == 0)
          {
            if (&warm_start != &lambda)
              warm_start = lambda;
            return iteration;
          }
      }
    std::ostringstream message;
    message << additional_data.description
            << " did not find stable stick/slip sets in 'Friction/Maximum "
               "iterations' = "
            << additional_data.max_iterations
            << " iterations (unknowns moved between stick and slip by the "
               "last one: "
            << last_changed << "). " << additional_data.advice;
    throw RunError(message.str());
  }



  void
  SemismoothNewtonSolver::initialize_sets(const DistributedVector &warm_start)
  {
    ConstLocalValues start(warm_start);
    ConstLocalValues c(weights);
    for (std::size_t k = 0; k < states.size(); ++k)
      states[k] = fixed_rows[k]   ? State::fixed :
                  !(c[k] > 0)     ? State::free :
                  start[k] >= 1.  ? State::slip_positive :
                  start[k] <= -1. ? State::slip_negative :
                                    State::stick;
  }



  void
  SemismoothNewtonSolver::set_up_masked_system(const DistributedVector &b)
  {
    // Right-hand side of the slipping rows, mask of the unstuck rows.
    ConstLocalValues b_values(b);
    ConstLocalValues c(weights);
    LocalValues      r(rhs);
    LocalValues      m(mask);
    for (std::size_t k = 0; k < states.size(); ++k)
      {
        const double sign = states[k] == State::slip_positive ? 1. :
                            states[k] == State::slip_negative ? -1. :
                                                                0.;
        const bool   at_rest =
          states[k] == State::stick || states[k] == State::fixed;
        m[k] = at_rest ? 0. : 1.;
        r[k] = at_rest ? 0. : b_values[k] - tau * c[k] * sign;
      }
  }



  unsigned int
  SemismoothNewtonSolver::update_sets(DistributedVector &w,
                                      DistributedVector &lambda)
  {
    // At a degenerate point (|lambda_i| = 1 and w_i = 0, e.g. P5a at
    // t = 0) round-off alone would flip a component between stick and
    // slip forever; a small hysteresis keeps the decision.
    constexpr double set_tolerance = 1e-10;
    unsigned int     n_changed     = 0;
    ConstLocalValues r(residual);
    ConstLocalValues c(weights);
    ConstLocalValues d(diagonal);
    LocalValues      x(w);
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
                multiplier[k]  = sign;
                const double z = sign + d[k] * x[k] / (tau * c[k]);
                // Keep slipping unless the new velocity clearly points
                // against the multiplier; then stick first. Reversing
                // straight to the opposite slip would trust the diagonal
                // scaling rho_i, which a non-diagonal M (P5a) can defeat:
                // + and - then alternate forever.
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
    return n_changed;
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
