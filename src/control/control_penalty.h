#ifndef stickslip_control_control_penalty_h
#define stickslip_control_control_penalty_h

#include <base/checkpoint.h>
#include <control/control_parameters.h>

#include <vector>

namespace stickslip
{
  /** What one simulation with a control v gives the penalty: x(T), x'(T). */
  struct ControlOutcome
  {
    std::vector<double> displacement;
    std::vector<double> velocity;
    /** Friction-solver iterations of the simulation (statistics only). */
    double iterations = 0;
  };



  /**
   * The penalty functions of Glowinski & Kearsley 1995, §3 (doc/theory.md §3.6)
   * for the direct search: P (3.1) and Pi_K (3.4)-(3.8), with constant or
   * dynamic penalty parameters (3.2)-(3.3). Both depend on the best control v^c
   * of the preceding simplex, set by update() after every simplex.
   */
  class ControlPenalty
  {
  public:
    ControlPenalty(const ControlParameters &parameters, const double duration);

    /** The cost J(v) = int_0^T N v.v dt = T N v.v of (2.4). */
    double
    cost(const std::vector<double> &control) const;

    /** The penalty of @p control with outcome @p outcome, given v^c. */
    double
    value(const std::vector<double> &control,
          const ControlOutcome      &outcome) const;

    /** v^c <- @p best; rho_1, rho_2, rho_3 by (3.2), (3.3), (3.8) if dynamic.
     */
    void
    update(const std::vector<double> &best, const ControlOutcome &outcome);

    /** E^1_inf of (4.1): |x(T) - x_T|_inf / max(1, |x_T|_inf). */
    double
    displacement_error(const ControlOutcome &outcome) const;

    /** E^2_inf of (4.2), or 0 without a velocity target. */
    double
    velocity_error(const ControlOutcome &outcome) const;

    /** Everything update() changes, for snapshots of the search. */
    void
    register_state(CheckpointArchive &archive);

    double rho_1, rho_2, rho_3;

  private:
    /** The constraint residual (x(T) - x_T, x'(T) - x'_T) in the norm K. */
    double
    constraint_norm(const ControlOutcome &outcome, const double k) const;

    const ControlParameters &parameters;
    const double             duration;
    /** v^c: its cost, its norm K by (3.7) and G_K(v^c). */
    bool   has_best;
    double best_cost;
    double norm_k;
    double best_violation;
  };
} // namespace stickslip

#endif
