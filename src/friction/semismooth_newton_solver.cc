#include <deal.II/lac/solver_cg.h>

#include <base/local_values.h>
#include <friction/semismooth_newton_solver.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/spd_solver.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace stickslip
{
  namespace
  {
    /**
     * At a degenerate point (|lambda_i| = 1 and w_i = 0, e.g. P5a at t = 0)
     * round-off alone would flip a component between stick and slip
     * forever; a small hysteresis keeps the decision.
     */
    constexpr double set_tolerance = 1e-10;



    /** x -> mask (A (mask x)) + (1 - mask) x: SPD, identity on stuck rows. */
    class MaskedOperator
    {
    public:
      MaskedOperator(const SemismoothNewtonSolver::Product &product,
                     const DistributedVector               &mask,
                     DistributedVector                     &scratch)
        : product(product)
        , mask(mask)
        , scratch(scratch)
      {}

      void
      vmult(DistributedVector &dst, const DistributedVector &src) const
      {
        scratch = src;
        scratch.scale(mask);
        product(dst, scratch);
        ConstLocalValues m(mask);
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = m[k] > 0 ? y[k] : x[k];
      }

    private:
      const SemismoothNewtonSolver::Product &product;
      const DistributedVector               &mask;
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
      data.max_iterations = parameters.max_iterations;
      // A fixed CG tolerance, or forcing with the tightest CG that of
      // Linear solver/Tolerance.
      const bool forcing    = !(parameters.newton_cg_tolerance > 0);
      data.linear_tolerance = forcing ? linear_solver.tolerance :
                                        parameters.newton_cg_tolerance;
      data.kkt_tolerance    = forcing ? parameters.tolerance : 0.;
      data.zero_initial_guess = false;
      data.description        = "the semismooth Newton friction solver";
      data.advice = "Raise the limit or use Friction/Solver = projection";
      return data;
    }
  } // namespace



  SemismoothNewtonSolver::AdditionalData::AdditionalData()
    : max_iterations(0)
    , linear_tolerance(0)
    , kkt_tolerance(0)
    , zero_initial_guess(false)
  {}



  SemismoothNewtonSolver::SemismoothNewtonSolver(
    const FrictionSystem           &system,
    const Parameters::Friction     &parameters,
    const Parameters::LinearSolver &linear_solver)
    : SemismoothNewtonSolver(
        [&system](DistributedVector &y, const DistributedVector &x) {
          system.apply_mass(y, x);
        },
        system.mass_diagonal(),
        std::make_unique<MaskedJacobi>(system.mass_diagonal()),
        std::vector<unsigned char>(system.locally_owned.n_elements(), 0),
        system.friction_weights,
        friction_step_data(parameters, linear_solver))
  {
    // Cheaper exact solves where M allows them.
    diagonal_operator = system.mass_is_diagonal();
    if (!diagonal_operator && system.size() <= dense_size_limit)
      replicated_operator = system.replicated_mass();
  }



  SemismoothNewtonSolver::SemismoothNewtonSolver(
    Product                               product,
    const DistributedVector              &diagonal,
    std::unique_ptr<MaskedPreconditioner> preconditioner,
    const std::vector<unsigned char>     &fixed_rows,
    const DistributedVector              &weights,
    const AdditionalData                 &additional_data)
    : product(std::move(product))
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



  bool
  SemismoothNewtonSolver::uses_cg() const
  {
    return !diagonal_operator && replicated_operator.m() == 0;
  }



  bool
  SemismoothNewtonSolver::solve_masked(const DistributedVector &right_hand_side,
                                       DistributedVector       &w,
                                       const double             cg_tolerance)
  {
    if (diagonal_operator)
      {
        ConstLocalValues r(right_hand_side);
        ConstLocalValues d(diagonal);
        ConstLocalValues m(mask);
        LocalValues      x(w);
        for (std::size_t k = 0; k < x.size(); ++k)
          x[k] = m[k] > 0 ? r[k] / d[k] : 0.;
        return true;
      }
    if (replicated_operator.m() > 0)
      {
        solve_masked_dense(right_hand_side, w);
        return true;
      }
    const double norm = right_hand_side.l2_norm();
    if (norm == 0)
      {
        w = 0;
        return true;
      }
    preconditioner->initialize(mask);
    const MaskedOperator op(product, mask, scratch);
    // Never below what CG reaches in floating point: the tightest tolerance.
    const double tightest = additional_data.linear_tolerance * norm;
    SolverControl control(std::max<unsigned int>(1000, 10 * weights.size()),
                          std::max(cg_tolerance, tightest));
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
    return cg_tolerance <= tightest;
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
    // Inexact Newton: with a KKT target, each CG solve stops at a residual
    // of target_eta in multiplier units, |r|_2 <= target_eta tau c_min
    // (which bounds every |r_i|/(tau c_i) by target_eta). The first solve
    // aims at a tenth of the KKT target: warm-started sets are usually the
    // final ones, so one solve ends the step. After a change of the sets
    // the target is the Eisenstat-Walker forcing term (their choice 2,
    // gamma = 0.9) times the KKT residual eta_k reached,
    //   0.9 (eta_k/eta_{k-1})^2 eta_k, within [final target, 0.1]:
    // loose while the residual stalls (sets still moving), the final target
    // when it drops fast (one change is usually the last: a cold start's
    // first real solve is then already the final one, no extra iteration).
    // Stable sets end the step only when the KKT residual meets the target;
    // otherwise the CG is tightened (down to linear_tolerance, where
    // round-off rules and the step is accepted).
    const double c_min = additional_data.kkt_tolerance > 0 && uses_cg() ?
                           smallest_weight() :
                           0.;
    const bool   forcing    = c_min > 0;
    const double final_eta  = 0.1 * additional_data.kkt_tolerance;
    double       target_eta = final_eta;
    double       last_eta   = std::numeric_limits<double>::infinity();
    unsigned int last_changed = 0;
    for (unsigned int iteration = 1;
         iteration <= additional_data.max_iterations;
         ++iteration)
      {
        set_up_masked_system(b);
        const bool tightest =
          solve_masked(rhs, w, forcing ? target_eta * tau * c_min : 0.);

        // Multiplier from the residual on the stuck rows; new sets.
        product(residual, w);
        residual.sadd(-1., 1., b);
        last_changed = Utilities::MPI::sum(update_sets(w, lambda), comm);
        const double eta = forcing ? kkt_residual(w, c_min) : 0.;
        if (last_changed == 0 &&
            (eta <= additional_data.kkt_tolerance || tightest))
          {
            if (&warm_start != &lambda)
              warm_start = lambda;
            return iteration;
          }
        const double ratio = eta / last_eta;
        target_eta         = last_changed == 0 ?
                               std::min(final_eta, 0.1 * target_eta) :
                               std::min(0.1,
                                std::max(final_eta, 0.9 * ratio * ratio * eta));
        last_eta = eta;
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
    unsigned int     n_changed = 0;
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



  double
  SemismoothNewtonSolver::smallest_weight() const
  {
    double           c_min = std::numeric_limits<double>::max();
    ConstLocalValues c(weights);
    for (std::size_t k = 0; k < states.size(); ++k)
      if (c[k] > 0 && !fixed_rows[k])
        c_min = std::min(c_min, c[k]);
    c_min = Utilities::MPI::min(c_min, comm);
    return c_min < std::numeric_limits<double>::max() ? c_min : 0.;
  }



  double
  SemismoothNewtonSolver::kkt_residual(const DistributedVector &w,
                                       const double             c_min) const
  {
    const auto project = [](const double x) {
      return std::min(1., std::max(-1., x));
    };
    double           eta = 0;
    ConstLocalValues r(residual);
    ConstLocalValues c(weights);
    ConstLocalValues d(diagonal);
    ConstLocalValues x(w);
    for (std::size_t k = 0; k < states.size(); ++k)
      if (states[k] == State::free)
        eta = std::max(eta, std::abs(r[k]) / (tau * c_min));
      else if (states[k] != State::fixed)
        {
          const double mu = r[k] / (tau * c[k]);
          const double l  = project(mu);
          // The sets are kept up to the hysteresis set_tolerance (on a
          // stuck row |mu_i| <= 1 + set_tolerance, on a slipping one the
          // complementarity function within set_tolerance of lambda_i): no
          // CG accuracy removes that part, so it is not counted.
          const double slack =
            states[k] == State::stick ? 0. : set_tolerance;
          const double outside =
            states[k] == State::stick ?
              std::max(0., std::abs(mu) - 1. - set_tolerance) :
              std::abs(mu - l);
          const double complementarity =
            std::abs(l - project(l + d[k] * x[k] / (tau * c[k])));
          eta = std::max({eta,
                          outside,
                          std::max(0., complementarity - slack)});
        }
    return Utilities::MPI::max(eta, comm);
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
