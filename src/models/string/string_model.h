#ifndef stickslip_models_string_string_model_h
#define stickslip_models_string_string_model_h

#include <deal.II/base/function_parser.h>
#include <deal.II/base/point.h>

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/fe/fe_q.h>

#include <deal.II/grid/tria.h>

#include <deal.II/lac/affine_constraints.h>

#include <base/input_error.h>
#include <linear_algebra/operator_action.h>
#include <models/common/model.h>
#include <models/string/string_parameters.h>
#include <time/time_parameters.h>

#include <map>
#include <memory>
#include <vector>

namespace stickslip
{
  struct OperatorRows;

  /**
   * The frictional wave string (Glowinski et al. 2006, Remark 2.4, (23);
   * doc/theory.md §2) and, for dim = 2, the membrane sliding on a plane
   * (doc/theory.md §2.4):
   *
   *   (1/c^2) u_tt - Laplace u + g lambda = f,  lambda in Sgn(u_t) pointwise,
   *   u = u_D on the Dirichlet boundary, du/dn = 0 elsewhere.
   *
   * FE_Q(p) (Gauss-Lobatto support points) gives M = (1/c^2) (phi_i, phi_j),
   * consistent or lumped by the Gauss-Lobatto rule, A = (grad phi_i, grad
   * phi_j), and the diagonal C = g_i w_i with the nodal weights w_i = int
   * phi_i by the same rule, so that lambda is nodal and Lambda a box (§2.3).
   * Dirichlet unknowns are decoupled (constrained rows and columns) and set
   * to u_D(t) after every step; the elastic step couples the interior to
   * them through the unconstrained M and A (FrictionSystem::prescribed_values).
   * dim = 1 on the interval uses parallel::fullydistributed::Triangulation<1>
   * on several ranks, built from a per-rank description (a contiguous block
   * of cells plus one ghost cell per side; deal.II 9.4 has no p4est in 1D),
   * on one rank, for a 1D gmsh mesh or with String/Triangulation = shared
   * parallel::shared::Triangulation<1> (make_string_grid()), dim = 2
   * parallel::distributed::Triangulation<2>. Only what the scheme reads is
   * built: a lumped M is a diagonal, the unconstrained M and A exist only
   * for a driven boundary, and with String/Stiffness operator or String/Mass
   * operator = matrix-free that operator is a MatrixFreeStringOperator
   * (matrix_free_operator.h) with no matrix.
   *
   * The parameters are StringParameters (string_parameters.h), the mesh is
   * built by make_string_grid() (string_grid.h), the operators by
   * StringAssembler (string_assembler.h), the exact solution is a
   * FieldReference (field_reference.h).
   */
  template <int dim>
  class StringModel : public Model
  {
  public:
    /**
     * The model of @p parameters (parsed for Dimension = dim) on @p comm;
     * @p time gives t0, at which u_D should match u0. Every error names its
     * parameter (@p source).
     */
    StringModel(const StringParameters &parameters,
                const Parameters::Time &time,
                const ParameterSource  &source,
                const MPI_Comm          comm);

    ~StringModel() override;

    const FrictionSystem &
    system() const override;

    const ReferenceSolution *
    exact_reference() const override;

    const DistributedVector *
    error_weights() const override;

    std::vector<std::string>
    history_columns() const override;

    std::pair<double, double>
    energies(const double t, const FrictionState &state) const override;

    std::vector<double>
    history_row(const double         t,
                const FrictionState &state,
                const double         dissipated_energy,
                const unsigned long  iterations) const override;

    void
    complete_state(const double t, FrictionState &state) const override;

    bool
    has_field_output() const override;

    std::string
    write_fields(const double         t,
                 const FrictionState &state,
                 const unsigned int   index,
                 const FieldFiles    &files) const override;

    std::string
    description() const override;

    /** The support points of the owned DoFs (p4est numbers by partition). */
    void
    describe_unknown_locations(CheckpointArchive &archive) const override;

    /** Number of unknowns (all DoFs, Dirichlet ones included). */
    types::global_dof_index
    n_dofs() const;

  private:
    /** The functions of the expressions of @p parameters. */
    void
    parse_functions(const StringParameters &parameters,
                    const ParameterSource  &source);

    /**
     * Distribute the DoFs, find their support points and the Dirichlet
     * DoFs on @p dirichlet_ids, size the operators; the constraints that
     * decouple the Dirichlet DoFs.
     */
    AffineConstraints<double>
    setup_system(const std::vector<types::boundary_id> &dirichlet_ids,
                 SetupClock                            &clock);

