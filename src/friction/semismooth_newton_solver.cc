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
      dense_factors = MaskedCholeskyFactors(system.replicated_mass());
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
    return !diagonal_operator && dense_factors.size() == 0;
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
    // The right-hand side of S, b_i - tau c_i lambda_i, is formed on the
    // fly from b and the sets (UnstuckRows); only a preconditioner other
    // than Jacobi needs the mask as a vector.
    if (preconditioner->jacobi_inverse_diagonal() == nullptr)
      {
        set_up_masked_system(b);
        preconditioner->initialize(mask);
      }
    if (!cg)
      cg = std::make_unique<MaskedCG>(product,
                                      *preconditioner,
                                      additional_data.linear_tolerance,
                                      additional_data.zero_initial_guess);
    ConstLocalValues  b_values(b);
    ConstLocalValues  c_values(weights);
    const UnstuckRows rows{states.data(),
                           b_values.data(),
                           c_values.data(),
                           tau};
    // With a KKT target, CG stops as soon as every |r_i| <= target_eta tau
    // c_i (c_min on free rows): the residual in the multiplier units of
    // StickSlipSets::kkt_residual(), which on the slipping rows is exactly
    // the KKT residual W leaves there.
    return cg->solve(rows,
                     inverse_thresholds.data(),
                     target_eta,
                     w,
                     operator_times_w,
                     solution_is_zero);
  }



  void
  SemismoothNewtonSolver::solve_masked_dense(
    const DistributedVector &right_hand_side,
    DistributedVector       &w)
  {
    // M restricted to the unstuck rows S, identical on every rank (w = 0
    // off S), by the kept factors of the last sets.
    replicate(mask, comm, replicated_mask);
    dense_mask.resize(replicated_mask.size());
    for (unsigned int i = 0; i < replicated_mask.size(); ++i)
      dense_mask[i] = replicated_mask[i] > 0;
    replicate(right_hand_side, comm, replicated_rhs);
    dense_factors.solve(dense_mask,
                        replicated_rhs.begin(),
                        replicated_rhs.begin());
    copy_owned(replicated_rhs, w);
    ++linear_iterations;
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
    throw StickSlipSets::not_settled(additional_data.description,
                                     additional_data.max_iterations,
                                     last_changed,
                                     additional_data.advice);
  }



  void
  SemismoothNewtonSolver::initialize_sets(const DistributedVector &warm_start)
  {
    ConstLocalValues start(warm_start);
    ConstLocalValues c(weights);
    for (std::size_t k = 0; k < states.size(); ++k)
      states[k] = StickSlipSets::initial_state(fixed_rows[k], c[k], start[k]);
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
    StickSlipSets::set_up_masked_system(states.size(),
                                        states.data(),
                                        b_values.data(),
                                        c.data(),
                                        tau,
                                        r.data(),
                                        m.data());
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
    ConstLocalValues b_values(b);
    ConstLocalValues aw_values(operator_times_w);
    ConstLocalValues d_values(diagonal);
    ConstLocalValues x_values(w);
    LocalValues      lambda_values(lambda);
    return StickSlipSets::update(states.size(),
                                 states.data(),
                                 b_values.data(),
                                 solution_is_zero ? nullptr : aw_values.data(),
                                 d_values.data(),
                                 x_values.data(),
                                 inverse_thresholds.data(),
                                 lambda_values.data(),
                                 c_min > 0);
  }



  std::string
  SemismoothNewtonSolver::name() const
  {
    return "semismooth newton";
  }



  unsigned long
  SemismoothNewtonSolver::n_linear_iterations() const
  {
    return linear_iterations + (cg ? cg->n_iterations() : 0);
  }
} // namespace stickslip
