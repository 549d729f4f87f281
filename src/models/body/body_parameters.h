#ifndef stickslip_models_body_body_parameters_h
#define stickslip_models_body_body_parameters_h

#include <base/global.h>
#include <base/input_error.h>
#include <base/tracked_parameter_handler.h>
#include <friction/contact_node.h>
#include <friction/friction_law.h>

#include <limits>
#include <string>
#include <vector>

namespace stickslip
{
  /**
   * The parameters of Model = body: an elastic body in frictional contact
   * with a rigid foundation (doc/body.md; the 2D/3D finite-element form of
   * Renard's slab, Renard 2001). One struct per subsection, each with
   * declare_parameters() and parse(); parse() checks every value that needs
   * neither the mesh nor MPI and throws an InputError naming the parameter.
   * Expressions are kept as text, dim components separated by ';', in the
   * variables "x,y,t" (2D) or "x,y,z,t" (3D).
   */
  namespace Body
  {
    /** Where the coarse mesh comes from (Body/Mesh). */
    enum class MeshKind
    {
      block, ///< a rectangle (2D) or box (3D) of subdivided cells
      file   ///< a gmsh file
    };

    /** How K u is computed (Body/Stiffness operator). */
    enum class StiffnessKind
    {
      assembled,       ///< a sparse matrix of the linear-algebra backend
      matrix_free,     ///< deal.II's MatrixFree cell loop
      element_kernels, ///< one dense element matrix per cell shape
      /**
       * auto: chosen by BodyDiscretization once the mesh is known
       * (choose_stiffness_operator(): the element kernels on meshes with
       * few distinct cell shapes).
       */
      automatic
    };

    /** What the contact boundary touches (Body/Contact/Counterpart). */
    enum class Counterpart
    {
      rigid_plane, ///< the rigid foundation: gap g0 - u.n, slip v_T - v_*
      /**
       * An identical body mirrored in the contact plane, loaded
       * symmetrically in n and antisymmetrically in the plane: gap
       * g0 - 2 u.n, slip 2 v_T (doc/body.md, "The mirror counterpart").
       */
      mirror
    };

    /** How the body steps in time (Body/Time scheme). */
    enum class TimeScheme
    {
      explicit_central, ///< central differences, lumped mass (the default)
      implicit_newmark, ///< Newmark average acceleration, contact at t^{n+1}
      /** No inertia: K u = f + R at each load step (doc/theory.md §7.8). */
      quasi_static
    };

    /**
     * The subsection Body/Linear solver: the solves of the implicit scheme
     * (K + 4/dt^2 M by conjugate gradients with algebraic multigrid) and its
     * active-set iterations.
     */
    /** Body/Linear solver/Preconditioner of the implicit step's CG. */
    enum class ImplicitPreconditioner
    {
      automatic, ///< direct on one rank up to Direct size limit unknowns
      multigrid, ///< smoothed aggregation with the rigid-body modes
      direct     ///< the sparse Cholesky factor of K + c0 M
    };

    struct ImplicitSolverParameters
    {
      ImplicitPreconditioner preconditioner;
      unsigned int           direct_size_limit; ///< of automatic
      double                 tolerance;         ///< relative CG residual
      unsigned int           max_iterations;    ///< of one CG solve
      unsigned int           max_active_set_iterations; ///< of one step
      /** Iteration from which one flag changes at a time (0: on cycling). */
      unsigned int one_change_from;
      double       friction_tolerance; ///< of the slip forces' fixed point
      /** kappa: c = kappa (K + c0 M)_ii of Coulomb's stick rule; 0: the limit.
       */
      double complementarity_constant;

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
    };

    /**
     * The subsection Body/Adaptive time steps of the implicit and
     * quasi-static schemes (doc/body.md): substeps h = dt/2^l of the grid
     * step dt, halved where the active set does not settle or a substep
     * changes too many contact or stick flags, doubled after calm
     * substeps.
     */
    struct AdaptiveStepParameters
    {
      bool         enabled;           ///< false: one step per grid step
      double       minimum_time_step; ///< the smallest substep [s]
      unsigned int max_changes;       ///< contact + stick flags per substep
      unsigned int calm_steps;        ///< before the substep doubles

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler &prm, const ParameterSource &source);
      /**
       * At most this many halvings of the grid step: the substeps are
       * counted in units of dt/2^max_level in 64-bit integers, and a double
       * time t resolves about t/2^52, so deeper cuts would not move t.
       */
      static constexpr unsigned int max_level = 40;

