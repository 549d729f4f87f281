#ifndef stickslip_models_ode_ode_parameters_h
#define stickslip_models_ode_ode_parameters_h

#include <deal.II/lac/full_matrix.h>

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <friction/gamma_law.h>

#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The subsection `ODE`: the finite-dof friction system of Glowinski et al.
   * 2006, 2005, M X'' + A X + C (lambda - gamma(X')) = f(t), written in the
   * parameter file. parse() checks what the data must satisfy (M symmetric
   * positive definite, A symmetric positive semidefinite and as large, one
   * value per component in every list, c_i >= 0, beta_i in (0, 1), eps_i > 0)
   * and throws an InputError naming the parameter; the expressions of t are
   * checked by the model, which parses them.
   */
  struct OdeParameters
  {
    FullMatrix<double>  mass;                  ///< M, d x d
    FullMatrix<double>  stiffness;             ///< A, d x d
    std::vector<double> friction_coefficients; ///< diagonal c_i of C
    GammaLaw::Type      gamma;
    /** beta_i, eps_i of gamma (0 and 1 for every component if none). */
    std::vector<double> gamma_beta, gamma_epsilon;
    std::vector<double> initial_displacement; ///< X(t0)
    std::vector<double> initial_velocity;     ///< X'(t0)

    /** f(t): d muParser expressions of t separated by ';'. */
    std::string forcing;
    /** Optional exact solution (blank if not given), same format. */
    std::string exact_displacement, exact_velocity, exact_multiplier;

    static void
    declare_parameters(ParameterHandler &prm);
    void
    parse(ParameterHandler &prm, const ParameterSource &source);

    /** Number of components d. */
    unsigned int
    n_components() const;

  private:
    /** M square, symmetric, positive definite; A as large, symmetric, PSD. */
    void
    check_matrices(const ParameterSource &source) const;
  };
} // namespace stickslip

#endif