    /** The support points of the owned DoFs, in local order. */
    std::vector<Point<dim>>
    owned_support_points() const;

    /**
     * Decide which operators exist (the unconstrained ones only for a
     * driven boundary: @p has_dirichlet and u_D != 0) and, for dim = 2,
     * size system.mass and system.stiffness (and those) by their sparsity
     * pattern; in 1D StringAssembler makes them from the cells' couplings,
     * and a lumped M is a diagonal in either dimension (no matrix).
     */
    void
    size_operators(const bool has_dirichlet);

    /**
     * Free what only the set-up read: the support points and the nodal
     * weights of a run with no forcing and no exact solution (then only the
     * Dirichlet DoFs' points are kept; a checkpoint recomputes the others).
     */
    void
    release_set_up_data();

    /**
     * String/Stiffness operator or Mass operator = matrix-free: A (with
     * the row data @p stiffness_rows) and M (with @p mass_rows; c(x) from
     * String/Wave speed = @p wave_speed_text) as MatrixFreeStringOperators
     * on one set of cells with @p constraints and, for a driven boundary,
     * the unconstrained ones. A null row set: that operator is assembled.
     */
    void
    set_up_matrix_free_operators(const AffineConstraints<double> &constraints,
                                 const OperatorRows *stiffness_rows,
                                 const OperatorRows *mass_rows,
                                 const std::string  &wave_speed_text);

    /** gamma and the initial data u0, u1 at the nodes. */
    void
    set_initial_data(const StringParameters &parameters);

    /**
     * Warn (rank 0) if u_D(., @p t0) differs from u0 on the Dirichlet
     * boundary: the boundary values win (complete_state), a jump.
     */
    void
    warn_if_dirichlet_data_differ(const double           t0,
                                  const ParameterSource &source) const;

    /** f(t) and, for driven boundaries, the prescribed values u_D(t). */
    void
    set_forcing_and_boundary_values();

    /** Evaluate @p function at the owned support points into @p values. */
    void
    interpolate_nodal(const Function<dim> &function,
                      const std::string   &name,
                      const double         t,
                      DistributedVector   &values) const;

    /**
     * Note @p value of the data String/@p name at the node at @p point and
     * time @p t for the check that data are finite.
     */
    void
    note_value(const std::string &name,
               const double       t,
               const Point<dim>  &point,
               const double       value) const;

    const MPI_Comm                      comm;
    std::unique_ptr<Triangulation<dim>> triangulation;
    std::unique_ptr<FE_Q<dim>>          fe;
    DoFHandler<dim>                     dof_handler;
    IndexSet                            locally_relevant;
    const unsigned int                  degree;
    const bool                          lumped;
    const bool                          matrix_free;      ///< A
    const bool                          matrix_free_mass; ///< consistent M
    /** Dirichlet DoFs with u_D != 0: the unconstrained operators exist. */
    bool driven = false;
    /**
     * The support points of the owned DoFs (local order); empty after the
     * set-up when nothing reads them again (release_set_up_data()).
     */
    std::vector<Point<dim>> owned_points;
    /** Owned DoFs on the Dirichlet boundary (local indices), their points. */
    std::vector<unsigned int> dirichlet_local;
    std::vector<Point<dim>>   dirichlet_points;
    bool                      dirichlet_zero;
    double                    min_cell_diameter;

    std::unique_ptr<FunctionParser<dim>> wave_speed, friction, forcing,
      dirichlet, initial_displacement, initial_velocity, exact_u, exact_v,
      exact_lambda;
    bool forcing_zero;
    /** The text of each data parameter, by name (String/<name>). */
    std::map<std::string, std::string> data_texts;
    std::string                        variables;

    FrictionSystem friction_system;
    /**
     * M and A without the constraints, only for a driven boundary (u_D !=
     * 0; for a lumped M not even then: it is the same matrix).
     */
    std::unique_ptr<DistributedMatrix> full_mass, full_stiffness;
    /** The unconstrained A and M of a driven boundary, when matrix-free. */
    std::shared_ptr<const OperatorAction> full_stiffness_action,
      full_mass_action;
    /** Where the set-up of the model went ("mesh 0.8 s, ..."). */
    std::string setup_times;
    /** w_i = int phi_i (GLL); empty after the set-up if unread. */
    DistributedVector                  nodal_weights;
    std::unique_ptr<ReferenceSolution> reference;
  };
} // namespace stickslip

#endif
