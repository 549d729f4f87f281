#ifndef stickslip_time_elastic_substeps_h
#define stickslip_time_elastic_substeps_h

#include <friction/replicated_system.h>
#include <linear_algebra/dense_tools.h>
#include <linear_algebra/spd_solver.h>
#include <time/time_integrator.h>

#include <type_traits>

namespace stickslip
{
  /**
   * The elastic step of the splitting schemes (Glowinski et al. 2006, eqs.
   * (12)/(19)): M X'' + A X = 0 over one time step, by Q centered sub-steps
   * (55)-(57), M (X^{q+1} - 2X^q + X^{q-1})/tau^2
   *     + A (alpha X^{q+1} + (1 - 2 alpha) X^q + alpha X^{q-1}) = 0,
   * each a solve with K = M + alpha tau^2 A (factorized once; with a
   * matrix-free A, conjugate gradients on M x + alpha tau^2 A x). For alpha <
   * 1/4 the stability condition tau < 1/sqrt((1/4 - alpha) nu_d), nu_d =
   * lambda_max(M^{-1} A), is checked in the constructor. Only what the
   * step uses is held: alpha = 0 with a diagonal M and no prescribed values
   * is the leapfrog with 1/m (no K, no solver), and when the steps run as
   * a FusedLieStep (@p fused) nothing but the stability check is done.
   *
   * Written once for both kinds of system: FrictionSystem (distributed
   * vectors, K solved by SpdSolver, prescribed values) and ReplicatedSystem
   * (a tiny system whole on every rank, K solved by ReplicatedSpdSolver;
   * its constructor leaves the stability check to the distributed step of
   * the same system).
   */
  template <class System>
  class ElasticSubsteps
  {
  public:
    using Vector = typename System::Vector;

    ElasticSubsteps(const System                   &system,
                    const Parameters::Splitting    &splitting,
                    const Parameters::LinearSolver &linear_solver,
                    const ParameterSource          &source,
                    const double                    step_length,
                    const bool                      fused = false);

    ~ElasticSubsteps();

    /**
     * Advance (X, V) over @p step (of the length given to the
     * constructor); prescribed values are read at step.substep_time(q, Q),
     * X^Q exactly at step.next_time.
     */
    void
    advance(const TimeStep &step, Vector &displacement, Vector &velocity);

    /** nu_d = lambda_max(M^{-1} A) (computed only when alpha < 1/4). */
    double
    largest_frequency_squared() const;

    std::string
    description() const;

  private:
    /** The vectors are whole on every rank (ReplicatedSystem). */
    static constexpr bool on_arrays = std::is_same_v<System, ReplicatedSystem>;

    /** K = M + alpha tau^2 A as a matrix, and its solver. */
    void
    set_up_operator_matrix();

    /**
     * K applied as M x + alpha tau^2 (A x) when M, or A of an implicit
     * step, has no entries (FrictionSystem::mass_action,
     * stiffness_action): CG with K's diagonal.
     */
    void
    set_up_matrix_free_operator();

    /** The alpha = 0, diagonal-M case: leapfrog with fused passes. */
    void
    explicit_leapfrog(Vector &displacement, Vector &velocity);

    /**
     * With prescribed values, @p rhs of the solve for the sub-step ending at
     * @p time gets them (FrictionSystem::impose_prescribed()).
     */
    void
    impose_prescribed(const double time, Vector &rhs);

    /**
     * Check tau against the stability limit (alpha < 1/4): an InputError
     * naming Splitting/Elastic implicitness.
     */
    void
    check_stability(const Parameters::LinearSolver &linear_solver,
                    const ParameterSource          &source);

    const System      &system;
    const double       alpha;
    const unsigned int n_sub;
    const double       tau;
    /** alpha = 0, diagonal M, nothing prescribed: explicit_leapfrog(). */
    const bool        leapfrog;
    DistributedMatrix operator_matrix; ///< M + alpha tau^2 A
    std::conditional_t<on_arrays, ReplicatedSpdSolver, SpdSolver> solver;
    double                                                        nu_d;
    Vector previous, current, next, rhs, scratch;
    Vector prescribed, operator_diagonal, inverse_mass_diagonal;
    /** A x inside a matrix-free product with K. */
    mutable Vector stiffness_product;
  };

  // The set-up differs between the two systems (K and its solver).
  template <>
  ElasticSubsteps<FrictionSystem>::ElasticSubsteps(
    const FrictionSystem &,
    const Parameters::Splitting &,
    const Parameters::LinearSolver &,
    const ParameterSource &,
    const double,
    const bool);
  template <>
  ElasticSubsteps<ReplicatedSystem>::ElasticSubsteps(
    const ReplicatedSystem &,
    const Parameters::Splitting &,
    const Parameters::LinearSolver &,
    const ParameterSource &,
    const double,
    const bool);
  template <>
  void
  ElasticSubsteps<FrictionSystem>::check_stability(
    const Parameters::LinearSolver &,
    const ParameterSource &);
  template <>
  void
  ElasticSubsteps<FrictionSystem>::set_up_operator_matrix();
  template <>
  void
  ElasticSubsteps<FrictionSystem>::set_up_matrix_free_operator();

  extern template class ElasticSubsteps<FrictionSystem>;
  extern template class ElasticSubsteps<ReplicatedSystem>;
} // namespace stickslip

#endif
