#ifndef stickslip_models_common_model_h
#define stickslip_models_common_model_h

#include <base/checkpoint.h>
#include <base/field_files.h>
#include <friction/friction_state.h>
#include <friction/friction_system.h>
#include <models/common/reference_solution.h>
#include <time/inclusion_form.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace stickslip
{
  /**
   * The wall time of the stages of a model's set-up (the mesh, the
   * unknowns, the operators, ...), for the line of the run's log that says
   * where the set-up went: issue 17 asks for a set-up in proportion to
   * the work, and this is where it is seen.
   */
  class SetupClock
  {
  public:
    SetupClock();

    /** The stage @p name ended now: it took the time since the last lap. */
    void
    lap(const std::string &name);

    /**
     * "mesh 0.81 s, unknowns 0.20 s, ...": each stage's largest time over
     * the ranks of @p comm (collective).
     */
    std::string
    summary(const MPI_Comm comm) const;

  private:
    std::chrono::steady_clock::time_point       last;
    std::vector<std::pair<std::string, double>> stages;
  };



  /**
   * A model whose discretization is a friction system (Glowinski et al. 2006,
   * eq. (4)): its FrictionSystem, an optional exact solution, the norm of its
   * errors, its outputs (history.csv columns, field files) and, as a
   * capability, its form (A.7) of Bastien & Lamarque 2009 for the implicit
   * Euler scheme. Models build their operators in their constructors.
   * FrictionEvolution advances one through the run loop.
   */
  class Model
  {
  public:
    virtual ~Model() = default;

    virtual const FrictionSystem &
    system() const = 0;

    /** The exact solution at the unknowns, or nullptr. */
    virtual const ReferenceSolution *
    exact_reference() const = 0;

    /**
     * Weights w_i of the discrete L2 norm sum_i w_i e_i^2 of errors in x and
     * v, or nullptr for the Euclidean norm (finite-dof models).
     */
    virtual const DistributedVector *
    error_weights() const;

    virtual std::vector<std::string>
    history_columns() const = 0;

    /**
     * One row of history.csv at time @p t. @p dissipated_energy is the
     * friction work since the start, @p iterations the friction-solver
     * iterations since the previous row. At t0 the state's multiplier is
     * the one FrictionEvolution computes from the equation at t0.
     */
    virtual std::vector<double>
    history_row(const double         t,
                const FrictionState &state,
                const double         dissipated_energy,
                const unsigned long  iterations) const = 0;

    /**
     * Kinetic and elastic energy of @p state at @p t, for the summary at the
     * end of a run (collective). The default: 1/2 V.MV and 1/2 X.AX of the
     * system.
     */
    virtual std::pair<double, double>
    energies(const double t, const FrictionState &state) const;

    /** Fill what the system does not evolve (Dirichlet values) at @p t. */
    virtual void
    complete_state(const double t, FrictionState &state) const;

    /** Whether write_fields() writes anything. */
    virtual bool
    has_field_output() const;

    /**
     * Write the fields of @p state as output number @p index through
     * @p files (collective) and return the name of the record file relative
     * to the output directory.
     */
    virtual std::string
    write_fields(const double         t,
                 const FrictionState &state,
                 const unsigned int   index,
                 const FieldFiles    &files) const;

    /**
     * The system in the form X' + M dphi(X) contains G(t, X) of Bastien &
     * Lamarque 2009 (A.7), for Time/Scheme = implicit euler, or nullptr if the
     * model has none (the default; the chain has one).
     */
    virtual const InclusionForm *
    inclusion_form() const;

    virtual std::string
    description() const = 0;

    /**
     * Whether the global numbering of the unknowns is the same for any
     * number of MPI ranks (then a snapshot resumes on any number).
     */
    virtual bool
    numbering_independent_of_partition() const;

    /**
     * Give @p archive the places of the locally owned unknowns, by which a
     * snapshot resumes on another number of ranks where the numbering
     * depends on the partition. The default gives none.
     */
    virtual void
    describe_unknown_locations(CheckpointArchive &archive) const;
  };
} // namespace stickslip

#endif
