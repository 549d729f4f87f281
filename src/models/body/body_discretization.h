#ifndef stickslip_models_body_body_discretization_h
#define stickslip_models_body_body_discretization_h

#include <deal.II/base/function.h>

#include <deal.II/distributed/tria.h>

#include <deal.II/dofs/dof_handler.h>

#include <deal.II/fe/fe_system.h>

#include <deal.II/lac/affine_constraints.h>

#include <base/global.h>
#include <models/body/body_parameters.h>
#include <models/body/stiffness_operator.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stickslip
{
  class SetupClock;

  namespace Body
  {
    /**
     * A node of the mesh as the nodal kernels see it: the local indices
     * (into the owned range of the vectors) of its dim unknowns, and where
     * it is.
     */
    template <int dim>
    struct Node
    {
      std::array<unsigned int, dim> unknowns;
      Point<dim>                    point;
    };

    /** One traction datum: t(x, t) on the faces of some boundary ids. */
    template <int dim>
    struct Traction
    {
      std::vector<types::boundary_id> boundary_ids;
      const Function<dim>            *value;
    };

    /**
     * The finite-element discretization of the body: the p4est mesh,
     * FE_Q(p)^dim with Gauss-Lobatto nodes, the DoFs and the periodic
     * constraints, the matrix-free stiffness operator, and the nodal
     * integrals the explicit scheme needs (doc/body.md): the lumped mass
     * m_i, the nodal boundary weights A_i = int_Gamma phi_i and volume
     * weights int_Omega phi_i (Gauss-Lobatto rules, so that every nodal
     * quantity is a diagonal), and the consistent load vector of body
     * forces and tractions. The nodes of the owned range that are not
     * constrained (periodic copies are) carry the dynamics.
     */
    template <int dim>
    class BodyDiscretization
    {
    public:
      /**
       * The mesh, the DoFs and constraints, the stiffness operator; with a
       * @p clock, each of the three is a stage of it ("mesh", "unknowns",
       * "operator").
       */
      BodyDiscretization(const BodyParameters  &parameters,
                         const ParameterSource &source,
                         const MPI_Comm         comm,
                         SetupClock            *clock = nullptr);

      const DoFHandler<dim> &
      dof_handler() const;

      const FESystem<dim> &
      fe() const;

      const AffineConstraints<double> &
      constraints() const;

      const StiffnessOperator<dim> &
      stiffness() const;

      /**
       * Why Body/Stiffness operator = auto chose stiffness() (e.g. "1
       * distinct cell shape" for the element kernels); empty if
       * the parameter named the operator.
       */
      const std::string &
      stiffness_choice() const;

      MPI_Comm
      communicator() const;

      /** A vector of the operator's partition (ghosts for the cell loop). */
      void
      initialize_vector(BodyVector &vector) const;

      types::global_dof_index
      n_dofs() const;

      unsigned int
      n_active_cells() const;

      double
      smallest_cell_diameter() const;

      /**
       * The size of the largest cell face on the boundary @p id: its
       * length in 2D, the square root of its area in 3D (the edge of a
       * square face); 0 without such faces (collective).
       */
      double
      largest_boundary_face_size(const types::boundary_id id) const;

      /**
       * The lumped mass m_i = int rho phi_i (Gauss-Lobatto) per unknown,
       * a constrained unknown's share added to its master's.
       */
      void
      lumped_mass(const double density, BodyVector &mass) const;

      /**
       * The lumped mass with the mass of the unknowns marked 1 in
       * @p massless (owned entries; its ghosts are set here) moved, cell by
       * cell, to the unknowns of the same component of the cell that are
       * not marked, in proportion to their own shares: the mass of each
       * cell and component is kept (Body/Contact/Mass at contact nodes =
       * redistributed). A cell whose unknowns of a component are all
       * marked is an InputError.
       */
      void
      redistributed_mass(const double density,
                         BodyVector  &massless,
                         BodyVector  &mass) const;

      /**
       * A_i = int_Gamma phi_i over the faces of boundary @p id
       * (Gauss-Lobatto), per unknown, shares of constrained unknowns added
       * to their masters.
       */
      void
      boundary_weights(const types::boundary_id id, BodyVector &weights) const;

      /** int_Omega phi_i (Gauss-Lobatto) per unknown. */
      void
      volume_weights(BodyVector &weights) const;

      /**
       * The load (f, phi_i) + (t, phi_i)_Gamma_N at time @p t, by Gauss
       * quadrature (a null @p body_force: none).
       */
      void
      assemble_load(const Function<dim>              *body_force,
                    const std::vector<Traction<dim>> &tractions,
                    const double                      t,
                    BodyVector                       &load) const;

      /**
       * The owned, unconstrained nodes: all of them, or (@p boundary) those
       * on the faces of that boundary id; with their support points if
       * @p with_points (else the points are not set: faster).
       */
      std::vector<Node<dim>>
      nodes(const std::optional<types::boundary_id> boundary    = {},
            const bool                              with_points = true) const;

      /** The support point and component of each owned unknown. */
      std::vector<double>
      owned_locations() const;

      /** u_i = f(x_i) at every owned unknown, constrained ones from their
       * masters. */
      void
      interpolate(const Function<dim> &function, BodyVector &values) const;

      /**
       * Bytes this rank holds for the mesh, the DoFs and constraints, and
       * the matrix-free operator, in that order.
       */
      std::array<std::size_t, 3>
      memory_consumption() const;

    private:
      /** Periodic constraints (and nothing else: no hanging nodes). */
      void
      make_constraints(const BodyParameters &parameters);

      const MPI_Comm                                             comm;
      std::unique_ptr<parallel::distributed::Triangulation<dim>> triangulation;
      const FESystem<dim>                                        finite_element;
      DoFHandler<dim>                                            dofs;
      AffineConstraints<double>               periodic_constraints;
      std::unique_ptr<StiffnessOperator<dim>> elastic_operator;
      std::string                             automatic_choice;
      const unsigned int                      degree;
    };
  } // namespace Body
} // namespace stickslip

#endif
