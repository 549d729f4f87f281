#ifndef stickslip_control_control_parameters_h
#define stickslip_control_control_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The optimal control problem of Glowinski & Kearsley 1995, §2-3
   * (doc/theory.md §3.5-3.7): minimize int_0^T N v.v dt over constant controls
   * v entering as f + B v, subject to x(T) = x_T and, where given, x'(T) =
   * x'_T, by a penalty function and the parallel direct search. Subsection
   * "Control".
   */
  struct ControlParameters
  {
    enum class Penalty
    {
      exact,     ///< P of (3.1)
      adaptive_k ///< Pi_K of (3.4)-(3.8)
    };

    bool                enabled;
    std::vector<double> target_displacement;
    std::vector<double> target_velocity; ///< empty: no velocity target
    std::vector<double> control_matrix;  ///< diagonal of B
    std::vector<double> cost_matrix;     ///< diagonal of N
    std::vector<double> initial_control;
    double              initial_simplex_size;
    Penalty             penalty;
    bool                dynamic_rho; ///< (3.2)-(3.3), (3.8)
    double              rho;         ///< constant rho, cap of the dynamic one
    double              initial_dynamic_rho;
    std::vector<double> search_scales; ///< the PDS template
    double              tolerance;
    unsigned int        max_simplexes;
    unsigned int        ranks_per_simulation;

    static void
    declare_parameters(ParameterHandler &prm);

    /** Whether Control/Enabled is set (to choose the study before parsing). */
    static bool
    enabled_in(ParameterHandler &prm);

    /**
     * Read and check; @p d is the number of unknowns of the model (a
     * finite-dof model: the caller checks that the control applies).
     */
    void
    parse(ParameterHandler      &prm,
          const ParameterSource &source,
          const unsigned int     d,
          const MPI_Comm         comm);

  private:
    /**
     * The targets, B, N, v^0 and the search template from their texts
     * (x_T, x'_T, B, N, v^0, template), checked for their lengths.
     */
    void
    parse_vectors(const std::vector<std::string> &texts,
                  const unsigned int              d,
                  const ParameterSource          &source);

    /** Range checks of the values read. */
    void
    check(const ParameterSource &source,
          const std::string     &n_text,
          const std::string     &scheme_text,
          const MPI_Comm         comm) const;
  };
} // namespace stickslip

#endif
