#ifndef stickslip_linear_algebra_masked_cg_h
#define stickslip_linear_algebra_masked_cg_h

#include <deal.II/lac/solver_control.h>

#include <base/global.h>
#include <base/local_values.h>
#include <linear_algebra/masked_preconditioner.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <optional>
#include <type_traits>

namespace stickslip
{
  /**
   * Preconditioned conjugate gradients for A_SS w_S = rhs_S on a subset S
   * of the rows of an SPD operator A (distributed by rows), w = 0 off S: the
   * masked solves of an active-set method (SemismoothNewtonSolver, where S
   * is the set of unstuck rows). The set and the right-hand side come from
   * a Rows object, asked per owned row k inside the passes (so that neither
   * is formed as a vector):
   *
   *   bool   in_set(k) const;   // k in S
   *   double rhs(k) const;      // rhs_k (read on S only)
   *
   * The CG is fused for memory traffic: with the Jacobi preconditioner of a
   * MaskedPreconditioner (jacobi_inverse_diagonal()) every iteration is one
   * product with A, one dot product and two passes over the vectors; A w is
   * kept up to date by the recurrence (no product after the solve), and w
   * starts from the caller's w restricted to S. It stops at |r|_2 <=
   * tolerance |rhs|_2 or, with a target eta > 0, as soon as every
   * |r_i| l_i <= eta for given row weights l_i (an inexact Newton method's
   * forcing term in its own units).
   */
  class MaskedCG
  {
  public:
    /** y = A x on the owned rows (collective). */
    using Product =
      std::function<void(DistributedVector &, const DistributedVector &)>;

    /**
     * @p product A (must outlive the solver), @p preconditioner its
     * preconditioner (initialized by the caller for the mask of S when it is
     * not Jacobi), @p tolerance the relative tolerance, @p zero_start to
     * start every solve from w = 0 instead.
     */
    MaskedCG(const Product        &product,
             MaskedPreconditioner &preconditioner,
             const double          tolerance,
             const bool            zero_start);

    /**
     * Solve on S for @p w, from @p w restricted to S (or zero), with A w in
     * @p product_of_w afterwards (unless the solution is zero). Stops as
     * described above with target @p target_eta and the row weights
     * @p inverse_limits (owned rows; unused when @p target_eta = 0).
     * @p w_is_zero says on entry that w = 0 (A w is then not formed) and on
     * exit that the solution is zero (then @p product_of_w is not set).
     * Returns whether the solve reached the tolerance (not only the
     * target). Throws SolverControl::NoConvergence after max(1000, 10 n)
     * iterations.
     */
    template <class Rows>
    bool
    solve(const Rows        &rows,
          const double      *inverse_limits,
          const double       target_eta,
          DistributedVector &w,
          DistributedVector &product_of_w,
          bool              &w_is_zero);

    /** The CG iterations of every solve so far. */
    unsigned long
    n_iterations() const;

  private:
    /** What one pass sums over the rows (all ranks). */
    struct Sums
    {
      double r_dot_z          = 0; ///< r.P^{-1}r (by the Jacobi passes)
      double r_dot_r          = 0;
      double n_above_limit    = 0; ///< rows with |r_i| l_i above the target
      double previous_r_dot_z = 0; ///< of the previous step
    };

    /** Sized on the first solve: an exact solver never needs them. */
    void
    reinit_vectors(const DistributedVector &layout, const bool jacobi);

    /**
     * w <- w restricted to S (zero with zero_start); returns this rank's
     * |rhs|^2 and its number of non-zero entries of w.
     */
    template <class Rows>
    std::array<double, 2>
    restrict_to_set(const Rows &rows, DistributedVector &w) const;

    /**
     * The first residual r = rhs - A_SS w_S on S, zero elsewhere (A w in
     * @p product_of_w if @p subtract_product, else set to zero), and with
     * Jacobi the first direction p = D^{-1} r.
     */
    template <class Rows>
    Sums
    first_residual(const Rows        &rows,
                   DistributedVector &product_of_w,
                   const bool         subtract_product,
                   const double      *inverse_limits,
                   const double       target_eta);