      /** The largest l <= max_level with dt/2^l >= Minimum time step (0 if
       * none). */
      unsigned int
      finest_level(const double grid_step) const;

      /**
       * InputError naming Minimum time step when it is below @p grid_step
       * (Time/Time step)/2^max_level, with the smallest value allowed:
       * the cuts could not reach it (a cap that would be silent otherwise).
       */
      void
      check_depth(const double grid_step, const ParameterSource &source) const;
    };

    /**
     * The subsection Body/Pull spring of the implicit and quasi-static
     * schemes (doc/body.md, doc/theory.md §7.13): a soft spring of total
     * stiffness k between a driver at X(t) along one axis and the N nodes
     * of a boundary, k/N at each: the force (k/N) (X(t) - (u_i - u_i(t0)))
     * on the node's unknown along the axis. Diagonal, it enters K of the
     * implicit step.
     */
    struct PullSpringParameters
    {
      bool               enabled;     ///< a boundary id was given
      types::boundary_id boundary_id; ///< of the pulled face
      double             stiffness;   ///< k [N/m] (per unit length in 2D)
      unsigned int       axis;        ///< 0: x, 1: y, 2: z
      std::string        driver;      ///< X(t) [m], 0 at the initial time

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler      &prm,
            const unsigned int     dimension,
            const ParameterSource &source);
    };

    /** A pair of boundaries identified periodically, in one direction. */
    struct PeriodicPair
    {
      types::boundary_id first;     ///< the boundary at the lower coordinate
      types::boundary_id second;    ///< the one it is identified with
      unsigned int       direction; ///< 0: x, 1: y, 2: z
    };

    /** The subsection Body/Displacement k: u = u_D(x, t) on some components. */
    struct DisplacementCondition
    {
      std::vector<types::boundary_id> boundary_ids; ///< empty: not used
      std::vector<bool>               components;   ///< which are prescribed
      std::string                     value;        ///< dim expressions
      std::string                     path;         ///< "Body/Displacement k"

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler      &prm,
            const std::string     &path,
            const unsigned int     dimension,
            const ParameterSource &source);
    };

    /** The subsection Body/Traction k: sigma n = t(x, t). */
    struct TractionCondition
    {
      std::vector<types::boundary_id> boundary_ids; ///< empty: not used
      std::string                     value;        ///< dim expressions [Pa]
      std::string                     path;         ///< "Body/Traction k"

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler      &prm,
            const std::string     &path,
            const ParameterSource &source);
    };

    /**
     * The subsection Body/Contact: the contact boundary Gamma_C against a
     * rigid foundation, the normal law and the slip-rate dependent Coulomb
     * friction of Renard 2001, eqs. (3)-(15), (29), (37), generalized in
     * doc/body.md.
     */
    struct ContactParameters
    {
      bool               enabled;     ///< Boundary id is not "none"
      types::boundary_id boundary_id; ///< of Gamma_C
      std::vector<double>
        normal; ///< unit outward normal n of the body on Gamma_C
      /**
       * Normal = auto: normal is computed from the faces of Gamma_C when
       * the mesh exists (set_contact_normal()); until then -e_y (2D),
       * -e_z (3D).
       */
      bool             normal_from_mesh = false;
      std::string      initial_gap;         ///< g0(x) >= 0: u.n - g0 <= 0
      std::string      foundation_velocity; ///< v_*(t), dim expressions
      NormalContactLaw normal_law;          ///< unused with prescribed_traction
      /**
       * Contact law = prescribed traction: the normal traction is
       * Normal traction, the contact never opens (a fault; mirror only).
       */
      bool        prescribed_traction;
      std::string normal_traction; ///< S_p(x, t) >= 0 [Pa], one expression
      Counterpart counterpart;
      double      compliance;   ///< eta [m/Pa] of (37)
      double      surface_mass; ///< epsilon [kg/m^2] of (29)
      /**
       * Mass at contact nodes = redistributed: the contact nodes carry no
       * normal mass (doc/body.md, "Mass at the contact nodes"); false:
       * the lumped mass (the default).
       */
      bool redistributed_mass;
      /** Body/Contact/Friction law: mu of every contact node. */
      Parameters::FrictionLaw friction;
      /**
       * Friction from time t_f: the implicit and quasi-static steps ending
       * at t^{n+1} <= t_f are frictionless (-infinity: "none", friction at
       * every step).
       */
      double friction_from_time = -std::numeric_limits<double>::infinity();

      static void
      declare_parameters(ParameterHandler &prm);
      void
      parse(ParameterHandler      &prm,
            const unsigned int     dimension,
            const ParameterSource &source);

      /**
       * The law of the contact nodes of the finite-element body, with the
       * friction law @p friction (that of every node, or a stand-in when
       * the nodes have their own).
       */
      ContactLaw
      contact_law(const FrictionLaw &friction) const;

    private:
      /**
       * Contact law = prescribed traction needs Counterpart = mirror and the
       * lumped mass; mirror needs Foundation velocity = 0 (InputErrors).
       */
      void
      check_counterpart(const ParameterSource &source) const;
      /** Friction from time: none or a finite number (an InputError). */
      void
      parse_friction_from_time(const std::string     &text,
                               const ParameterSource &source);
    };

    /** The subsection Body: geometry, material, element and data. */
    struct BodyParameters
    {
      unsigned int dimension; ///< 2 (plane strain) or 3

      // Mesh.
      MeshKind            mesh;
      std::vector<double> size; ///< of the block
      std::vector<unsigned int>
                   subdivisions; ///< cells of the block per direction
      std::string  mesh_file;
      unsigned int global_refinements;
      std::vector<PeriodicPair> periodic_pairs;

      // Material (SI units).
      double density;       ///< rho [kg/m^3]
      double lambda;        ///< Lame lambda [Pa]
      double shear_modulus; ///< G [Pa]

      unsigned int  degree;    ///< p of FE_Q(p)^dim
      StiffnessKind stiffness; ///< automatic: resolved on the mesh

      /** f(x, t), u0(x), u1(x): dim expressions; g(x): one. */
      std::string body_force, initial_displacement, initial_velocity;
      std::string distributed_friction;

      std::vector<DisplacementCondition> displacements;
      std::vector<TractionCondition>     tractions;
      ContactParameters                  contact;

      TimeScheme time_scheme;
      /**
       * rho_inf of the generalized-alpha method (Body/Spectral radius at
       * infinity; implicit scheme only): 1 is Newmark's average
       * acceleration.
       */
      double                   spectral_radius;
      ImplicitSolverParameters linear_solver; ///< implicit scheme only
      AdaptiveStepParameters   adaptive;      ///< implicit scheme only
      PullSpringParameters     pull_spring;   ///< implicit scheme only

      /** Time scheme = implicit or quasi-static (ImplicitStep). */
      bool
      solves_implicitly() const
      {
        return time_scheme != TimeScheme::explicit_central;
      }

      /** The slots Body/Displacement 1..n and Body/Traction 1..n. */
      static constexpr unsigned int n_displacement_slots = 3;
      static constexpr unsigned int n_traction_slots     = 2;

      static void
      declare_parameters(ParameterHandler &prm);

      /** Read the subsection for a body of dimension @p dimension. */
      void
      parse(ParameterHandler      &prm,
            const ParameterSource &source,
            const unsigned int     dimension);

      /** "x,y,t" or "x,y,z,t". */
      std::string
      variables() const;

      /** "x,y" or "x,y,z". */
      std::string
      coordinates() const;

      /** Shear wave speed c1 = sqrt(G/rho). */
      double
      c1() const;

      /** Longitudinal (pressure) wave speed c2 = sqrt((lambda + 2G)/rho). */
      double
      c2() const;

      /** Whether distributed friction is on (its expression is not "0"). */
      bool
      has_distributed_friction() const;

      /**
       * Body/Contact/Normal = auto: the unit normal @p normal found from
       * the mesh replaces the provisional one, and the checks that depend
       * on the normal (a coordinate axis for the implicit schemes and the
       * redistributed mass) are made again, naming the normal found.
       */
      void
      set_contact_normal(const std::vector<double> &normal,
                         const ParameterSource     &source);

    private:
      void
      parse_mesh(ParameterHandler &prm, const ParameterSource &source);

      void
      parse_material(ParameterHandler &prm, const ParameterSource &source);

      /** Body/Spectral radius at infinity, after Time scheme. */
      void
      parse_spectral_radius(ParameterHandler      &prm,
                            const ParameterSource &source);

      /** What the implicit scheme does not support yet: InputErrors. */
      void
      check_implicit(const ParameterSource &source) const;

      void
      parse_periodic_pairs(const std::string     &text,
                           const ParameterSource &source);
    };

    /**
     * Boundary ids from the comma-separated list @p text of parameter
     * @p path (non-negative integers; empty: none).
     */
    std::vector<types::boundary_id>
    parse_boundary_ids(const std::string     &text,
                       const std::string     &path,
                       const ParameterSource &source);
  } // namespace Body
} // namespace stickslip

#endif
