#include <base/input_error.h>
#include <friction/replicated_semismooth_newton.h>

#include <algorithm>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /**
     * The hysteresis of the set update, SemismoothNewtonSolver's: at a
     * degenerate point round-off alone would flip a component between stick
     * and slip forever.
     */
    constexpr double set_tolerance = 1e-10;
  } // namespace



  ReplicatedSemismoothNewton::ReplicatedSemismoothNewton(
    const FullMatrix<double>  &matrix,
    const std::vector<double> &weights,
    const unsigned int         max_iterations)
    : matrix(matrix)
    , sparse(matrix)
    , band(bandwidth(matrix))
    , weights(weights)
    , diagonal(weights.size())
    , max_iterations(max_iterations)
    , tau(1.)
    , states(weights.size(), State::stick)
    , unstuck(weights.size())
    , rhs(weights.size())
    , residual(weights.size())
    , restricted(weights.size())
  {
    for (unsigned int i = 0; i < weights.size(); ++i)
      diagonal[i] = matrix(i, i);
    set_substep(1.);
  }



  void
  ReplicatedSemismoothNewton::set_substep(const double new_tau)
  {
    tau = new_tau;
    // Multiplied rather than divided by, as the distributed solver does:
    // the two solvers then agree to the last bit.
    inverse_thresholds.resize(weights.size());
    for (unsigned int k = 0; k < weights.size(); ++k)
      inverse_thresholds[k] = weights[k] > 0 ? 1. / (tau * weights[k]) : 0.;
  }



  unsigned int
  ReplicatedSemismoothNewton::solve(const double *b,
                                    double       *w,
                                    double       *lambda,
                                    double       *warm_start)
  {
    const unsigned int d = weights.size();
    for (unsigned int k = 0; k < d; ++k)
      states[k] = !(weights[k] > 0)    ? State::free :
                  warm_start[k] >= 1.  ? State::slip_positive :
                  warm_start[k] <= -1. ? State::slip_negative :
                                         State::stick;
    unsigned int last_changed = 0;
    for (unsigned int iteration = 1; iteration <= max_iterations; ++iteration)
      {
        // Right-hand side of the slipping rows, the unstuck rows.
        for (unsigned int k = 0; k < d; ++k)
          {
            const double sign    = states[k] == State::slip_positive ? 1. :
                                   states[k] == State::slip_negative ? -1. :
                                                                       0.;
            const bool   at_rest = states[k] == State::stick;
            unstuck[k]           = at_rest ? 0 : 1;
            rhs[k] = at_rest ? 0. : b[k] - tau * weights[k] * sign;
          }
        // K_SS w_S = rhs_S, w = 0 off S.
        const MaskedFactor &factor = factor_of_current_sets();
        const unsigned int  s      = factor.rows.size();
        for (unsigned int a = 0; a < s; ++a)
          restricted[a] = rhs[factor.rows[a]];
        factor.cholesky.solve(restricted.data());
        std::fill(w, w + d, 0.);
        for (unsigned int a = 0; a < s; ++a)
          w[factor.rows[a]] = restricted[a];

        // The residual b - K w gives the multiplier on the stuck rows.
        sparse.vmult(residual.data(), w);
        for (unsigned int k = 0; k < d; ++k)
          residual[k] = b[k] - residual[k];
        last_changed = update_sets(w, lambda);
        if (last_changed == 0)
          {
            if (warm_start != lambda)
              std::copy(lambda, lambda + d, warm_start);
            return iteration;
          }
      }
    std::ostringstream message;
    message << "the semismooth Newton friction solver did not find stable "
               "stick/slip sets in 'Friction/Maximum iterations' = "
            << max_iterations
            << " iterations (unknowns moved between stick and slip by the "
               "last one: "
            << last_changed
            << "). Raise the limit or use Friction/Solver = projection";
    throw RunError(message.str());
  }



  const ReplicatedSemismoothNewton::MaskedFactor &
  ReplicatedSemismoothNewton::factor_of_current_sets()
  {
    // The sets of each friction sub-step change slowly from one time step
    // to the next: the factors of the last sets are kept, most recently
    // used first.
    auto cached = std::find_if(factors.begin(),
                               factors.end(),
                               [this](const MaskedFactor &factor) {
                                 return factor.unstuck == unstuck;
                               });
    if (cached == factors.end())
      {
        if (factors.size() == max_cached_factors)
          factors.pop_back(); // the least recently used
        factors.emplace_front();
        factorize_restricted(factors.front());
      }
    else if (cached != factors.begin())
      factors.splice(factors.begin(), factors, cached);
    return factors.front();
  }



  void
  ReplicatedSemismoothNewton::factorize_restricted(MaskedFactor &factor) const
  {
    factor.unstuck = unstuck;
    for (unsigned int i = 0; i < unstuck.size(); ++i)
      if (unstuck[i])
        factor.rows.push_back(i);
    const std::vector<unsigned int> &rows = factor.rows;
    const unsigned int               s    = rows.size();
    // Removing rows and columns brings no entry farther from the diagonal:
    // the restricted band is at most K's; its own (the largest distance of
    // a non-zero entry) is what a dense factorization of it would find.
    unsigned int restricted_band = 0;
    for (unsigned int a = 0; a < s; ++a)
      for (unsigned int c = a > band ? a - band : 0; c < a; ++c)
        if (matrix(rows[a], rows[c]) != 0.)
          {
            restricted_band = std::max(restricted_band, a - c);
            break;
          }
    factor.cholesky.factorize_band(
      s, restricted_band, [&](const unsigned int i, const unsigned int j) {
        return matrix(rows[i], rows[j]);
      });
  }



  unsigned int
  ReplicatedSemismoothNewton::update_sets(const double *w, double *lambda)
  {
    unsigned int n_changed = 0;
    for (unsigned int k = 0; k < states.size(); ++k)
      {
        State next = states[k];
        switch (states[k])
          {
            case State::free:
              lambda[k] = 0;
              break;
            case State::stick:
              {
                const double value = residual[k] * inverse_thresholds[k];
                lambda[k]          = std::min(1., std::max(-1., value));
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
                lambda[k] = sign;
                const double z =
                  sign + diagonal[k] * w[k] * inverse_thresholds[k];
                // Stick first rather than reverse (see update_sets() of
                // SemismoothNewtonSolver: a non-diagonal M can defeat the
                // diagonal scaling).
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
} // namespace stickslip