    /** w += alpha p, A w += alpha A p, r -= alpha A p on S, and the sums. */
    template <class Rows>
    Sums
    advance(const Rows        &rows,
            const double       alpha,
            DistributedVector &w,
            DistributedVector &product_of_w,
            const double      *inverse_limits,
            const double       target_eta);

    /** p <- P^{-1} r + beta p (p <- P^{-1} r when @p first). */
    void
    update_direction(Sums &sums, const bool first);

    Sums
    sum_over_ranks(const Sums &local, const MPI_Comm comm) const;

    const Product        &product;
    MaskedPreconditioner &preconditioner;
    const double          tolerance;
    const bool            zero_start;
    /** r, p, A p and P^{-1} r (the last only without Jacobi). */
    DistributedVector residual, direction, product_of_direction, preconditioned;
    unsigned long     iterations;
  };



  template <class Rows>
  bool
  MaskedCG::solve(const Rows        &rows,
                  const double      *inverse_limits,
                  const double       target_eta,
                  DistributedVector &w,
                  DistributedVector &product_of_w,
                  bool              &w_is_zero)
  {
    const bool     jacobi = preconditioner.jacobi_inverse_diagonal() != nullptr;
    const MPI_Comm comm   = w.get_mpi_communicator();
    reinit_vectors(w, jacobi);

    // Start from the current w restricted to S (zero off S, exactly, and so
    // it stays: r and p vanish there). A w that is zero needs neither the
    // pass nor a product (a cold start's first real solve).
    const bool            start_is_zero = w_is_zero;
    std::array<double, 2> start         = {{0., 0.}};
    w_is_zero                           = false;
    if (!start_is_zero)
      {
        start = restrict_to_set(rows, w);
        MPI_Allreduce(MPI_IN_PLACE, start.data(), 2, MPI_DOUBLE, MPI_SUM, comm);
        if (start[0] == 0) // rhs = 0 (e.g. every row outside S): w = 0
          {
            if (start[1] > 0)
              w = 0;
            w_is_zero = true;
            return true;
          }
        if (start[1] > 0)
          product(product_of_w, w);
      }
    // Never below what CG reaches in floating point: the tolerance relative
    // to |rhs| in the 2-norm. With a target, CG stops as soon as every
    // |r_i| l_i <= target_eta.
    Sums sums = first_residual(
      rows, product_of_w, start[1] > 0, inverse_limits, target_eta);
    const double rhs_norm = std::sqrt(start_is_zero ? sums.r_dot_r : start[0]);
    if (rhs_norm == 0) // w is zero already
      {
        w_is_zero = true;
        return true;
      }
    const double tightest  = tolerance * rhs_norm;
    const auto   converged = [&](const Sums &sums) {
      return sums.r_dot_r <= tightest * tightest ||
             (target_eta > 0 && sums.n_above_limit == 0);
    };
    const unsigned int max_steps = std::max<unsigned int>(1000, 10 * w.size());
    unsigned int       step      = 0;
    while (!converged(sums))
      {
        if (step == max_steps)
          throw SolverControl::NoConvergence(step, std::sqrt(sums.r_dot_r));
        if (step > 0 || !jacobi)
          update_direction(sums, step == 0);
        ++step;
        product(product_of_direction, direction);
        const double alpha = sums.r_dot_z / (direction * product_of_direction);
        const double previous_r_dot_z = sums.r_dot_z;
        sums =
          advance(rows, alpha, w, product_of_w, inverse_limits, target_eta);
        sums.previous_r_dot_z = previous_r_dot_z;
      }
    iterations += step;
    return sums.r_dot_r <= tightest * tightest;
  }



  template <class Rows>
  std::array<double, 2>
  MaskedCG::restrict_to_set(const Rows &rows, DistributedVector &w) const
  {
    LocalValues x_values(w);
    double     *x           = x_values.data();
    double      rhs_dot_rhs = 0, n_nonzero = 0;
    for (std::size_t k = 0; k < x_values.size(); ++k)
      {
        const bool   in_set = rows.in_set(k);
        const double rhs    = in_set ? rows.rhs(k) : 0.;
        x[k]                = in_set && !zero_start ? x[k] : 0.;
        n_nonzero += x[k] != 0.;
        rhs_dot_rhs += rhs * rhs;
      }
    return {{rhs_dot_rhs, n_nonzero}};
  }



