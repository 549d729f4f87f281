#include <deal.II/lac/solver_control.h>

#include <base/local_values.h>
#include <friction/semismooth_newton_solver.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/spd_solver.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>

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



    /**
     * Jacobi preconditioner of the masked operator. The diagonal is read
     * once, at the first use of its inverse: it must not change afterwards
     * (M's diagonal is fixed once the system is finalized).
     */
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
        ConstLocalValues d(*jacobi_inverse_diagonal());
        ConstLocalValues m(*mask);
        ConstLocalValues x(src);
        LocalValues      y(dst);
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = m[k] > 0 ? x[k] * d[k] : x[k];
      }

      const DistributedVector *
      jacobi_inverse_diagonal() const override
      {
        // Multiplications in the CG loops instead of divisions (a division
        // costs as much as the rest of a row's work there).
        if (inverse_diagonal.size() != diagonal.size())
          {
            inverse_diagonal.reinit(diagonal.locally_owned_elements(),
                                    diagonal.get_mpi_communicator());
            ConstLocalValues d(diagonal);
            LocalValues      inverse(inverse_diagonal);
            for (std::size_t k = 0; k < inverse.size(); ++k)
              inverse[k] = d[k] != 0 ? 1. / d[k] : 0.;
          }
        return &inverse_diagonal;
      }

    private:
      const DistributedVector  &diagonal;
      mutable DistributedVector inverse_diagonal;
      const DistributedVector  *mask;
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
      const bool forcing = !(parameters.newton_cg_tolerance > 0);
      data.linear_tolerance =
        forcing ? linear_solver.tolerance : parameters.newton_cg_tolerance;
      data.kkt_tolerance      = forcing ? parameters.tolerance : 0.;
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
    , operator_times_w(weights.locally_owned_elements(), comm)
    , solution_is_zero(false)
    , weight_floor(0)
    , inverse_thresholds_tau(0)
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
  SemismoothNewtonSolver::solve_masked(const DistributedVector &b,
                                       DistributedVector       &w,
                                       const double             target_eta)
  {
    if (uses_cg())
      return solve_masked_cg(b, w, target_eta);
    solution_is_zero = false;
    set_up_masked_system(b);
    const DistributedVector &right_hand_side = rhs;
    if (diagonal_operator)
      {
        ConstLocalValues r(right_hand_side);
        ConstLocalValues d(diagonal);
        ConstLocalValues m(mask);
        LocalValues      x(w);
        for (std::size_t k = 0; k < x.size(); ++k)
          x[k] = m[k] > 0 ? r[k] / d[k] : 0.;
      }
    else
      solve_masked_dense(right_hand_side, w);
    product(operator_times_w, w);
    return true;
  }



  bool
  SemismoothNewtonSolver::solve_masked_cg(const DistributedVector &b,
                                          DistributedVector       &w,
                                          const double             target_eta)
  {
    // The work vectors on first use: the exact solves never need them.
    // The right-hand side of S, b_i - tau c_i lambda_i, is formed on the
    // fly from b and the sets; only a preconditioner other than Jacobi
    // needs the mask as a vector.
    const bool jacobi = preconditioner->jacobi_inverse_diagonal() != nullptr;
    for (DistributedVector *vector :
         {&cg_residual, &direction, &operator_direction, &preconditioned})
      if (vector->size() == 0 && (vector != &preconditioned || !jacobi))
        vector->reinit(weights.locally_owned_elements(), comm);
    if (!jacobi)
      {
        set_up_masked_system(b);
        preconditioner->initialize(mask);
      }

    // Start from the current w restricted to the unstuck set S (zero on
    // the stuck rows, exactly, and so it stays: r and p vanish there). A w
    // the previous masked solve left at zero needs neither the pass nor a
    // product (a cold start's first real solve).
    const bool w_is_zero        = solution_is_zero;
    solution_is_zero            = false;
    std::array<double, 2> start = {{0., 0.}};
    if (!w_is_zero)
      {
        start = restrict_to_unstuck(b, w);
        MPI_Allreduce(MPI_IN_PLACE, start.data(), 2, MPI_DOUBLE, MPI_SUM, comm);
        if (start[0] == 0) // rhs = 0 (e.g. every row stuck): W = 0
          {
            if (start[1] > 0)
              w = 0;
            solution_is_zero = true;
            return true;
          }
        if (start[1] > 0)
          product(operator_times_w, w);
      }
    // Never below what CG reaches in floating point: the tightest tolerance,
    // relative to |rhs| in the 2-norm. With a KKT target, CG stops as soon
    // as every |r_i| <= target_eta tau c_i (c_min on free rows): the
    // residual in the multiplier units of kkt_residual(), which on the
    // slipping rows is exactly the KKT residual W leaves there.
    CgSums       sums     = first_cg_residual(b, start[1] > 0, target_eta);
    const double rhs_norm = std::sqrt(w_is_zero ? sums.r_dot_r : start[0]);
    if (rhs_norm == 0) // w is zero already
      {
        solution_is_zero = true;
        return true;
      }
    const double tightest  = additional_data.linear_tolerance * rhs_norm;
    const auto   converged = [&](const CgSums &sums) {
      return sums.r_dot_r <= tightest * tightest ||
             (target_eta > 0 && sums.n_above_limit == 0);
    };
    const unsigned int max_steps =
      std::max<unsigned int>(1000, 10 * weights.size());
    unsigned int step = 0;
    while (!converged(sums))
      {
        if (step == max_steps)
          throw SolverControl::NoConvergence(step, std::sqrt(sums.r_dot_r));
        if (step > 0 || !jacobi)
          update_cg_direction(sums, step == 0);
        ++step;
        product(operator_direction, direction);
        const double alpha = sums.r_dot_z / (direction * operator_direction);
        const double previous_r_dot_z = sums.r_dot_z;
        sums                          = advance_cg(alpha, w, target_eta);
        sums.previous_r_dot_z         = previous_r_dot_z;
      }
    linear_iterations += step;
    return sums.r_dot_r <= tightest * tightest;
  }



  std::array<double, 2>
  SemismoothNewtonSolver::restrict_to_unstuck(const DistributedVector &b,
                                              DistributedVector       &w) const
  {
    const bool       zero_start = additional_data.zero_initial_guess;
    ConstLocalValues b_values(b);
    ConstLocalValues c_values(weights);
    LocalValues      x_values(w);
    const State     *state       = states.data();
    const double    *b_data      = b_values.data();
    const double    *c           = c_values.data();
    double          *x           = x_values.data();
    double           rhs_dot_rhs = 0, n_nonzero = 0;
    for (std::size_t k = 0; k < states.size(); ++k)
      {
        const bool   in_set = unstuck(state[k]);
        const double rhs =
          in_set ? b_data[k] - tau * c[k] * sign_of(state[k]) : 0.;
        x[k] = in_set && !zero_start ? x[k] : 0.;
        n_nonzero += x[k] != 0.;
        rhs_dot_rhs += rhs * rhs;
      }
    return {{rhs_dot_rhs, n_nonzero}};
  }



  SemismoothNewtonSolver::CgSums
  SemismoothNewtonSolver::first_cg_residual(const DistributedVector &b,
                                            const bool   subtract_product,
                                            const double target_eta)
  {
    // r = rhs - A_SS w_S on S (A w in operator_times_w when w != 0, where
    // it is otherwise set to 0 for the CG's recurrence), zero elsewhere;
    // with Jacobi also p = D^{-1} r.
    const DistributedVector *jacobi = preconditioner->jacobi_inverse_diagonal();
    ConstLocalValues         b_values(b);
    LocalValues              aw_values(operator_times_w);
    ConstLocalValues         c_values(weights);
    ConstLocalValues         d_values(jacobi ? *jacobi : weights);
    LocalValues              r_values(cg_residual);
    LocalValues              p_values(direction);
    const State             *state         = states.data();
    const double            *inverse_limit = inverse_thresholds.data();
    const double            *b_data        = b_values.data();
    double                  *aw            = aw_values.data();
    const double            *c             = c_values.data();
    const double            *inverse_d     = d_values.data();
    double                  *r             = r_values.data();
    double                  *p             = p_values.data();
    CgSums                   sums;
    for (std::size_t k = 0; k < states.size(); ++k)
      {
        const bool   in_set = unstuck(state[k]);
        const double rhs    = b_data[k] - tau * c[k] * sign_of(state[k]);
        aw[k]               = subtract_product ? aw[k] : 0.;
        r[k]                = in_set ? rhs - aw[k] : 0.;
        if (jacobi)
          {
            p[k] = r[k] * inverse_d[k];
            sums.r_dot_z += r[k] * p[k];
          }
        sums.r_dot_r += r[k] * r[k];
        sums.n_above_limit += std::abs(r[k]) * inverse_limit[k] > target_eta;
      }
    return sum_over_ranks(sums);
  }



  SemismoothNewtonSolver::CgSums
  SemismoothNewtonSolver::advance_cg(const double       alpha,
                                     DistributedVector &w,
                                     const double       target_eta)
  {
    // w += alpha p, A w += alpha A p, r -= alpha A p on S (p = 0 off S, so
    // w stays zero there), and the sums of the next step: one pass. A w by
    // this recurrence saves the product after the solve; it differs from
    // the product by round-off (relative 1e-16 per step), far below any KKT
    // target.
    const DistributedVector *jacobi = preconditioner->jacobi_inverse_diagonal();
    ConstLocalValues         p_values(direction);
    ConstLocalValues         ap_values(operator_direction);
    ConstLocalValues         d_values(jacobi ? *jacobi : weights);
    LocalValues              x_values(w);
    LocalValues              aw_values(operator_times_w);
    LocalValues              r_values(cg_residual);
    const State             *state         = states.data();
    const double            *inverse_limit = inverse_thresholds.data();
    const double            *p             = p_values.data();
    const double            *ap            = ap_values.data();
    const double            *inverse_d     = d_values.data();
    double                  *x             = x_values.data();
    double                  *aw            = aw_values.data();
    double                  *r             = r_values.data();
    CgSums                   sums;
    const auto               pass = [&](const auto with_jacobi) {
      for (std::size_t k = 0; k < states.size(); ++k)
        {
          x[k] += alpha * p[k];
          aw[k] += alpha * ap[k];
          const double residual = unstuck(state[k]) ? r[k] - alpha * ap[k] : 0.;
          r[k]                  = residual;
          if constexpr (decltype(with_jacobi)::value)
            sums.r_dot_z += residual * residual * inverse_d[k];
          sums.r_dot_r += residual * residual;
          sums.n_above_limit +=
            std::abs(residual) * inverse_limit[k] > target_eta;
        }
    };
    if (jacobi)
      pass(std::true_type());
    else
      pass(std::false_type());
    return sum_over_ranks(sums);
  }



  void
  SemismoothNewtonSolver::update_cg_direction(CgSums &sums, const bool first)
  {
    // p = z + beta p with z = P^{-1} r, beta = (r.z)/(r.z)_previous.
    const DistributedVector *jacobi = preconditioner->jacobi_inverse_diagonal();
    if (jacobi == nullptr)
      {
        preconditioner->vmult(preconditioned, cg_residual);
        sums.r_dot_z = cg_residual * preconditioned;
        if (first)
          direction = preconditioned;
        else
          direction.sadd(sums.r_dot_z / sums.previous_r_dot_z,
                         1.,
                         preconditioned);
        return;
      }
    // r = 0 and p = 0 off S: so is the new p.
    const double     beta = sums.r_dot_z / sums.previous_r_dot_z;
    ConstLocalValues r_values(cg_residual);
    ConstLocalValues d_values(*jacobi);
    LocalValues      p_values(direction);
    const double    *r         = r_values.data();
    const double    *inverse_d = d_values.data();
    double          *p         = p_values.data();
    for (std::size_t k = 0; k < states.size(); ++k)
      p[k] = r[k] * inverse_d[k] + beta * p[k];
  }



  SemismoothNewtonSolver::CgSums
  SemismoothNewtonSolver::sum_over_ranks(const CgSums &local) const
  {
    std::array<double, 3> sums = {
      {local.r_dot_z, local.r_dot_r, local.n_above_limit}};
    MPI_Allreduce(MPI_IN_PLACE, sums.data(), 3, MPI_DOUBLE, MPI_SUM, comm);
    CgSums global;
    global.r_dot_z       = sums[0];
    global.r_dot_r       = sums[1];
    global.n_above_limit = sums[2];
    return global;
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
    update_inverse_thresholds();
    solution_is_zero = false; // nothing known of the caller's w
    // Inexact Newton: with a KKT target, each CG solve stops at a residual
    // of target_eta in multiplier units, every |r_i| <= target_eta tau c_i
    // (solve_masked_cg()), which bounds the KKT residual that the CG
    // leaves on the slipping rows by target_eta. The first solve aims at
    // half the KKT target (the other half is a margin for the round-off
    // between the CG's residual and b - A W): warm-started sets are usually
    // the final ones, so one solve ends the step. After a change of the sets
    // the target is the Eisenstat-Walker forcing term (their choice 2,
    // gamma = 0.9) times the KKT residual eta_k reached,
    //   0.9 (eta_k/eta_{k-1})^2 eta_k, within [final target, 0.1]:
    // loose while the residual stalls (sets still moving), the final target
    // when it drops fast (one change is usually the last: a cold start's
    // first real solve is then already the final one, no extra iteration).
    // Stable sets end the step only when the KKT residual meets the target;
    // otherwise the CG is tightened (down to linear_tolerance, where
    // round-off rules and the step is accepted).
    const double c_min =
      additional_data.kkt_tolerance > 0 && uses_cg() ? weight_floor : 0.;
    const bool   forcing      = c_min > 0;
    const double final_eta    = 0.5 * additional_data.kkt_tolerance;
    double       target_eta   = final_eta;
    double       last_eta     = std::numeric_limits<double>::infinity();
    unsigned int last_changed = 0;
    for (unsigned int iteration = 1;
         iteration <= additional_data.max_iterations;
         ++iteration)
      {
        const bool tightest = solve_masked(b, w, forcing ? target_eta : 0.);

        // Multiplier from the residual on the stuck rows; new sets; the
        // KKT residual (with a target).
        const std::pair<unsigned int, double> update =
          update_sets(b, w, lambda, c_min);
        last_changed = Utilities::MPI::sum(update.first, comm);
        const double eta =
          forcing ? Utilities::MPI::max(update.second, comm) : 0.;
        if (last_changed == 0 &&
            (eta <= additional_data.kkt_tolerance || tightest))
          {
            if (&warm_start != &lambda)
              warm_start = lambda;
            return iteration;
          }
        const double ratio = eta / last_eta;
        target_eta =
          last_changed == 0 ?
            std::min(final_eta, 0.1 * target_eta) :
            std::min(0.1, std::max(final_eta, 0.9 * ratio * ratio * eta));
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
  SemismoothNewtonSolver::update_inverse_thresholds()
  {
    // Once per sub-step size (the same on every rank, so the collective
    // minimum below is reached by all or none).
    if (inverse_thresholds_tau == tau)
      return;
    ConstLocalValues c(weights);
    double           c_min = std::numeric_limits<double>::max();
    for (std::size_t k = 0; k < states.size(); ++k)
      if (c[k] > 0 && !fixed_rows[k])
        c_min = std::min(c_min, c[k]);
    c_min        = Utilities::MPI::min(c_min, comm);
    weight_floor = c_min < std::numeric_limits<double>::max() ? c_min : 0.;
    inverse_thresholds.resize(states.size());
    for (std::size_t k = 0; k < states.size(); ++k)
      inverse_thresholds[k] = fixed_rows[k]    ? 0. :
                              c[k] > 0         ? 1. / (tau * c[k]) :
                              weight_floor > 0 ? 1. / (tau * weight_floor) :
                                                 0.;
    inverse_thresholds_tau = tau;
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
        const bool at_rest = !unstuck(states[k]);
        m[k]               = at_rest ? 0. : 1.;
        r[k] = at_rest ? 0. : b_values[k] - tau * c[k] * sign_of(states[k]);
      }
  }



  std::pair<unsigned int, double>
  SemismoothNewtonSolver::update_sets(const DistributedVector &b,
                                      const DistributedVector &w,
                                      DistributedVector       &lambda,
                                      const double             c_min)
  {
    // One pass: the residual r = b - A W (A W in operator_times_w unless
    // W = 0), the multiplier, the new sets and the KKT residual at W with
    // them.
    const bool       zero_product = solution_is_zero;
    const bool       with_kkt     = c_min > 0;
    unsigned int     n_changed    = 0;
    double           eta          = 0;
    ConstLocalValues b_values(b);
    ConstLocalValues aw_values(operator_times_w);
    ConstLocalValues d_values(diagonal);
    ConstLocalValues x_values(w);
    LocalValues      lambda_values(lambda);
    State           *state      = states.data();
    const double    *inverse    = inverse_thresholds.data(); // 1/(tau c_i)
    const double    *b_data     = b_values.data();
    const double    *aw         = aw_values.data();
    const double    *d          = d_values.data();
    const double    *x          = x_values.data();
    double          *multiplier = lambda_values.data();
    for (std::size_t k = 0; k < states.size(); ++k)
      {
        const State old_state = state[k];
        if (old_state == State::fixed)
          continue;
        const double r = zero_product ? b_data[k] : b_data[k] - aw[k];
        if (old_state == State::free)
          {
            multiplier[k] = 0;
            if (with_kkt) // inverse = 1/(tau c_min) on free rows
              eta = std::max(eta, std::abs(r) * inverse[k]);
            continue;
          }
        const double mu       = r * inverse[k];
        const double scaled_w = d[k] * x[k] * inverse[k];
        const State  next     = next_state(old_state, mu, scaled_w);
        multiplier[k]         = old_state == State::stick ?
                                  std::min(1., std::max(-1., mu)) :
                                  sign_of(old_state);
        n_changed += next != old_state;
        state[k] = next;
        if (with_kkt)
          eta = std::max(eta, kkt_residual(next, mu, scaled_w));
      }
    return {n_changed, eta};
  }



  inline SemismoothNewtonSolver::State
  SemismoothNewtonSolver::next_state(const State  state,
                                     const double mu,
                                     const double scaled_w)
  {
    if (state == State::stick)
      return mu > 1. + set_tolerance  ? State::slip_positive :
             mu < -1. - set_tolerance ? State::slip_negative :
                                        State::stick;
    // Keep slipping unless the new velocity clearly points against the
    // multiplier; then stick first. Reversing straight to the opposite slip
    // would trust the diagonal scaling rho_i, which a non-diagonal M (P5a)
    // can defeat: + and - then alternate forever.
    const double sign = sign_of(state);
    const double z    = sign + scaled_w;
    return sign * z < 1. - set_tolerance ? State::stick : state;
  }



  inline double
  SemismoothNewtonSolver::kkt_residual(const State  state,
                                       const double mu,
                                       const double scaled_w)
  {
    const auto project = [](const double x) {
      return std::min(1., std::max(-1., x));
    };
    const double l = project(mu);
    // The sets are kept up to the hysteresis set_tolerance (on a stuck row
    // |mu_i| <= 1 + set_tolerance, on a slipping one the complementarity
    // function within set_tolerance of lambda_i): no CG accuracy removes
    // that part, so it is not counted.
    const double slack           = state == State::stick ? 0. : set_tolerance;
    const double outside         = state == State::stick ?
                                     std::max(0., std::abs(mu) - 1. - set_tolerance) :
                                     std::abs(mu - l);
    const double complementarity = std::abs(l - project(l + scaled_w));
    return std::max(outside, std::max(0., complementarity - slack));
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