  template <class Rows>
  MaskedCG::Sums
  MaskedCG::first_residual(const Rows        &rows,
                           DistributedVector &product_of_w,
                           const bool         subtract_product,
                           const double      *inverse_limits,
                           const double       target_eta)
  {
    // r = rhs - A_SS w_S on S (A w in product_of_w when w != 0, where it is
    // otherwise set to 0 for the recurrence), zero elsewhere; with Jacobi
    // also p = D^{-1} r.
    const DistributedVector *jacobi = preconditioner.jacobi_inverse_diagonal();
    std::optional<ConstLocalValues> d_values;
    if (jacobi)
      d_values.emplace(*jacobi);
    LocalValues   aw_values(product_of_w);
    LocalValues   r_values(residual);
    LocalValues   p_values(direction);
    double       *aw        = aw_values.data();
    const double *inverse_d = jacobi ? d_values->data() : nullptr;
    double       *r         = r_values.data();
    double       *p         = p_values.data();
    Sums          sums;
    for (std::size_t k = 0; k < r_values.size(); ++k)
      {
        const bool   in_set = rows.in_set(k);
        const double rhs    = rows.rhs(k);
        aw[k]               = subtract_product ? aw[k] : 0.;
        r[k]                = in_set ? rhs - aw[k] : 0.;
        if (jacobi)
          {
            p[k] = r[k] * inverse_d[k];
            sums.r_dot_z += r[k] * p[k];
          }
        sums.r_dot_r += r[k] * r[k];
        sums.n_above_limit += std::abs(r[k]) * inverse_limits[k] > target_eta;
      }
    return sum_over_ranks(sums, residual.get_mpi_communicator());
  }



  template <class Rows>
  MaskedCG::Sums
  MaskedCG::advance(const Rows        &rows,
                    const double       alpha,
                    DistributedVector &w,
                    DistributedVector &product_of_w,
                    const double      *inverse_limits,
                    const double       target_eta)
  {
    // w += alpha p, A w += alpha A p, r -= alpha A p on S (p = 0 off S, so
    // w stays zero there), and the sums of the next step: one pass. A w by
    // this recurrence saves the product after the solve; it differs from
    // the product by round-off (relative 1e-16 per step), far below any
    // target.
    const DistributedVector *jacobi = preconditioner.jacobi_inverse_diagonal();
    std::optional<ConstLocalValues> d_values;
    if (jacobi)
      d_values.emplace(*jacobi);
    ConstLocalValues p_values(direction);
    ConstLocalValues ap_values(product_of_direction);
    LocalValues      x_values(w);
    LocalValues      aw_values(product_of_w);
    LocalValues      r_values(residual);
    const double    *p         = p_values.data();
    const double    *ap        = ap_values.data();
    const double    *inverse_d = jacobi ? d_values->data() : nullptr;
    double          *x         = x_values.data();
    double          *aw        = aw_values.data();
    double          *r         = r_values.data();
    Sums             sums;
    const auto       pass = [&](const auto with_jacobi) {
      for (std::size_t k = 0; k < r_values.size(); ++k)
        {
          x[k] += alpha * p[k];
          aw[k] += alpha * ap[k];
          const double residual = rows.in_set(k) ? r[k] - alpha * ap[k] : 0.;
          r[k]                  = residual;
          if constexpr (decltype(with_jacobi)::value)
            sums.r_dot_z += residual * residual * inverse_d[k];
          sums.r_dot_r += residual * residual;
          sums.n_above_limit +=
            std::abs(residual) * inverse_limits[k] > target_eta;
        }
    };
    if (jacobi)
      pass(std::true_type());
    else
      pass(std::false_type());
    return sum_over_ranks(sums, residual.get_mpi_communicator());
  }
} // namespace stickslip

#endif
